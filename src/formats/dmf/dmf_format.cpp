// The DMF registry entries: binary `.dmf` and JSON `.dmf.json`, both through the Cast document.
#include <castkit/formats/dmf.hpp>

#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> to_document(Expected<dmf::Model> model, const std::filesystem::path& path,
                                     Diagnostics& warnings) {
    if (!model) return make_error(model.error());
    return dmf::to_cast(*model, path.string(), warnings);
}

Expected<cast::Document> read_dmf(const std::filesystem::path& path, Diagnostics& warnings) {
    return to_document(dmf::open(path, warnings), path, warnings);
}

Expected<cast::Document> read_dmf_json(const std::filesystem::path& path, Diagnostics& warnings) {
    return to_document(dmf::open_json(path, warnings), path, warnings);
}

Expected<void> write_dmf(cast::Document& document, const std::filesystem::path& path, Diagnostics& warnings) {
    auto model = dmf::from_cast(document, warnings);
    if (!model) return make_error(model.error());
    return dmf::write(*model, path);
}

Expected<void> write_dmf_json(cast::Document& document, const std::filesystem::path& path, Diagnostics& warnings) {
    auto model = dmf::from_cast(document, warnings);
    if (!model) return make_error(model.error());
    return dmf::write_json(*model, path);
}

}  // namespace

FormatInfo dmf_format() { return {"dmf", {".dmf"}, read_dmf, write_dmf}; }
FormatInfo dmf_json_format() { return {"dmf-json", {".dmf.json"}, read_dmf_json, write_dmf_json}; }

}  // namespace castkit::formats
