// The rig SamplingJob evaluates on the pose it samples: the rotate-plane IK solve, then the
// constraints (docs/animation.md, "IK handles" and "Constraints").
#pragma once

#include <castkit/anim/skeleton.hpp>
#include <glm/mat4x4.hpp>
#include <span>

namespace castkit::anim::detail {

// The most passes FABRIK makes over a chain of more than two bones (two bones are solved
// exactly).
inline constexpr int kFabrikPasses = 64;

// Solves every IK handle of `skeleton` on `locals`, in the skeleton's order: each chain's end
// reaches its target (or points at it, stretched as far as the chain reaches), its joints in the
// plane its pole sets, bone lengths kept. `worlds` (one matrix per bone) is the caller's
// scratch, so that nothing is allocated per sample. O(bones + handles × (the bones below the
// chain's start + chain length × FABRIK passes)): what frame_work counts.
void solve_ik(const Skeleton& skeleton, std::span<Transform> locals, std::span<glm::mat4> worlds);

// Applies every constraint of `skeleton` to `locals`, in the skeleton's order
// (constraints.cpp). O(constraints), nothing allocated.
void apply_constraints(const Skeleton& skeleton, std::span<Transform> locals);

}  // namespace castkit::anim::detail
