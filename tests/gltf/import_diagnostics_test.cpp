// glTF inputs castkit cannot read are refused with an error that says why and what to do, each
// with its own id: glTF 1.0, a minVersion above 2.0, an external buffer that is not there.
#include <gtest/gtest.h>

#include <castkit/formats/gltf.hpp>
#include <cstring>
#include <fstream>

#include "../test_support.hpp"

namespace castkit::test::import_diagnostics_test {
namespace {

class GltfImportDiagnostics : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("gltf-diagnostics-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    // The error of reading `json` written as scene.gltf (the test fails when it reads).
    Diagnostic error_of(const std::string& json) {
        std::ofstream(dir / "scene.gltf") << json;
        Diagnostics warnings;
        auto document = gltf::open(dir / "scene.gltf", warnings);
        if (document) ADD_FAILURE() << "read without error";
        return document ? Diagnostic{} : document.error();
    }
    std::filesystem::path dir;
};

// A real glTF 1.0 file (COLLADA2GLTF's TwoBoxes, tests/fixtures/README.md) is refused at once,
// naming its version, not with a type error deep in its accessors.
TEST_F(GltfImportDiagnostics, Gltf1FileIsRefusedByVersion) {
    Diagnostics warnings;
    auto document = gltf::open(fixtures() / "gltf" / "v1" / "TwoBoxes.gltf", warnings);
    ASSERT_FALSE(document.has_value());
    EXPECT_EQ(document.error().rule, "gltf.version-unsupported");
    EXPECT_NE(document.error().message.find("glTF 1.0 is not supported (asset.version 1.0)"),
              std::string::npos)
        << document.error().to_string();
    EXPECT_EQ(document.error().path, "$.asset.version");
}

// glTF 1.0 without asset.version is known by its objects where 2.0 has arrays; a GLB of
// version 1 (KHR_binary_glTF) is glTF 1.0 too.
TEST_F(GltfImportDiagnostics, Gltf1WithoutVersionAndGlb1AreRefused) {
    EXPECT_EQ(error_of(R"({"asset":{},"accessors":{"a":{}},"meshes":{}})").rule,
              "gltf.version-unsupported");
    const std::uint32_t header[] = {0x46546C67u, 1, 40, 20, 0};
    std::ofstream(dir / "old.glb", std::ios::binary)
        .write(reinterpret_cast<const char*>(header), sizeof header)
        .write("{\"asset\":{}}        ", 20);
    Diagnostics warnings;
    auto document = gltf::open(dir / "old.glb", warnings);
    ASSERT_FALSE(document.has_value());
    EXPECT_EQ(document.error().rule, "gltf.version-unsupported");
}

// asset.minVersion 2.1 asks for a reader newer than glTF 2.0; 2.0 itself is fine.
TEST_F(GltfImportDiagnostics, MinVersionAboveTwoIsRefused) {
    const Diagnostic d = error_of(R"({"asset":{"version":"2.1","minVersion":"2.1"},"nodes":[{}]})");
    EXPECT_EQ(d.rule, "gltf.min-version-unsupported");
    EXPECT_EQ(d.path, "$.asset.minVersion");
    EXPECT_NE(d.message.find("2.1"), std::string::npos) << d.to_string();
    std::ofstream(dir / "fine.gltf") << R"({"asset":{"version":"2.0","minVersion":"2.0"}})";
    Diagnostics warnings;
    EXPECT_TRUE(gltf::open(dir / "fine.gltf", warnings).has_value());
}

// A missing .bin: the error names the uri and the path it must be at, and does not send the
// user to --textures, which buffers do not use.
TEST_F(GltfImportDiagnostics, MissingBufferNamesUriAndResolvedPath) {
    const Diagnostic d = error_of(
        R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":"data/mesh.bin"}]})");
    EXPECT_EQ(d.rule, "gltf.buffer-missing");
    EXPECT_EQ(d.path, "$.buffers[0].uri");
    EXPECT_NE(d.message.find("'data/mesh.bin'"), std::string::npos) << d.to_string();
    const std::string expected = (dir / "data" / "mesh.bin").lexically_normal().string();
    EXPECT_NE(d.message.find(expected), std::string::npos) << d.to_string();
    EXPECT_EQ(d.message.find("--textures"), std::string::npos) << d.to_string();
}

}  // namespace
}  // namespace castkit::test::import_diagnostics_test
