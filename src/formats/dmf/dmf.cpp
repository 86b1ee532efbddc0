// The DMF registry entries: binary `.dmf` and JSON `.dmf.json`, both through the Cast document.
#include <castkit/formats/dmf.hpp>

#include "../registry_entries.hpp"
#include "cast_faces.hpp"
#include "io/binary_io.hpp"
#include "json_writer.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> to_document(Expected<dmf::Model> model, const ReadContext& context,
                                     Diagnostics& diagnostics) {
    if (!model) return make_error(model.error());
    dmf::ConvertOptions options;
    const std::vector<std::filesystem::path>& folders = context.options.side_files.folders;
    if (!folders.empty()) options.texture_directory = folders.front();
    options.side_outputs = context.options.side_outputs;
    auto document = dmf::to_cast(*model, context.name, diagnostics, options);
    if (!document) return document;
    document->source_name = context.name;
    return document;
}

Expected<cast::Document> read_dmf(const cast::SharedBytes& bytes, const ReadContext& context,
                                  Diagnostics& diagnostics) {
    return to_document(dmf::read(bytes, context.name, diagnostics), context, diagnostics);
}

Expected<cast::Document> read_dmf_json(const cast::SharedBytes& bytes, const ReadContext& context,
                                       Diagnostics& diagnostics) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return to_document(dmf::read_json(text, context.name, diagnostics), context, diagnostics);
}

// Texture files come from beside the source file, else from --textures DIR.
dmf::ConvertOptions options_of(const WriteContext& context) {
    dmf::ConvertOptions options;
    options.base_directory = context.base;
    options.base_folder = context.folder;
    options.side_files = context.options.side_files;
    return options;
}

Expected<void> write_dmf(const cast::Document& document, Sink& sink, const WriteContext& context,
                         Diagnostics& diagnostics) {
    auto model = dmf::from_checked_cast(document, diagnostics, options_of(context));
    if (!model) return make_error(model.error());
    return write_serialised(sink, dmf::write_to_buffer(*model), context.name);
}

// The faces are made chunk by chunk as they are formatted (cast_faces.hpp), unless a normal
// or UV is not finite: then they are made first, so that write_json names the first face JSON
// cannot hold.
Expected<void> write_dmf_json(const cast::Document& document, Sink& sink,
                              const WriteContext& context, Diagnostics& diagnostics) {
    auto converted = dmf::from_cast_faces_apart(document, diagnostics, options_of(context));
    if (!converted) return make_error(converted.error());
    Expected<void> written;
    if (converted->faces.all_finite()) {
        written =
            dmf::write_json(converted->model, converted->faces, sink, formats::Threads::automatic);
    } else {
        converted->model.faces.resize(converted->faces.size());
        converted->faces.make(0, converted->model.faces);
        written = dmf::write_json(converted->model, sink);
    }
    if (written || !written.error().file.empty()) return written;
    Diagnostic d = written.error();  // a value JSON cannot hold: name the file being written
    d.file = context.name;
    return make_error(std::move(d));
}

constexpr std::string_view kBinary = "dmf";
constexpr std::string_view kJson = "dmf-json";

// DMF to DMF (binary or JSON) converts the model itself: through the Cast document, what only
// DMF holds (material settings, embedded images) would be lost. O(size).
Expected<void> convert_model(bool from_json, std::span<const std::byte> bytes,
                             std::string_view name, const FormatInfo& to,
                             const std::filesystem::path& output, Diagnostics& warnings) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    auto model =
        from_json ? dmf::read_json(text, name, warnings) : dmf::read(bytes, name, warnings);
    if (!model) return make_error(model.error());
    return to.name == kBinary ? dmf::write(*model, output) : dmf::write_json(*model, output);
}

Expected<void> convert_binary(std::span<const std::byte> bytes, std::string_view name,
                              const FormatInfo& to, const std::filesystem::path& output,
                              Diagnostics& warnings) {
    return convert_model(false, bytes, name, to, output, warnings);
}

Expected<void> convert_json(std::span<const std::byte> bytes, std::string_view name,
                            const FormatInfo& to, const std::filesystem::path& output,
                            Diagnostics& warnings) {
    return convert_model(true, bytes, name, to, output, warnings);
}

}  // namespace

FormatInfo dmf_entry() {
    return {.name = std::string(kBinary),
            .extensions = {".dmf"},
            .read = read_dmf,
            .write = write_dmf,
            .places_own_images = true,
            .written_models = WrittenModels::First,
            .family = std::string(kBinary),
            .convert_in_family = convert_binary};
}
FormatInfo dmf_json_entry() {
    return {.name = std::string(kJson),
            .extensions = {".dmf.json"},
            .read = read_dmf_json,
            .write = write_dmf_json,
            .places_own_images = true,
            .written_models = WrittenModels::First,
            .family = std::string(kBinary),
            .convert_in_family = convert_json};
}

}  // namespace castkit::formats
