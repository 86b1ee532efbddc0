// Two clips played on one skeleton, or two skeletons at rest, compared pose by pose: the answer
// to "which file is wrong?" (`castkit diff`, castkit.diff). Each bone's world position and
// rotation are compared at every frame of the clips' joined key range, so a difference a
// curve's mode or an override makes shows where it matters, in the pose, not in the keys.
#pragma once

#include <castkit/anim/animation.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/expected.hpp>
#include <optional>
#include <string>
#include <vector>

namespace castkit::anim {

struct CompareOptions {
    float position_tolerance = 1e-3f;  // world units
    float rotation_tolerance = 0.01f;  // degrees
    float step = 1.0f;                 // frames of the first clip between compared poses
    // The skeleton's IK handles and constraints solved on both sides (SamplingJob::solve_rig);
    // false compares the curves alone (`castkit diff --no-rig`).
    bool solve_rig = true;
};

// What the two sides make of one bone. A pose with a NaN or infinite value on either side
// cannot be measured: its distance and angle count as infinite, so it is past every tolerance
// (first_frame names the first such frame).
struct BoneDifference {
    std::string bone;
    float position = 0.0f;        // largest world position distance
    float position_frame = 0.0f;  // the first frame where it is largest
    float rotation = 0.0f;        // largest world rotation difference, degrees
    float rotation_frame = 0.0f;
    std::optional<float> first_frame;  // first compared frame past a tolerance
    // The modes of the bone's transform curves on each side, in curve order, joined by "+"
    // ("relative+absolute"); empty when the side does not animate the bone.
    std::string modes_a, modes_b;

    bool modes_disagree() const {
        return !modes_a.empty() && !modes_b.empty() && modes_a != modes_b;
    }
};

struct PoseDifference {
    std::vector<BoneDifference> bones;  // the skeleton's order (the first skeleton's at rest)
    // Bones of one skeleton the other lacks (rest comparisons only).
    std::vector<std::string> only_in_a, only_in_b;
    float first_frame = 0.0f, last_frame = 0.0f;  // compared range, in the first clip's frames
    std::size_t poses = 0;                        // poses compared
    // Whether any bone passes a tolerance, any modes disagree, or a bone is on one side only.
    bool differs() const;
};

// Plays `a` and `b`, both built for `skeleton`, side by side: frame f of `a` against the same
// time of `b` (frame f × b's rate / a's rate), from the first key of either to the last, every
// `options.step` frames and on the last. O(poses × (curves + bones)).
Expected<PoseDifference> compare_clips(const Animation& a, const Animation& b,
                                       const Skeleton& skeleton,
                                       const CompareOptions& options = {});

// The rest poses of two skeletons, bone by bone of the same name. O(bones log bones).
Expected<PoseDifference> compare_rests(const Skeleton& a, const Skeleton& b,
                                       const CompareOptions& options = {});

}  // namespace castkit::anim
