// Every file format castkit reads or writes, behind one interface: bytes in, a Cast document
// out, and back into a Sink. Each format converts to and from the Cast document (the hub), so
// `castkit convert` and `info` work for any pair. Files and standard input are touched only at
// the edge (read_file, write_file), once.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/expected.hpp>
#include <castkit/io/side_files.hpp>
#include <castkit/io/side_outputs.hpp>
#include <castkit/scene/units.hpp>
#include <castkit/sink.hpp>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::scene {
class AxisMove;
struct AxisChange;
}  // namespace castkit::scene

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
    None,   // no check: Cast keeps a document as it is, SEAnim holds no meshes
    First,  // the first Model of the document (SEModel, DMF, K3D)
    All,    // every Model (glTF, whose export checks the instances it inlines as it reads them)
};

struct FormatInfo {
    std::string_view name;                     // "cast", "seanim", …
    std::vector<std::string_view> extensions;  // ".cast"; longest match wins (".dmf.json")
    // Parses `bytes` into a Cast document; warnings, added to `diagnostics`, name what was
    // approximated. Payloads the document views (Cast's are not copied) share `bytes.owner`; with
    // a null owner they are borrowed, and the caller keeps the bytes alive as long as the
    // document.
    Expected<cast::Document> (*read)(const cast::SharedBytes& bytes, const ReadContext& context,
                                     Diagnostics& diagnostics);
    // Writes a Cast document into `sink`; warnings, added to `diagnostics`, name what the format
    // cannot hold and was dropped.
    Expected<void> (*write)(const cast::Document& document, Sink& sink, const WriteContext& context,
                            Diagnostics& diagnostics);
    // The writer reads the images materials name itself, the document's embedded files first
    // (glTF embeds, copies or references them; DMF embeds them), so write_file leaves their
    // paths to it (FormatOptions::place_textures).
    bool places_own_images = false;
    // What formats::write and write_file check before they call `write` (docs/diagnostics.md,
    // "Before every write").
    WrittenModels written_models = WrittenModels::None;
    // The up axis and length unit the format defines for every file (glTF: +Y up, metres);
    // unset where it says nothing, and `convert --up/--units` then assumes (scene/axis_change.hpp).
    std::optional<cast::Axis> up{};
    std::optional<scene::Units> units{};
    // Moves what this format carries in a document's Metadata (glTF: its rests) as an axis
    // change moved the document (formats::apply_axis_change runs it on every Metadata of any
    // document, whatever it was read from); null for a format that carries nothing.
    void (*move_carried)(cast::Metadata metadata, const scene::AxisMove& move) = nullptr;

    // What a batch plans from without reading a document (docs/library.md, "Adding a format").
    // The files a file of this format names that its reader opens besides it (glTF: its buffers'
    // and images' URIs), from its bytes alone; null where the document read names them
    // (textures, instances). O(size).
    std::vector<std::string> (*referenced_files)(std::span<const std::byte> bytes) = nullptr;
    // The extension of a file write_file writes beside the output, named for it (.gltf: its
    // buffer, ".bin"); empty for none.
    std::string_view written_beside{};
    // Its files can hold instances naming other scene files, whose own instances a batch follows
    // (Cast).
    bool holds_instances = false;
    // Its writer can copy instanced scenes into the file (FormatOptions::inline_instances), so a
    // batch sends the instanced files too (glTF).
    bool inlines_instances = false;

    // Formats of one family (DMF binary and JSON) convert into each other directly, keeping
    // what only they hold and the Cast document cannot (material settings, embedded images):
    // `family` names it, and `convert_in_family` reads `bytes` (named `name`) as this format and
    // writes `output` as `to`, one of the family. Empty and null for a format alone.
    std::string_view family{};
    Expected<void> (*convert_in_family)(std::span<const std::byte> bytes, std::string_view name,
                                        const FormatInfo& to, const std::filesystem::path& output,
                                        Diagnostics& warnings) = nullptr;
};

// Whether `from` converts into `to` directly (FormatInfo::family).
inline bool converts_in_family(const FormatInfo& from, const FormatInfo& to) {
    return from.convert_in_family != nullptr && !from.family.empty() && from.family == to.family;
}

// All registered formats: castkit's own, in a fixed order, then those register_format added.
// References stay valid while formats are registered.
const std::deque<FormatInfo>& all_formats();
// Adds a format of the caller's own (docs/library.md, "A format of your own"): from then on the
// registry finds it by name and extension, and reads, writes and batch-converts through it as
// through castkit's own. Refused (registry.format) for an empty name, a null read or write, a
// name or extension another format has, or an extension that is not '.' and a lower-case name
// (file names are matched in lower case).
// Register at start-up, before another thread looks formats up: registering is not
// synchronised with lookups. O(formats × extensions).
Expected<void> register_format(FormatInfo format);
// The entries of the Cast container (the hub every format converts through, written to
// standard output and by Python's to_bytes when no format is named) and of binary glTF (what the
// viewer draws). O(1) after the first call.
const FormatInfo& cast_format();
const FormatInfo& glb_format();
// The format a path's extension names, or nullptr.
const FormatInfo* format_for_path(const std::filesystem::path& path);
// The format a file's first bytes name, for standard input and extensions that name none: the
// magic of Cast (`cast`), SEAnim, SEModel, DMF (`DASH`), K3D (0xDECAFBAD) or glb (`glTF`); for
// JSON (a `{` after whitespace), glTF when its object has a top-level "asset" member, else DMF
// JSON. nullptr for anything else. O(1) for the magics; O(size) for JSON.
const FormatInfo* format_for_bytes(std::span<const std::byte> bytes);
// The file name without the extension its format matched ("run" for "a/run.dmf.json"); for no
// known format, without its last extension. UTF-8.
std::string file_stem(const std::filesystem::path& path);
// The format with this name, or nullptr.
const FormatInfo* format_by_name(std::string_view name);

namespace formats {

// A context for the file `path`: its name and its folder as the base ("." for a name without a
// folder; "-" is "<stdin>" with no base, so it reads no side files of its own), that folder
// opened and held in Context::folder. Make it before reading `path`.
Context context_for(const std::filesystem::path& path, FormatOptions options = {});

// The bytes of an input and what keeps them alive: a mapped file or a buffer of standard input
// (a null owner: borrowed bytes the caller keeps alive).
using Input = cast::SharedBytes;

// How read_input holds a file. Map: zero-copy, for one command; its one risk is that touching a
// mapping's pages after another program cut the file short kills the process (SIGBUS on
// POSIX). Copy: read into memory once and closed, for a process that keeps the document while
// other programs may rewrite or truncate the file (Python, `castkit view`; docs/security.md).
enum class InputMode : std::uint8_t { Map, Copy };

// Maps `path` read-only (or reads it, InputMode::Copy), or reads all of standard input once for
// "-". O(1) for a mapped file until its pages are touched; O(size) otherwise.
Expected<Input> read_input(const std::filesystem::path& path, InputMode mode = InputMode::Map);

// Parses `input` with `format`; the document's payloads keep the input's owner alive. Every finding
// carries a stable id (docs/diagnostics.md): "<format>.read" where the format gives no finer one.
// O(input size).
Expected<cast::Document> read(const FormatInfo& format, Input input, const ReadContext& context,
                              Diagnostics& diagnostics);

// read_input(path), then read(). O(file size).
Expected<cast::Document> read_file(const FormatInfo& format, const std::filesystem::path& path,
                                   const ReadContext& context, Diagnostics& diagnostics);

// Writes `document` with `format` into `sink`; findings without a finer id get
// "<format>.write". First the meshes of format.written_models are checked: a face index past
// the vertices, a weight naming a bone the skeleton lacks, a per-vertex buffer that is not one
// entry per vertex. By default the broken part is left out of a repaired copy (the triangle,
// the weight, the whole buffer) with a warning; with context.options.strict the write is
// refused with an error and nothing is written (docs/diagnostics.md, "Before every write").
// A format that cannot embed images (not places_own_images) cannot keep those the document
// carries in memory either (a sink has no folder): each gets a texture.embedded-not-kept
// warning. O(output size).
Expected<void> write(const FormatInfo& format, const cast::Document& document, Sink& sink,
                     const WriteContext& context, Diagnostics& diagnostics);

// The files write_file writes for `path` with `format`: `path` itself, and a .gltf's buffer
// `<stem>.bin` beside it. A run reserves them in its SideOutputs so that no side file takes
// their names. O(1).
std::vector<std::filesystem::path> output_files(const FormatInfo& format,
                                                const std::filesystem::path& path);

// Writes `document` with `format` to `path` atomically (a temporary file renamed when the whole
// output is written; on failure `path` is left as it was), or to standard output for "-".
// Fails when any byte cannot be written. Meshes are checked as write() does, before any image
// is copied beside the output. A format that cannot embed images (not places_own_images) gets
// those the document carries in memory written beside `path` (never over another file: a
// taken name gives `name-2.png`), and with options.place_textures the files it names copied
// there (docs/workflows.md, "Textures").
Expected<void> write_file(const FormatInfo& format, const cast::Document& document,
                          const std::filesystem::path& path, const WriteContext& context,
                          Diagnostics& diagnostics);

// scene::apply_axis_change with the move_carried of every registered format, so that what a
// format carried in the document's Metadata moves with it (glTF's rests). What `castkit convert
// --up/--units/--scale`, batch::convert and Python's change_axes call. O(size of the
// document's arrays + carried settings).
Expected<void> apply_axis_change(cast::Document& document, const scene::AxisChange& change,
                                 std::string_view name, Diagnostics& diagnostics);

}  // namespace formats

}  // namespace castkit
