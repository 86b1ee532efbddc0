// The K3D registry entry: `.k3d` bytes read into and written from the Cast document.
#include <castkit/formats/k3d.hpp>

#include "../registry_entries.hpp"
#include "io/binary_io.hpp"
#include "shared.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_k3d(const cast::SharedBytes& bytes, const ReadContext& context,
                                  Diagnostics& diagnostics) {
    auto model = k3d::read(bytes, context.name, diagnostics);
    if (!model) return make_error(model.error());
    return k3d::to_cast(*model, context.name, diagnostics);
}

Expected<void> write_k3d(const cast::Document& document, Sink& sink, const WriteContext& context,
                         Diagnostics& diagnostics) {
    auto model = k3d::from_checked_cast(document, diagnostics);
    if (!model) return make_error(model.error());
    return write_serialised(sink, k3d::write_to_buffer(*model), context.name);
}

}  // namespace

FormatInfo k3d_entry() {
    return {.name = "k3d",
            .extensions = {".k3d"},
            .read = read_k3d,
            .write = write_k3d,
            .written_models = WrittenModels::First};
}

}  // namespace castkit::formats
