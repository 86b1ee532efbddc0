// The list of formats: each format folder contributes one entry function.
#pragma once

#include <castkit/formats.hpp>

namespace castkit::formats {

// The Cast views (Model, Animation, …) wrap mutable nodes and have no const form, so the
// converters take a mutable document; they only read it.
inline cast::Document& readable(const cast::Document& document) {
    return const_cast<cast::Document&>(document);
}

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
