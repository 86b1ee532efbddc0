// The format registry: every file format castkit reads or writes, behind one interface: bytes
// in, a Cast document out, and back into a Sink. Each format converts to and from the Cast
// document (the hub), so `castkit convert` and `info` work for any pair. Files and standard input
// are touched only at the edge (read_file, write_file), once. What a format implements to be
// listed here is castkit/formats/format.hpp; CASTKIT_VERSION (castkit/version.hpp) says which
// castkit a plug-in is built against.
#pragma once

#include <castkit/formats/format.hpp>
#include <castkit/io/context.hpp>
#include <castkit/io/input.hpp>
#include <castkit/scene/axis_change.hpp>
#include <castkit/version.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit {

// All registered formats: castkit's own, in a fixed order, then those register_format added, as
// they are when it is called. Every reference stays valid for the life of the process. O(formats).
std::vector<std::reference_wrapper<const FormatInfo>> all_formats();
// Adds a format of the caller's own (docs/library.md, "A format of your own"): from then on the
// registry finds it by name and extension, and reads, writes and batch-converts through it as
// through castkit's own. Refused (registry.format) for an empty name, a null read or write, a
// name another format has (blind to ASCII case), an extension another format has or that no
// file name ends with ('.' and a lower-case name without '/', '\\', ':', spaces or control
// characters: file names are matched in lower case), a family another format named, or one of
// `family` and `convert_in_family` without the other. The registry copies every string it keeps.
// Safe from any thread, beside lookups on others (one lock around the list). O(formats ×
// extensions).
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
// The image format a file that no format reads is ("PNG", "JPEG", "DDS", "BMP", "PSD", "TGA":
// the textures materials name, which castkit carries with models but reads no scene from), from
// its first bytes or, for TGA, the extension; empty for anything else, so a message can say what
// the file is. O(1).
std::string_view image_format_of(std::span<const std::byte> bytes,
                                 const std::filesystem::path& path);
// The file name without the extension its format matched ("run" for "a/run.dmf.json"); for no
// known format, without its last extension. UTF-8.
std::string file_stem(const std::filesystem::path& path);
// The format with this name, blind to ASCII case ("GLB" is glb), or nullptr. O(formats).
const FormatInfo* format_by_name(std::string_view name);

namespace formats {

// Parses `input` with `format`; the document's payloads keep the input's owner alive, those a
// reader left without it too (a view of the input shares input.owner; of other bytes, copied),
// so that a reader that forgot the owner leaves no document viewing bytes that go. Every finding
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
// warning. A format's exception, here as in read(), is an error registry.exception: nothing
// thrown leaves the registry's calls. O(output size).
Expected<void> write(const FormatInfo& format, const cast::Document& document, Sink& sink,
                     const WriteContext& context, Diagnostics& diagnostics);

// The files a file of `format` names that its reader opens besides it, from its bytes alone
// (FormatInfo::referenced_files); empty where the format names none that way. A format's
// exception is an error registry.exception. O(size).
Expected<std::vector<std::string>> referenced_files(const FormatInfo& format,
                                                    std::span<const std::byte> bytes);

// Converts `bytes` (a file named `name`) of `from` into `output` as `to`, one of its family
// (converts_in_family), through from.convert_in_family; an error registry.format when they are
// no family, registry.exception when the format throws. O(size).
Expected<void> convert_in_family(const FormatInfo& from, std::span<const std::byte> bytes,
                                 std::string_view name, const FormatInfo& to,
                                 const std::filesystem::path& output, Diagnostics& warnings);

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
