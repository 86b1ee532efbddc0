// The Cast format's registry entry: the hub reads and writes itself.
#include "registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_cast(const cast::SharedBytes& bytes, const ReadContext& context) {
    auto document = cast::read(bytes, {.source_name = context.name});
    if (document) context.warnings.append(document->warnings);
    return document;
}

Expected<void> write_cast(const cast::Document& document, Sink& sink, const WriteContext&) {
    return cast::write(document, sink);
}

}  // namespace

FormatInfo cast_format() { return {"cast", {".cast"}, read_cast, write_cast}; }

}  // namespace castkit::formats
