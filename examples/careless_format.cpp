// The careless format (careless_format.hpp): what a plug-in must not do, done on purpose.
#include "careless_format.hpp"

#include <stdexcept>

namespace careless_format {
namespace {

castkit::Expected<castkit::cast::Document> read_careless(const castkit::cast::SharedBytes& bytes,
                                                         const castkit::ReadContext& context,
                                                         castkit::Diagnostics& diagnostics) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (!text.starts_with("cast")) throw std::runtime_error("not a careless file");
    // The bare span: the document borrows the input, its owner left behind.
    return castkit::cast::read(bytes.bytes, context.name, diagnostics);
}

castkit::Expected<void> write_careless(const castkit::cast::Document&, castkit::Sink&,
                                       const castkit::WriteContext&, castkit::Diagnostics&) {
    throw std::logic_error("writing is not done yet");
}

}  // namespace

castkit::FormatInfo format_info() {
    return {.name = "careless",
            .extensions = {".careless"},
            .read = read_careless,
            .write = write_careless};
}

}  // namespace careless_format
