// The SEModel registry entry: `.semodel` bytes read into and written from the Cast document.
#include <castkit/formats/semodel.hpp>

#include "../common/binary_io.hpp"
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_semodel(const cast::SharedBytes& bytes, const ReadContext& context) {
    auto model = semodel::read(bytes, context.name, context.warnings);
    if (!model) return make_error(model.error());
    auto document = semodel::to_cast(std::move(*model), context.warnings);
    if (document) document->source_name = context.name;
    return document;
}

Expected<void> write_semodel(const cast::Document& document, Sink& sink,
                             const WriteContext& context) {
    auto model = semodel::from_cast(document, context.warnings);
    if (!model) return make_error(model.error());
    return write_serialised(sink, semodel::write_to_buffer(*model), context.name);
}

}  // namespace

FormatInfo semodel_format() {
    return {"semodel", {".semodel"}, read_semodel, write_semodel, false, WrittenModels::First};
}

}  // namespace castkit::formats
