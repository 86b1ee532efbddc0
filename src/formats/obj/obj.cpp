// The OBJ registry entry: written only; reading an OBJ is refused.
#include <castkit/formats/obj.hpp>

#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> refuse_obj(const cast::SharedBytes&, const ReadContext& context,
                                    Diagnostics&) {
    // About the file as a whole, from its first byte on (every read error names an offset).
    return make_error(Diagnostic{Severity::Error, context.name, 0, "/",
                                 "obj.read-unsupported",
                                 "castkit writes OBJ but does not read it (docs/obj.md)"});
}

}  // namespace

FormatInfo obj_entry() {
    // OBJ says nothing of its axes or units: the document's own are written, after any
    // convert --up/--units (docs/obj.md).
    return {.name = "obj",
            .extensions = {".obj"},
            .read = refuse_obj,
            .write = obj::write,
            .write_only = true,
            .written_models = WrittenModels::All};
}

}  // namespace castkit::formats
