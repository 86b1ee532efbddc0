// The length units an axis change scales between (scene/axis_change.hpp): the vocabulary of the
// Cast layer's Metadata `units` (castkit/cast/units.hpp), under the scene layer's names.
#pragma once

#include <castkit/cast/units.hpp>

namespace castkit::scene {

using cast::metres_per;
using cast::Units;
using cast::units_from_name;
using cast::units_name;

}  // namespace castkit::scene
