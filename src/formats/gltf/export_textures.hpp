// Texture files travelling with a glTF export: found, then embedded, copied or referenced.
#pragma once

#include <filesystem>

#include "export_internal.hpp"

namespace castkit::gltf::detail {

// Embeds every image the exported materials name in the binary buffer (Embed), writes it
// beside `output` (Copy, through the run's side-output writer options.side_outputs:
// a taken name gives `name-2.png`, with a texture.renamed warning; `output` and its `.bin` are
// never taken), or leaves the URIs as they are (Reference), as the exporter's options say.
// An image the document carries in memory (`embedded`, by the File's path) is taken from there,
// byte for byte, before the disk is looked at, and is embedded in a .glb or written beside a
// .gltf in Reference mode too. Other images are read from `source`'s base (the source document's
// folder, beneath the descriptor it holds) and options.side_files's folders, where that policy
// allows (castkit/io/side_files.hpp); images that cannot be found or may not be read stay
// references (as the document names them); images that cannot be decoded are removed with the
// texture slots that use them; each is named in a warning. PNG and JPEG are embedded without a
// copy. O(total texture bytes).
void place_textures(Exporter& exporter, const Context& source, const std::filesystem::path& output,
                    const cast::EmbeddedFiles& embedded);

}  // namespace castkit::gltf::detail
