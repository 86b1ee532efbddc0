// The runtime half (ozz style): small jobs over caller-owned spans; this one samples a clip
// (local_to_world_job.hpp turns its pose into world matrices). Each job has validate()
// (are the inputs and output sizes consistent?) and run() (validate, then compute). Nothing
// in run() allocates, but a rig's solve without a SamplingContext (SamplingJob::solve_rig).
//
//   castkit::anim::SamplingJob sampling{.animation = &animation, .skeleton = &skeleton,
//                                       .frame = 12.5f, .locals = locals};
//   castkit::anim::LocalToWorldJob world{.skeleton = &skeleton, .locals = locals,
//                                        .worlds = worlds};
//   if (!sampling.run() || !world.run()) ...
#pragma once

#include <castkit/anim/animation.hpp>
#include <castkit/anim/skeleton.hpp>
#include <glm/mat4x4.hpp>
#include <span>
#include <vector>

namespace castkit::anim {

// Per-track key cursors, so that sampling forward in time finds each key in O(1). One per
// animation being played; sized once.
class SamplingContext {
  public:
    SamplingContext() = default;
    explicit SamplingContext(const Animation& animation);
    // Sizes the cursors for `animation` (allocates only when it has more tracks than before).
    void resize(const Animation& animation);

    std::vector<std::uint32_t> scalar_cursors;
    std::vector<std::uint32_t> rotation_cursors;
    // The IK solve's world matrices (one per bone), sized on the first sample that solves a rig.
    std::vector<glm::mat4> rig_worlds;
};

// The local pose of every bone, and every blend shape weight and visibility, at one frame.
// Starts from the rest pose (blend weights and visibility 0, ruling 22a: every visibility slot
// has a curve, whose modes then give the key or add to 0) and applies every curve in file
// order with its resolved mode (rule 22). O(curves) with a warm context, each curve one lerp or
// slerp.
struct SamplingJob {
    const Animation* animation = nullptr;
    const Skeleton* skeleton = nullptr;  // the one the animation was built for
    float frame = 0.0f;                  // fractional frames allowed
    // Wrap `frame` into the key range when the animation loops (rule 20); otherwise hold.
    bool looped = false;
    // Optional key cursors; without one, each key is found by binary search.
    SamplingContext* context = nullptr;

    // The pose the curves start from: empty for the skeleton's rest pose, or a base pose of
    // skeleton->bone_count() transforms (another clip's, sampled first) that additive curves
    // are layered on. Relative curves stay relative to the rest pose either way.
    std::span<const Transform> base{};
    std::span<Transform> locals{};           // skeleton->bone_count()
    std::span<float> blend_shape_weights{};  // animation->blend_shapes.size(), may be empty if 0
    std::span<float> visibility{};           // animation->visibility_nodes.size(): visible >= 0.5
    // Then the skeleton's IK handles are solved on `locals` (docs/animation.md, "IK handles"), its
    // world matrices kept in the context (allocated per sample without one), and its
    // constraints applied; false gives the curves' pose alone (`--no-rig`). What that costs per
    // frame is frame_work (castkit/anim/budget.hpp).
    bool solve_rig = true;

    bool validate() const;
    Expected<void> run() const;

  private:
    // The IK handles solved on `locals`, in the context's scratch when there is one.
    void solve_ik() const;
};

// Visible when the interpolated `vb` value is at least 0.5 (rule 21).
inline bool is_visible(float visibility) { return visibility >= 0.5f; }

}  // namespace castkit::anim
