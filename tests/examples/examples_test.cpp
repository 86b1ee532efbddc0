// The bundled example files are what examples/build_scene.cpp writes: regenerating them gives
// the committed bytes, and each reads back without warnings.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <cstdlib>

#include "../test_support.hpp"

namespace castkit::test {
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

TEST(Examples, BuildSceneRegeneratesTheBundledFilesByteForByte) {
    auto dir = temp_dir("examples-regenerate");
    std::string command = std::string("\"") + CASTKIT_BUILD_SCENE + "\" \"" + dir.string() +
                          "\" > \"" + (dir / "build_scene.out").string() + "\"";
    ASSERT_EQ(run_shell(command), 0);
    std::filesystem::remove(dir / "build_scene.out");
    auto generated = cast_files(dir);
    EXPECT_EQ(generated, (std::vector<std::string>{"character.cast", "scene.cast", "wave.cast"}));
    EXPECT_EQ(cast_files(bundled()), generated);
    for (const std::string& name : generated)
        EXPECT_EQ(read_bytes(dir / name), read_bytes(bundled() / name))
            << name
            << " differs: rerun build/examples/castkit_build_scene and commit examples/data";
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
}  // namespace castkit::test
