// The list of formats: the format folders' entries (src/formats/registry_entries.hpp). The
// registry sits above the formats, which never include it.
#pragma once

#include <castkit/formats.hpp>

#include "../formats/registry_entries.hpp"

namespace castkit::formats {

inline std::vector<FormatInfo> registered_formats() {
    return {cast_format(), seanim_format(),   semodel_format(), k3d_format(),
            dmf_format(),  dmf_json_format(), glb_format(),     gltf_format()};
}

}  // namespace castkit::formats
