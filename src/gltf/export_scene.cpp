// The whole-document export: Metadata's up axis as a root node turning the scene to +Y up,
// Models, Instances (referenced in extras or merged in), then Animations.
#include <fmt/format.h>

#include <castkit/side_files.hpp>
#include <deque>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>
#include <set>

#include "../platform/platform.hpp"
#include "export_internal.hpp"
#include "export_textures.hpp"

namespace castkit::gltf {
namespace {

constexpr int kMaxInstanceDepth = 16;

struct SceneWriter {
    detail::Exporter& exporter;
    std::set<std::filesystem::path> open_files;  // instance files being merged (cycle guard)
    std::deque<cast::Document>
        inlined;  // kept alive (and in place): exported views point into them

    void export_document(const cast::Document& document, const std::filesystem::path& source,
                         int parent, int depth, bool with_animations) {
        int scene = parent;
        std::string up;
        // Instance files resolve against the scene root `sr`, relative to the file, as the
        // Blender add-on does (docs/blender-addon.md).
        std::filesystem::path instance_base = source.parent_path();
        bool scene_root_found = false;
        // Views need a mutable document; the export only reads through them.
        const std::vector<cast::Root> roots = const_cast<cast::Document&>(document).root_nodes();
        for (const cast::Root& root : roots)
            for (const cast::Metadata& metadata : root.metadata()) {
                if (auto axis = metadata.up_axis(); axis && up.empty()) up = std::string(*axis);
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

    void export_instance(const cast::Instance& instance, const std::filesystem::path& base,
                         int parent, int depth, const std::string& path) {
        tinygltf::Node node;
        node.name = std::string(instance.name().value_or(""));
        if (auto p = instance.position()) node.translation = {p->x, p->y, p->z};
        if (auto r = instance.rotation()) {
            const glm::quat q = glm::normalize(cast::quat_from_xyzw(*r));
            node.rotation = {q.x, q.y, q.z, q.w};
        }
        if (auto s = instance.scale()) node.scale = {s->x, s->y, s->z};
        const cast::File reference = instance.reference_file();  // absent when rf links nothing
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

        // Instances are read only where the side-file policy allows (castkit/side_files.hpp).
        // `base` is the folder the instance's file is resolved in; the policy wants a file in it.
        auto location = resolve_side_file(file, base / "instance", {});
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
        auto document = cast::open(resolved);
        if (!document) {
            exporter.warn(path,
                          fmt::format("instance not inlined: {}", document.error().to_string()));
            return;
        }
        if (!document->animations().empty())
            exporter.warn(path, fmt::format("animations of instance '{}' were not merged", file));
        open_files.insert(resolved);
        inlined.push_back(std::move(*document));
        export_document(inlined.back(), resolved, index, depth + 1, false);
        open_files.erase(resolved);
    }
};

// What an import carried in the Metadata `gltf` property (docs/gltf.md): default morph weights
// and material settings.
void read_carried(const cast::Document& document, detail::Exporter& exporter) {
    for (const cast::Root& root : const_cast<cast::Document&>(document).root_nodes())
        for (const cast::Metadata& metadata : root.metadata()) {
            const auto text = metadata.string("gltf");
            if (!text) continue;
            const nlohmann::json carried = nlohmann::json::parse(*text, nullptr, false);
            if (!carried.is_object()) {
                exporter.warn("metadata/gltf", "the carried glTF settings are not castkit's JSON");
                continue;
            }
            if (carried.contains("weights") && carried["weights"].is_object())
                for (auto& [name, weight] : carried["weights"].items())
                    if (weight.is_number()) exporter.default_weights[name] = weight.get<float>();
            if (carried.contains("materials") && carried["materials"].is_object())
                exporter.carried_materials.update(carried["materials"]);
        }
}

}  // namespace

Expected<void> write(const cast::Document& document, const std::filesystem::path& path,
                     const ExportOptions& options, Diagnostics& warnings) {
    detail::Exporter exporter(platform::utf8_of(path), options, warnings);
    read_carried(document, exporter);
    SceneWriter writer{exporter, {}, {}};
    const std::filesystem::path source =
        document.source_name.empty() ? path : std::filesystem::path(document.source_name);
    writer.export_document(document, source, -1, 0, true);
    if (exporter.failure) return make_error(*exporter.failure);
    detail::place_textures(exporter, source, path);
    return detail::write_files(exporter.model, exporter.binary, exporter.binary_size, path,
                               options.binary);
}

}  // namespace castkit::gltf
