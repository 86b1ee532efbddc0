// A small Cast scene built in memory for the animation tests: one Model with a Skeleton and one
// Animation, plus helpers that compile and sample it.
#pragma once

#include <gtest/gtest.h>

#include <castkit/anim/animation.hpp>
#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <cmath>
#include <string>
#include <vector>

namespace castkit::test {

// A unit quaternion for `degrees` about a unit axis, as Cast stores it (XYZW).
inline glm::vec4 axis_angle_xyzw(glm::vec3 axis, float degrees) {
    float half = glm::radians(degrees) / 2.0f;
    return glm::vec4(axis * std::sin(half), std::cos(half));
}

struct Pose {
    std::vector<anim::Transform> locals;
    std::vector<float> weights;
    std::vector<float> visibility;
};

class AnimScene {
  public:
    AnimScene() {
        root_ = document.add_root();
        model = root_.add_model();
        skeleton = model.add_skeleton();
        animation = root_.add_animation();
        animation.set_framerate(30.0f);
    }

    cast::Bone bone(std::string_view name, std::int32_t parent = -1,
                    glm::vec3 position = glm::vec3(0), glm::vec4 rotation = glm::vec4(0, 0, 0, 1),
                    glm::vec3 scale = glm::vec3(1)) {
        cast::Bone b = skeleton.add_bone();
        b.set_name(name);
        b.set_parent_index(parent);
        b.set_local_position(position);
        b.set_local_rotation(rotation);
        b.set_scale(scale);
        return b;
    }

    cast::Curve curve(std::string_view node, std::string_view kp, std::vector<std::uint32_t> frames,
                      std::vector<float> values, std::string_view mode = "absolute") {
        cast::Curve c = animation.add_curve();
        c.set_node_name(node);
        c.set_string("kp", kp);  // any text: tests also key unknown properties
        c.set_key_frames(frames);
        c.set_float_values(values);
        if (!mode.empty()) c.set_string("m", mode);  // any text: tests also store unknown modes
        return c;
    }

    cast::Curve rotation(std::string_view node, std::vector<std::uint32_t> frames,
                         std::vector<glm::vec4> values, std::string_view mode = "absolute") {
        cast::Curve c = animation.add_curve();
        c.set_node_name(node);
        c.set_key_property(cast::KeyProperty::Rotation);
        c.set_key_frames(frames);
        c.set_quaternion_values(values);
        if (!mode.empty()) c.set_string("m", mode);
        return c;
    }

    cast::CurveModeOverride override_mode(std::string_view node, std::string_view mode,
                                          bool translation, bool rotation_flag, bool scale) {
        cast::CurveModeOverride o = animation.add_curve_mode_override();
        o.set_node_name(node);
        o.set_string("m", mode);
        o.set_override_translation(translation);
        o.set_override_rotation(rotation_flag);
        o.set_override_scale(scale);
        return o;
    }

    // Compiles the animation; reports land in `reports`.
    void build() {
        reports.clear();
        auto s = anim::build_skeleton(skeleton, reports);
        ASSERT_TRUE(s.has_value()) << s.error().to_string();
        compiled_skeleton = std::move(*s);
        auto a = anim::build_animation(animation, compiled_skeleton, anim::binding_targets(model),
                                       reports, &document);
        ASSERT_TRUE(a.has_value()) << a.error().to_string();
        compiled = std::move(*a);
    }

    // The pose at `frame`; `solve_rig` false leaves the skeleton's IK handles and constraints
    // unsolved.
    Pose sample(float frame, bool looped = false, bool solve_rig = true) const {
        return sample(compiled, frame, looped, solve_rig);
    }

    Pose sample(const anim::Animation& a, float frame, bool looped = false,
                bool solve_rig = true) const {
        Pose pose{std::vector<anim::Transform>(compiled_skeleton.bone_count()),
                  std::vector<float>(a.blend_shapes().size()),
                  std::vector<float>(a.visibility_nodes().size())};
        anim::SamplingJob job{.animation = &a,
                              .skeleton = &compiled_skeleton,
                              .frame = frame,
                              .looped = looped,
                              .locals = pose.locals,
                              .blend_shape_weights = pose.weights,
                              .visibility = pose.visibility,
                              .solve_rig = solve_rig};
        auto ok = job.run();
        EXPECT_TRUE(ok.has_value());
        return pose;
    }

    std::vector<glm::mat4> worlds(const Pose& pose) const {
        std::vector<glm::mat4> out(compiled_skeleton.bone_count());
        anim::LocalToWorldJob job{
            .skeleton = &compiled_skeleton, .locals = pose.locals, .worlds = out};
        EXPECT_TRUE(job.run().has_value());
        return out;
    }

    std::size_t reports_with_rule(std::string_view rule) const {
        std::size_t n = 0;
        for (const Diagnostic& d : reports) n += d.rule == rule;
        return n;
    }

    cast::Document document;
    cast::Model model;
    cast::Skeleton skeleton;
    cast::Animation animation;
    anim::Skeleton compiled_skeleton;
    anim::Animation compiled;
    Diagnostics reports;

  private:
    cast::Root root_;
};

// 100 IK handles over one two-bone leg, its target keyed at frames 0 and `last`: a file of a few
// KB whose rig is solved 100 times on every frame between (issue 57's reproducer, 200,000 frames
// there).
inline AnimScene many_ik_handles(std::uint32_t last) {
    AnimScene scene;
    const cast::Bone hip = scene.bone("hip", -1, {0, 2, 0});
    scene.bone("knee", 0, {0, -0.5f, 0}, axis_angle_xyzw({1, 0, 0}, -10.0f));
    const cast::Bone foot = scene.bone("foot", 1, {0, -0.5f, 0}, axis_angle_xyzw({1, 0, 0}, 10.0f));
    const cast::Bone target = scene.bone("foot_ik", -1, {0.3f, 1.2f, 0.4f});
    for (int h = 0; h < 100; ++h) {
        cast::IKHandle handle = scene.skeleton.add_ik_handle();
        handle.set_start_bone(hip);
        handle.set_end_bone(foot);
        handle.set_target_bone(target);
    }
    scene.curve("foot_ik", "tx", {0, last}, {0.3f, 0.1f});
    return scene;
}

// Quaternions q and -q are the same rotation: compares components after aligning the sign.
inline void expect_same_rotation(glm::quat actual, const glm::vec4& expected_xyzw,
                                 float tolerance = 1e-5f) {
    glm::quat e = cast::quat_from_xyzw(expected_xyzw);
    if (glm::dot(actual, e) < 0.0f) actual = -actual;
    EXPECT_NEAR(actual.x, e.x, tolerance);
    EXPECT_NEAR(actual.y, e.y, tolerance);
    EXPECT_NEAR(actual.z, e.z, tolerance);
    EXPECT_NEAR(actual.w, e.w, tolerance);
}

inline void expect_vec3(const glm::vec3& actual, const glm::vec3& expected,
                        float tolerance = 1e-5f) {
    EXPECT_NEAR(actual.x, expected.x, tolerance);
    EXPECT_NEAR(actual.y, expected.y, tolerance);
    EXPECT_NEAR(actual.z, expected.z, tolerance);
}

}  // namespace castkit::test
