// The list of formats: each format folder contributes one entry function.
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

inline std::vector<FormatInfo> registered_formats() {
    return {cast_format(), seanim_format(),   semodel_format(), k3d_format(),
            dmf_format(),  dmf_json_format(), glb_format(),     gltf_format()};
}

}  // namespace castkit::formats
