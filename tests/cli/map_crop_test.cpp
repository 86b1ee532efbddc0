// Maps too large for a DCC (issue 59, item 4): `castkit convert --within/--box/--include/
// --exclude` keeps the Instances asked for, through the real command line, for one file and a
// folder; mistakes in the options are usage errors said in words; `castkit info` summarises a
// map by referenced file, `--all` listing every instance.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <set>

#include "../test_support.hpp"

namespace castkit::test::map_crop_test {
namespace {

namespace fs = std::filesystem;

void write_model(const fs::path& path, const std::string& name) {
    fs::create_directories(path.parent_path());
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    model.set_name(name);
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    ASSERT_TRUE(cast::write(document, path));
}

// A 10 × 10 grid of Instances 100 apart from the origin, on z = 0: "rock_NN" of
// models/rock.cast where x + y is even (by the grid's steps), else "tree_NN" of
// models/tree.cast, as a ripper writes a map (Z up, scene root ".").
fs::path write_map(const fs::path& dir) {
    write_model(dir / "models/rock.cast", "rock");
    write_model(dir / "models/tree.cast", "tree");
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Metadata metadata = root.add_metadata();
    metadata.set_up_axis(cast::Axis::Z);
    metadata.set_scene_root(".");
    for (int i = 0; i < 100; ++i) {
        const int x = i % 10, y = i / 10;
        const std::string model = (x + y) % 2 == 0 ? "rock" : "tree";
        cast::Instance instance = root.add_instance();
        instance.set_name(fmt::format("{}_{:02}", model, i));
        instance.set_reference_file(instance.add_file("models/" + model + ".cast"));
        instance.set_position({100.0f * x, 100.0f * y, 0});
    }
    const fs::path path = dir / "map.cast";
    EXPECT_TRUE(cast::write(document, path));
    return path;
}

std::string quoted(const fs::path& path) { return "\"" + path.string() + "\""; }

// The names of the Instances in the Cast file at `path`, sorted.
std::vector<std::string> instance_names(const fs::path& path) {
    std::vector<std::string> names;
    auto document = open_cast(path);
    EXPECT_TRUE(document) << path;
    if (!document) return names;
    for (const cast::ConstRoot& root : document->root_nodes())
        for (const cast::ConstInstance& instance : root.instances())
            names.emplace_back(instance.name().value_or("?"));
    std::sort(names.begin(), names.end());
    return names;
}

using Names = std::vector<std::string>;

struct Cropped {
    CommandResult result;
    Names kept;
};

// `options` quote their globs with double quotes, which sh and cmd.exe both take.
Cropped crop(const fs::path& map, const std::string& options) {
    const fs::path out = map.parent_path() / "out.cast";
    fs::remove(out);
    CommandResult result =
        run_cli(fmt::format("convert {} {} {}", quoted(map), quoted(out), options));
    fmt::print("[figures] convert {}: exit {}\n{}", options, result.exit_code, result.err);
    return {result, fs::exists(out) ? instance_names(out) : Names{}};
}

TEST(MapCrop, WithinKeepsTheInstancesInTheSphereAndSaysHowMany) {
    const fs::path map = write_map(temp_dir("map-crop-within"));
    // x² + y² ≤ 150²: (0,0), (100,0), (0,100), (100,100) at 141.4; (200,0) is past it.
    const Cropped cropped = crop(map, "--within 0,0,0,150");
    ASSERT_EQ(cropped.result.exit_code, 0) << cropped.result.err;
    EXPECT_EQ(cropped.kept, (Names{"rock_00", "rock_11", "tree_01", "tree_10"}));
    EXPECT_NE(cropped.result.err.find(
                  "info: kept 4 of 100 instances, removed 96 [scene.instances-selected]"),
              std::string::npos)
        << cropped.result.err;
    // A centre with negative coordinates, given with '=' as any option value can be.
    const Cropped far = crop(map, "--within=-100,900,0,100");
    ASSERT_EQ(far.result.exit_code, 0) << far.result.err;
    EXPECT_EQ(far.kept, (Names{"tree_90"}));
}

TEST(MapCrop, BoxAndGlobsCombine) {
    const fs::path map = write_map(temp_dir("map-crop-box"));
    // The bottom row's first three, faces included.
    EXPECT_EQ(crop(map, "--box 0,0,0,200,0,0").kept, (Names{"rock_00", "rock_02", "tree_01"}));
    // Globs on the model's file stem ("tree") and on the instance's own name, any case.
    EXPECT_EQ(crop(map, "--box 0,0,0,300,0,0 --include TREE").kept, (Names{"tree_01", "tree_03"}));
    EXPECT_EQ(crop(map, "--box 0,0,0,300,100,0 --exclude \"rock\" --exclude \"tree_1?\"").kept,
              (Names{"tree_01", "tree_03"}));
    EXPECT_EQ(crop(map, "--include \"rock_0[0-4]\" --include \"tree_99\"").kept,
              (Names{"rock_00", "rock_02", "rock_04"}));
}

TEST(MapCrop, ASelectionThatKeepsNothingWarns) {
    const fs::path map = write_map(temp_dir("map-crop-nothing"));
    // Metres given for a map in centimetres: nothing lies within 9 of (50, 50).
    const Cropped cropped = crop(map, "--within 50,50,0,9");
    ASSERT_EQ(cropped.result.exit_code, 0) << cropped.result.err;
    EXPECT_TRUE(cropped.kept.empty());
    EXPECT_NE(cropped.result.err.find("[scene.nothing-selected]"), std::string::npos)
        << cropped.result.err;
}

TEST(MapCrop, MistakesInTheOptionsAreUsageErrorsSaidInWords) {
    const fs::path map = write_map(temp_dir("map-crop-mistakes"));
    const std::pair<std::string, std::string> mistakes[] = {
        {"--within 1,2,3", "--within takes X,Y,Z,R (4 numbers, commas between), not '1,2,3'"},
        {"--within 1,2,3,x", "not '1,2,3,x'"},
        {"--box 0,0,0,1,1", "--box takes X0,Y0,Z0,X1,Y1,Z1 (6 numbers"},
        {"--within 0,0,0,-5", "--within: the radius -5 is negative"},
        {"--within 0,0,0,inf", "--within: the radius is not a finite number"},
        {"--box 0,0,0,-1,1,1", "--box: the minimum 0 on x exceeds the maximum -1"},
        {"--include \"[ab\"", "--include: the glob '[ab' opens a set with '[' that no ']' closes"},
        {"--exclude \"\"", "--exclude: an empty glob matches no name"},
    };
    for (const auto& [options, words] : mistakes) {
        const Cropped cropped = crop(map, options);
        EXPECT_EQ(cropped.result.exit_code, 2) << options;
        EXPECT_NE(cropped.result.err.find(words), std::string::npos)
            << options << ": " << cropped.result.err;
        EXPECT_FALSE(fs::exists(map.parent_path() / "out.cast")) << options;
    }
}

TEST(MapCrop, AFolderConvertsEachMapCropped) {
    const fs::path dir = temp_dir("map-crop-folder");
    write_map(dir / "maps");
    const CommandResult result = run_cli(
        fmt::format("convert {} -o {} --to cast -r -q --box 0,0,0,100,100,0 --exclude \"tree_10\"",
                    quoted(dir / "maps"), quoted(dir / "out")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(instance_names(dir / "out/map.cast"), (Names{"rock_00", "rock_11", "tree_01"}));
    // The model files hold no Instances: converted as they are.
    EXPECT_TRUE(fs::exists(dir / "out/models/rock.cast"));
}

TEST(MapCrop, AModelWithItsAnimationsTakesTheOptionsAndKeepsItsModel) {
    const fs::path dir = temp_dir("map-crop-model");
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    const CommandResult result = run_cli(fmt::format(
        "convert {} {} -o {} --within 0,0,0,1 --exclude \"*\"", quoted(hero / "hero.semodel"),
        quoted(hero / "hero_walk.seanim"), quoted(dir / "hero.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // No Instance to keep or remove: nothing said, the model and its animation written.
    EXPECT_EQ(result.err.find("scene."), std::string::npos) << result.err;
    auto document = open_cast(dir / "hero.cast");
    ASSERT_TRUE(document);
    EXPECT_EQ(document->models().size(), 1u);
    EXPECT_EQ(document->animations().size(), 1u);
}

std::size_t lines_with(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++count;
    return count;
}

TEST(MapCrop, InfoSummarisesAMapByReferencedFile) {
    const fs::path map = write_map(temp_dir("map-crop-info"));
    const CommandResult summary = run_cli("info " + quoted(map));
    ASSERT_EQ(summary.exit_code, 0) << summary.err;
    EXPECT_NE(summary.out.find("root 0: 0 models, 0 animations, 100 instances\n"
                               "  metadata: up 'z', scene root '.'\n"
                               "  file 'models/rock.cast': 50 instances, positions (0, 0, 0) to "
                               "(900, 900, 0)\n"
                               "  file 'models/tree.cast': 50 instances, positions (0, 0, 0) to "
                               "(900, 900, 0)\n"),
              std::string::npos)
        << summary.out;
    EXPECT_EQ(lines_with(summary.out, "  instance "), 0u) << summary.out;
    // The scene's bounds cover the instances' positions.
    EXPECT_NE(summary.out.find("\nbounds (0, 0, 0) to (900, 900, 0), size (900, 900, 0); +Z up "
                               "(its Metadata), units not stated\n"),
              std::string::npos)
        << summary.out;
    EXPECT_EQ(lines_with(summary.out, "\n"), 6u) << summary.out;
    const CommandResult all = run_cli("info --all " + quoted(map));
    ASSERT_EQ(all.exit_code, 0) << all.err;
    EXPECT_EQ(lines_with(all.out, "  instance "), 100u);
    EXPECT_NE(all.out.find("  instance 'rock_99': file 'models/rock.cast'\n"), std::string::npos);
    // The summary of a cropped map: its bounds shrink with it.
    const fs::path out = map.parent_path() / "out.cast";
    ASSERT_EQ(crop(map, "--box 100,0,0,300,200,0 --include \"rock*\"").result.exit_code, 0);
    const CommandResult cropped = run_cli("info " + quoted(out));
    EXPECT_NE(cropped.out.find(
                  "  file 'models/rock.cast': 4 instances, positions (100, 0, 0) to (300, 200, "
                  "0)\n"),
              std::string::npos)
        << cropped.out;
}

}  // namespace
}  // namespace castkit::test::map_crop_test
