// A File with an empty path, as the Blender add-on's exporter writes for every texture packed
// in the .blend: a validator warning, and every writer that resolves files skips it with a
// warning (glTF then passes the Khronos validator). Through the real command line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>

#include "../formats/cli_command.hpp"
#include "../gltf/gltf_scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::empty_file_path_test {
namespace {

// A triangle whose material has a packed (empty-path) albedo and a normal map on disk, and an
// Instance whose File is empty too.
std::filesystem::path packed_texture_cast() {
    auto dir = temp_dir("addon-empty-file");
    cast::Document document;
    cast::Root root = document.add_root();
    root.add_metadata().set_scene_root(".");
    cast::Model model = root.add_model();
    model.set_name("crate");
    cast::Material material = model.add_material();
    material.set_name("wood");
    material.set_type("pbr");
    cast::File packed = material.add_file("");
    material.set_slot("albedo", packed);
    cast::File normal = material.add_file("wood_n.png");
    material.set_slot("normal", normal);
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    EXPECT_TRUE(mesh.set_uv_layer(0, std::vector<glm::vec2>{{0, 0}, {1, 0}, {0, 1}}));
    mesh.set_material(material);
    cast::Instance instance = root.add_instance();
    instance.set_position({2, 0, 0});
    instance.set_rotation({0, 0, 0, 1});
    instance.set_scale({1, 1, 1});
    cast::File nothing = instance.add_file("");
    instance.set_reference_file(nothing);
    EXPECT_TRUE(cast::write(document, dir / "packed.cast"));
    return dir;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(EmptyFilePath, ValidatesWithAWarningPerFile) {
    auto dir = packed_texture_cast();
    CommandResult result = run_cli(fmt::format("validate {}", quoted(dir / "packed.cast")));
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    EXPECT_EQ(count(result.out, "file.empty-path"), 2u) << result.out;
    EXPECT_NE(result.out.find("model[0]/material[0]/file[0]"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("instance[0]/file[0]"), std::string::npos) << result.out;
}

TEST(EmptyFilePath, GlbSkipsItAndPassesTheKhronosValidator) {
    auto dir = packed_texture_cast();
    CommandResult result = run_cli(
        fmt::format("convert {} {}", quoted(dir / "packed.cast"), quoted(dir / "packed.glb")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(count(result.err, "empty path"), 2u) << result.err;
    const nlohmann::json json = gltf_json(dir / "packed.glb");
    ASSERT_EQ(json["images"].size(), 1u) << json.dump();
    EXPECT_EQ(json["images"][0]["uri"], "wood_n.png");
    const nlohmann::json& material = json["materials"][0];
    EXPECT_FALSE(material.contains("pbrMetallicRoughness") &&
                 material["pbrMetallicRoughness"].contains("baseColorTexture"));
    if (const std::optional<ValidatorResult> validator = run_gltf_validator(dir / "packed.glb")) {
        EXPECT_EQ(validator->exit_code, 0) << validator->output;
        EXPECT_NE(validator->output.find("packed.glb: 0 errors"), std::string::npos)
            << validator->output;
    }
}

TEST(EmptyFilePath, DmfAndSemodelSkipItWithAWarning) {
    auto dir = packed_texture_cast();
    for (const char* extension : {".dmf", ".dmf.json", ".semodel"}) {
        const auto out = dir / (fmt::format("packed{}", extension));
        CommandResult result =
            run_cli(fmt::format("convert {} {}", quoted(dir / "packed.cast"), quoted(out)));
        ASSERT_EQ(result.exit_code, 0) << extension << ": " << result.err;
        EXPECT_EQ(count(result.err, "empty path"), 1u) << extension << ": " << result.err;
    }
}

}  // namespace
}  // namespace castkit::test::empty_file_path_test
