// What a format implements to join castkit: its registry entry (FormatInfo), the context its
// reader and writer are given, and the options they read. Each format folder (src/formats/<name>/)
// and a plug-in include this; the registry that lists the entries and reads and writes through
// them is castkit/registry.hpp.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/expected.hpp>
#include <castkit/formats/axes.hpp>
#include <castkit/io/side_files.hpp>
#include <castkit/io/side_outputs.hpp>
#include <castkit/sink.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit {

// How a glTF export carries the texture files that materials name (docs/workflows.md).
enum class TextureMode {
    Automatic,  // Embed in a .glb, Copy beside a .gltf
    Embed,      // inside the file (PNG and JPEG as they are, other formats as PNG)
    Copy,       // image files written beside the output and referenced by URI
    Reference,  // the paths the document names, as URIs; nothing is read
};

// Options for the formats that use them; each format reads what applies to it and ignores the
// rest.
struct FormatOptions {
    // glTF export: merge the files Instances reference instead of only naming them in
    // `extras`. On by default: no glTF reader follows a name of a Cast file, so a scene of
    // Instances written as references shows nothing (`castkit convert
    // --keep-instance-references` turns it off). Other formats ignore it.
    bool inline_instances = true;
    // glTF export: where textures go.
    TextureMode textures = TextureMode::Automatic;
    // Other formats' write_file to another folder than the context's base: the images material
    // Files name are copied beside the output (or, with TextureMode::Reference, named by a path
    // relative to it) so that the written paths hold there (docs/workflows.md, "Textures").
    // `castkit convert` sets it; left false, a document is written with its paths as they are.
    // The images a document carries in memory are written beside the output either way.
    bool place_textures = false;
    // Where the files a document names (textures, instances) may be read from: the base folder,
    // then side_files.folders (--textures DIR), within the policy of castkit/io/side_files.hpp.
    // The images a glTF or DMF holds inside travel in the document (cast::Document::embedded)
    // as `<stem>_<image name>.<ext>` (glTF) or `<texture name>.<ext>` (DMF), the extension the
    // bytes call for (`.png`, `.jpg`, else `.bin`), which the Cast File names; with folders,
    // the import also writes each into the first of them through side_outputs (a taken name
    // gives `name-2.png`, which the File then names).
    SideFilePolicy side_files{};
    // The run's writer of every file written besides the named output (images unpacked by the
    // glTF and DMF imports, textures copied or converted beside an output): it never replaces a
    // file it did not write (castkit/io/side_outputs.hpp, docs/security.md). Share one across the
    // reads and writes of one command; null gives each read or write a writer of its own.
    std::shared_ptr<SideOutputs> side_outputs{};
    // Writers of meshes (glTF, SEModel, DMF, K3D): a mesh the check before every write finds
    // broken (a face index past its vertices, a weight naming a bone the skeleton lacks, a
    // per-vertex buffer not one entry per vertex) refuses the write with an error instead of
    // losing the broken part with a warning (docs/diagnostics.md, "Before every write").
    // `castkit convert --strict`.
    bool strict = false;
    // glTF export: skeletons' IK handles solved into the exported motion (gltf::ExportOptions::
    // solve_rig); `castkit convert --no-rig` turns it off.
    bool solve_rig = true;
};

// Everything a format needs around the bytes it reads or writes: the name diagnostics give, the
// folder that relative file names (a .gltf's buffers, the textures and instances a document
// names) resolve against, and the options. The warnings go to the Diagnostics sink passed
// beside it.
struct Context {
    // Name used in diagnostics: the path, "<stdin>", or empty for unnamed memory.
    std::string name{};
    // Side files resolve against this folder. Empty means the source has none (bytes from
    // memory or standard input): then no side file is read except from the policy's folders.
    std::filesystem::path base{};
    FormatOptions options{};
    // `base` opened once (context_for opens it, before the source is read): side files are
    // opened beneath this descriptor, so a folder swapped for a link after the source was read
    // cannot lead them outside (docs/security.md, "What castkit reads"). Copy it with `base`;
    // null, or opened for another folder than `base`, opens `base` at each lookup.
    std::shared_ptr<const platform::OpenedFolder> folder{};
};
using ReadContext = Context;
using WriteContext = Context;

// The Models a writer writes, which the check before every write looks at.
enum class WrittenModels : std::uint8_t {
    None,   // no check: Cast keeps a document as it is, SEAnim holds no meshes, glTF checks
            // every Model itself (inlined instances too)
    First,  // the first Model of the document (SEModel, DMF, K3D)
    All,    // every Model (glTF)
};

// A format's entry, built with designated initializers (`{.name = "off", .extensions = {".off"},
// .read = …, .write = …}`): the registry keeps its own copy of every string, so an entry built
// from strings the caller frees afterwards stays whole. Through every function below the
// registry catches what a format throws (registry.exception).
struct FormatInfo {
    std::string name{};                     // "cast", "seanim", …; unique blind to ASCII case
    std::vector<std::string> extensions{};  // ".cast"; longest match wins (".dmf.json")
    // Parses `bytes` into a Cast document; warnings, added to `diagnostics`, name what was
    // approximated. Payloads the document views (Cast's are not copied) share `bytes.owner`; with
    // a null owner they are borrowed, and the caller keeps the bytes alive as long as the
    // document.
    Expected<cast::Document> (*read)(const cast::SharedBytes& bytes, const ReadContext& context,
                                     Diagnostics& diagnostics) = nullptr;
    // Writes a Cast document into `sink`; warnings, added to `diagnostics`, name what the format
    // cannot hold and was dropped.
    Expected<void> (*write)(const cast::Document& document, Sink& sink, const WriteContext& context,
                            Diagnostics& diagnostics) = nullptr;
    // The writer reads the images materials name itself, the document's embedded files first
    // (glTF embeds, copies or references them; DMF embeds them), so write_file leaves their
    // paths to it (FormatOptions::place_textures).
    bool places_own_images = false;
    // What formats::write and write_file check before they call `write` (docs/diagnostics.md,
    // "Before every write").
    WrittenModels written_models = WrittenModels::None;
    // The up axis and length unit the format defines for every file (glTF: +Y up, metres);
    // unset where it says nothing, and `convert --up/--units` then assumes (formats/axes.hpp).
    std::optional<cast::Axis> up{};
    std::optional<formats::Units> units{};

    // What a batch plans from without reading a document (docs/library.md, "Adding a format").
    // The files a file of this format names that its reader opens besides it (glTF: its buffers'
    // and images' URIs), from its bytes alone; null where the document read names them
    // (textures, instances). O(size).
    std::vector<std::string> (*referenced_files)(std::span<const std::byte> bytes) = nullptr;
    // The extension of a file write_file writes beside the output, named for it (.gltf: its
    // buffer, ".bin"); empty for none.
    std::string written_beside{};
    // Its files can hold instances naming other scene files, whose own instances a batch follows
    // (Cast).
    bool holds_instances = false;
    // Its writer can copy instanced scenes into the file (FormatOptions::inline_instances), so a
    // batch sends the instanced files too (glTF).
    bool inlines_instances = false;

    // Formats of one family (DMF binary and JSON) convert into each other directly, keeping
    // what only they hold and the Cast document cannot (material settings, embedded images):
    // `family` names it, and `convert_in_family` reads `bytes` (named `name`) as this format and
    // writes `output` as `to`, one of the family. Empty and null for a format alone. A format
    // register_format adds is the first member of its family: it cannot join one another format
    // named (castkit's `dmf` writes DMF into every member of its own).
    std::string family{};
    Expected<void> (*convert_in_family)(std::span<const std::byte> bytes, std::string_view name,
                                        const FormatInfo& to, const std::filesystem::path& output,
                                        Diagnostics& warnings) = nullptr;
};

// Whether `from` converts into `to` directly (FormatInfo::family).
inline bool converts_in_family(const FormatInfo& from, const FormatInfo& to) {
    return from.convert_in_family != nullptr && !from.family.empty() && from.family == to.family;
}

}  // namespace castkit
