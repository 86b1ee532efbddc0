// What a format implements to join castkit: its registry entry (FormatInfo); the context its
// reader and writer are given and the options they read are castkit/io/context.hpp's. Each format
// folder (src/formats/<name>/) and a plug-in include this; the registry that lists the entries and
// reads and writes through them is castkit/registry.hpp.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/expected.hpp>
#include <castkit/io/context.hpp>
#include <castkit/scene/axis_change.hpp>
#include <castkit/scene/written_models.hpp>
#include <castkit/sink.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit {

// A format's entry, built with designated initializers (`{.name = "off", .extensions = {".off"},
// .read = …, .write = …}`): the registry keeps its own copy of every string, so an entry built
// from strings the caller frees afterwards stays whole. Through every function below the
// registry catches what a format throws (registry.exception).
struct FormatInfo {
    std::string name{};                     // "cast", "seanim", …; unique blind to ASCII case
    std::vector<std::string> extensions{};  // ".cast"; longest match wins (".dmf.json")
    // Parses `bytes` into a Cast document (null for a format castkit only writes, such as OBJ:
    // formats::read refuses its files with registry.write-only, and a folder conversion takes
    // none of them as inputs; register_format asks for both functions); warnings, added to
    // `diagnostics`, name what was approximated. Payloads the document views (Cast's are not
    // copied) share `bytes.owner`; with a null owner they are borrowed, and the caller keeps the
    // bytes alive as long as the document.
    Expected<cast::Document> (*read)(const cast::SharedBytes& bytes, const ReadContext& context,
                                     Diagnostics& diagnostics) = nullptr;
    // Writes a Cast document into `sink`; warnings, added to `diagnostics`, name what the format
    // cannot hold and was dropped.
    Expected<void> (*write)(const cast::Document& document, Sink& sink, const WriteContext& context,
                            Diagnostics& diagnostics) = nullptr;
    // The writer reads the images materials name itself, the document's embedded files first
    // (glTF embeds, copies or references them; DMF embeds them; FBX embeds or places them one
    // by one, its maps naming the images of the files they instance), so write_file leaves their
    // paths to it (FormatOptions::place_textures).
    bool places_own_images = false;
    // What formats::write and write_file check before they call `write` (docs/diagnostics.md,
    // "Before every write").
    WrittenModels written_models = WrittenModels::None;
    // The format keeps a document as it is given, every float bit pattern included, and reads
    // back the same (Cast, rule 13): formats::write and write_file check nothing before `write`.
    bool keeps_documents_as_given = false;
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

// What `format` says of the axes of every file (its up and units), as scene::plan_axis_change
// takes it. O(1).
scene::DeclaredAxes declared_axes(const FormatInfo& format);

// What `castkit info` says of a file of `format` (cast::info_text): its name when it is not
// Cast, and the up axis and units it defines for its files. Views of the entry's strings. O(1).
cast::InfoOptions info_options(const FormatInfo& format);

// Whether `from` converts into `to` directly (FormatInfo::family). O(family's length).
bool converts_in_family(const FormatInfo& from, const FormatInfo& to);

}  // namespace castkit
