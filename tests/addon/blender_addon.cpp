#include "blender_addon.hpp"

#include <fmt/format.h>

#include <castkit/cast/nodes.hpp>

namespace castkit::test {
namespace {

using cast::PropertyType;

class Checker {
  public:
    std::vector<std::string> failures;

    // The add-on reads the property `name` and indexes or converts its values: it must exist
    // with one of the types cast.py would give it and hold at least `count` elements.
    void need(const cast::ConstNodeView& view, const std::string& at, std::string_view name,
              std::initializer_list<PropertyType> types, std::size_t count = 1) {
        const cast::Property* p = view.node().find(name);
        if (p == nullptr) {
            failures.push_back(fmt::format("{}: no '{}'", at, name));
            return;
        }
        bool typed = false;
        for (PropertyType type : types) typed = typed || p->type() == type;
        if (!typed || p->size() < count)
            failures.push_back(
                fmt::format("{}: '{}' has the wrong type or too few values", at, name));
    }

    void model(const cast::Model& model, const std::string& at) {
        std::size_t bone_count = 0;
        if (cast::Skeleton skeleton = model.skeleton()) {
            const auto bones = skeleton.bones();
            bone_count = bones.size();
            for (std::size_t i = 0; i < bones.size(); ++i) {
                const std::string path = fmt::format("{}/bone[{}]", at, i);
                // edit_bones.new(Name()), Vector(LocalPosition()), LocalRotation()[3].
                need(bones[i], path, "n", {PropertyType::String});
                need(bones[i], path, "lp", {PropertyType::Vector3});
                need(bones[i], path, "lr", {PropertyType::Vector4});
                // handles[ParentIndex()]: an index into the bone list.
                if (bones[i].parent_index() >= static_cast<std::int32_t>(bones.size()) ||
                    bones[i].parent_index() < -1)
                    failures.push_back(fmt::format("{}: parent index outside the skeleton", path));
            }
            skeleton_links(skeleton, at);
        }
        const auto materials = model.materials();
        for (std::size_t i = 0; i < materials.size(); ++i)
            need(materials[i], fmt::format("{}/material[{}]", at, i), "n", {PropertyType::String});
        const auto meshes = model.meshes();
        for (std::size_t i = 0; i < meshes.size(); ++i)
            mesh(meshes[i], fmt::format("{}/mesh[{}]", at, i), bone_count);
        const auto shapes = model.blend_shapes();
        for (std::size_t i = 0; i < shapes.size(); ++i) {
            const std::string path = fmt::format("{}/blendshape[{}]", at, i);
            // shape_key_add(name=Name()), BaseShape().Hash().
            need(shapes[i], path, "n", {PropertyType::String});
            if (!shapes[i].base_shape())
                failures.push_back(fmt::format("{}: 'b' names no Mesh of the Model", path));
        }
        const auto hairs = model.hairs();
        for (std::size_t i = 0; i < hairs.size(); ++i) {
            const std::string path = fmt::format("{}/hair[{}]", at, i);
            need(hairs[i], path, "se",
                 {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32});
            need(hairs[i], path, "pt", {PropertyType::Vector3});
        }
    }

    void mesh(const cast::Mesh& mesh, const std::string& at, std::size_t bone_count) {
        need(mesh, at, "vp", {PropertyType::Vector3}, 0);
        need(mesh, at, "f", {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32}, 0);
        // Every layer `ul` / `cl` counts is read by index.
        for (std::uint32_t layer = 0; layer < mesh.uv_layer_count(); ++layer)
            need(mesh, at, fmt::format("u{}", layer), {PropertyType::Vector2}, 0);
        for (std::uint32_t layer = 0; layer < mesh.color_layer_count(); ++layer)
            if (mesh.color_layer_property(layer) == nullptr)
                failures.push_back(fmt::format("{}: colour layer {} is missing", at, layer));
        // mi > 0 reads wb, mi > 1 also wv; each bone index picks a vertex group by position.
        const std::uint32_t influences = mesh.max_weight_influence();
        if (influences > 0 && bone_count > 0) {
            need(mesh, at, "wb", {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32},
                 mesh.vertex_count() * influences);
            if (influences > 1)
                need(mesh, at, "wv", {PropertyType::Float}, mesh.vertex_count() * influences);
            cast::IndexView bones = mesh.weight_bones();
            for (std::size_t i = 0; i < bones.size(); ++i)
                if (bones[i] >= bone_count) {
                    failures.push_back(fmt::format("{}: weight bone {} has no bone", at, bones[i]));
                    break;
                }
        }
    }

    void skeleton_links(const cast::Skeleton& skeleton, const std::string& at) {
        const auto handles = skeleton.ik_handles();
        for (std::size_t i = 0; i < handles.size(); ++i) {
            const std::string path = fmt::format("{}/ikhandle[{}]", at, i);
            if (!handles[i].start_bone() || !handles[i].end_bone())
                failures.push_back(fmt::format("{}: 'sb' or 'eb' names no bone", path));
            // The pole vector is wired to the target's armature: without `tb` that is unbound.
            if (handles[i].pole_vector_bone() && !handles[i].target_bone())
                failures.push_back(fmt::format("{}: 'pv' without 'tb'", path));
        }
        const auto constraints = skeleton.constraints();
        for (std::size_t i = 0; i < constraints.size(); ++i)
            if (!constraints[i].constraint_bone() || !constraints[i].target_bone())
                failures.push_back(
                    fmt::format("{}/constraint[{}]: 'cb' or 'tb' names no bone", at, i));
    }

    void animation(const cast::Animation& animation, const std::string& at) {
        // scene.render.fps = round(Framerate()).
        need(animation, at, "fr", {PropertyType::Float});
        const auto curves = animation.curves();
        for (std::size_t i = 0; i < curves.size(); ++i) {
            const std::string path = fmt::format("{}/curve[{}]", at, i);
            need(curves[i], path, "nn", {PropertyType::String});  // NodeName().lower()
            need(curves[i], path, "kp", {PropertyType::String});
            need(curves[i], path, "kb",
                 {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32}, 0);
            need(curves[i], path, "kv",
                 {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32,
                  PropertyType::Float, PropertyType::Vector4},
                 0);
        }
        const auto tracks = animation.notification_tracks();
        for (std::size_t i = 0; i < tracks.size(); ++i) {
            const std::string path = fmt::format("{}/notificationtrack[{}]", at, i);
            need(tracks[i], path, "n", {PropertyType::String});  // pose_markers.new(Name())
            need(tracks[i], path, "kb",
                 {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32}, 0);
        }
    }
};

}  // namespace

std::vector<std::string> blender_addon_failures(cast::Document& document) {
    Checker check;
    bool has_instances = false;
    std::optional<cast::Metadata> metadata;
    std::size_t r = 0;
    for (cast::Root& root : document.root_nodes()) {
        const std::string at = fmt::format("root[{}]", r++);
        const auto models = root.models();
        for (std::size_t i = 0; i < models.size(); ++i)
            check.model(models[i], fmt::format("{}/model[{}]", at, i));
        const auto animations = root.animations();
        for (std::size_t i = 0; i < animations.size(); ++i)
            check.animation(animations[i], fmt::format("{}/animation[{}]", at, i));
        const auto instances = root.instances();
        for (std::size_t i = 0; i < instances.size(); ++i) {
            has_instances = true;
            // ReferenceFile().Path(): a File child of the Instance with a path.
            cast::ConstFile file = instances[i].reference_file();
            if (!file || !file.path())
                check.failures.push_back(
                    fmt::format("{}/instance[{}]: 'rf' names no File with a path", at, i));
        }
        if (!metadata && !root.metadata().empty()) metadata = root.metadata().front();
    }
    if (has_instances && (!metadata || !metadata->scene_root()))
        check.failures.push_back(
            "Instances without a scene root: the first Metadata has no 'sr' (\"Unable to import "
            "instances without a root directory!\")");
    return std::move(check.failures);
}

}  // namespace castkit::test
