// The list of formats: the format folders' entries (src/formats/registry_entries.hpp). The
// registry sits above the formats, which never include it.
#pragma once

#include <castkit/formats/format.hpp>

#include "../formats/registry_entries.hpp"

namespace castkit::formats {

inline std::vector<FormatInfo> registered_formats() {
    return {cast_entry(),     seanim_entry(), semodel_entry(), k3d_entry(), dmf_entry(),
            dmf_json_entry(), glb_entry(),    gltf_entry(),    fbx_entry(), obj_entry()};
}

}  // namespace castkit::formats
