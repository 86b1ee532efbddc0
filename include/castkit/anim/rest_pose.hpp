// Completing a Cast skeleton's rest transforms, so that readers which need one kind of
// transform see the skeleton castkit evaluates (docs/blender-addon.md).
#pragma once

#include <castkit/cast/nodes.hpp>

namespace castkit::anim {

// Gives every bone local (lp, lr) and world (wp, wr) rest transforms, adding only the missing
// ones: a bone with lp or lr keeps them (the other defaulting to 0 / identity) and gets wp/wr
// from rule 18; a bone with only wp/wr gets the lp/lr that rule 18 turns back into them; a bone
// with neither is at its parent's origin. Parents outside the skeleton or on a cycle count as
// roots. The official Blender add-on needs lp/lr on every bone. O(bones).
void complete_rest_transforms(cast::Skeleton& skeleton);

}  // namespace castkit::anim
