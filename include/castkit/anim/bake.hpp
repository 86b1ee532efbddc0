// The offline half's other direction: a runtime Animation resampled into a new Cast Animation
// whose curves are all absolute (what the plugins' exporters write), and a key reducer that
// keeps a baked file small.
#pragma once

#include <castkit/anim/animation.hpp>
#include <castkit/anim/jobs.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/document.hpp>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <span>
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
    // Every output frame resets every bone, applies every curve and stores every output channel.
    // More of that work (frames × (bones + curves + channels)) than sample_budget allows is an
    // error rather than unbounded time and memory: a few bytes of key frames can name millions
    // of frames. 0: in proportion to the animation's keys; another value: that many at most.
    std::uint64_t max_samples = 0;
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

// How many samples (frames × (bones + curves + ...)) baking or resampling `keys` keys may take
// when the caller set no limit of its own (`max_samples` 0): 256 per key plus 2^20, at most
// 2^26, so a file of a few keys far apart cannot make work or output thousands of times its
// own size. A caller's own `max_samples` is taken as it is (a file known to be sparse). O(1).
inline constexpr std::uint64_t kSampleFloor = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kSamplesPerKey = 256;
inline constexpr std::uint64_t kSampleCeiling = std::uint64_t{1} << 26;
constexpr std::uint64_t sample_budget(std::uint64_t keys, std::uint64_t max_samples) {
    if (max_samples != 0) return max_samples;
    if (keys >= (kSampleCeiling - kSampleFloor) / kSamplesPerKey) return kSampleCeiling;
    return kSampleFloor + keys * kSamplesPerKey;
}

// Samples `animation` at every output frame from its first to its last key and writes one
// Root > Animation with an absolute curve for each channel any curve animates (tx/ty/tz/sx/
// sy/sz per component, rq per bone, bs and vb per name), plus the notification tracks with
// their frames rescaled. Curves are named after the skeleton's bones; `vb` keys are 0 or 1.
// O(frames × (bones + curves + channels)), at most sample_budget(keys, options.max_samples),
// plus reduction.
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
