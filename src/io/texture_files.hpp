// Texture files travelling with a document written by a format that cannot embed them: the
// images it carries in memory are written beside the output, and, written to another folder
// than it was read from (a material File names its image relative to the source's folder), the
// files it names are copied beside the output (the default) or referenced where they are
// (TextureMode::Reference). The registry's write_file places them (docs/workflows.md,
// "Textures").
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/io/context.hpp>
#include <filesystem>
#include <memory>
#include <optional>

namespace castkit::formats {

// The id of the warning for an image a document carries in memory that a write cannot keep
// (docs/diagnostics.md).
inline constexpr const char* kNotKeptRule = "texture.embedded-not-kept";

// The document to write to `output` instead of `document`, with every material File path made
// valid from `output`'s folder.
// - An image the document carries in memory (cast::Document::embedded, read from inside a glb
//   or DMF) is written beside the output under the File's path through the run's side-output
//   writer, whatever context.options.textures and place_textures say (there is no other file
//   to name), unless the output is in the source's folder and that path already leads to a file
//   holding its bytes (an image unpacked into --textures DIR).
// - With context.options.place_textures and `output` in another folder than context.base, every
//   other image is found from context.base (the source's folder), then
//   context.options.side_files.folders, under the side-file policy (a path that names a file
//   below the output's folder already is kept); copied beside the output (keeping its relative
//   path when that stays below the folder) unless context.options.textures is Reference, which
//   names where the source names it by a path relative to the output's folder (nothing read,
//   nothing warned).
// Copies go through the run's side-output writer (context.options.side_outputs,
// castkit/io/side_outputs.hpp), which also keeps `output`'s own name for it: a file already there
// is reused only when its bytes are the image's; otherwise the copy takes a free name
// (`wood-2.png`, `wood-3.png`, …), so no file castkit did not write is replaced. Images that
// cannot be found keep their path, with a `texture.not-found` warning in `diagnostics`; renamed
// and failed copies are warned about too (`texture.renamed`, `texture.copy-failed`). Standard
// output ("-") changes nothing, and warn_embedded_not_kept names what it loses. nullopt when
// nothing needs to change. O(nodes + bytes of the images written).
std::optional<cast::Document> place_texture_files(const cast::Document& document,
                                                  const std::filesystem::path& output,
                                                  const WriteContext& context,
                                                  Diagnostics& diagnostics);

// Places the images a writer names one at a time, as it writes them (the FBX writer, whose maps
// name the images of the files they instance from the map's folder): place() is the path to
// write for image `named`, by place_texture_files' rules for one File (`carried` standing for
// the document's embedded files), each image copied once. `where` names its node in warnings.
// `output` is the path of the file being written, never "-".
class TexturePlacement {
  public:
    TexturePlacement(const cast::EmbeddedFiles& carried, const std::filesystem::path& output,
                     const WriteContext& context, Diagnostics& diagnostics);
    ~TexturePlacement();
    TexturePlacement(const TexturePlacement&) = delete;
    TexturePlacement& operator=(const TexturePlacement&) = delete;

    std::string place(std::string_view named, const std::string& where);

  private:
    class Placer;
    std::unique_ptr<Placer> placer_;
};

// The bytes of image `named`, for a writer that embeds it (FBX with TextureMode::Embed): the
// file `carried` holds under that name, else the file found from context.base, then
// context.options.side_files.folders, under the side-file policy, opened once. The error says
// why it was not found or not read. O(size).
Expected<cast::SharedBytes> image_bytes(const cast::EmbeddedFiles& carried, std::string_view named,
                                        const WriteContext& context);

// One `texture.embedded-not-kept` warning for each File naming an image `document` carries in
// memory that no file readable under context's policy holds: for a write that can neither
// embed it nor write it beside its output (standard output, bytes in memory). O(nodes + bytes
// of the files compared).
void warn_embedded_not_kept(const cast::Document& document, const WriteContext& context,
                            Diagnostics& diagnostics);

}  // namespace castkit::formats
