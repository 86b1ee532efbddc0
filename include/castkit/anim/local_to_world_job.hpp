// The runtime job that turns a pose of local transforms into world matrices (after
// sampling_job.hpp's SamplingJob), over caller-owned spans.
#pragma once

#include <castkit/anim/skeleton.hpp>
#include <castkit/expected.hpp>
#include <glm/mat4x4.hpp>
#include <span>

namespace castkit::anim {

// World (model-space) matrices from local transforms (rule 18):
// world = parent_world · T · C · R · S, C = inverse of the parent's local scale when the bone's
// segment scale compensate is set. O(bones), one 4×4 product each.
struct LocalToWorldJob {
    const Skeleton* skeleton = nullptr;
    std::span<const Transform> locals{};  // skeleton->bone_count()
    std::span<glm::mat4> worlds{};        // skeleton->bone_count()
    // When set, only this bone and those below it (Skeleton::subtree) are computed, the other
    // worlds taken as they are: after a change to the locals of that subtree alone.
    std::int32_t subtree = -1;

    bool validate() const;
    Expected<void> run() const;
};

}  // namespace castkit::anim
