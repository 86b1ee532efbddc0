// The registry entries the format folders define, one function each (each folder's format.cpp);
// the registry (src/registry/) lists them.
#pragma once

#include <castkit/formats.hpp>

namespace castkit::formats {

FormatInfo cast_format();
FormatInfo seanim_format();
FormatInfo semodel_format();
FormatInfo k3d_format();
FormatInfo dmf_format();
FormatInfo dmf_json_format();
FormatInfo glb_format();
FormatInfo gltf_format();

}  // namespace castkit::formats
