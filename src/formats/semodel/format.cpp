// The SEModel registry entry: `.semodel` files read into and write from the Cast document.
#include <castkit/formats/semodel.hpp>

#include "../../platform/platform.hpp"
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_semodel(const std::filesystem::path& path, Diagnostics& warnings) {
    Expected<semodel::Model> model = semodel::Model{};
    if (path == "-") {
        auto bytes = platform::read_stdin();
        if (!bytes) return make_error(bytes.error());
        model = semodel::parse(*bytes, "<stdin>", warnings);
    } else {
        model = semodel::open(path, warnings);
    }
    if (!model) return make_error(model.error());
    cast::Document document = semodel::to_cast(std::move(*model), warnings);
    document.source_name = path == "-" ? "<stdin>" : path.string();
    return document;
}

Expected<void> write_semodel(cast::Document& document, const std::filesystem::path& path,
                            Diagnostics& warnings) {
    auto model = semodel::from_cast(document, warnings);
    if (!model) return make_error(model.error());
    if (path != "-") return semodel::write(*model, path);
    auto bytes = semodel::write_to_buffer(*model);
    if (!bytes) return make_error(bytes.error());
    return platform::write_stdout(*bytes);
}

}  // namespace

FormatInfo semodel_format() { return {"semodel", {".semodel"}, read_semodel, write_semodel}; }

}  // namespace castkit::formats
