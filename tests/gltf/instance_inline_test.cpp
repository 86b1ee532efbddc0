// `convert --inline-instances`: every instance file and the scene root `sr` go through the
// side-file policy with the top file's folder as the boundary at every level; each instance file
// is read once, its repeats share its meshes, and inlining stops at a budget proportional to the
// files read (docs/security.md, "What castkit reads").
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"
#include "gltf_scene.hpp"

namespace castkit::test::instance_inline_test {
namespace {

namespace fs = std::filesystem;

// A Cast file of one triangle whose Model is named `name`.
void write_prop(const fs::path& path, const std::string& name) {
    fs::create_directories(path.parent_path());
    cast::Document prop;
    cast::Model model = prop.add_root().add_model();
    model.set_name(name);
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    ASSERT_TRUE(cast::write(prop, path));
}

// A Cast file with `count` Instances of `file`, under scene root `scene_root` when not empty.
void write_scene(const fs::path& path, const std::string& file, int count,
                 const std::string& scene_root = "") {
    fs::create_directories(path.parent_path());
    cast::Document scene;
    cast::Root root = scene.add_root();
    if (!scene_root.empty()) root.add_metadata().set_scene_root(scene_root);
    for (int i = 0; i < count; ++i) {
        cast::Instance instance = root.add_instance();
        cast::File named = instance.add_file(file);
        instance.set_reference_file(named);
        instance.set_position({static_cast<float>(i), 0, 0});
    }
    ASSERT_TRUE(cast::write(scene, path));
}

bool names_node(const nlohmann::json& json, const std::string& name) {
    for (const nlohmann::json& node : json["nodes"])
        if (node.value("name", "") == name) return true;
    return false;
}

CommandResult inline_convert(const fs::path& dir, const std::string& input) {
    return run_cli(in_dir(dir, "convert --inline-instances {" + input + "} {out.glb}"));
}

TEST(InstanceInline, ASceneRootLeadingOutsideIsRefusedAndNamed) {
    const fs::path dir = temp_dir("instance-scene-root");
    write_prop(dir / "outside/secret.cast", "SECRET_MODEL");
    // "../outside" from top/, and "/" with the secret's path from the root.
    const std::string from_root = (dir / "outside/secret.cast").relative_path().generic_string();
    for (const auto& [scene_root, file] :
         {std::pair<std::string, std::string>{"../outside", "secret.cast"}, {"/", from_root}}) {
        write_scene(dir / "top/scene.cast", file, 1, scene_root);
        const CommandResult result = inline_convert(dir, "top/scene.cast");
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_NE(result.err.find("gltf.instance-refused"), std::string::npos) << result.err;
        EXPECT_NE(result.err.find("scene root '" + scene_root + "'"), std::string::npos)
            << result.err;
        const nlohmann::json json = gltf_json(dir / "out.glb");
        EXPECT_FALSE(names_node(json, "SECRET_MODEL")) << scene_root;
        EXPECT_EQ(json.value("meshes", nlohmann::json::array()).size(), 0u) << scene_root;
    }
}

TEST(InstanceInline, NestedFilesStayInsideTheTopFolder) {
    const fs::path dir = temp_dir("instance-nested-boundary");
    write_prop(dir / "secret.cast", "SECRET_MODEL");
    // top/a/inner.cast names "../../secret.cast": inside inner's idea of its parent, outside top.
    write_scene(dir / "top/a/inner.cast", "../../secret.cast", 1);
    write_scene(dir / "top/scene.cast", "a/inner.cast", 1);
    const CommandResult result = inline_convert(dir, "top/scene.cast");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("leads outside"), std::string::npos) << result.err;
    EXPECT_FALSE(names_node(gltf_json(dir / "out.glb"), "SECRET_MODEL"));
}

TEST(InstanceInline, AFileInstancedTwiceInlinesTwiceSharingItsMesh) {
    const fs::path dir = temp_dir("instance-twice");
    write_prop(dir / "models/prop.cast", "prop");
    write_scene(dir / "scene.cast", "prop.cast", 2, "models");
    const CommandResult result = inline_convert(dir, "scene.cast");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("not inlined"), std::string::npos) << result.err;
    const nlohmann::json json = gltf_json(dir / "out.glb");
    std::vector<int> meshes_drawn;
    for (const nlohmann::json& node : json["nodes"])
        if (node.contains("mesh")) meshes_drawn.push_back(node["mesh"].get<int>());
    ASSERT_EQ(meshes_drawn.size(), 2u);
    EXPECT_EQ(meshes_drawn[0], meshes_drawn[1]);
    EXPECT_EQ(json["meshes"].size(), 1u);
    expect_gltf_validator_passes(dir / "out.glb");
}

// 7 files of about 1 KB, each instancing the next 10 times: 10^7 copies of the last if nothing
// stopped it (a 26 MB glb at 542 MB of memory before, and file descriptors exhausted one level
// deeper).
TEST(InstanceInline, AnInstanceChainStopsAtTheBudgetWithAClearWarning) {
    const fs::path dir = temp_dir("instance-chain");
    constexpr int kLevels = 7;
    write_prop(dir / fmt::format("level{}.cast", kLevels), "leaf");
    for (int level = kLevels - 1; level >= 0; --level)
        write_scene(dir / fmt::format("level{}.cast", level),
                    fmt::format("level{}.cast", level + 1), 10);
    const CommandResult result = inline_convert(dir, "level0.cast");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("gltf.instance-budget"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("glTF nodes"), std::string::npos) << result.err;
    const nlohmann::json json = gltf_json(dir / "out.glb");
    // The budget: 20,000 nodes plus one per byte read (8 files of about 1 KB).
    EXPECT_LT(json["nodes"].size(), 40000u);
    EXPECT_EQ(json["meshes"].size(), 1u);
    EXPECT_LT(fs::file_size(dir / "out.glb"), std::uintmax_t{8} << 20);
}

}  // namespace
}  // namespace castkit::test::instance_inline_test
