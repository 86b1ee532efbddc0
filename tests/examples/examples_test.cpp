// The bundled example files are what examples/build_scene.cpp writes: regenerating them gives
// the committed bytes, and each reads back without warnings. The example character's other
// formats (examples/data/hero, scripts/make_example.sh) are what the CLI converts its Cast files
// to, byte for byte, and read back without warnings too.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <cstdlib>
#include <fstream>

#include "../test_support.hpp"

namespace castkit::test::examples_test {
namespace {

std::filesystem::path bundled() {
    return std::filesystem::path(CASTKIT_SOURCE_DIR) / "examples" / "data";
}

std::vector<std::string> cast_files(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".cast") names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string quoted(const std::filesystem::path& path) {
    return fmt::format("\"{}\"", path.string());
}

std::string slurp_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// What build_scene writes into hero/: the character's Cast files and its texture.
const std::vector<std::string> kHeroSources = {
    "hero.cast",     "hero_albedo.png", "hero_idle.cast", "hero_walk.cast",
    "hero_rig.cast", "hero_step.cast",  "hero_lean.cast"};

TEST(Examples, BuildSceneRegeneratesTheBundledFilesByteForByte) {
    auto dir = temp_dir("examples-regenerate");
    const auto log = dir.parent_path() / (dir.filename().string() + "-build_scene.out");
    std::string command =
        std::string("\"") + CASTKIT_BUILD_SCENE + "\" " + quoted(dir) + " > " + quoted(log);
    ASSERT_EQ(run_shell(command), 0);
    auto generated = cast_files(dir);
    EXPECT_EQ(generated, (std::vector<std::string>{"character.cast", "scene.cast", "wave.cast"}));
    EXPECT_EQ(cast_files(bundled()), generated);
    for (const std::string& name : generated)
        EXPECT_EQ(read_bytes(dir / name), read_bytes(bundled() / name))
            << name
            << " differs: rerun build/examples/castkit_build_scene and commit examples/data";
    // Built without stb_image_write, the program leaves the texture out and says so.
    const bool png_left_out = slurp_text(log).find("left out hero_albedo.png") != std::string::npos;
    for (const std::string& name : kHeroSources) {
        if (name == "hero_albedo.png" && png_left_out) continue;
        EXPECT_EQ(read_bytes(dir / "hero" / name), read_bytes(bundled() / "hero" / name))
            << "hero/" << name
            << " differs: rerun scripts/make_example.sh and commit examples/data";
    }
}

// The example character in every format castkit writes: what scripts/make_example.sh runs.
struct Conversion {
    std::string arguments;  // after `castkit convert`, file names in the example's folder
    std::vector<std::string> outputs;
};
const std::vector<Conversion> kHeroConversions = {
    {"hero.cast hero_walk.cast hero_idle.cast -o hero.glb", {"hero.glb"}},
    {"hero.cast hero_walk.cast hero_idle.cast -o hero.gltf", {"hero.gltf", "hero.bin"}},
    {"hero.cast hero_walk.cast hero_idle.cast -o hero.dmf", {"hero.dmf"}},
    {"hero.cast hero_walk.cast hero_idle.cast -o hero.dmf.json", {"hero.dmf.json"}},
    {"hero.cast hero_walk.cast hero_idle.cast -o hero.k3d", {"hero.k3d"}},
    {"hero.cast hero.semodel", {"hero.semodel"}},
    {"hero_walk.cast hero_walk.seanim", {"hero_walk.seanim"}},
    {"hero_idle.cast hero_idle.seanim", {"hero_idle.seanim"}},
};

// The committed sources copied into a fresh folder, converted there with the CLI (absolute
// paths: the bytes do not depend on the working folder).
std::filesystem::path converted_hero(const std::string& name) {
    auto dir = temp_dir(name);
    for (const std::string& source : kHeroSources)
        std::filesystem::copy_file(bundled() / "hero" / source, dir / source);
    for (const Conversion& conversion : kHeroConversions) {
        std::string arguments;
        std::size_t at = 0;
        // Every word but -o is a file name.
        while (at < conversion.arguments.size()) {
            std::size_t end = conversion.arguments.find(' ', at);
            if (end == std::string::npos) end = conversion.arguments.size();
            const std::string word = conversion.arguments.substr(at, end - at);
            arguments += " " + (word == "-o" ? word : quoted(dir / word));
            at = end + 1;
        }
        CommandResult result = run_cli("convert" + arguments);
        EXPECT_EQ(result.exit_code, 0) << conversion.arguments << "\n" << result.err;
    }
    return dir;
}

TEST(Examples, HeroConversionsMatchTheCli) {
    const auto dir = converted_hero("examples-hero");
    std::vector<std::string> expected = kHeroSources;
    for (const Conversion& conversion : kHeroConversions)
        for (const std::string& output : conversion.outputs) {
            expected.push_back(output);
            EXPECT_EQ(read_bytes(dir / output), read_bytes(bundled() / "hero" / output))
                << "hero/" << output
                << " differs from what castkit convert writes: rerun scripts/make_example.sh";
        }
    // Nothing else in the folder: every committed file is one the script makes.
    std::vector<std::string> committed;
    for (const auto& entry : std::filesystem::directory_iterator(bundled() / "hero"))
        committed.push_back(entry.path().filename().string());
    std::sort(committed.begin(), committed.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(committed, expected);
}

// Each format reads back without a warning, holding what it can: the 21 bones, and the two
// animations where the format keeps animations next to a model.
TEST(Examples, HeroReadsBackFromEveryFormatWithoutWarnings) {
    const auto hero = bundled() / "hero";
    const auto unpacked = temp_dir("examples-hero-unpacked");
    struct Expect {
        std::string file;
        std::size_t bones, animations;
    };
    for (const Expect& e : std::vector<Expect>{{"hero.cast", 21, 0},
                                               {"hero.glb", 21, 2},
                                               {"hero.gltf", 21, 2},
                                               {"hero.dmf", 21, 2},
                                               {"hero.dmf.json", 21, 2},
                                               {"hero.k3d", 21, 2},
                                               {"hero.semodel", 21, 0},
                                               {"hero_walk.seanim", 0, 1},
                                               {"hero_idle.seanim", 0, 1}}) {
        const FormatInfo* format = format_for_path(hero / e.file);
        ASSERT_NE(format, nullptr) << e.file;
        // Images the glb and DMF files embed are unpacked into a folder of the test's own.
        FormatOptions options;
        options.side_files.folders = {unpacked};
        Context context = formats::context_for(hero / e.file, options);
        Diagnostics diagnostics;
        auto document = formats::read_file(*format, hero / e.file, context, diagnostics);
        ASSERT_TRUE(document) << e.file << ": " << document.error().to_string();
        std::string warnings;
        for (const Diagnostic& d : diagnostics) warnings += d.to_string() + "\n";
        EXPECT_EQ(warnings, "") << e.file;
        std::size_t bones = 0, animations = 0;
        for (const cast::ConstRoot& root : document->root_nodes()) {
            for (const cast::ConstModel& model : root.models())
                if (model.skeleton()) bones += model.skeleton().bones().size();
            animations += root.animations().size();
        }
        EXPECT_EQ(bones, e.bones) << e.file;
        EXPECT_EQ(animations, e.animations) << e.file;
    }
}

TEST(Examples, BundledFilesReadWithoutWarnings) {
    for (const std::string& name : cast_files(bundled())) {
        Diagnostics warnings;
        auto document = cast::open(bundled() / name, warnings);
        ASSERT_TRUE(document) << document.error().to_string();
        EXPECT_TRUE(warnings.empty()) << name;
        EXPECT_EQ(document->roots().size(), 1u);
    }
}

}  // namespace
}  // namespace castkit::test::examples_test
