// What sampling an animation over many frames may cost, in one place: the work, counted in
// samples against the input's keys, and the memory kept, counted in bytes against the input's
// bytes (docs/security.md: 8 bytes per input byte plus 64 MiB). bake, compare_clips and the
// glTF export check both before they sample, and through them `castkit convert`, `bake`,
// `diff`, the viewer and Python.
#pragma once

#include <castkit/anim/animation.hpp>
#include <castkit/anim/skeleton.hpp>
#include <cstdint>
#include <string>
#include <string_view>

namespace castkit::anim {

// How many samples (frames × frame_work) baking or resampling `keys` keys may take when the
// caller set no limit of its own (`max_samples` 0): 256 per key plus 2^20, at most 2^26, so a
// file of a few keys far apart cannot make work or output thousands of times its own size. A
// caller's own `max_samples` is taken as it is (a file known to be sparse). O(1).
inline constexpr std::uint64_t kSampleFloor = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kSamplesPerKey = 256;
inline constexpr std::uint64_t kSampleCeiling = std::uint64_t{1} << 26;
constexpr std::uint64_t sample_budget(std::uint64_t keys, std::uint64_t max_samples) {
    if (max_samples != 0) return max_samples;
    if (keys >= (kSampleCeiling - kSampleFloor) / kSamplesPerKey) return kSampleCeiling;
    return kSampleFloor + keys * kSamplesPerKey;
}

// The bytes what sampling keeps (poses, baked keys, exported channels) may take for an input
// of `input_bytes`: 8 per input byte plus 64 MiB, the promise every budget keeps. O(1).
inline constexpr std::uint64_t kMemoryFloor = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kMemoryPerInputByte = 8;
constexpr std::uint64_t memory_budget(std::uint64_t input_bytes) {
    constexpr std::uint64_t kLargest = ~std::uint64_t{0};
    if (input_bytes >= (kLargest - kMemoryFloor) / kMemoryPerInputByte) return kLargest;
    return kMemoryFloor + input_bytes * kMemoryPerInputByte;
}
// "the budget of 70 MiB (8 × the 1,200,000 bytes of FILE + 64 MiB)": how a refusal names it.
std::string describe_memory_budget(std::uint64_t input_bytes, std::string_view input);

// The keys `animation` stores (scalar and rotation), what sample_budget counts. O(1).
std::uint64_t key_count(const Animation& animation);
// The bytes those keys take in a Cast file (a frame and a value each): the input's size for a
// caller that does not give one. O(1).
std::uint64_t key_bytes(const Animation& animation);

// The work of one sampled frame, in samples: every bone reset and every curve applied, and when
// `solve_rig` the skeleton's rig solved on the pose: a pass over every bone's world matrix, then
// per IK handle one over its chain (FABRIK's passes for a chain of more than two bones) and over
// the bones below its start, and one per constraint. O(IK handles).
std::uint64_t frame_work(const Animation& animation, const Skeleton& skeleton, bool solve_rig);

// The work of a sampling run of `frames` frames: each frame samples `animation` (frame_work),
// and `base` under it when not null (`--base`), and stores `stored` values. A double, so that no
// product of a file's numbers overflows. O(IK handles).
double sampling_work(double frames, const Animation& animation, const Skeleton& skeleton,
                     bool solve_rig, const Animation* base = nullptr, std::uint64_t stored = 0);

}  // namespace castkit::anim
