// A map's Instances as FBX: each file they name read once (the side-file policy, the check before
// every write), its meshes' Geometry and materials written once, and per Instance one Mesh Model
// per mesh, placed by the Instance, sharing them; an instance file's own Instances add the meshes
// of the files they name to its list, placed by them. What an instance file holds beyond its
// meshes and Instances (skeletons, skins, animations, hair) is named and dropped.
#include <fmt/format.h>

#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/scene/instance_selection.hpp>

#include "../../platform/platform.hpp"
#include "formats/common/instance_paths.hpp"
#include "io/side_files.hpp"
#include "scene.hpp"
#include "scene/write_check.hpp"

namespace castkit::fbx::detail {
namespace {

constexpr std::string_view kRefused = "fbx.instance-refused";
// What one Mesh Model record and its connections take, against the byte budget (627 bytes
// measured, a map of 1,000 more Instances): a map of many Instances is refused before its
// records are built; the encoded size is checked again before the write.
constexpr std::uint64_t kInstanceModelBytes = 640;

// An Instance's or a Model's position, rotation and scale as one matrix.
template <class View>
glm::mat4 placement(const View& view) {
    anim::Transform transform;
    transform.translation = view.position().value_or(glm::vec3(0.0f));
    const glm::vec4 r = view.rotation().value_or(glm::vec4(0, 0, 0, 1));
    if (glm::length(r) > 0.0f) transform.rotation = glm::normalize(cast::quat_from_xyzw(r));
    transform.scale = view.scale().value_or(glm::vec3(1.0f));
    return anim::to_matrix(transform);
}

// What of an instance file beyond its meshes the FBX leaves out, as a list; empty when nothing.
std::string dropped_parts(const cast::Document& document) {
    std::size_t skeletons = 0, skins = 0, hairs = 0, animations = 0;
    for (const cast::ConstRoot& root : document.root_nodes()) {
        animations += root.animations().size();
        for (const cast::ConstModel& model : root.models()) {
            skeletons += model.skeleton() ? 1 : 0;
            hairs += model.hairs().size();
            for (const cast::ConstMesh& mesh : model.meshes())
                skins += mesh.max_weight_influence() > 0 ? 1 : 0;
        }
    }
    std::string out;
    const auto add = [&out](std::size_t count, std::string_view one, std::string_view many) {
        if (count == 0) return;
        out += fmt::format("{}{} {}", out.empty() ? "" : ", ", count, count == 1 ? one : many);
    };
    add(skeletons, "skeleton", "skeletons");
    add(skins, "skin", "skins");
    add(animations, "animation", "animations");
    add(hairs, "hair", "hairs");
    return out;
}

}  // namespace

void Scene::write_instance_meshes(InstanceFile& file, const std::string& name,
                                  const WriteContext& context, int depth) {
    WrittenModel unskinned;  // no bones: the Geometry is written without its skin
    std::size_t model_index = 0;
    for (const cast::ConstRoot& root : file.document->root_nodes())
        for (const cast::ConstModel& model : root.models()) {
            const std::string model_path = fmt::format("{}/model[{}]", name, model_index++);
            const glm::mat4 model_world = placement(model);
            const auto meshes = model.meshes();
            for (std::size_t i = 0; i < meshes.size(); ++i) {
                const std::string mesh_path = fmt::format("{}/mesh[{}]", model_path, i);
                SharedMesh shared{.model_world = model_world};
                shared.geometry =
                    write_geometry(model, meshes[i], unskinned, model_world, mesh_path);
                if (shared.geometry == 0) continue;
                if (cast::ConstMaterial material = meshes[i].material())
                    shared.material =
                        write_material(material, fmt::format("{}/material", mesh_path));
                file.meshes.push_back(shared);
            }
        }
    add_nested_meshes(file, name, context, depth);
}

template <class Place>
void Scene::for_each_instance_file(const cast::Document& document, const InstanceSite& site,
                                   std::string_view prefix, const WriteContext& context,
                                   std::string_view what, Place&& place) {
    std::size_t ordinal = 0;
    std::size_t root_index = 0;
    for (const cast::ConstRoot& root : document.root_nodes()) {
        const auto instances = root.instances();
        for (std::size_t i = 0; i < instances.size() && !failure; ++i, ++ordinal) {
            const std::string path = fmt::format("{}root[{}]/instance[{}]", prefix, root_index, i);
            const InstanceFile* file = instance_file(instances[i], site, context, path);
            if (file == nullptr || failure) continue;
            // Each of its meshes a Model at least once: bounded by the budget before anything
            // is written (files that place each other tenfold grow tenfold a level).
            if (!keep_bytes(file->meshes.size() * kInstanceModelBytes, path, what)) return;
            place(instances[i], *file, ordinal);
        }
        ++root_index;
    }
}

void Scene::add_nested_meshes(InstanceFile& file, const std::string& name,
                              const WriteContext& context, int depth) {
    const InstanceSite site{file.found_at, formats::scene_root_of(*file.document), depth + 1};
    file.expanding = true;
    for_each_instance_file(
        *file.document, site, name + "/", context, "the map's nested instance Models",
        [&](const cast::ConstInstance& instance, const InstanceFile& nested, std::size_t) {
            const glm::mat4 placed = placement(instance);
            for (const SharedMesh& mesh : nested.meshes)
                file.meshes.push_back({mesh.geometry, mesh.material, placed * mesh.model_world});
        });
    file.expanding = false;
}

const Scene::InstanceFile* Scene::instance_file(const cast::ConstInstance& instance,
                                                const InstanceSite& site,
                                                const WriteContext& context,
                                                const std::string& path) {
    const cast::ConstFile reference = instance.reference_file();
    const std::string name(reference ? reference.path().value_or("") : "");
    auto refuse = [&](std::string_view why) -> const InstanceFile* {
        warn(path, fmt::format("instance '{}' not written: {}", name, why), std::string(kRefused));
        return nullptr;
    };
    if (name.empty()) return refuse("it names no file");
    if (site.depth >= formats::kMaxInstanceDepth)
        return refuse(
            fmt::format("it is nested deeper than {} levels", formats::kMaxInstanceDepth));
    // Looked up as the glTF export and the OBJ writer do: beside the file naming it, under the
    // scene root, beside the map.
    const std::filesystem::path text =
        formats::instance_reference(name, site.found_at, site.scene_root, context);
    auto opened = formats::open_side_file(context, platform::utf8_of(text));
    if (!opened) return refuse(opened.error().message);
    const std::filesystem::path real = opened->file->real_path();
    if (auto known = instance_files_.find(real); known != instance_files_.end()) {
        if (known->second.expanding) return refuse("it places a file that places it (a cycle)");
        return &known->second;
    }
    auto bytes = opened->file->read();
    if (!bytes) return refuse(bytes.error().message);
    auto owned = std::make_shared<const std::vector<std::byte>>(std::move(*bytes));
    WriteContext checked_as = context;
    checked_as.name = platform::utf8_of(opened->path);
    auto document =
        cast::read(cast::SharedBytes{cast::Bytes(*owned), owned}, checked_as.name, warnings);
    if (!document) return refuse(document.error().to_string());
    auto repaired = scene::check_before_write(*document, WrittenModels::All, checked_as, warnings);
    if (!repaired) {
        failure = repaired.error();
        return nullptr;
    }
    InstanceFile& file = instance_files_[real];
    file.found_at = opened->path;
    file.document =
        std::make_unique<cast::Document>(*repaired ? std::move(**repaired) : std::move(*document));
    if (const std::string dropped = dropped_parts(*file.document); !dropped.empty())
        warn(path,
             fmt::format("instance file '{}': {} were dropped (an instance writes its meshes and "
                         "materials alone)",
                         checked_as.name, dropped),
             "fbx.instance-dropped");
    // The images an instance file names lie beside it: named from the map's folder (or the
    // side-file folder holding it), as the OBJ writer names them.
    const std::filesystem::path outer = std::exchange(
        texture_folder_, formats::relative_to_allowed(opened->path.parent_path(), context));
    write_instance_meshes(file, checked_as.name, context, site.depth);
    texture_folder_ = outer;
    return &file;
}

void Scene::write_instances(const cast::Document& document, const WriteContext& context) {
    const InstanceSite site{{}, formats::scene_root_of(document), 0};
    auto place = [&](const cast::ConstInstance& instance, const InstanceFile& file,
                     std::size_t ordinal) {
        const std::string own(instance.name().value_or(""));
        const std::string base(
            own.empty() ? scene::model_name(instance.reference_file().path().value_or("")) : own);
        const glm::mat4 world = placement(instance);
        for (std::size_t m = 0; m < file.meshes.size(); ++m) {
            const SharedMesh& mesh = file.meshes[m];
            const std::string name = file.meshes.size() == 1
                                         ? fmt::format("{}.{}", base, ordinal)
                                         : fmt::format("{}.{}.{}", base, ordinal, m);
            const std::int64_t model = add_object("Model", name, "Model", "Mesh");
            fill_model(object(), anim::decompose(world * mesh.model_world));
            connect(model, 0);
            connect(mesh.geometry, model);
            if (mesh.material != 0) connect(mesh.material, model);
        }
    };
    for_each_instance_file(document, site, "", context, "the map's instance Models", place);
}

}  // namespace castkit::fbx::detail
