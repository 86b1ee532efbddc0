// The OBJ's scene: every Model of the document, and every Instance of a map placed by its
// transform, each instance file read once through the side-file policy (docs/security.md).
#include <fmt/format.h>

#include <castkit/scene/instance_selection.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <set>

#include "../../platform/platform.hpp"
#include "formats/common/instance_paths.hpp"
#include "io/side_files.hpp"
#include "scene/write_check.hpp"
#include "shared.hpp"

namespace castkit::obj {
namespace {

namespace fs = std::filesystem;

using formats::kMaxInstanceDepth;
constexpr std::string_view kRefused = "obj.instance-refused";

// A Model's or an Instance's position, rotation and scale as one matrix (T · R · S).
template <class View>
glm::mat4 local_matrix(const View& view) {
    glm::mat4 matrix = glm::translate(glm::mat4(1.0f), view.position().value_or(glm::vec3(0.0f)));
    const glm::vec4 r = view.rotation().value_or(glm::vec4(0, 0, 0, 1));
    if (glm::length(r) > 0.0f) matrix *= glm::mat4_cast(glm::normalize(cast::quat_from_xyzw(r)));
    return glm::scale(matrix, view.scale().value_or(glm::vec3(1.0f)));
}

template <class View>
bool at_rest(const View& view) {
    return !view.position() && !view.rotation() && !view.scale();
}

struct Placer {
    const WriteContext& top;
    Diagnostics& diagnostics;
    Scene scene;
    std::map<fs::path, const Source*> read;  // instance files by where they were found
    std::set<const Source*> expanding;       // the files being placed: one below itself is a cycle
    std::optional<Diagnostic> failure;
    int ordinal_digits = 1;

    void place_document(const Source& source, const glm::mat4& matrix, bool identity,
                        const std::string& prefix, int depth) {
        const std::optional<std::string> scene_root = formats::scene_root_of(*source.document);
        std::size_t instance_number = 0;
        const std::vector<cast::ConstRoot> roots = source.document->root_nodes();
        for (std::size_t r = 0; r < roots.size(); ++r) {
            const cast::ConstRoot& root = roots[r];
            for (const cast::ConstModel& model : root.models()) {
                const bool moved = !at_rest(model);
                const std::string name = token(model.name().value_or(""), "model");
                scene.placements.push_back({model, moved ? matrix * local_matrix(model) : matrix,
                                            identity && !moved, prefix.empty() ? name : prefix,
                                            depth > 0, &source});
            }
            const std::vector<cast::ConstInstance> instances = root.instances();
            for (std::size_t i = 0; i < instances.size(); ++i)
                place_instance(instances[i], instance_number++, source, scene_root, matrix, prefix,
                               depth, fmt::format("root[{}]/instance[{}]", r, i));
        }
    }

    void place_instance(const cast::ConstInstance& instance, std::size_t number, const Source& from,
                        const std::optional<std::string>& scene_root, const glm::mat4& matrix,
                        const std::string& prefix, int depth, const std::string& path) {
        const cast::ConstFile reference = instance.reference_file();
        const std::string file(reference ? reference.path().value_or("") : "");
        if (file.empty()) {
            diagnostics.push_back(
                warning(from.name, path, kRefused, "instance names no file; skipped"));
            return;
        }
        if (depth >= kMaxInstanceDepth) {
            diagnostics.push_back(
                warning(from.name, path, kRefused,
                        fmt::format("instance '{}' is nested deeper than {} levels; skipped", file,
                                    kMaxInstanceDepth)));
            return;
        }
        const Source* placed = find(file, from, scene_root, path);
        if (placed == nullptr) return;
        if (expanding.contains(placed)) {
            diagnostics.push_back(warning(
                from.name, path, kRefused,
                fmt::format("instance '{}' places a file being placed (a cycle); skipped", file)));
            return;
        }
        const std::string own(instance.name().value_or(""));
        const std::string base = token(own.empty() ? scene::model_name(file) : own, "instance");
        const std::string object = depth == 0
                                       ? fmt::format("{}.{:0{}}", base, number, ordinal_digits)
                                       : fmt::format("{}/{}", prefix, base);
        expanding.insert(placed);
        place_document(*placed, matrix * local_matrix(instance), false, object, depth + 1);
        expanding.erase(placed);
    }

    // The instance file `file` names, read and checked once, or null with a warning.
    const Source* find(const std::string& file, const Source& from,
                       const std::optional<std::string>& scene_root, const std::string& path) {
        const std::string text =
            platform::utf8_of(formats::instance_reference(file, from.found_at, scene_root, top));
        auto refuse = [&](std::string_view why) -> const Source* {
            diagnostics.push_back(warning(
                from.name, path, kRefused,
                fmt::format("instance '{}'{} not placed: {}", file,
                            scene_root ? fmt::format(" under the scene root '{}'", *scene_root)
                                       : std::string(),
                            why)));
            return nullptr;
        };
        auto opened = formats::open_side_file(top, text);
        if (!opened) return refuse(opened.error().message);
        const fs::path real = opened->file->real_path();
        if (auto known = read.find(real); known != read.end()) return known->second;
        auto bytes = opened->file->read();
        if (!bytes) return refuse(bytes.error().message);
        auto owned = std::make_shared<const std::vector<std::byte>>(std::move(*bytes));
        const std::string name = platform::utf8_of(opened->path);
        auto document =
            cast::read(cast::SharedBytes{cast::Bytes(*owned), owned}, name, diagnostics);
        if (!document) return refuse(document.error().to_string());
        scene.bytes_read += owned->size();
        Context checked_as = top;
        checked_as.name = name;
        auto repaired =
            scene::check_before_write(*document, WrittenModels::All, checked_as, diagnostics);
        if (!repaired) {
            failure = repaired.error();
            return refuse("it failed the check before every write");
        }
        scene.files.push_back(std::make_unique<cast::Document>(*repaired ? std::move(**repaired)
                                                                         : std::move(*document)));
        scene.sources.push_back(
            std::make_unique<Source>(Source{scene.files.back().get(), name, opened->path}));
        const Source* source = scene.sources.back().get();
        read.emplace(real, source);
        warn_losses(*source, diagnostics);
        return source;
    }
};

// The digits of the last ordinal an instance of `document` takes, at least one.
int ordinal_digits(const cast::Document& document) {
    std::size_t count = 0;
    for (const cast::ConstRoot& root : document.root_nodes()) count += root.instances().size();
    return static_cast<int>(fmt::formatted_size("{}", count > 0 ? count - 1 : 0));
}

}  // namespace

Expected<Scene> place(const cast::Document& document, const WriteContext& context,
                      Diagnostics& diagnostics) {
    Placer placer{context, diagnostics, {}, {}, {}, {}, ordinal_digits(document)};
    placer.scene.bytes_read = cast::file_size(document);
    placer.scene.sources.push_back(std::make_unique<Source>(
        Source{&document, context.name.empty() ? document.source_name : context.name, {}}));
    const Source& top = *placer.scene.sources.front();
    warn_losses(top, diagnostics);
    placer.place_document(top, glm::mat4(1.0f), true, "", 0);
    if (placer.failure) return make_error(*placer.failure);
    return std::move(placer.scene);
}

}  // namespace castkit::obj
