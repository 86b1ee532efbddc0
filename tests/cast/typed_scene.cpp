#include "typed_scene.hpp"

#include <gtest/gtest.h>

#include <array>
#include <castkit/cast/nodes.hpp>

namespace castkit::test {

using namespace castkit::cast;

Document reread(const Document& document) {
    auto bytes = write_to_buffer(document);
    EXPECT_TRUE(bytes);
    Diagnostics warnings;
    auto copy = read(std::move(*bytes), "copy.cast", warnings);
    EXPECT_TRUE(copy) << copy.error().to_string();
    EXPECT_TRUE(warnings.empty());
    return std::move(*copy);
}

// A scene with every node type and every property the views know, built only through views.
Document every_node_type_scene() {
    Document document;
    Root root = document.add_root();

    Metadata metadata = root.add_metadata();
    metadata.set_author("Ada");
    metadata.set_software("castkit tests");
    metadata.set_up_axis(cast::Axis::Y);
    metadata.set_scene_root("Scene");

    Model model = root.add_model();
    model.set_name("Hero");
    model.set_position({1, 2, 3});
    model.set_rotation({0, 0, 0, 1});
    model.set_scale({2, 2, 2});

    Skeleton skeleton = model.add_skeleton();
    Bone pelvis = skeleton.add_bone();
    pelvis.set_name("pelvis");
    pelvis.set_parent_index(-1);
    pelvis.set_local_position({0, 1, 0});
    pelvis.set_local_rotation({0, 0, 0.7071068f, 0.7071068f});
    pelvis.set_world_position({1, 3, 3});
    pelvis.set_world_rotation({0, 0, 0, 1});
    pelvis.set_scale({1, 1, 1});
    Bone spine = skeleton.add_bone();
    spine.set_name("spine");
    spine.set_parent_index(0);
    spine.set_segment_scale_compensate(false);
    Bone hand = skeleton.add_bone();
    hand.set_name("hand");
    hand.set_parent_index(1);

    IKHandle ik = skeleton.add_ik_handle();
    ik.set_name("arm_ik");
    ik.set_start_bone(pelvis);
    ik.set_end_bone(hand);
    ik.set_target_bone(spine);
    ik.set_pole_vector_bone(pelvis);
    ik.set_pole_bone(spine);
    ik.set_use_target_rotation(true);
    ik.set_target_offset({0.5f, 0, -1});

    Constraint constraint = skeleton.add_constraint();
    constraint.set_name("aim");
    constraint.set_constraint_type(cast::ConstraintType::Orient);
    constraint.set_constraint_bone(hand);
    constraint.set_target_bone(pelvis);
    constraint.set_maintain_offset(true);
    constraint.set_custom_offset(glm::vec4(0, 1, 0, 0));
    constraint.set_weight(0.25f);
    constraint.set_skip_x(true);
    constraint.set_skip_z(true);

    Material material = model.add_material();
    material.set_name("skin");
    material.set_type("pbr");
    File albedo = material.add_file("textures/skin_albedo.png");
    Color tint = material.add_color();
    tint.set_name("tint");
    tint.set_color_space(cast::ColorSpace::Linear);
    tint.set_rgba({0.5f, 0.25f, 1, 1});
    material.set_slot("albedo", albedo);
    material.set_slot("diffuse", tint);

    Mesh mesh = model.add_mesh();
    mesh.set_name("body");
    const std::array<glm::vec3, 4> positions = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0),
                                                glm::vec3(1, 1, 0), glm::vec3(0, 1, 0)};
    const std::array<glm::vec3, 4> normals = {glm::vec3(0, 0, 1), glm::vec3(0, 0, 1),
                                              glm::vec3(0, 0, 1), glm::vec3(0, 0, 1)};
    const std::array<glm::vec3, 4> tangents = {glm::vec3(1, 0, 0), glm::vec3(1, 0, 0),
                                               glm::vec3(1, 0, 0), glm::vec3(1, 0, 0)};
    const std::array<std::uint32_t, 6> faces = {0, 1, 2, 0, 2, 3};
    const std::array<glm::vec2, 4> uv0 = {glm::vec2(0, 1), glm::vec2(1, 1), glm::vec2(1, 0),
                                          glm::vec2(0, 0)};
    const std::array<glm::vec2, 4> uv1 = {glm::vec2(0.5f), glm::vec2(0.5f), glm::vec2(0.5f),
                                          glm::vec2(0.5f)};
    const std::array<std::uint32_t, 4> packed = {0xFF0000FF, 0xFF00FF00, 0x80FF4000, 0};
    const std::array<glm::vec4, 4> floats = {glm::vec4(1), glm::vec4(0.5f), glm::vec4(0),
                                             glm::vec4(2, -1, 0.125f, 1)};
    const std::array<std::uint32_t, 8> weight_bones = {0, 1, 0, 1, 1, 2, 2, 0};
    const std::array<float, 8> weight_values = {0.75f, 0.25f, 1, 0, 0.5f, 0.5f, 1, 0};
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    mesh.set_tangents(tangents);
    mesh.set_faces(faces);
    EXPECT_TRUE(mesh.set_uv_layer(0, uv0));
    EXPECT_TRUE(mesh.set_uv_layer(1, uv1));
    EXPECT_TRUE(mesh.set_color_layer_packed(0, packed));
    EXPECT_TRUE(mesh.set_color_layer(1, floats));
    EXPECT_TRUE(mesh.set_weights(2, weight_bones, weight_values));
    mesh.set_skinning_method(cast::SkinningMethod::Quaternion);
    mesh.set_material(material);

    Hair hair = model.add_hair();
    hair.set_name("fringe");
    const std::array<std::uint32_t, 2> segments = {2, 1};
    const std::array<glm::vec3, 5> particles = {glm::vec3(0), glm::vec3(0, 1, 0),
                                                glm::vec3(0, 2, 0), glm::vec3(1, 0, 0),
                                                glm::vec3(1, 1, 0)};
    hair.set_segments(segments);
    hair.set_particles(particles);
    hair.set_material(material);

    BlendShape smile = model.add_blend_shape();
    smile.set_name("smile");
    smile.set_base_shape(mesh);
    const std::array<std::uint32_t, 2> indices = {1, 3};
    const std::array<glm::vec3, 2> targets = {glm::vec3(1.5f, 0, 0), glm::vec3(0, 1.5f, 0)};
    smile.set_targets(indices, targets);
    smile.set_target_weight_scale(0.5f);

    Animation animation = root.add_animation();
    animation.set_name("wave");
    animation.set_framerate(30);
    animation.set_looping(true);
    Bone anim_bone = animation.add_skeleton().add_bone();
    anim_bone.set_name("hand");
    Curve rotation = animation.add_curve();
    rotation.set_node_name("hand");
    rotation.set_key_property(cast::KeyProperty::Rotation);
    const std::array<std::uint32_t, 2> frames = {0, 300};
    const std::array<glm::vec4, 2> quaternions = {glm::vec4(0, 0, 0, 1), glm::vec4(0, 1, 0, 0)};
    rotation.set_key_frames(frames);
    rotation.set_quaternion_values(quaternions);
    rotation.set_mode(cast::CurveMode::Absolute);
    Curve translation = animation.add_curve();
    translation.set_node_name("hand");
    translation.set_key_property(cast::KeyProperty::TranslationX);
    const std::array<float, 2> tx = {0, 2.5f};
    translation.set_key_frames(frames);
    translation.set_float_values(tx);
    translation.set_mode(cast::CurveMode::Additive);
    translation.set_additive_blend_weight(0.5f);
    Curve visibility = animation.add_curve();
    visibility.set_node_name("hand");
    visibility.set_key_property(cast::KeyProperty::Visibility);
    const std::array<std::uint32_t, 2> visible = {1, 0};
    visibility.set_key_frames(frames);
    visibility.set_integer_values(visible);
    visibility.set_mode(cast::CurveMode::Relative);
    CurveModeOverride override_node = animation.add_curve_mode_override();
    override_node.set_node_name("spine");
    override_node.set_mode(cast::CurveMode::Relative);
    override_node.set_override_translation(true);
    override_node.set_override_scale(true);
    NotificationTrack track = animation.add_notification_track();
    track.set_name("footstep");
    const std::array<std::uint32_t, 3> events = {5, 17, 29};
    track.set_key_frames(events);

    Instance instance = root.add_instance();
    instance.set_name("crate");
    File crate = instance.add_file("props/crate.cast");
    instance.set_reference_file(crate);
    instance.set_position({10, 0, 0});
    instance.set_rotation({0, 0, 0, 1});
    instance.set_scale({1, 2, 1});
    return document;
}

}  // namespace castkit::test
