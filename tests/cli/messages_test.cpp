// Messages that say what is true (issue 62, item 3) and `info` as useful as assimp's and
// gltf-transform's (item 4), through the real command line: a root bone's parent, values a
// Metadata holds, a file of no format castkit reads, castkit's own properties, bounds and
// `info --json`.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"

namespace castkit::test::messages_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path examples() { return fs::path(CASTKIT_SOURCE_DIR) / "examples"; }
fs::path hero(const std::string& name) { return examples() / "data" / "hero" / name; }

// ---- dump: a root bone's parent ----------------------------------------------------------------

TEST(Messages, DumpPrintsARootBonesParentAsMinusOne) {
    const CommandResult text = run_cli("dump " + quoted(hero("hero.cast")));
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_EQ(text.out.find("4294967295"), std::string::npos);
    EXPECT_NE(text.out.find("  p (i x 1) = -1\n"), std::string::npos) << text.out.substr(0, 2000);
    const CommandResult dumped = run_cli("dump --json " + quoted(hero("hero.cast")));
    ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
    // The first bone of the skeleton is the root; its children name it as 0.
    std::vector<std::int64_t> parents;
    std::function<void(const json&)> walk = [&](const json& node) {
        if (node["id"] == "bone")
            for (const json& p : node["properties"])
                if (p["name"] == "p") parents.push_back(p["values"][0].get<std::int64_t>());
        for (const json& child : node["children"]) walk(child);
    };
    const json tree = json::parse(dumped.out);
    for (const json& root : tree["roots"]) walk(root);
    ASSERT_EQ(parents.size(), 21u);
    EXPECT_EQ(parents[0], -1);
    for (std::size_t i = 1; i < parents.size(); ++i) EXPECT_GE(parents[i], 0) << i;
}

// ---- info: only the values present -------------------------------------------------------------

TEST(Messages, InfoNamesOnlyTheMetadataValuesPresent) {
    const fs::path dir = temp_dir("messages-metadata");
    cast::Document document;
    cast::Root root = document.add_root();
    root.add_metadata().set_up_axis(cast::Axis::Z);
    root.add_model().set_name("empty");
    ASSERT_TRUE(cast::write(document, dir / "up.cast"));
    const CommandResult result = run_cli("info " + quoted(dir / "up.cast"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("  metadata: up 'z'\n"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("(unnamed)"), std::string::npos) << result.out;
}

// ---- a file of no format castkit reads -------------------------------------------------------

// The "castkit reads: …" or "castkit writes: …" line of `text`.
std::string listed(const std::string& text, const std::string& what) {
    const std::size_t at = text.find("castkit " + what + ": ");
    if (at == std::string::npos) return {};
    return text.substr(at, text.find('\n', at) - at);
}

// Every registered format that reads (or writes), each with its first extension, is on the line.
void expect_every_format(const std::string& line, bool writes) {
    for (const FormatInfo& format : all_formats()) {
        const bool does = writes ? format.write != nullptr : format.read != nullptr;
        const std::string entry = fmt::format("{} ({}", format.name, format.extensions.front());
        EXPECT_EQ(line.find(entry) != std::string::npos, does) << entry << " in " << line;
    }
}

TEST(Messages, InfoOfAnImageSaysWhatItIsAndWhatCastkitReads) {
    const CommandResult result = run_cli("info " + quoted(hero("hero_albedo.png")));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("hero_albedo.png: a PNG image: castkit reads no scene from an image"),
              std::string::npos)
        << result.err;
    expect_every_format(listed(result.err, "reads"), false);
    expect_every_format(listed(result.err, "writes"), true);
}

TEST(Messages, AnUnknownFormatListsTheFormatsCastkitReadsAndWrites) {
    const fs::path dir = temp_dir("messages-unknown-format");
    write_bytes(dir / "x.abc", {std::byte{'a'}, std::byte{'b'}, std::byte{'c'}});
    const CommandResult in = run_cli(in_dir(dir, "convert {x.abc} {out.glb}"));
    EXPECT_EQ(in.exit_code, 2);
    EXPECT_NE(in.err.find("x.abc: cannot tell the format from the extension or the contents"),
              std::string::npos)
        << in.err;
    expect_every_format(listed(in.err, "reads"), false);
    expect_every_format(listed(in.err, "writes"), true);
    const CommandResult out =
        run_cli(fmt::format("convert {} {}", quoted(hero("hero.cast")), quoted(dir / "out.abc")));
    EXPECT_EQ(out.exit_code, 2);
    EXPECT_NE(out.err.find("out.abc: cannot tell the format from the extension; use --to"),
              std::string::npos)
        << out.err;
    expect_every_format(listed(out.err, "writes"), true);
    EXPECT_FALSE(fs::exists(dir / "out.glb"));
    EXPECT_FALSE(fs::exists(dir / "out.abc"));
}

// ---- castkit's own properties ------------------------------------------------------------------

TEST(Messages, ValidateDoesNotFlagWhatCastkitWritesItself) {
    for (const char* name : {"hero_walk.seanim", "hero_idle.seanim", "hero.semodel", "hero.k3d"}) {
        SCOPED_TRACE(name);
        const CommandResult result = run_cli("validate " + quoted(hero(name)));
        EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
        EXPECT_EQ(result.out.find("se."), std::string::npos) << result.out;
        EXPECT_EQ(result.out.find("k3d."), std::string::npos) << result.out;
        EXPECT_NE(result.out.find(", 0 info"), std::string::npos) << result.out;
    }
}

TEST(Messages, AnUnknownPropertyInCastkitsNamespaceHasItsOwnId) {
    const fs::path dir = temp_dir("messages-own-properties");
    Diagnostics warnings;
    auto document = formats::read_file(*format_by_name("seanim"), hero("hero_walk.seanim"),
                                       formats::context_for(hero("hero_walk.seanim")), warnings);
    ASSERT_TRUE(document) << document.error().to_string();
    cast::Node& animation = document->animations().front().node();
    animation.set(cast::make_value<float>("se.type", 1.0f));  // castkit writes a b
    animation.set(cast::make_value<std::uint8_t>("se.tpye", std::uint8_t{1}));
    animation.set(cast::make_value<std::uint8_t>("zz", std::uint8_t{1}));
    ASSERT_TRUE(cast::write(*document, dir / "walk.cast"));
    const CommandResult result = run_cli("validate --json " + quoted(dir / "walk.cast"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::string> ids;
    const json report = json::parse(result.out);
    for (const json& d : report["files"][0]["diagnostics"]) ids.push_back(d["rule"]);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(
        ids, (std::vector<std::string>{"property.castkit", "property.castkit", "property.unknown"}))
        << result.out;
}

// ---- info: bounds, and --json ------------------------------------------------------------------

// The numbers of every "(x, y, z)" in `text`, in order.
std::vector<float> points(const std::string& text) {
    std::vector<float> numbers;
    const std::regex point(R"(\(([-0-9.e+]+), ([-0-9.e+]+), ([-0-9.e+]+)\))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), point);
         it != std::sregex_iterator(); ++it)
        for (int i = 1; i <= 3; ++i) numbers.push_back(std::stof((*it)[i]));
    return numbers;
}

// The line of `text` that starts with `start`.
std::string line_starting(const std::string& text, const std::string& start) {
    const std::size_t at = text.find("\n" + start);
    if (at == std::string::npos) return {};
    return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

// The box of every mesh position of the file's Models (the bundled hero's Model has no
// placement of its own), read through the library.
std::pair<glm::vec3, glm::vec3> position_box(const fs::path& path) {
    Diagnostics warnings;
    auto document =
        formats::read_file(*format_for_path(path), path, formats::context_for(path), warnings);
    glm::vec3 low(INFINITY), high(-INFINITY);
    for (const cast::ConstModel& model : std::as_const(*document).models()) {
        EXPECT_FALSE(model.position() || model.rotation() || model.scale());
        for (const cast::ConstMesh& mesh : model.meshes())
            for (std::size_t i = 0; i < mesh.positions().size(); ++i) {
                low = glm::min(low, mesh.positions()[i]);
                high = glm::max(high, mesh.positions()[i]);
            }
    }
    return {low, high};
}

TEST(Messages, InfoGivesTheBoundsOfEachModelAndTheScene) {
    const CommandResult result = run_cli("info " + quoted(hero("hero.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto [low, high] = position_box(hero("hero.cast"));
    const std::string scene = line_starting(result.out, "bounds ");
    EXPECT_NE(scene.find("; +Y up (its Metadata), "), std::string::npos) << scene;
    const std::vector<float> numbers = points(scene);
    ASSERT_EQ(numbers.size(), 9u) << scene;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(numbers[i], low[i]) << scene;
        EXPECT_EQ(numbers[3 + i], high[i]) << scene;
        EXPECT_EQ(numbers[6 + i], high[i] - low[i]) << scene;
    }
    EXPECT_EQ(points(line_starting(result.out, "  model ")), numbers) << result.out;
    // glTF defines its axes and units, and the bounds say so.
    const CommandResult glb = run_cli("info " + quoted(hero("hero.glb")));
    ASSERT_EQ(glb.exit_code, 0) << glb.err;
    EXPECT_NE(
        line_starting(glb.out, "bounds ").find("+Y up (as glb defines), units m (as glb defines)"),
        std::string::npos)
        << glb.out;
}

TEST(Messages, AMapsBoundsCoverItsPlacedInstances) {
    const CommandResult result = run_cli("info " + quoted(examples() / "map" / "map.cast"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::vector<float> scene = points(line_starting(result.out, "bounds "));
    ASSERT_EQ(scene.size(), 9u) << result.out;
    // Every instance position a "file" line gives lies in the scene's box.
    std::istringstream lines(result.out);
    std::size_t files = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("  file ", 0) != 0) continue;
        ++files;
        const std::vector<float> positions = points(line);
        ASSERT_EQ(positions.size(), 6u) << line;
        for (int i = 0; i < 3; ++i) {
            EXPECT_LE(scene[i], positions[i]) << line;
            EXPECT_GE(scene[3 + i], positions[3 + i]) << line;
        }
    }
    EXPECT_GT(files, 0u) << result.out;
}

// A JSON box as the text prints it: min, max, size.
std::vector<float> box_numbers(const json& box) {
    std::vector<float> numbers;
    for (const char* corner : {"min", "max", "size"})
        for (const json& value : box[corner]) numbers.push_back(value.get<float>());
    return numbers;
}

TEST(Messages, InfoJsonHoldsWhatTheTextSays) {
    const std::vector<fs::path> files = {hero("hero.cast"), hero("hero.glb"),
                                         hero("hero_walk.seanim"), examples() / "map" / "map.cast",
                                         examples() / "data" / "scene.cast"};
    std::string arguments;
    for (const fs::path& file : files) arguments += " " + quoted(file);
    const CommandResult text = run_cli("info" + arguments);
    const CommandResult json_result = run_cli("info --json" + arguments);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    ASSERT_EQ(json_result.exit_code, 0) << json_result.err;
    const json parsed = json::parse(json_result.out);
    ASSERT_EQ(parsed["files"].size(), files.size());
    // The text of each file starts at its "NAME: " line.
    for (std::size_t f = 0; f < files.size(); ++f) {
        const json& file = parsed["files"][f];
        SCOPED_TRACE(file["file"].get<std::string>());
        const std::size_t start = text.out.find(file["file"].get<std::string>() + ": ");
        ASSERT_NE(start, std::string::npos);
        const std::size_t end =
            f + 1 < files.size()
                ? text.out.find(parsed["files"][f + 1]["file"].get<std::string>() + ": ")
                : text.out.size();
        const std::string own = "\n" + text.out.substr(start, end - start);
        const std::string bounds = line_starting(own, "bounds ");
        if (file["bounds"].is_null()) {
            EXPECT_EQ(bounds, "");
        } else {
            EXPECT_EQ(points(bounds), box_numbers(file["bounds"])) << bounds;
            const std::string up = file["up"];
            EXPECT_NE(bounds.find(fmt::format("+{} up", static_cast<char>(std::toupper(up[0])))),
                      std::string::npos);
        }
        std::size_t models = 0, animations = 0, instances = 0;
        std::istringstream lines(own);
        std::vector<std::string> model_lines, file_lines;
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("  model ", 0) == 0) model_lines.push_back(line);
            if (line.rfind("  file ", 0) == 0) file_lines.push_back(line);
            animations += line.rfind("  animation ", 0) == 0;
        }
        for (const json& root : file["roots"]) {
            for (const json& model : root["models"]) {
                ASSERT_LT(models, model_lines.size());
                const std::string& line = model_lines[models++];
                EXPECT_EQ(points(line), model["bounds"].is_null() ? std::vector<float>{}
                                                                  : box_numbers(model["bounds"]))
                    << line;
                EXPECT_NE(line.find(fmt::format(": {} mesh", model["meshes"].size())),
                          std::string::npos)
                    << line;
            }
            for (const json& placed : root["instance_files"]) {
                ASSERT_LT(instances, file_lines.size());
                const std::string& line = file_lines[instances++];
                EXPECT_NE(
                    line.find(fmt::format("'{}': {} instance", placed["file"].get<std::string>(),
                                          placed["instances"].get<std::size_t>())),
                    std::string::npos)
                    << line;
                std::vector<float> box = box_numbers(placed["positions"]);
                box.resize(6);  // the text gives the positions' corners
                EXPECT_EQ(points(line), box) << line;
            }
            animations -= root["animations"].size();
        }
        EXPECT_EQ(models, model_lines.size());
        EXPECT_EQ(instances, file_lines.size());
        EXPECT_EQ(animations, 0u);
    }
}

}  // namespace
}  // namespace castkit::test::messages_test
