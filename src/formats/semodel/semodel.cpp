// The SEModel registry entry: `.semodel` bytes read into and written from the Cast document.
#include <castkit/formats/semodel.hpp>

#include "../registry_entries.hpp"
#include "io/binary_io.hpp"
#include "mapping.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_semodel(const cast::SharedBytes& bytes, const ReadContext& context,
                                      Diagnostics& diagnostics) {
    auto model = semodel::read(bytes, context.name, diagnostics);
    if (!model) return make_error(model.error());
    auto document = semodel::to_cast(std::move(*model), diagnostics);
    if (document) document->source_name = context.name;
    return document;
}

Expected<void> write_semodel(const cast::Document& document, Sink& sink,
                             const WriteContext& context, Diagnostics& diagnostics) {
    auto model = semodel::detail::from_checked_cast(document, diagnostics);
    if (!model) return make_error(model.error());
    return write_serialised(sink, semodel::write_to_buffer(*model), context.name);
}

}  // namespace

FormatInfo semodel_entry() {
    return {.name = "semodel",
            .extensions = {".semodel"},
            .read = read_semodel,
            .write = write_semodel,
            .written_models = WrittenModels::First};
}

}  // namespace castkit::formats
