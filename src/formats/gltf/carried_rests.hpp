// The rests a glTF import carries in a Metadata (`gltf` → `rest`, by bone hash), moved when the
// document is turned or scaled (FormatInfo::move_carried for glb and gltf).
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/scene/axis_change.hpp>

namespace castkit::gltf::detail {

// Moves each carried rest as `move` moved its bone: a root's translation turned and scaled and
// its rotation turned, another bone's translation scaled. Settings too deep or too large for the
// export to read, and rests that are not 3 and 4 numbers, are left as they are. O(settings).
void move_carried_rests(cast::Metadata metadata, const scene::AxisMove& move);

}  // namespace castkit::gltf::detail
