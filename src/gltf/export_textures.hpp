// Texture files travelling with a glTF export: found, then embedded, copied or referenced.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "export_internal.hpp"

namespace castkit::gltf::detail {

// The file a material's path names: relative to the source document's folder, then to
// `texture_dir`, then by its file name alone in each. A path that is absolute or climbs out
// with ".." is looked for by its file name only, so a document cannot reach files outside the
// folders the user gave. The one place texture paths are resolved. O(candidates) stat calls.
std::optional<std::filesystem::path> resolve_texture(const std::string& named,
                                                     const std::filesystem::path& source_dir,
                                                     const std::filesystem::path& texture_dir);

// Embeds every image the exported materials name (found as resolve_texture says from
// `source_dir`) in the binary buffer (Embed), writes it beside `output` (Copy), or leaves the
// URIs as they are (Reference), as the exporter's options say. Images that cannot be found
// stay references (as the document names them); images that cannot be decoded are removed
// with the texture slots that use them; each is named in a warning. O(total texture bytes).
void place_textures(Exporter& exporter, const std::filesystem::path& source_dir,
                    const std::filesystem::path& output);

}  // namespace castkit::gltf::detail
