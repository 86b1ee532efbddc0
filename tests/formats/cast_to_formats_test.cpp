// Cast → DMF/K3D → Cast from a Cast document built by hand (not converted from either format):
// every value the target holds comes back, and each thing it cannot hold is named in a warning.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/formats/k3d.hpp>

namespace castkit::test::cast_to_formats_test {
namespace {

bool warned(const Diagnostics& warnings, std::string_view text) {
    for (const Diagnostic& d : warnings)
        if (d.message.find(text) != std::string::npos) return true;
    return false;
}

// A skinned quad with two UV layers and six influences per vertex, a two-bone skeleton, and an
// animation whose bone has only a tx curve, a relative rq curve, a blend-shape curve and a
// notification track.
cast::Document handmade() {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Model model = root.add_model();
    cast::Skeleton skeleton = model.add_skeleton();
    cast::Bone hip = skeleton.add_bone();
    hip.set_name("hip");
    hip.set_parent_index(-1);
    hip.set_local_position(glm::vec3(0, 1, 0));
    cast::Bone knee = skeleton.add_bone();
    knee.set_name("knee");
    knee.set_parent_index(0);
    knee.set_local_position(glm::vec3(0, -0.5f, 0));
    knee.set_local_rotation(glm::vec4(0, 0, 0, 1));
    cast::Material material = model.add_material();
    material.set_name("cloth");
    material.set_type("pbr");
    cast::Mesh mesh = model.add_mesh();
    mesh.set_name("quad");
    std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    std::vector<glm::vec3> normals(4, glm::vec3(0, 0, 1));
    std::vector<glm::vec2> uvs = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    std::vector<glm::vec4> colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 0.5f}};
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    EXPECT_TRUE(mesh.set_uv_layer(0, uvs));
    EXPECT_TRUE(mesh.set_uv_layer(1, uvs));
    EXPECT_TRUE(mesh.set_color_layer(0, colors));
    std::vector<std::uint32_t> faces = {0, 1, 2, 0, 2, 3};
    mesh.set_faces(faces);
    std::vector<std::uint32_t> bones;
    std::vector<float> weights;
    for (int v = 0; v < 4; ++v)
        for (int k = 0; k < 6; ++k) {
            bones.push_back(static_cast<std::uint32_t>(k % 2));
            weights.push_back(k == 0 ? 0.5f : 0.1f);
        }
    EXPECT_TRUE(mesh.set_weights(6, bones, weights));
    mesh.set_material(material);

    cast::Animation animation = root.add_animation();
    animation.set_name("kick");
    animation.set_framerate(24);
    cast::Curve tx = animation.add_curve();
    tx.set_node_name("knee");
    tx.set_key_property(cast::KeyProperty::TranslationX);
    std::vector<std::uint32_t> frames = {0, 12};
    std::vector<float> values = {0.25f, 0.75f};
    tx.set_key_frames(frames);
    tx.set_float_values(values);
    tx.set_mode(cast::CurveMode::Absolute);
    cast::Curve rq = animation.add_curve();
    rq.set_node_name("knee");
    rq.set_key_property(cast::KeyProperty::Rotation);
    std::vector<std::uint32_t> rq_frames = {6};
    std::vector<glm::vec4> rq_values = {{0, 0, 0.6f, 0.8f}};
    rq.set_key_frames(rq_frames);
    rq.set_quaternion_values(rq_values);
    rq.set_mode(cast::CurveMode::Relative);
    cast::Curve bs = animation.add_curve();
    bs.set_node_name("smile");
    bs.set_key_property(cast::KeyProperty::BlendShape);
    bs.set_key_frames(frames);
    bs.set_float_values(values);
    animation.add_notification_track().set_name("step");
    return document;
}

void expect_same_geometry(cast::Mesh back, const std::vector<std::uint32_t>& expected_faces) {
    cast::Document original = handmade();
    cast::Mesh mesh = original.models()[0].meshes()[0];
    EXPECT_EQ(back.positions().to_vector(), mesh.positions().to_vector());
    EXPECT_EQ(back.normals().to_vector(), mesh.normals().to_vector());
    EXPECT_EQ(back.uv_layer(0).to_vector(), mesh.uv_layer(0).to_vector());
    EXPECT_EQ(back.faces().to_vector(), expected_faces);
    EXPECT_EQ(back.uv_layer_count(), 1u);
    // Six influences 0.5, 0.1 × 5 keep the four largest (0.5 and three 0.1), renormalised to 1.
    ASSERT_EQ(back.max_weight_influence(), 4u);
    EXPECT_FLOAT_EQ(back.weight_values()[0], 0.5f / 0.8f);
    EXPECT_FLOAT_EQ(back.weight_values()[1], 0.1f / 0.8f);
    EXPECT_EQ(back.weight_bones()[0], 0u);
    EXPECT_EQ(back.weight_bones()[1], 1u);
}

void expect_same_motion(cast::Animation back, Diagnostics& warnings) {
    EXPECT_EQ(back.name(), "kick");
    EXPECT_EQ(back.framerate(), 24.0f);
    std::vector<cast::Curve> curves = back.curves();
    ASSERT_EQ(curves.size(), 4u);  // tx, ty, tz (the missing components at rest), rq
    EXPECT_EQ(curves[0].key_property(), "tx");
    EXPECT_EQ(curves[0].key_frames().to_vector(), (std::vector<std::uint32_t>{0, 12}));
    EXPECT_EQ(curves[0].float_values()[1], 0.75f);
    EXPECT_EQ(curves[1].key_property(), "ty");
    EXPECT_EQ(curves[1].float_values()[0], -0.5f);  // knee's rest position
    EXPECT_EQ(curves[3].key_property(), "rq");
    EXPECT_EQ(curves[3].quaternion_values()[0], glm::vec4(0, 0, 0.6f, 0.8f));
    EXPECT_TRUE(warned(warnings, "rq curve is relative"));
    EXPECT_TRUE(warned(warnings, "bs curve has no equivalent"));
    EXPECT_TRUE(warned(warnings, "notification tracks"));
    EXPECT_TRUE(warned(warnings, "UV layers after the first"));
    EXPECT_TRUE(warned(warnings, "4 largest"));
}

TEST(CastToFormats, K3dKeepsWhatItHolds) {
    cast::Document document = handmade();
    Diagnostics warnings;
    auto model = k3d::from_cast(document, warnings);
    ASSERT_TRUE(model) << model.error().to_string();
    EXPECT_EQ(model->extents.max, glm::vec3(1, 1, 0));
    EXPECT_EQ(model->animations[0].duration, 12.0f);
    auto bytes = k3d::write_to_buffer(*model);
    ASSERT_TRUE(bytes);
    auto reread = k3d::read(*bytes, "x.k3d", warnings);
    ASSERT_TRUE(reread);
    auto back = k3d::to_cast(*reread, "x.k3d", warnings);
    ASSERT_TRUE(back) << back.error().to_string();
    cast::Model cast_model = back->models()[0];
    expect_same_geometry(cast_model.meshes()[0], {0, 1, 2, 0, 2, 3});
    EXPECT_EQ(cast_model.meshes()[0].color_layer(0)[3], glm::vec4(1, 1, 1, 0.5f));
    EXPECT_EQ(cast_model.meshes()[0].material().name(), "cloth");
    std::vector<cast::Bone> bones = cast_model.skeleton().bones();
    ASSERT_EQ(bones.size(), 2u);
    EXPECT_EQ(bones[1].name(), "knee");
    EXPECT_EQ(bones[1].local_position(), glm::vec3(0, -0.5f, 0));
    EXPECT_EQ(bones[1].world_position(), glm::vec3(0, 0.5f, 0));  // weighted: a K3D bone
    expect_same_motion(back->animations()[0], warnings);
}

TEST(CastToFormats, DmfKeepsWhatItHolds) {
    cast::Document document = handmade();
    Diagnostics warnings;
    auto model = dmf::from_cast(document, warnings);
    ASSERT_TRUE(model) << model.error().to_string();
    EXPECT_EQ(model->vertices.size(), 4u);
    EXPECT_EQ(model->animations[0].fps, 24);
    EXPECT_EQ(model->animations[0].duration, 0.5f);
    auto bytes = dmf::write_to_buffer(*model);
    ASSERT_TRUE(bytes);
    auto reread = dmf::read(*bytes, "x.dmf", warnings);
    ASSERT_TRUE(reread);
    auto back = dmf::to_cast(*reread, "x.dmf", warnings);
    ASSERT_TRUE(back) << back.error().to_string();
    cast::Model cast_model = back->models()[0];
    // DMF splits vertices per corner and re-shares equal corners: the quad keeps 4 vertices.
    expect_same_geometry(cast_model.meshes()[0], {0, 1, 2, 0, 2, 3});
    EXPECT_EQ(cast_model.meshes()[0].color_layer(0)[3], glm::vec4(1, 1, 1, 128 / 255.0f));
    EXPECT_EQ(cast_model.meshes()[0].name(), "cloth");
    EXPECT_EQ(cast_model.skeleton().bones()[1].local_position(), glm::vec3(0, -0.5f, 0));
    expect_same_motion(back->animations()[0], warnings);
}

TEST(CastToFormats, SingleModelFormatsNameWhatTheyDrop) {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Model first = root.add_model();
    first.set_position(glm::vec3(1, 2, 3));
    first.add_hair();
    root.add_model();
    using Convert = bool (*)(const cast::Document&, Diagnostics&);
    const std::pair<const char*, Convert> formats[] = {
        {"K3D", [](const cast::Document& d, Diagnostics& w) { return bool(k3d::from_cast(d, w)); }},
        {"DMF",
         [](const cast::Document& d, Diagnostics& w) { return bool(dmf::from_cast(d, w)); }}};
    for (const auto& [name, convert] : formats) {
        Diagnostics warnings;
        ASSERT_TRUE(convert(document, warnings)) << name;
        EXPECT_TRUE(warned(warnings,
                           fmt::format("2 models; {} holds one, only the first is written", name)));
        EXPECT_TRUE(
            warned(warnings, fmt::format("own position/rotation/scale has no {} field", name)));
        EXPECT_TRUE(
            warned(warnings, fmt::format("hairs and blend shapes have no {} equivalent", name)));
    }
}

}  // namespace
}  // namespace castkit::test::cast_to_formats_test
