// The SEAnim registry entry: `.seanim` bytes read into and written from the Cast document.
#include <castkit/formats/seanim.hpp>

#include "../registry_entries.hpp"
#include "io/binary_io.hpp"
#include "mapping.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_seanim(const cast::SharedBytes& bytes, const ReadContext& context,
                                     Diagnostics& diagnostics) {
    auto animation = seanim::read(bytes, context.name, diagnostics);
    if (!animation) return make_error(animation.error());
    auto document = seanim::to_cast(*animation, diagnostics);
    if (document) document->source_name = context.name;
    return document;
}

Expected<void> write_seanim(const cast::Document& document, Sink& sink, const WriteContext& context,
                            Diagnostics& diagnostics) {
    auto animation = seanim::detail::from_checked_cast(document, diagnostics);
    if (!animation) return make_error(animation.error());
    return write_serialised(sink, seanim::write_to_buffer(*animation), context.name);
}

}  // namespace

FormatInfo seanim_entry() {
    return {
        .name = "seanim", .extensions = {".seanim"}, .read = read_seanim, .write = write_seanim};
}

}  // namespace castkit::formats
