// The offline half's other direction: a runtime Animation resampled into a new Cast Animation
// whose curves are all absolute (what the plugins' exporters write), and a key reducer that
// keeps a baked file small.
#pragma once

#include <castkit/anim/animation.hpp>
#include <castkit/anim/budget.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/document.hpp>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace castkit::anim {

struct BakeOptions {
    // Output frames per second; 0 keeps the animation's rate.
    float framerate = 0.0f;
    // When set, keys are reduced so that every baked frame stays within this distance of the
    // full bake: units for translation, scale and blend weights, radians for rotations.
    std::optional<float> tolerance = std::nullopt;
    // A Skeleton node copied into the baked Animation (for self-contained animation files).
    const cast::Node* skeleton_node = nullptr;
    // Every output frame samples the animation (and the base under it), solves the rig and
    // stores every output channel. More of that work (sampling_work, castkit/anim/budget.hpp)
    // than sample_budget allows is an `anim.sample-budget` error rather than unbounded time: a
    // few bytes of key frames can name millions of frames. 0: in proportion to the animation's
    // (and the base's) keys; another value: that many at most.
    std::uint64_t max_samples = 0;
    // The bytes of the files the animation came from: the bake keeps at most
    // memory_budget(input_bytes) bytes (8 per input byte plus 64 MiB), more is an
    // `anim.memory-budget` error. 0: the bytes of the animation's (and the base's) keys.
    std::uint64_t input_bytes = 0;
    // What a refusal calls that input ("walk.cast"); empty: "the input".
    std::string_view input_name = {};
    // The pose an additive animation is layered on (`castkit bake --base`): a clip built for
    // the same skeleton, sampled at the time of each baked frame (wrapped when it loops, held
    // past its ends otherwise), or at `base_frame` alone when that is set. Null: the rest pose.
    // The bones the base animates are baked too, so the result is the whole absolute motion.
    const Animation* base = nullptr;
    std::optional<float> base_frame = std::nullopt;
    // The skeleton's IK handles solved at every baked frame, the bones of their chains baked too
    // (SamplingJob::solve_rig); false bakes the curves alone (`castkit bake --no-rig`).
    bool solve_rig = true;
};

// The pose an additive clip is layered on, frame after frame (`castkit bake --base`, `castkit
// pose --base`): none (the rest pose), one frame of a base clip, or the base clip at the same
// time, wrapped when it loops. Keeps the sampling state of `clip`, which must outlive it and be
// built for `skeleton`; the rig is solved on the base pose when `solve_rig` is set.
class BasePose {
  public:
    BasePose(const Animation* clip, const Skeleton& skeleton, bool solve_rig = true);

    // The base at `seconds`, or at `frame` of the base clip when given; empty for the rest pose.
    // The span stays valid until the next call. O(bones + the clip's curves).
    Expected<std::span<const Transform>> at(std::optional<float> frame, double seconds);

  private:
    const Animation* clip_;
    const Skeleton* skeleton_;
    bool solve_rig_;
    SamplingContext context_;
    std::vector<Transform> locals_;
    std::vector<float> weights_, visibility_;
};

// Samples `animation` at every output frame from its first to its last key and writes one
// Root > Animation with an absolute curve for each channel any curve animates (tx/ty/tz/sx/
// sy/sz per component, rq per bone, bs and vb per name), plus the notification tracks with
// their frames rescaled. Curves are named after the skeleton's bones; `vb` keys are 0 or 1.
// O(sampling_work), at most sample_budget(keys, options.max_samples), plus reduction; keeps
// frames × channels values, at most memory_budget(options.input_bytes) bytes.
Expected<cast::Document> bake(const Animation& animation, const Skeleton& skeleton,
                              const BakeOptions& options = {});

// The keys to keep (ascending indices, always the first and the last) so that linear
// interpolation of the kept keys is within `tolerance` of every key. O(keys).
std::vector<std::uint32_t> reduce_linear_keys(std::span<const float> frames,
                                              std::span<const float> values, float tolerance);

// The same for quaternion keys under shortest-path slerp; `tolerance` is the largest angle in
// radians between a dropped key and the slerp of the kept ones. O(keys · log keys) slerps.
std::vector<std::uint32_t> reduce_slerp_keys(std::span<const float> frames,
                                             std::span<const glm::quat> values, float tolerance);

}  // namespace castkit::anim
