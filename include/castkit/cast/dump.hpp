// Human- and machine-readable views of a whole document: `castkit dump` and `castkit info`.
#pragma once

#include <castkit/cast/document.hpp>
#include <cstddef>
#include <functional>
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

// A summary of what the document holds: the files it carries in memory (embedded images),
// roots, models, meshes, skeletons, materials, animations, instances, sizes. `converted_from`
// names the file's format when it was not Cast (the summary then describes the Cast document it
// converts to); empty for a Cast file. A root's instances are summarised by the file they
// reference (how many, the box their positions span), one line per file in path order, and with
// `every_instance` also listed one line each. O(nodes + instances × log files).
std::string info_text(const Document& document, std::uint64_t file_bytes,
                      std::string_view converted_from = {}, bool every_instance = false);

}  // namespace castkit::cast
