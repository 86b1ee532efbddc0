// The registry entries for .glb and .gltf, through the glTF bridge's public API.
#include <castkit/formats/gltf.hpp>

#include "../registry_entries.hpp"
#include "carried_rests.hpp"
#include "export_internal.hpp"
#include "references.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_gltf(const cast::SharedBytes& bytes, const ReadContext& context,
                                   Diagnostics& diagnostics) {
    return gltf::read(bytes, context, diagnostics);
}

Expected<void> write_gltf(bool binary, const cast::Document& document, Sink& sink,
                          const WriteContext& context, Diagnostics& diagnostics) {
    gltf::ExportOptions options;
    options.binary = binary;
    options.inline_instances = context.options.inline_instances;
    options.textures = context.options.textures;
    options.side_files = context.options.side_files;
    options.side_outputs = context.options.side_outputs;
    options.solve_rig = context.options.solve_rig;
    options.gpu_instancing = context.options.gpu_instancing;
    return gltf::detail::write_checked(document, sink, context, diagnostics, options);
}

Expected<void> write_glb(const cast::Document& document, Sink& sink, const WriteContext& context,
                         Diagnostics& diagnostics) {
    return write_gltf(true, document, sink, context, diagnostics);
}

Expected<void> write_gltf_text(const cast::Document& document, Sink& sink,
                               const WriteContext& context, Diagnostics& diagnostics) {
    return write_gltf(false, document, sink, context, diagnostics);
}

}  // namespace

FormatInfo glb_entry() {
    // The registry checks the document; the export checks the instances it inlines.
    return {.name = "glb",
            .extensions = {".glb"},
            .read = read_gltf,
            .write = write_glb,
            .places_own_images = true,
            .written_models = WrittenModels::All,
            .up = cast::Axis::Y,
            .units = scene::Units::Metres,
            .move_carried = gltf::detail::move_carried_rests,
            .referenced_files = gltf::detail::referenced_files,
            .inlines_instances = true};
}

FormatInfo gltf_entry() {
    return {.name = "gltf",
            .extensions = {".gltf"},
            .read = read_gltf,
            .write = write_gltf_text,
            .places_own_images = true,
            .written_models = WrittenModels::All,
            .up = cast::Axis::Y,
            .units = scene::Units::Metres,
            .move_carried = gltf::detail::move_carried_rests,
            .referenced_files = gltf::detail::referenced_files,
            .written_beside = ".bin",
            .inlines_instances = true};
}

}  // namespace castkit::formats
