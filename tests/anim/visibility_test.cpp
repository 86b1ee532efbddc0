// Ruling 22a end to end: a `relative` vb curve keyed 0 hides its mesh at that frame in
// `castkit pose`, `castkit bake` and the glTF export (with rest value 1 it never could).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <cstring>

#include "../gltf/gltf_scene.hpp"

namespace castkit::test::visibility_test {
namespace {

using json = nlohmann::json;

// One bone, an unskinned mesh "lid", and a relative vb curve: visible (1) at frame 0, hidden (0)
// at frame 10; linear between, so visible up to frame 5 (0.5) and hidden after.
std::filesystem::path write_blinking_lid(const std::filesystem::path& dir) {
    AnimScene scene;
    scene.bone("head");
    cast::Mesh mesh = scene.model.add_mesh();
    mesh.set_name("lid");
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    scene.animation.set_framerate(30.0f);
    cast::Curve blink = scene.curve("lid", "vb", {0, 10}, {0.0f, 0.0f}, "relative");
    blink.set_integer_values(std::vector<std::uint32_t>{1, 0});
    scene.curve("head", "tx", {0, 10}, {0.0f, 1.0f});
    EXPECT_TRUE(cast::write(scene.document, dir / "blink.cast").has_value());
    return dir / "blink.cast";
}

json pose_at(const std::filesystem::path& file, float frame) {
    CommandResult result =
        run_cli(fmt::format("pose --anim \"{}\" --frame {} --json", file.string(), frame));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return json::parse(result.out);
}

TEST(Visibility, RelativeZeroKeyHidesTheMeshInPose) {
    const std::filesystem::path file = write_blinking_lid(temp_dir("visibility-pose"));
    EXPECT_EQ(pose_at(file, 0)["visibility"]["lid"], true);
    EXPECT_EQ(pose_at(file, 5)["visibility"]["lid"], true);
    EXPECT_EQ(pose_at(file, 6)["visibility"]["lid"], false);
    EXPECT_EQ(pose_at(file, 10)["visibility"]["lid"], false);
}

TEST(Visibility, RelativeZeroKeyHidesTheMeshInBake) {
    const std::filesystem::path dir = temp_dir("visibility-bake");
    const std::filesystem::path file = write_blinking_lid(dir);
    CommandResult bake = run_cli(
        fmt::format("bake --anim \"{}\" -o \"{}\"", file.string(), (dir / "baked.cast").string()));
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    auto baked = open_cast(dir / "baked.cast");
    ASSERT_TRUE(baked.has_value());
    std::optional<cast::Curve> lid;
    for (const cast::Curve& curve : baked->animations()[0].curves())
        if (curve.key_property() == "vb") lid = curve;
    ASSERT_TRUE(lid.has_value());
    EXPECT_EQ(lid->node_name(), "lid");
    EXPECT_EQ(lid->mode_name(), "absolute");
    const std::vector<std::uint32_t> frames = lid->key_frames().to_vector();
    const std::vector<std::uint32_t> values = lid->integer_values().to_vector();
    ASSERT_EQ(frames.size(), values.size());
    ASSERT_EQ(frames.size(), 11u);
    for (std::size_t f = 0; f < frames.size(); ++f) {
        EXPECT_EQ(frames[f], f);
        EXPECT_EQ(values[f], f <= 5 ? 1u : 0u) << "frame " << f;
    }
}

// The float values of a GLB accessor (tightly packed, as castkit writes them).
std::vector<float> glb_floats(const std::filesystem::path& path, const json& gltf, int accessor) {
    const std::vector<std::byte> bytes = read_bytes(path);
    std::uint32_t json_length = 0;
    std::memcpy(&json_length, bytes.data() + 12, 4);
    const std::size_t bin = 20 + json_length + 8;
    const json& a = gltf["accessors"][accessor];
    const json& view = gltf["bufferViews"][a["bufferView"].get<int>()];
    const std::size_t offset = bin + view.value("byteOffset", 0u) + a.value("byteOffset", 0u);
    const std::size_t components = a["type"] == "VEC3" ? 3 : 1;
    std::vector<float> values(a["count"].get<std::size_t>() * components);
    std::memcpy(values.data(), bytes.data() + offset, values.size() * 4);
    return values;
}

TEST(Visibility, RelativeZeroKeyHidesTheMeshInGltf) {
    const std::filesystem::path dir = temp_dir("visibility-gltf");
    const std::filesystem::path file = write_blinking_lid(dir);
    CommandResult convert =
        run_cli(fmt::format("convert \"{}\" \"{}\"", file.string(), (dir / "blink.glb").string()));
    ASSERT_EQ(convert.exit_code, 0) << convert.err;
    EXPECT_EQ(convert.err.find("vb"), std::string::npos) << convert.err;  // nothing dropped
    const json gltf = gltf_json(dir / "blink.glb");
    int lid = -1;
    for (std::size_t n = 0; n < gltf["nodes"].size(); ++n)
        if (gltf["nodes"][n].value("name", "") == "lid") lid = static_cast<int>(n);
    ASSERT_GE(lid, 0);
    const json& animation = gltf["animations"][0];
    std::optional<json> channel;
    for (const json& c : animation["channels"])
        if (c["target"]["node"] == lid) channel = c;
    ASSERT_TRUE(channel.has_value());
    EXPECT_EQ((*channel)["target"]["path"], "scale");
    const json& sampler = animation["samplers"][(*channel)["sampler"].get<int>()];
    EXPECT_EQ(sampler["interpolation"], "STEP");
    // Visible from frame 0, hidden from frame 6 (the first whole frame below 0.5).
    const std::vector<float> times = glb_floats(dir / "blink.glb", gltf, sampler["input"]);
    const std::vector<float> scales = glb_floats(dir / "blink.glb", gltf, sampler["output"]);
    ASSERT_EQ(times.size(), 2u);
    EXPECT_FLOAT_EQ(times[0], 0.0f);
    EXPECT_FLOAT_EQ(times[1], 6.0f / 30.0f);
    EXPECT_EQ(scales, (std::vector<float>{1, 1, 1, 0, 0, 0}));
    expect_gltf_validator_passes(dir / "blink.glb");
}

}  // namespace
}  // namespace castkit::test::visibility_test
