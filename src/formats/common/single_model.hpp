// What formats that hold one model (K3D, DMF) take from a Cast document with several.
#pragma once

#include <castkit/cast/nodes.hpp>
#include <string_view>
#include <vector>

#include "io/binary_io.hpp"

namespace castkit::formats {

// The first of `models`, or nullptr without one, after warning about what the single-model
// format named `format` drops: the other models, the model's own transform, hairs and blend
// shapes. O(1).
const cast::ConstModel* single_model(const std::vector<cast::ConstModel>& models,
                                     const Reporter& report, std::string_view format);

}  // namespace castkit::formats
