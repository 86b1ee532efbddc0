// The typed views of all 18 node types: a scene built through the builders is written, read
// back and checked through the getters.
#include <gtest/gtest.h>

#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <set>

#include "typed_scene.hpp"

namespace castkit::test::typed_api_test {
namespace {

using namespace castkit::cast;

void collect_ids(const Node& node, std::set<std::uint32_t>& ids) {
    ids.insert(node.id);
    for (const Node& child : node.children()) collect_ids(child, ids);
}

TEST(TypedApi, TheSceneUsesAll18NodeTypes) {
    Document document = every_node_type_scene();
    std::set<std::uint32_t> ids;
    for (const Node& root : document.roots()) collect_ids(root, ids);
    std::set<std::uint32_t> all;
    for (NodeId id : kAllNodeIds) all.insert(static_cast<std::uint32_t>(id));
    EXPECT_EQ(ids, all);
}

TEST(TypedApi, SceneNodesRoundTrip) {
    Document document = reread(every_node_type_scene());
    auto roots = document.root_nodes();
    ASSERT_EQ(roots.size(), 1u);
    Metadata metadata = roots[0].metadata().at(0);
    EXPECT_EQ(metadata.author(), "Ada");
    EXPECT_EQ(metadata.software(), "castkit tests");
    EXPECT_EQ(metadata.up_axis_name(), "y");
    EXPECT_EQ(metadata.scene_root(), "Scene");

    Instance instance = roots[0].instances().at(0);
    EXPECT_EQ(instance.name(), "crate");
    ASSERT_TRUE(instance.reference_file());
    EXPECT_EQ(instance.reference_file().path(), "props/crate.cast");
    EXPECT_EQ(instance.reference_file().hash(), instance.files().at(0).hash());
    EXPECT_EQ(instance.position(), glm::vec3(10, 0, 0));
    EXPECT_EQ(instance.rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(instance.scale(), glm::vec3(1, 2, 1));

    Model model = document.models().at(0);
    EXPECT_EQ(model.name(), "Hero");
    EXPECT_EQ(model.position(), glm::vec3(1, 2, 3));
    EXPECT_EQ(model.rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(model.scale(), glm::vec3(2, 2, 2));
}

TEST(TypedApi, SkeletonNodesRoundTrip) {
    Document document = reread(every_node_type_scene());
    Skeleton skeleton = document.models().at(0).skeleton();
    ASSERT_TRUE(skeleton);
    auto bones = skeleton.bones();
    ASSERT_EQ(bones.size(), 3u);
    EXPECT_EQ(bones[0].name(), "pelvis");
    EXPECT_EQ(bones[0].parent_index(), -1);
    EXPECT_EQ(bones[1].parent_index(), 0);
    EXPECT_EQ(bones[2].parent_index(), 1);
    EXPECT_EQ(bones[0].local_position(), glm::vec3(0, 1, 0));
    EXPECT_EQ(bones[0].local_rotation(), glm::vec4(0, 0, 0.7071068f, 0.7071068f));
    EXPECT_EQ(bones[0].world_position(), glm::vec3(1, 3, 3));
    EXPECT_EQ(bones[0].world_rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(bones[0].scale(), glm::vec3(1, 1, 1));
    EXPECT_TRUE(bones[0].segment_scale_compensate());
    EXPECT_FALSE(bones[1].segment_scale_compensate());
    glm::quat q = quat_from_xyzw(*bones[0].local_rotation());
    EXPECT_FLOAT_EQ(q.w, 0.7071068f);
    EXPECT_EQ(xyzw_from_quat(q), *bones[0].local_rotation());

    IKHandle ik = skeleton.ik_handles().at(0);
    EXPECT_EQ(ik.name(), "arm_ik");
    EXPECT_EQ(ik.start_bone().name(), "pelvis");
    EXPECT_EQ(ik.end_bone().name(), "hand");
    EXPECT_EQ(ik.target_bone().name(), "spine");
    EXPECT_EQ(ik.pole_vector_bone().name(), "pelvis");
    EXPECT_EQ(ik.pole_bone().name(), "spine");
    EXPECT_TRUE(ik.use_target_rotation());
    EXPECT_EQ(ik.target_offset(), glm::vec3(0.5f, 0, -1));
    EXPECT_EQ(ik.start_bone_hash(), bones[0].hash());

    Constraint constraint = skeleton.constraints().at(0);
    EXPECT_EQ(constraint.name(), "aim");
    EXPECT_EQ(constraint.constraint_type(), "or");
    EXPECT_EQ(constraint.constraint_bone().name(), "hand");
    EXPECT_EQ(constraint.target_bone().name(), "pelvis");
    EXPECT_TRUE(constraint.maintain_offset());
    EXPECT_EQ(constraint.custom_offset(), glm::vec4(0, 1, 0, 0));
    EXPECT_EQ(constraint.weight(), 0.25f);
    EXPECT_TRUE(constraint.skip_x());
    EXPECT_FALSE(constraint.skip_y());
    EXPECT_TRUE(constraint.skip_z());
    EXPECT_EQ(skeleton.bone_by_hash(bones[2].hash()).name(), "hand");
}

TEST(TypedApi, MaterialNodesRoundTrip) {
    Document document = reread(every_node_type_scene());
    Material material = document.models().at(0).materials().at(0);
    EXPECT_EQ(material.name(), "skin");
    EXPECT_EQ(material.type(), "pbr");
    auto slots = material.slots();
    ASSERT_EQ(slots.size(), 2u);
    EXPECT_EQ(slots[0].name, "albedo");
    EXPECT_EQ(slots[1].name, "diffuse");
    EXPECT_EQ(material.slot_file("albedo").path(), "textures/skin_albedo.png");
    EXPECT_FALSE(material.slot_color("albedo"));  // a File, not a Color
    ConstColor tint = material.slot_color("diffuse");
    ASSERT_TRUE(tint);
    EXPECT_EQ(tint.name(), "tint");
    EXPECT_EQ(tint.color_space_name(), "linear");
    EXPECT_EQ(tint.rgba(), glm::vec4(0.5f, 0.25f, 1, 1));
    EXPECT_EQ(material.files().size(), 1u);
    EXPECT_EQ(material.colors().size(), 1u);
}

TEST(TypedApi, MeshRoundTripsWithLayersWeightsAndMaterial) {
    Document document = reread(every_node_type_scene());
    Mesh mesh = document.models().at(0).meshes().at(0);
    EXPECT_EQ(mesh.name(), "body");
    EXPECT_EQ(mesh.vertex_count(), 4u);
    EXPECT_EQ(mesh.positions()[2], glm::vec3(1, 1, 0));
    EXPECT_EQ(mesh.normals()[3], glm::vec3(0, 0, 1));
    EXPECT_EQ(mesh.tangents()[0], glm::vec3(1, 0, 0));
    EXPECT_EQ(mesh.face_count(), 2u);
    EXPECT_EQ(mesh.faces().to_vector(), (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3}));

    EXPECT_EQ(mesh.uv_layer_count(), 2u);
    EXPECT_EQ(mesh.uv_layer(0)[0], glm::vec2(0, 1));
    EXPECT_EQ(mesh.uv_layer(1)[3], glm::vec2(0.5f));
    EXPECT_TRUE(mesh.uv_layer(2).empty());

    EXPECT_EQ(mesh.color_layer_count(), 2u);
    EXPECT_TRUE(mesh.color_layer_is_packed(0));
    EXPECT_FALSE(mesh.color_layer_is_packed(1));
    auto packed = mesh.color_layer(0);
    ASSERT_EQ(packed.size(), 4u);
    EXPECT_EQ(packed[0], glm::vec4(1, 0, 0, 1));  // 0xFF0000FF: R in the low byte
    EXPECT_EQ(packed[1], glm::vec4(0, 1, 0, 1));
    EXPECT_EQ(packed[2], glm::vec4(0, 64 / 255.0f, 1, 128 / 255.0f));
    EXPECT_EQ(packed[3], glm::vec4(0));
    auto floats = mesh.color_layer(1);
    ASSERT_EQ(floats.size(), 4u);
    EXPECT_EQ(floats[3], glm::vec4(2, -1, 0.125f, 1));  // float layers are kept as stored

    EXPECT_EQ(mesh.max_weight_influence(), 2u);
    EXPECT_EQ(mesh.weight_bones().to_vector(),
              (std::vector<std::uint32_t>{0, 1, 0, 1, 1, 2, 2, 0}));
    EXPECT_EQ(mesh.weight_values()[0], 0.75f);
    EXPECT_EQ(mesh.weight_values().size(), 8u);
    EXPECT_EQ(mesh.skinning_method_name(), "quaternion");
    ASSERT_TRUE(mesh.material());
    EXPECT_EQ(mesh.material().name(), "skin");
}

TEST(TypedApi, IndexViewsGiveTheirLargestElementInEveryWidth) {
    const std::vector<std::uint32_t> values = {7, 0, 250, 3};
    for (PropertyType type : {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32,
                              PropertyType::Integer64}) {
        const Property property = make_integers("f", type, values).value();
        const IndexView view = IndexView::of(&property);
        ASSERT_EQ(view.size(), 4u);
        EXPECT_EQ(view.largest(), 250u) << static_cast<int>(type);
        EXPECT_EQ(view.to_vector(), values);
    }
    const Property wide = make_integers("f", PropertyType::Integer32, {{1, 70000}}).value();
    EXPECT_EQ(IndexView::of(&wide).largest(), 70000u);
    EXPECT_EQ(IndexView().largest(), 0u);  // empty: no data to read
}

TEST(TypedApi, HairAndBlendShapeRoundTrip) {
    Document document = reread(every_node_type_scene());
    Model model = document.models().at(0);
    Hair hair = model.hairs().at(0);
    EXPECT_EQ(hair.name(), "fringe");
    EXPECT_EQ(hair.segments().to_vector(), (std::vector<std::uint32_t>{2, 1}));
    EXPECT_EQ(hair.particles().size(), 5u);
    EXPECT_EQ(hair.particles()[4], glm::vec3(1, 1, 0));
    EXPECT_EQ(hair.material().name(), "skin");

    BlendShape smile = model.blend_shapes().at(0);
    EXPECT_EQ(smile.name(), "smile");
    EXPECT_EQ(smile.base_shape().name(), "body");
    EXPECT_EQ(smile.vertex_indices().to_vector(), (std::vector<std::uint32_t>{1, 3}));
    EXPECT_EQ(smile.vertex_positions()[1], glm::vec3(0, 1.5f, 0));
    EXPECT_EQ(smile.target_weight_scale(), 0.5f);
}

TEST(TypedApi, AnimationNodesRoundTrip) {
    Document document = reread(every_node_type_scene());
    Animation animation = document.animations().at(0);
    EXPECT_EQ(animation.name(), "wave");
    EXPECT_EQ(animation.framerate(), 30.0f);
    EXPECT_TRUE(animation.looping());
    EXPECT_EQ(animation.skeleton().bones().at(0).name(), "hand");
    auto curves = animation.curves();
    ASSERT_EQ(curves.size(), 3u);
    EXPECT_EQ(curves[0].node_name(), "hand");
    EXPECT_EQ(curves[0].key_property(), "rq");
    EXPECT_EQ(curves[0].key_frames().to_vector(), (std::vector<std::uint32_t>{0, 300}));
    EXPECT_EQ(curves[0].quaternion_values()[1], glm::vec4(0, 1, 0, 0));
    EXPECT_TRUE(curves[0].float_values().empty());
    EXPECT_EQ(curves[0].mode_name(), "absolute");
    EXPECT_EQ(curves[1].float_values()[1], 2.5f);
    EXPECT_EQ(curves[1].mode_name(), "additive");
    EXPECT_EQ(curves[1].additive_blend_weight(), 0.5f);
    EXPECT_EQ(curves[2].key_property(), "vb");
    EXPECT_EQ(curves[2].integer_values().to_vector(), (std::vector<std::uint32_t>{1, 0}));
    EXPECT_EQ(curves[2].key_values()->type(), PropertyType::Byte);

    CurveModeOverride override_node = animation.curve_mode_overrides().at(0);
    EXPECT_EQ(override_node.node_name(), "spine");
    EXPECT_EQ(override_node.mode_name(), "relative");
    EXPECT_TRUE(override_node.override_translation());
    EXPECT_FALSE(override_node.override_rotation());
    EXPECT_TRUE(override_node.override_scale());

    NotificationTrack track = animation.notification_tracks().at(0);
    EXPECT_EQ(track.name(), "footstep");
    EXPECT_EQ(track.key_frames().to_vector(), (std::vector<std::uint32_t>{5, 17, 29}));
}

}  // namespace
}  // namespace castkit::test::typed_api_test
