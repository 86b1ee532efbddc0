// Human- and machine-readable views of a whole document: `castkit dump` and `castkit info`.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/json.hpp>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace castkit::cast {

struct DumpOptions {
    // Text dumps show at most this many elements of an array, then "… N more".
    std::size_t max_elements = 8;
};

// An indented tree of nodes and properties. O(nodes + shown elements).
std::string dump_text(const Document& document, const DumpOptions& options = {});
// The same text handed to `write` in pieces of about 64 KiB as it is made (a node's lines are
// never split), so that the text of a large document is never held whole (`castkit dump`); it
// stops at the first piece `write` refuses (returns false) and then returns false.
// O(nodes + shown elements).
bool dump_text(const Document& document, const DumpOptions& options,
               const std::function<bool(std::string_view)>& write);

// The whole document as JSON in castkit's dump schema (every value, nothing elided):
// {"version":1,"flags":0,"roots":[NODE]}, NODE = {"id","hash","properties","children"[,"opaque"]}.
// Floats use the shortest text that reads back to the stored value; non-finite ones are the
// strings "nan", "inf", "-inf". Appends to `out`. O(file size).
void dump_json(const Document& document, std::string& out);

// What `castkit info` is told of a file besides its document.
struct InfoOptions {
    // The file's format when it was not Cast (the summary then describes the Cast document it
    // converts to); empty for a Cast file.
    std::string_view converted_from{};
    // List every Instance of a map too, besides the summary by referenced file.
    bool every_instance = false;
    // What the file's format defines for every file it holds (FormatInfo's `up` and `units`:
    // glTF's +Y up in metres), named `format`, for the axes and units the bounds are in; a
    // Metadata `up` comes first. Unset and empty where the format says nothing.
    std::string_view format{};
    std::optional<Axis> format_up{};
    std::string_view format_units{};
};

// A summary of what the document holds: the files it carries in memory (embedded images),
// its bounds, roots, models (each with its bounds), meshes, skeletons, materials, animations,
// instances, sizes. Bounds are in the file's own units and axes, which the line says: a Model's
// is the box of its meshes' positions where its own position, rotation and scale place them; the
// scene's covers every Model and every Instance's position (the files Instances reference are
// not read). A root's instances are summarised by the file they reference (how many, the box
// their positions span), one line per file in path order, and with `every_instance` also listed
// one line each. O(nodes + vertices + instances × log files).
std::string info_text(const Document& document, std::uint64_t file_bytes,
                      const InfoOptions& options = {});
// The same values as one JSON object of the schema docs/cli.md gives (`castkit info --json`),
// written to `out`. O(nodes + vertices + instances × log files).
void info_json(const Document& document, std::uint64_t file_bytes, const InfoOptions& options,
               json::Writer& out);

}  // namespace castkit::cast
