// Pose-by-pose comparison of two clips, or of two rest poses (castkit/anim/compare.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <castkit/anim/budget.hpp>
#include <castkit/anim/compare.hpp>
#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <map>

#include "problem.hpp"

namespace castkit::anim {
namespace {

// The angle between two rotations, in degrees: atan2 of the relative rotation's halves, which
// stays exact for the small angles a tolerance is about (acos of a dot product does not).
float angle_between(const glm::quat& a, const glm::quat& b) {
    const glm::quat relative = glm::conjugate(a) * b;
    const float half_sine = glm::length(glm::vec3(relative.x, relative.y, relative.z));
    return glm::degrees(2.0f * std::atan2(half_sine, std::abs(relative.w)));
}

// The world pose of one side at one frame, as matrices. O(curves + bones).
struct Side {
    const Animation* animation;
    const Skeleton* skeleton;
    SamplingContext context;
    std::vector<Transform> locals;
    std::vector<glm::mat4> worlds;
    bool solve_rig;

    Side(const Animation& played, const Skeleton& on, bool solve)
        : animation(&played),
          skeleton(&on),
          context(played),
          locals(on.bone_count()),
          worlds(on.bone_count()),
          solve_rig(solve) {}

    std::vector<float> weights = std::vector<float>(animation->blend_shapes().size());
    std::vector<float> visibility = std::vector<float>(animation->visibility_nodes().size());

    Expected<void> pose(float frame) {
        SamplingJob sampling{.animation = animation,
                             .skeleton = skeleton,
                             .frame = frame,
                             .context = &context,
                             .locals = locals,
                             .blend_shape_weights = weights,
                             .visibility = visibility,
                             .solve_rig = solve_rig};
        if (auto sampled = sampling.run(); !sampled) return sampled;
        return LocalToWorldJob{.skeleton = skeleton, .locals = locals, .worlds = worlds}.run();
    }
};

bool finite(const glm::mat4& m) {
    for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row)
            if (!std::isfinite(m[column][row])) return false;
    return true;
}

// Takes one pose pair into `bone`'s figures. O(1). A pose that is not a number on either side
// is as far from the other as can be (an infinite distance and angle), so that it differs:
// NaN compares false against every tolerance.
void note(BoneDifference& bone, const glm::mat4& a, const glm::mat4& b, float frame,
          const CompareOptions& options) {
    const bool measurable = finite(a) && finite(b);
    constexpr float kUnmeasurable = std::numeric_limits<float>::infinity();
    const float distance =
        measurable ? glm::length(glm::vec3(a[3]) - glm::vec3(b[3])) : kUnmeasurable;
    const float angle =
        measurable ? angle_between(decompose(a).rotation, decompose(b).rotation) : kUnmeasurable;
    if (distance > bone.position) {
        bone.position = distance;
        bone.position_frame = frame;
    }
    if (angle > bone.rotation) {
        bone.rotation = angle;
        bone.rotation_frame = frame;
    }
    if (!bone.first_frame &&
        (distance > options.position_tolerance || angle > options.rotation_tolerance))
        bone.first_frame = frame;
}

// The modes of each bone's transform curves in `animation`, in curve order, joined by "+",
// repeats of the same mode in a row kept once. O(curves).
std::vector<std::string> bone_modes(const Animation& animation, std::size_t bones) {
    std::vector<std::string> modes(bones);
    for (const BoundCurve& curve : animation.curves()) {
        if (curve.channel == Channel::BlendShape || curve.channel == Channel::Visibility ||
            curve.target >= bones)
            continue;
        const std::string name(cast::curve_mode_name(curve.mode));
        std::string& joined = modes[curve.target];
        if (joined == name || joined.ends_with("+" + name)) continue;
        joined += (joined.empty() ? "" : "+") + name;
    }
    return modes;
}

Expected<void> check_options(const CompareOptions& options) {
    if (!(options.step > 0.0f) || !std::isfinite(options.step))
        return make_error(
            problem("anim.compare", fmt::format("cannot step by {} frames", options.step)));
    if (!(options.position_tolerance >= 0.0f) || !(options.rotation_tolerance >= 0.0f))
        return make_error(problem("anim.compare", "tolerances must be zero or more"));
    return {};
}

}  // namespace

bool PoseDifference::differs() const {
    return !only_in_a.empty() || !only_in_b.empty() ||
           std::any_of(bones.begin(), bones.end(), [](const BoneDifference& bone) {
               return bone.first_frame.has_value() || bone.modes_disagree();
           });
}

Expected<PoseDifference> compare_clips(const Animation& a, const Animation& b,
                                       const Skeleton& skeleton, const CompareOptions& options) {
    if (auto checked = check_options(options); !checked) return make_error(checked.error());
    if (a.bone_count() != skeleton.bone_count() || b.bone_count() != skeleton.bone_count())
        return make_error(problem("anim.compare", "a clip was built for another skeleton"));
    const float to_b = b.framerate() / a.framerate();  // b's frames per frame of a
    PoseDifference result;
    result.first_frame = std::min(a.start_frame(), b.start_frame() / to_b);
    result.last_frame = std::max(a.end_frame(), b.end_frame() / to_b);
    const double span = (double(result.last_frame) - result.first_frame) / options.step;
    const std::uint64_t keys = key_count(a) + key_count(b);
    const std::uint64_t budget = sample_budget(keys, 0);
    // Each compared pose samples both clips (with the rig) and takes every bone's world pose.
    const double work =
        sampling_work(span + 2, a, skeleton, options.solve_rig) +
        sampling_work(span + 2, b, skeleton, options.solve_rig, nullptr, skeleton.bone_count());
    if (!std::isfinite(span) || work > double(budget))
        return make_error(problem(
            "anim.sample-budget",
            fmt::format("frames {} to {} every {} take {} samples (bones, curves and the rig's "
                        "work per pose), more than the limit of {} for the clips' {} keys; "
                        "compare with a larger --step",
                        result.first_frame, result.last_frame, options.step, work, budget, keys)));
    const std::vector<std::string> modes_a = bone_modes(a, skeleton.bone_count());
    const std::vector<std::string> modes_b = bone_modes(b, skeleton.bone_count());
    for (std::size_t i = 0; i < skeleton.bone_count(); ++i) {
        BoneDifference& bone = result.bones.emplace_back();
        bone.bone = skeleton.names()[i];
        bone.modes_a = modes_a[i];
        bone.modes_b = modes_b[i];
    }
    Side side_a(a, skeleton, options.solve_rig), side_b(b, skeleton, options.solve_rig);
    const auto steps = static_cast<std::uint64_t>(std::floor(span));
    auto compare_at = [&](float frame) -> Expected<void> {
        if (auto posed = side_a.pose(frame); !posed) return posed;
        if (auto posed = side_b.pose(frame * to_b); !posed) return posed;
        for (std::size_t bone = 0; bone < skeleton.bone_count(); ++bone)
            note(result.bones[bone], side_a.worlds[bone], side_b.worlds[bone], frame, options);
        ++result.poses;
        return {};
    };
    float frame = result.first_frame;
    for (std::uint64_t i = 0; i <= steps; ++i) {
        frame = static_cast<float>(result.first_frame + static_cast<double>(i) * options.step);
        if (auto compared = compare_at(frame); !compared) return make_error(compared.error());
    }
    if (frame < result.last_frame)  // the last key, when no step lands on it
        if (auto compared = compare_at(result.last_frame); !compared)
            return make_error(compared.error());
    return result;
}

Expected<PoseDifference> compare_rests(const Skeleton& a, const Skeleton& b,
                                       const CompareOptions& options) {
    if (auto checked = check_options(options); !checked) return make_error(checked.error());
    const std::vector<glm::mat4>& worlds_a = a.rest_worlds();
    const std::vector<glm::mat4>& worlds_b = b.rest_worlds();
    PoseDifference result;
    result.poses = 1;
    for (std::size_t i = 0; i < a.bone_count(); ++i) {
        const std::int32_t j = b.find_bone(a.names()[i]);
        if (j < 0) {
            result.only_in_a.push_back(a.names()[i]);
            continue;
        }
        BoneDifference& bone = result.bones.emplace_back();
        bone.bone = a.names()[i];
        note(bone, worlds_a[i], worlds_b[static_cast<std::size_t>(j)], 0.0f, options);
    }
    for (const std::string& name : b.names())
        if (a.find_bone(name) < 0) result.only_in_b.push_back(name);
    return result;
}

}  // namespace castkit::anim
