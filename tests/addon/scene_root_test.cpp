// Instance files resolve against the Metadata scene root `sr`, relative to the Cast file, as
// the Blender add-on resolves them: `convert --inline-instances` finds models there.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>

#include "../formats/cli_command.hpp"
#include "../gltf/gltf_scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::scene_root_test {
namespace {

TEST(SceneRoot, InlinedInstancesResolveUnderTheSceneRoot) {
    auto dir = temp_dir("addon-scene-root");
    std::filesystem::create_directories(dir / "models");
    cast::Document prop;
    cast::Mesh mesh = prop.add_root().add_model().add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    ASSERT_TRUE(cast::write(prop, dir / "models" / "prop.cast"));

    cast::Document scene;
    cast::Root root = scene.add_root();
    root.add_metadata().set_scene_root("models");
    cast::Instance instance = root.add_instance();
    cast::File file = instance.add_file("prop.cast");
    instance.set_reference_file(file);
    instance.set_position({1, 0, 0});
    instance.set_rotation({0, 0, 0, 1});
    instance.set_scale({1, 1, 1});
    ASSERT_TRUE(cast::write(scene, dir / "scene.cast"));

    CommandResult result = run_cli(fmt::format(
        "convert --inline-instances {} {}", quoted(dir / "scene.cast"), quoted(dir / "scene.glb")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("not inlined"), std::string::npos) << result.err;
    EXPECT_EQ(gltf_json(dir / "scene.glb")["meshes"].size(), 1u);
}

}  // namespace
}  // namespace castkit::test::scene_root_test
