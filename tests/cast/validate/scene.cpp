#include "scene.hpp"

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

namespace castkit::test {

using namespace castkit::cast;

Scene::Scene() {
    root = document.add_root();
    model = root.add_model();
    model.set_name("hero");
    model.set_rotation({0, 0, 0, 1});

    skeleton = model.add_skeleton();
    const char* names[] = {"root", "spine", "head"};
    for (int i = 0; i < 3; ++i) {
        Bone bone = skeleton.add_bone();
        bone.set_name(names[i]);
        bone.set_parent_index(i - 1);
        bone.set_local_rotation({0, 0, 0.6f, 0.8f});
        bone.set_local_position({0, 1, 0});
        bones.push_back(bone);
    }
    ik_handle = skeleton.add_ik_handle();
    ik_handle.set_start_bone(bones[0]);
    ik_handle.set_end_bone(bones[2]);
    constraint = skeleton.add_constraint();
    constraint.set_constraint_type(cast::ConstraintType::Orient);
    constraint.set_constraint_bone(bones[1]);
    constraint.set_target_bone(bones[2]);
    constraint.set_custom_offset(glm::vec4(0, 0, 0, 1));

    material = model.add_material();
    material.set_name("skin");
    material.set_type("pbr");
    texture = material.add_file("skin.png");
    tint = material.add_color();
    tint.set_rgba({1, 0.5f, 0.25f, 1});
    material.set_slot("albedo", texture);
    material.set_slot("specular", tint);

    mesh = model.add_mesh();
    mesh.set_name("body");
    const std::vector<glm::vec3> positions{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    const std::vector<glm::vec3> normals(4, glm::vec3(0, 0, 1));
    const std::vector<glm::vec2> uvs{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const std::vector<std::uint32_t> colors(4, 0xFF0000FFu);
    const std::vector<std::uint32_t> faces{0, 1, 2, 0, 2, 3};
    const std::vector<std::uint32_t> weight_bones{0, 1, 1, 2, 2, 0, 0, 1};
    const std::vector<float> weight_values{0.5f, 0.5f, 0.25f, 0.75f, 1.0f, 0.0f, 0.9f, 0.1f};
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    EXPECT_TRUE(mesh.set_uv_layer(0, uvs));
    EXPECT_TRUE(mesh.set_color_layer_packed(0, colors));
    mesh.set_faces(faces);
    EXPECT_TRUE(mesh.set_weights(2, weight_bones, weight_values));
    mesh.set_material(material);

    blend_shape = model.add_blend_shape();
    blend_shape.set_name("smile");
    blend_shape.set_base_shape(mesh);
    const std::vector<std::uint32_t> shape_indices{1, 2};
    const std::vector<glm::vec3> shape_positions{{1, 0.1f, 0}, {1, 1.1f, 0}};
    blend_shape.set_targets(shape_indices, shape_positions);

    hair = model.add_hair();
    hair.set_name("fringe");
    const std::vector<std::uint32_t> segments{2, 1};
    const std::vector<glm::vec3> particles(5, glm::vec3(0, 2, 0));
    hair.set_segments(segments);
    hair.set_particles(particles);
    hair.set_material(material);

    animation = root.add_animation();
    animation.set_name("walk");
    animation.set_framerate(30.0f);
    const std::vector<std::uint32_t> two_keys{0, 10};
    rotation_curve = animation.add_curve();
    rotation_curve.set_node_name("spine");
    rotation_curve.set_key_property(cast::KeyProperty::Rotation);
    rotation_curve.set_key_frames(two_keys);
    const std::vector<glm::vec4> rotations{{0, 0, 0, 1}, {0, 0.6f, 0, 0.8f}};
    rotation_curve.set_quaternion_values(rotations);
    rotation_curve.set_mode(cast::CurveMode::Absolute);
    translation_curve = animation.add_curve();
    translation_curve.set_node_name("Head");  // matches bone "head" case-insensitively (rule 24)
    translation_curve.set_key_property(cast::KeyProperty::TranslationX);
    const std::vector<std::uint32_t> three_keys{0, 5, 10};
    translation_curve.set_key_frames(three_keys);
    const std::vector<float> offsets{0.0f, 0.5f, 1.0f};
    translation_curve.set_float_values(offsets);
    translation_curve.set_mode(cast::CurveMode::Relative);
    visibility_curve = animation.add_curve();
    visibility_curve.set_node_name("head");
    visibility_curve.set_key_property(cast::KeyProperty::Visibility);
    visibility_curve.set_key_frames(two_keys);
    const std::vector<std::uint32_t> visible{1, 0};
    visibility_curve.set_integer_values(visible);
    visibility_curve.set_mode(cast::CurveMode::Absolute);
    shape_curve = animation.add_curve();
    shape_curve.set_node_name("smile");
    shape_curve.set_key_property(cast::KeyProperty::BlendShape);
    shape_curve.set_key_frames(two_keys);
    const std::vector<float> weights{0.0f, 1.0f};
    shape_curve.set_float_values(weights);
    shape_curve.set_mode(cast::CurveMode::Additive);
    mode_override = animation.add_curve_mode_override();
    mode_override.set_node_name("spine");
    mode_override.set_mode(cast::CurveMode::Additive);
    mode_override.set_override_rotation(true);
    notification_track = animation.add_notification_track();
    notification_track.set_name("footstep");
    const std::vector<std::uint32_t> steps{0, 5, 5};
    notification_track.set_key_frames(steps);

    instance = root.add_instance();
    instance.set_name("prop");
    instance_file = instance.add_file("crate.cast");
    instance.set_reference_file(instance_file);
    instance.set_position({1, 2, 3});
    instance.set_rotation({0, 0, 0, 1});
    instance.set_scale({1, 1, 1});

    metadata = root.add_metadata();
    metadata.set_author("castkit tests");
    metadata.set_up_axis(cast::Axis::Y);
}

Diagnostics check(const Document& document, const ValidateOptions& options) {
    auto bytes = write_to_buffer(document);
    EXPECT_TRUE(bytes.has_value());
    if (!bytes) return {};
    Diagnostics diagnostics;  // the reader's findings, then the validator's
    auto read_back = read(std::move(*bytes), "scene.cast", diagnostics);
    EXPECT_TRUE(read_back.has_value()) << read_back.error().to_string();
    if (!read_back) return {};
    validate(*read_back, diagnostics, options);
    return diagnostics;
}

Diagnostics check_in_memory(const Document& document) {
    Diagnostics diagnostics;
    validate(document, diagnostics);
    return diagnostics;
}

std::string describe(const Diagnostics& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += "\n  " + d.to_string();
    return out.empty() ? "\n  (no findings)" : out;
}

::testing::AssertionResult only(const Diagnostics& diagnostics, std::string_view rule) {
    if (diagnostics.empty())
        return ::testing::AssertionFailure() << "expected " << rule << ", got no findings";
    for (const Diagnostic& d : diagnostics)
        if (d.rule != rule)
            return ::testing::AssertionFailure()
                   << "expected only " << rule << ", got:" << describe(diagnostics);
    const ValidationRule* info = find_validation_rule(rule);
    if (info == nullptr)
        return ::testing::AssertionFailure() << rule << " is not in the rule table";
    for (const Diagnostic& d : diagnostics)
        if (d.severity != info->severity)
            return ::testing::AssertionFailure()
                   << rule << " reported as " << severity_name(d.severity);
    return ::testing::AssertionSuccess();
}

}  // namespace castkit::test
