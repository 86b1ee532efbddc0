// The OBJ registry entry: written only (no `read`: the registry refuses OBJ input).
#include <castkit/formats/obj.hpp>

#include "../registry_entries.hpp"

namespace castkit::formats {

FormatInfo obj_entry() {
    // OBJ says nothing of its axes or units: the document's own are written, after any
    // convert --up/--units (docs/obj.md).
    return {.name = "obj",
            .extensions = {".obj"},
            .write = obj::write,
            .written_models = WrittenModels::All};
}

}  // namespace castkit::formats
