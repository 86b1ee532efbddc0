// Issue 28 #3: a glTF's external textures named relative to the glTF's folder were copied
// verbatim into a .cast written elsewhere, which then named files that were not there. Now the
// images travel with the output (copied beside it, never over a user's file) or are referenced
// where they are, through the real command line.
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <fstream>

#include "../formats/cli_command.hpp"
#include "gltf_scene.hpp"

namespace castkit::test::texture_paths_test {
namespace {

namespace fs = std::filesystem;

class GltfTexturePaths : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("gltf-texture-paths-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        source = dir / "source";
        fs::create_directories(source);
        fs::create_directories(dir / "out");
        for (const char* name : {"BoxTextured.gltf", "BoxTextured0.bin", "CesiumLogoFlat.png"})
            fs::copy_file(kFixtures / "gltf/real/BoxTextured-glTF" / name, source / name);
    }
    // The path the first material File of `cast_file` names.
    static std::string texture_path(const fs::path& cast_file) {
        auto document = open_cast(cast_file);
        EXPECT_TRUE(document.has_value());
        if (!document) return {};
        for (const cast::ConstModel& model : document->models())
            for (const cast::ConstMaterial& material : model.materials())
                for (const cast::ConstFile& file : material.files())
                    return std::string(file.path().value_or(""));
        return {};
    }
    const fs::path kFixtures = CASTKIT_FIXTURES;
    fs::path dir, source;
};

TEST_F(GltfTexturePaths, CastWrittenElsewhereNamesACopyBesideIt) {
    const CommandResult converted = run_cli("convert " + quoted(source / "BoxTextured.gltf") + " " +
                                            quoted(dir / "out/box.cast"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "CesiumLogoFlat.png");
    EXPECT_EQ(read_bytes(dir / "out/CesiumLogoFlat.png"),
              read_bytes(source / "CesiumLogoFlat.png"));
    // From there, the glb export finds and embeds it: no warning about a missing texture.
    const CommandResult exported =
        run_cli("convert " + quoted(dir / "out/box.cast") + " " + quoted(dir / "out/box.glb"));
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    EXPECT_EQ(exported.err.find("texture"), std::string::npos) << exported.err;
}

// A glTF named without a folder (converted from inside its own) is read from the working
// folder, and its images are found there too.
TEST_F(GltfTexturePaths, ASourceNamedWithoutAFolderHasItsImagesCopied) {
    // cmd.exe's cd changes the drive too only with /d (tests/cli/io_cli_test.cpp).
#ifdef _WIN32
    const std::string cd = "cd /d " + quoted(source) + " && ";
#else
    const std::string cd = "cd " + quoted(source) + " && ";
#endif
    const CommandResult converted =
        run_cli_in(cd, "convert BoxTextured.gltf " + quoted(dir / "out/box.cast"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "CesiumLogoFlat.png");
    EXPECT_TRUE(fs::exists(dir / "out/CesiumLogoFlat.png"));
}

TEST_F(GltfTexturePaths, AUsersFileOfTheSameNameIsNeverReplaced) {
    const std::vector<std::byte> mine{std::byte{'m'}, std::byte{'i'}, std::byte{'n'},
                                      std::byte{'e'}};
    write_bytes(dir / "out/CesiumLogoFlat.png", mine);
    const CommandResult converted = run_cli("convert " + quoted(source / "BoxTextured.gltf") + " " +
                                            quoted(dir / "out/box.cast"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(read_bytes(dir / "out/CesiumLogoFlat.png"), mine);
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "CesiumLogoFlat-2.png");
    EXPECT_NE(converted.err.find("[texture.renamed]"), std::string::npos) << converted.err;
    // Converting again reuses the copy it made (same bytes), without a third file.
    ASSERT_EQ(run_cli("convert " + quoted(source / "BoxTextured.gltf") + " " +
                      quoted(dir / "out/box2.cast"))
                  .exit_code,
              0);
    EXPECT_EQ(texture_path(dir / "out/box2.cast"), "CesiumLogoFlat-2.png");
    EXPECT_FALSE(fs::exists(dir / "out/CesiumLogoFlat-3.png"));
}

TEST_F(GltfTexturePaths, ReferenceModeNamesTheImageWhereItIs) {
    const CommandResult converted =
        run_cli("convert " + quoted(source / "BoxTextured.gltf") + " " +
                quoted(dir / "out/box.cast") + " --texture-mode reference");
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "../source/CesiumLogoFlat.png");
    EXPECT_FALSE(fs::exists(dir / "out/CesiumLogoFlat.png"));
}

TEST_F(GltfTexturePaths, AMissingImageIsNamedInAWarning) {
    fs::remove(source / "CesiumLogoFlat.png");
    const CommandResult converted = run_cli("convert " + quoted(source / "BoxTextured.gltf") + " " +
                                            quoted(dir / "out/box.cast"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_NE(converted.err.find("[texture.not-found]"), std::string::npos) << converted.err;
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "CesiumLogoFlat.png");
}

}  // namespace
}  // namespace castkit::test::texture_paths_test
