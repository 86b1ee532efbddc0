// The SEModel registry entry: `.semodel` files read into and write from the Cast document.
#include <castkit/formats/semodel.hpp>

#include "../../platform/platform.hpp"
#include "../common/binary_io.hpp"
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_semodel(const std::filesystem::path& path, Diagnostics& warnings) {
    auto model = parse_input(path, [&](cast::Bytes bytes, const std::string& name) {
        return semodel::parse(bytes, name, warnings);
    });
    if (!model) return make_error(model.error());
    cast::Document document = semodel::to_cast(std::move(*model), warnings);
    document.source_name = path == "-" ? "<stdin>" : platform::utf8_of(path);
    return document;
}

Expected<void> write_semodel(cast::Document& document, const std::filesystem::path& path,
                            const WriteOptions&, Diagnostics& warnings) {
    auto model = semodel::from_cast(document, warnings);
    if (!model) return make_error(model.error());
    return semodel::write(*model, path);
}

}  // namespace

FormatInfo semodel_format() { return {"semodel", {".semodel"}, read_semodel, write_semodel}; }

}  // namespace castkit::formats
