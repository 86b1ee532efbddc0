// The FBX registry entry (write only) and fbx::write: the document's Models, then its Animations,
// gathered into the record tree and encoded.
#include <fmt/format.h>

#include <castkit/anim/budget.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/formats/fbx.hpp>

#include "../registry_entries.hpp"
#include "scene.hpp"
#include "scene/write_check.hpp"

namespace castkit::fbx {
namespace {

// FBX 7.4's offsets are 32-bit: no file past 4 GiB.
constexpr std::uint64_t kLargestFile = 0xffffffffu;

void write_document(detail::Scene& scene, const cast::Document& document,
                    const WriteContext& context) {
    std::size_t root_index = 0;
    for (const cast::ConstRoot& root : document.root_nodes()) {
        const std::string root_path = fmt::format("root[{}]", root_index++);
        const auto models = root.models();
        for (std::size_t m = 0; m < models.size(); ++m)
            scene.write_model(models[m], fmt::format("{}/model[{}]", root_path, m));
    }
    scene.write_instances(document, context);
    root_index = 0;
    for (const cast::ConstRoot& root : document.root_nodes()) {
        const std::string root_path = fmt::format("root[{}]", root_index++);
        const auto animations = root.animations();
        for (std::size_t a = 0; a < animations.size(); ++a)
            scene.write_animation(animations[a], document,
                                  fmt::format("{}/animation[{}]", root_path, a));
    }
}

// Embedded with --texture-mode embed; else copied beside an output file in another folder than
// the source's (or referenced, as --texture-mode says), and, with no output file, named as the
// document names them, the images it carries in memory named as lost.
void place_images(detail::Scene& scene, const cast::Document& document,
                  const std::filesystem::path& output, const WriteContext& context) {
    scene.images.embed = context.options.textures == TextureMode::Embed;
    scene.images.carried = &document.embedded;
    scene.images.context = &context;
    if (scene.images.embed) return;
    if (output.empty())
        formats::warn_embedded_not_kept(document, context, scene.warnings);
    else
        scene.images.placement = std::make_unique<formats::TexturePlacement>(
            document.embedded, output, context, scene.warnings);
}

Record takes(const detail::Scene& scene) {
    Record out{"Takes", {}, {}};
    out.add("Current", {scene.takes.empty() ? std::string() : scene.takes.front().name});
    for (const detail::Scene::Take& take : scene.takes) {
        Record& record = out.add("Take", {take.name});
        record.add("FileName", {take.name + ".tak"});
        record.add("LocalTime", {take.start, take.stop});
        record.add("ReferenceTime", {take.start, take.stop});
    }
    return out;
}

Expected<void> write_checked(const cast::Document& document, Sink& sink,
                             const WriteContext& context, Diagnostics& diagnostics,
                             ExportOptions options) {
    if (options.max_bytes == 0)
        options.max_bytes = std::min(anim::memory_budget(cast::file_size(document)), kLargestFile);
    detail::Scene scene(context.name, options, diagnostics);
    place_images(scene, document, sink.file(), context);
    write_document(scene, document, context);
    if (scene.failure) return make_error(*scene.failure);
    std::vector<Record> top = detail::header_records(document, scene, 1);
    top.push_back(detail::definitions(scene));
    top.push_back({"Objects", {}, std::move(scene.objects)});
    top.push_back({"Connections", {}, std::move(scene.connections)});
    top.push_back(takes(scene));
    if (encoded_size(top) > options.max_bytes)
        return make_error(Diagnostic{
            .severity = Severity::Error,
            .file = context.name,
            .path = "/",
            .rule = "fbx.size-budget",
            .message = fmt::format("the FBX file would take {} bytes, more than its budget of {} "
                                   "(fbx::ExportOptions::max_bytes)",
                                   encoded_size(top), options.max_bytes)});
    const std::vector<std::byte> bytes = encode(top);
    sink.reserve(bytes.size());
    return sink.write(bytes);
}

ExportOptions options_of(const WriteContext& context) {
    return {.solve_rig = context.options.solve_rig};
}

}  // namespace

Expected<void> write(const cast::Document& document, Sink& sink, const WriteContext& context,
                     Diagnostics& diagnostics, const ExportOptions& options) {
    // The check before every write (docs/diagnostics.md), as the registry runs it.
    auto repaired = scene::check_before_write(document, WrittenModels::All, context, diagnostics);
    if (!repaired) return make_error(repaired.error());
    return write_checked(*repaired ? **repaired : document, sink, context, diagnostics, options);
}

}  // namespace castkit::fbx

namespace castkit::formats {
namespace {

Expected<void> write_fbx(const cast::Document& document, Sink& sink, const WriteContext& context,
                         Diagnostics& diagnostics) {
    return fbx::write_checked(document, sink, context, diagnostics, fbx::options_of(context));
}

}  // namespace

FormatInfo fbx_entry() {
    // Write only (FormatInfo::read null): the registry's read names the formats castkit reads.
    return {.name = "fbx",
            .extensions = {".fbx"},
            .write = write_fbx,
            .places_own_images = true,
            .written_models = WrittenModels::All};
}

}  // namespace castkit::formats
