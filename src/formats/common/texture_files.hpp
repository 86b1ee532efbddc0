// Texture files travelling with a document written to another folder than it was read from:
// a material File names its image relative to the source's folder, so the written file would
// name images that are not beside it. The registry's write_file places them (docs/workflows.md,
// "Textures"): copied beside the output (the default), or referenced where they are
// (TextureMode::Reference).
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/formats.hpp>
#include <filesystem>
#include <optional>

namespace castkit::formats {

// The document to write to `output` instead of `document`, with every material File path made
// valid from `output`'s folder: the image is found from context.base (the source's folder),
// then context.options.side_files.folders, under the side-file policy (a path that names a
// file below the output's folder already, such as an image a reader unpacked there, is kept);
// copied beside the output (keeping its relative path when that stays below the folder) unless
// context.options.textures is Reference, which names where the source names it by a path relative
// to the output's folder (nothing read, nothing warned). Copies go through the run's side-output
// writer (context.options.side_outputs, castkit/side_outputs.hpp), which also keeps `output`'s own
// name for it: a file already there is reused only when its bytes are the image's; otherwise the
// copy takes a free name (`wood-2.png`, `wood-3.png`, …), so no file castkit did not write is
// replaced. Images that cannot be found keep their path, with a `texture.not-found` warning in
// `diagnostics`;
// renamed copies and failed copies are warned about too
// (`texture.renamed`, `texture.copy-failed`). nullopt when nothing needs to change (the same
// folder, standard output, no material File). O(nodes + bytes of the images
// copied).
std::optional<cast::Document> place_texture_files(const cast::Document& document,
                                                  const std::filesystem::path& output,
                                                  const WriteContext& context,
                                                  Diagnostics& diagnostics);

}  // namespace castkit::formats
