// The hero's skeleton, its texture layout, and the platform-independent angle functions the
// mesh and the animations share.
#include "hero.hpp"

namespace hero {

castkit::cast::Metadata add_example_metadata(castkit::cast::Root& root) {
    castkit::cast::Metadata metadata = root.add_metadata();
    metadata.set_author("castkit examples");
    metadata.set_software("castkit build_scene");
    metadata.set_up_axis(castkit::cast::Axis::Y);
    metadata.set_units(castkit::cast::Units::Metres);
    return metadata;
}

SinCos sin_cos(double radians) {
    double x = radians;
    while (x > kPi) x -= 2 * kPi;
    while (x < -kPi) x += 2 * kPi;
    // Fourteen terms of each series: the first left out is below 1e-15 for |x| <= pi.
    double sin = 0, cos = 0, sin_term = x, cos_term = 1;
    for (int k = 0; k < 14; ++k) {
        sin += sin_term;
        cos += cos_term;
        sin_term *= -x * x / ((2 * k + 2) * (2 * k + 3));
        cos_term *= -x * x / ((2 * k + 1) * (2 * k + 2));
    }
    return {sin, cos};
}

glm::vec4 axis_angle(glm::dvec3 axis, double radians) {
    const SinCos half = sin_cos(radians / 2);
    return glm::vec4(glm::dvec4(axis * half.sin, half.cos));
}

glm::vec4 multiply(const glm::vec4& a, const glm::vec4& b) {
    const glm::dvec3 av(a), bv(b);
    const glm::dvec3 v = double(a.w) * bv + double(b.w) * av + glm::cross(av, bv);
    return glm::vec4(glm::dvec4(v, double(a.w) * b.w - glm::dot(av, bv)));
}

const std::array<BoneSpec, kBoneCount>& skeleton() {
    // Arms hang in a relaxed A pose; the knees sit a centimetre forward so that they bend the
    // right way in tools that solve IK.
    static const std::array<BoneSpec, kBoneCount> bones = {{
        {"pelvis", -1, {0, 0.95, 0}},
        {"spine", Pelvis, {0, 1.05, 0}},
        {"chest", Spine, {0, 1.22, 0}},
        {"neck", Chest, {0, 1.47, 0}},
        {"head", Neck, {0, 1.56, 0}},
        {"clavicle_l", Chest, {0.03, 1.42, 0}},
        {"upper_arm_l", ClavicleL, {0.18, 1.41, 0}},
        {"forearm_l", UpperArmL, {0.235, 1.14, 0}},
        {"hand_l", ForearmL, {0.285, 0.895, 0.01}},
        {"clavicle_r", Chest, {-0.03, 1.42, 0}},
        {"upper_arm_r", ClavicleR, {-0.18, 1.41, 0}},
        {"forearm_r", UpperArmR, {-0.235, 1.14, 0}},
        {"hand_r", ForearmR, {-0.285, 0.895, 0.01}},
        {"thigh_l", Pelvis, {0.095, 0.92, 0}},
        {"calf_l", ThighL, {0.1, 0.5, 0.01}},
        {"foot_l", CalfL, {0.1, 0.09, -0.01}},
        {"toe_l", FootL, {0.1, 0.02, 0.12}},
        {"thigh_r", Pelvis, {-0.095, 0.92, 0}},
        {"calf_r", ThighR, {-0.1, 0.5, 0.01}},
        {"foot_r", CalfR, {-0.1, 0.09, -0.01}},
        {"toe_r", FootR, {-0.1, 0.02, 0.12}},
    }};
    return bones;
}

Region region(Paint paint) {
    switch (paint) {
        case Paint::Head:
            return {0, 0, 256, 256};
        case Paint::Chest:
            return {256, 0, 256, 128};
        case Paint::Belly:
            return {256, 128, 256, 64};
        case Paint::Hips:
            return {256, 192, 256, 64};
        case Paint::Neck:
            return {0, 256, 128, 64};
        case Paint::Sleeve:
            return {128, 256, 128, 64};
        case Paint::Forearm:
            return {256, 256, 128, 64};
        case Paint::Hand:
            return {384, 256, 128, 64};
        case Paint::Thigh:
            return {0, 320, 256, 64};
        case Paint::Shin:
            return {256, 320, 256, 64};
        case Paint::Shoe:
            return {0, 384, 256, 128};
    }
    return {256, 384, 256, 128};  // unused
}

castkit::cast::Document rigged(const char* texture_path) {
    castkit::cast::Document document = model(texture_path);
    castkit::cast::Skeleton skeleton = document.models()[0].skeleton();
    const std::vector<castkit::cast::Bone> bones = skeleton.bones();
    // Two roots the rig adds: the left foot's IK target, where the foot rests, and a pole in
    // front of the knee.
    const auto add_root_bone = [&skeleton](const char* name, glm::vec3 at) {
        castkit::cast::Bone bone = skeleton.add_bone();
        bone.set_name(name);
        bone.set_parent_index(-1);
        bone.set_local_position(at);
        bone.set_local_rotation({0, 0, 0, 1});
        bone.set_world_position(at);
        bone.set_world_rotation({0, 0, 0, 1});
        bone.set_scale({1, 1, 1});
        return bone;
    };
    const castkit::cast::Bone target = add_root_bone("foot_ik_l", {0.1f, 0.09f, -0.01f});
    const castkit::cast::Bone pole = add_root_bone("knee_pole_l", {0.1f, 0.5f, 0.6f});
    castkit::cast::IKHandle leg = skeleton.add_ik_handle();
    leg.set_name("leg_ik_l");
    leg.set_start_bone(bones[ThighL]);
    leg.set_end_bone(bones[FootL]);
    leg.set_target_bone(target);
    leg.set_pole_vector_bone(pole);
    // The head keeps half of the chest's turn: a steadier gaze.
    castkit::cast::Constraint steady = skeleton.add_constraint();
    steady.set_name("head_steady");
    steady.set_constraint_type(castkit::cast::ConstraintType::Orient);
    steady.set_constraint_bone(bones[Head]);
    steady.set_target_bone(bones[Chest]);
    steady.set_weight(0.5f);
    return document;
}

}  // namespace hero
