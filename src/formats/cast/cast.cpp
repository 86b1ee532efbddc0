// The Cast format's registry entry: the hub reads and writes itself.
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_cast(const cast::SharedBytes& bytes, const ReadContext& context,
                                   Diagnostics& diagnostics) {
    return cast::read(bytes, context.name, diagnostics);
}

Expected<void> write_cast(const cast::Document& document, Sink& sink, const WriteContext&,
                          Diagnostics&) {
    return cast::write(document, sink);
}

}  // namespace

FormatInfo cast_entry() {
    return {.name = "cast",
            .extensions = {".cast"},
            .read = read_cast,
            .write = write_cast,
            .keeps_documents_as_given = true,
            .holds_instances = true};
}

}  // namespace castkit::formats
