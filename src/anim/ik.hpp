// The rig SamplingJob evaluates on the pose it samples: the rotate-plane IK solve, then the
// constraints (docs/animation.md, "IK handles" and "Constraints").
#pragma once

#include <castkit/anim/skeleton.hpp>
#include <span>

namespace castkit::anim::detail {

// Solves every IK handle of `skeleton` on `locals`, in the skeleton's order: each chain's end
// reaches its target (or points at it, stretched as far as the chain reaches), its joints in the
// plane its pole sets, bone lengths kept. Allocates two world matrices per bone (rest and pose).
// O(handles × (bones + chain length × FABRIK passes)).
void solve_ik(const Skeleton& skeleton, std::span<Transform> locals);

// Applies every constraint of `skeleton` to `locals`, in the skeleton's order
// (constraints.cpp). O(constraints).
void apply_constraints(const Skeleton& skeleton, std::span<Transform> locals);

}  // namespace castkit::anim::detail
