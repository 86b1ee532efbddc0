// The list of formats: the format folders' entries (src/formats/registry_entries.hpp) and the
// glTF bridge's (gltf_entry.cpp). The registry sits above both layers, which never include it.
#pragma once

#include <castkit/formats.hpp>

#include "../formats/registry_entries.hpp"

namespace castkit::formats {

FormatInfo glb_format();
FormatInfo gltf_format();

inline std::vector<FormatInfo> registered_formats() {
    return {cast_format(), seanim_format(),   semodel_format(), k3d_format(),
            dmf_format(),  dmf_json_format(), glb_format(),     gltf_format()};
}

}  // namespace castkit::formats
