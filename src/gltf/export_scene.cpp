// The whole-document export: Metadata's up axis as a root node turning the scene to +Y up,
// Models, Instances (referenced in extras or merged in), then Animations.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "../formats/common/file_sink.hpp"
#include "../formats/common/side_files.hpp"
#include "../platform/platform.hpp"
#include "export_internal.hpp"
#include "export_textures.hpp"
#include "json_depth.hpp"

namespace castkit::gltf {
namespace {

constexpr int kMaxInstanceDepth = 16;

// The Cast file an Instance names, found through the side-file policy; its payloads keep the
// mapping alive.
Expected<cast::Document> read_instance(const Context& context,
                                       const std::filesystem::path& location) {
    auto mapped = formats::map_side_file(context, location);
    if (!mapped) return make_error(mapped.error());
    return cast::read(cast::SharedBytes{(*mapped)->bytes(), *mapped},
                      {.source_name = context.name});
}

struct SceneWriter {
    detail::Exporter& exporter;
    std::set<std::filesystem::path> open_files;  // instance files being merged (cycle guard)
    std::deque<cast::Document>
        inlined;  // kept alive (and in place): exported views point into them

    // `folder`: where the document's relative file names resolve.
    void export_document(const cast::Document& document, const std::filesystem::path& folder,
                         int parent, int depth, bool with_animations) {
        int scene = parent;
        std::string up;
        // Instance files resolve against the scene root `sr`, relative to the file, as the
        // Blender add-on does (docs/blender-addon.md).
        std::filesystem::path instance_base = folder;
        bool scene_root_found = false;
        const std::vector<cast::ConstRoot> roots = document.root_nodes();
        for (const cast::ConstRoot& root : roots)
            for (const cast::ConstMetadata& metadata : root.metadata()) {
                if (auto axis = metadata.up_axis_name(); axis && up.empty()) up = std::string(*axis);
                if (auto sr = metadata.scene_root(); sr && !scene_root_found) {
                    instance_base /= std::filesystem::path(*sr);
                    scene_root_found = true;
                }
            }
        if (up == "z" || up == "x") {
            // Z up: a -90° turn about X takes +Z to +Y; X up: +90° about Z takes +X to +Y.
            const glm::quat turn = up == "z"
                                       ? glm::angleAxis(-glm::half_pi<float>(), glm::vec3(1, 0, 0))
                                       : glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1));
            tinygltf::Node node;
            node.name = fmt::format("{} up", up);
            node.rotation = {turn.x, turn.y, turn.z, turn.w};
            node.extras = tinygltf::Value(
                tinygltf::Value::Object{{"castkit_up_axis", detail::string_value(up)}});
            scene = exporter.add_node(std::move(node), parent);
        } else if (!up.empty() && up != "y") {
            exporter.warn("metadata", fmt::format("unknown up axis '{}' was ignored", up));
        }
        for (std::size_t r = 0; r < roots.size(); ++r) {
            const auto models = roots[r].models();
            for (std::size_t m = 0; m < models.size(); ++m)
                exporter.export_model(models[m], scene, fmt::format("root[{}]/model[{}]", r, m));
            const auto instances = roots[r].instances();
            for (std::size_t i = 0; i < instances.size(); ++i)
                export_instance(instances[i], instance_base, scene, depth,
                                fmt::format("root[{}]/instance[{}]", r, i));
        }
        if (!with_animations) return;
        for (std::size_t r = 0; r < roots.size(); ++r) {
            const auto animations = roots[r].animations();
            for (std::size_t a = 0; a < animations.size(); ++a)
                exporter.export_animation(animations[a],
                                          fmt::format("root[{}]/animation[{}]", r, a));
        }
    }

    void export_instance(const cast::ConstInstance& instance, const std::filesystem::path& base,
                         int parent, int depth, const std::string& path) {
        tinygltf::Node node;
        node.name = std::string(instance.name().value_or(""));
        if (auto p = instance.position()) node.translation = {p->x, p->y, p->z};
        if (auto r = instance.rotation()) {
            const glm::quat q = glm::normalize(cast::quat_from_xyzw(*r));
            node.rotation = {q.x, q.y, q.z, q.w};
        }
        if (auto s = instance.scale()) node.scale = {s->x, s->y, s->z};
        const cast::ConstFile reference = instance.reference_file();  // absent when rf links nothing
        const std::string file(reference ? reference.path().value_or("") : "");
        if (file.empty()) {
            exporter.warn(path, "instance names no file (missing or empty path); skipped");
            return;
        }
        node.extras = tinygltf::Value(tinygltf::Value::Object{
            {"castkit_instance",
             tinygltf::Value(tinygltf::Value::Object{{"file", detail::string_value(file)}})}});
        const int index = exporter.add_node(std::move(node), parent);
        if (!exporter.options.inline_instances) return;

        auto location = formats::resolve_side_file({.base = base}, file);
        if (!location) {
            exporter.warn(path, fmt::format("instance not inlined: {}", location.error().message));
            return;
        }
        std::error_code error;
        const std::filesystem::path resolved = std::filesystem::weakly_canonical(*location, error);
        if (depth >= kMaxInstanceDepth || open_files.count(resolved)) {
            exporter.warn(
                path,
                fmt::format("instance '{}' refers back to a file being merged; not inlined", file));
            return;
        }
        auto document =
            read_instance({.name = platform::utf8_of(resolved), .base = base}, resolved);
        if (!document) {
            exporter.warn(path,
                          fmt::format("instance not inlined: {}", document.error().to_string()));
            return;
        }
        if (!document->animations().empty())
            exporter.warn(path, fmt::format("animations of instance '{}' were not merged", file));
        open_files.insert(resolved);
        inlined.push_back(std::move(*document));
        export_document(inlined.back(), resolved.parent_path(), index, depth + 1, false);
        open_files.erase(resolved);
    }
};

// A carried rest transform: a bone node hash in decimal and {translation, rotation (XYZW),
// scale}; nullopt when any part is missing, not its count of numbers, or not finite.
std::optional<std::pair<std::uint64_t, anim::Transform>> carried_transform(
    const std::string& hash, const nlohmann::json& rest) {
    std::uint64_t key = 0;
    const auto [end, error] = std::from_chars(hash.data(), hash.data() + hash.size(), key);
    if (error != std::errc() || end != hash.data() + hash.size() || !rest.is_object())
        return std::nullopt;
    const auto t = detail::numbers(rest.value("translation", nlohmann::json()), 3);
    const auto r = detail::numbers(rest.value("rotation", nlohmann::json()), 4);
    const auto s = detail::numbers(rest.value("scale", nlohmann::json()), 3);
    auto finite = [](const std::vector<double>& v) {
        return !v.empty() &&
               std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
    };
    if (!finite(t) || !finite(r) || !finite(s)) return std::nullopt;
    anim::Transform transform;
    transform.translation = glm::vec3(t[0], t[1], t[2]);
    transform.rotation = glm::quat(static_cast<float>(r[3]), static_cast<float>(r[0]),
                                   static_cast<float>(r[1]), static_cast<float>(r[2]));
    if (!(glm::length(transform.rotation) > 0.0f)) return std::nullopt;
    transform.rotation = glm::normalize(transform.rotation);
    transform.scale = glm::vec3(s[0], s[1], s[2]);
    return std::pair{key, transform};
}

// What an import carried in the Metadata `gltf` property (docs/gltf.md): default morph weights,
// the rest pose of bones that rest in their bind pose, and material settings.
void read_carried(const cast::Document& document, detail::Exporter& exporter) {
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata()) {
            const auto text = metadata.string("gltf");
            if (!text) continue;
            // The exporter converts the settings recursively (to_value, tinygltf's writer).
            if (detail::first_too_deep(*text)) {
                exporter.warn("metadata/gltf",
                              fmt::format("the carried glTF settings nest deeper than {} levels "
                                          "and were ignored",
                                          detail::kMaxJsonDepth));
                continue;
            }
            const nlohmann::json carried = nlohmann::json::parse(*text, nullptr, false);
            if (!carried.is_object()) {
                exporter.warn("metadata/gltf", "the carried glTF settings are not castkit's JSON");
                continue;
            }
            if (carried.contains("weights") && carried["weights"].is_object())
                for (auto& [name, weight] : carried["weights"].items())
                    if (weight.is_number()) exporter.default_weights[name] = weight.get<float>();
            if (carried.contains("rest") && carried["rest"].is_object())
                for (auto& [hash, rest] : carried["rest"].items())
                    if (auto transform = carried_transform(hash, rest))
                        exporter.carried_rest[transform->first] = transform->second;
            if (carried.contains("materials") && carried["materials"].is_object())
                exporter.carried_materials.update(carried["materials"]);
        }
}

}  // namespace

Expected<void> write(const cast::Document& document, Sink& sink, const WriteContext& context,
                     const ExportOptions& options) {
    detail::Exporter exporter(context.name, options, context.warnings);
    read_carried(document, exporter);
    SceneWriter writer{exporter, {}, {}};
    writer.export_document(document, context.base, -1, 0, true);
    if (exporter.failure) return make_error(*exporter.failure);
    if (auto finite = detail::keep_numbers_finite(exporter); !finite) return finite;
    detail::place_textures(exporter, context.base, sink.file());
    return detail::write_files(exporter.model, exporter.binary, exporter.binary_size, sink,
                               context.name, options.binary);
}

Expected<void> write(const cast::Document& document, const std::filesystem::path& path,
                     const ExportOptions& options, Diagnostics& warnings) {
    // The document's own folder: instances and textures resolve against where it was read from.
    const std::filesystem::path source = document.source_name.empty()
                                             ? path
                                             : platform::path_from_utf8(document.source_name);
    WriteContext context = formats::context_for(path);
    context.base = source.parent_path();
    formats::FileSink sink(path);
    auto written = write(document, sink, context, options);
    warnings.append(context.warnings);
    if (!written) return written;
    return sink.commit();
}

}  // namespace castkit::gltf
