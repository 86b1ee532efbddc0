// Human- and machine-readable views of a whole document: `castkit dump` and `castkit info`.
#pragma once

#include <castkit/cast/document.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace castkit::cast {

struct DumpOptions {
    // Text dumps show at most this many elements of an array, then "… N more".
    std::size_t max_elements = 8;
};

// An indented tree of nodes and properties. O(nodes + shown elements).
std::string dump_text(const Document& document, const DumpOptions& options = {});

// The whole document as JSON in castkit's dump schema (every value, nothing elided):
// {"version":1,"flags":0,"roots":[NODE]}, NODE = {"id","hash","properties","children"[,"opaque"]}.
// Floats use the shortest text that reads back to the stored value; non-finite ones are the
// strings "nan", "inf", "-inf". Appends to `out`. O(file size).
void dump_json(const Document& document, std::string& out);

// A summary of what the document holds: the files it carries in memory (embedded images),
// roots, models, meshes, skeletons, materials, animations, instances, sizes. `converted_from`
// names the file's format when it was not Cast (the summary then describes the Cast document it
// converts to); empty for a Cast file.
std::string info_text(const Document& document, std::uint64_t file_bytes,
                      std::string_view converted_from = {});

}  // namespace castkit::cast
