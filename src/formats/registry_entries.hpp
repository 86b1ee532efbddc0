// The registry entries the format folders define, one function each (each folder's file named for
// it: seanim/seanim.cpp); the registry (src/registry/) lists them.
#pragma once

#include <castkit/formats/format.hpp>

namespace castkit::formats {

FormatInfo cast_entry();
FormatInfo seanim_entry();
FormatInfo semodel_entry();
FormatInfo k3d_entry();
FormatInfo dmf_entry();
FormatInfo dmf_json_entry();
FormatInfo glb_entry();
FormatInfo gltf_entry();
FormatInfo fbx_entry();
FormatInfo obj_entry();

}  // namespace castkit::formats
