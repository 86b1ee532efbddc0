// The DMF registry entries: binary `.dmf` and JSON `.dmf.json`, both through the Cast document.
#include <castkit/formats/dmf.hpp>
#include <cctype>
#include <optional>

#include "../../platform/platform.hpp"
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> to_document(Expected<dmf::Model> model, const std::filesystem::path& path,
                                     Diagnostics& warnings) {
    if (!model) return make_error(model.error());
    return dmf::to_cast(*model, platform::utf8_of(path), warnings);
}

Expected<cast::Document> read_dmf(const std::filesystem::path& path, Diagnostics& warnings) {
    return to_document(dmf::open(path, warnings), path, warnings);
}

Expected<cast::Document> read_dmf_json(const std::filesystem::path& path, Diagnostics& warnings) {
    return to_document(dmf::open_json(path, warnings), path, warnings);
}

// The DMF a document was read from (its source name ends in .dmf or .dmf.json), so that
// DMF → DMF conversions through the Cast hub keep textures and material settings.
std::optional<dmf::Model> source_model(const cast::Document& document) {
    std::string name = document.source_name;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Diagnostics ignored;
    if (name.ends_with(".dmf.json"))
        if (auto model = dmf::open_json(document.source_name, ignored)) return std::move(*model);
    if (name.ends_with(".dmf"))
        if (auto model = dmf::open(document.source_name, ignored)) return std::move(*model);
    return std::nullopt;
}

Expected<dmf::Model> to_model(cast::Document& document, const WriteOptions& write_options,
                              Diagnostics& warnings) {
    std::optional<dmf::Model> original = source_model(document);
    dmf::ConvertOptions options;
    options.side_files = write_options.side_files;
    if (original) options.original = &*original;
    return dmf::from_cast(document, warnings, options);
}

Expected<void> write_dmf(cast::Document& document, const std::filesystem::path& path,
                         const WriteOptions& options, Diagnostics& warnings) {
    auto model = to_model(document, options, warnings);
    if (!model) return make_error(model.error());
    return dmf::write(*model, path);
}

Expected<void> write_dmf_json(cast::Document& document, const std::filesystem::path& path,
                              const WriteOptions& options, Diagnostics& warnings) {
    auto model = to_model(document, options, warnings);
    if (!model) return make_error(model.error());
    return dmf::write_json(*model, path);
}

}  // namespace

FormatInfo dmf_format() { return {"dmf", {".dmf"}, read_dmf, write_dmf}; }
FormatInfo dmf_json_format() { return {"dmf-json", {".dmf.json"}, read_dmf_json, write_dmf_json}; }

}  // namespace castkit::formats
