// Per-node transform keys in fractional frames, the common ground between formats whose tracks
// carry their own times (K3D ticks, DMF seconds) and Cast curves (integer frames, one curve per
// component).
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <string>
#include <vector>

namespace castkit::formats {

struct Vec3Key {
    double frame;
    glm::vec3 value;
};
struct QuatKey {
    double frame;
    glm::vec4 value;  // x, y, z, w
};

// The keys of one node, sorted by frame.
struct NodeKeys {
    std::string node;
    std::vector<Vec3Key> positions;
    std::vector<QuatKey> rotations;
    std::vector<Vec3Key> scales;
};

// Interpolation used when keys must be resampled at whole frames: linear for vectors, and the
// animation evaluator's shortest-path slerp (anim::shortest_slerp) for quaternions, holding the
// first and last key outside the keyed range (rules 20, 21). Keys here carry fractional frames
// in double precision, so the search is their own. O(log keys) each.
glm::vec3 sample_linear(const std::vector<Vec3Key>& keys, double frame);
glm::vec4 sample_slerp(const std::vector<QuatKey>& keys, double frame);

// Whole frames resampled in one file, summed over every channel of every animation, and the
// most allowed: each channel may span 2^16 frames, but a few bytes of keys make a channel, so
// the file as a whole is held to 2^22 (as glTF import's ReadOptions::max_keys).
struct ResampleBudget {
    std::uint64_t used = 0;
    std::uint64_t limit = std::uint64_t{1} << 22;
};

// Where curves come from and go to, for diagnostics, and the file's resampling budget.
struct CurveContext {
    std::string file;
    std::string path;        // "animation[0]"
    ResampleBudget* budget;  // may be null where nothing is resampled (collect_curves)
};

// Adds tx/ty/tz, rq and sx/sy/sz curves (mode absolute) for `keys`. Keys within 1e-3 of a whole
// frame are rounded to it; a channel with any other key is resampled at every whole frame of its
// range, with a warning. Fails on non-finite times, resampled ranges over 2^16 frames, or more
// resampled frames in the file than context.budget allows. O(keys + frames).
Expected<void> add_curves(cast::Animation& animation, const NodeKeys& keys,
                          const CurveContext& context, Diagnostics& warnings);

// The rest pose a node has when a curve for one of its components is missing.
struct RestPose {
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};
    glm::vec3 scale{1.0f};
};

// Groups an animation's transform curves by node (first appearance order) and merges the
// per-component curves into vector keys at the union of their frames, sampling components that
// have no key there (a missing component takes the rest pose). Curves that are not absolute,
// blend-shape and visibility curves, overrides and notification tracks are reported as warnings
// (their values are kept as absolute keys or dropped). O(keys · log keys).
std::vector<NodeKeys> collect_curves(const cast::ConstAnimation& animation,
                                     const std::vector<std::pair<std::string, RestPose>>& rest,
                                     const CurveContext& context, Diagnostics& warnings);

}  // namespace castkit::formats
