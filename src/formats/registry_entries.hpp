// The list of formats: each format folder contributes one entry function.
#pragma once

#include <castkit/formats.hpp>

namespace castkit::formats {

FormatInfo cast_format();
FormatInfo glb_format();
FormatInfo gltf_format();

inline std::vector<FormatInfo> registered_formats() {
    return {cast_format(), glb_format(), gltf_format()};
}

}  // namespace castkit::formats
