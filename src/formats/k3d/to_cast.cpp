// K3D → Cast: nodes become the skeleton, bones put their bind pose (the inverse of the offset
// matrix) on the skeleton bone of the same name, submeshes become meshes, channels curves.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/anim/rest_pose.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/k3d.hpp>
#include <map>
#include <unordered_map>

#include "../common/keyframes.hpp"
#include "../common/transform.hpp"
#include "io/binary_io.hpp"
#include "shared.hpp"

namespace castkit::k3d {
namespace {

class ToCast {
  public:
    ToCast(const Model& model, const std::string& file, Diagnostics& warnings)
        : model_(model), file_(file), warnings_(warnings), report_(file, warnings) {}

    Expected<cast::Document> run();

  private:
    std::string name_or(std::uint16_t id, std::string fallback, const std::string& path) {
        if (auto name = model_.string(id)) return std::string(*name);
        report_.warn(path, fmt::format("has no name; called '{}' in Cast", fallback));
        return fallback;
    }
    void skeleton(cast::Model& cast_model);
    Expected<void> mesh(cast::Model& cast_model, std::size_t index);
    Expected<void> animation(cast::Root& root, std::size_t index);
    void check_derived_values();

    const Model& model_;
    const std::string& file_;
    Diagnostics& warnings_;
    formats::Reporter report_;
    std::vector<std::uint32_t> bone_to_cast_;  // K3D bone index → Cast bone index
    std::map<std::string, cast::Material, std::less<>> materials_;
    formats::ResampleBudget resampled_;
};

void ToCast::skeleton(cast::Model& cast_model) {
    if (model_.nodes.empty() && model_.bones.empty()) return;
    cast::Skeleton skeleton = cast_model.add_skeleton();
    // Bone name → first Cast bone of that name: one lookup per K3D bone, not a search of every
    // node (defect K2: O(bones × nodes) on an 8.8 MB file took 10 s).
    std::unordered_map<std::string, std::size_t> index_of;
    std::size_t count = 0;
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
        const SceneNode& node = model_.nodes[i];
        std::string path = fmt::format("node[{}]", i);
        std::string name = name_or(node.name_id, fmt::format("node{}", i), path);
        if (!formats::is_trs(node.local))
            report_.warn(path, "local matrix has shear, which Cast bones cannot hold");
        formats::add_bone(skeleton, name, node.parent == kInvalidId ? -1 : node.parent, node.local);
        index_of.emplace(std::move(name), count++);
    }
    std::vector<cast::Bone> bones = skeleton.bones();
    for (std::size_t i = 0; i < model_.bones.size(); ++i) {
        const Bone& bone = model_.bones[i];
        std::string path = fmt::format("bone[{}]", i);
        std::string name = name_or(bone.name_id, fmt::format("bone{}", i), path);
        glm::mat4 bind = glm::inverse(bone.offset);
        auto found = index_of.find(name);
        std::size_t index = found != index_of.end() ? found->second : count;
        if (found == index_of.end()) {
            report_.warn(
                path,
                fmt::format("'{}' names no node; added as a root bone at its bind pose", name));
            bones.push_back(formats::add_bone(skeleton, name, -1, bind));
            index_of.emplace(name, count++);
        }
        anim::Transform trs = anim::decompose(bind);
        if (glm::any(glm::greaterThan(glm::abs(trs.scale - glm::vec3(1.0f)), glm::vec3(1e-5f))) ||
            !formats::is_trs(bind))
            report_.warn(
                path,
                "bind pose has scale or shear, which Cast world transforms (wp/wr) cannot hold");
        bones[index].set_world_position(trs.translation);
        bones[index].set_world_rotation(cast::xyzw_from_quat(trs.rotation));
        bone_to_cast_.push_back(static_cast<std::uint32_t>(index));
    }
    // Nodes without a K3D bone get wp/wr from their rest pose (every Cast bone has all four
    // transforms); `k3d.noBind` tells the way back that this world is not a bind pose.
    for (cast::Bone& bone : bones)
        if (!bone.world_position() && !bone.world_rotation())
            bone.node().set(cast::make_bool("k3d.noBind", true));
    anim::complete_rest_transforms(skeleton);
}

Expected<void> ToCast::mesh(cast::Model& cast_model, std::size_t index) {
    const Submesh& submesh = model_.submeshes[index];
    std::string path = fmt::format("submesh[{}]", index);
    cast::Mesh mesh = cast_model.add_mesh();
    if (auto name = model_.string(submesh.name_id)) mesh.set_name(*name);
    std::size_t n = submesh.vertices.size();
    std::vector<glm::vec3> positions(n), normals(n), tangents(n);
    std::vector<glm::vec2> uvs(n);
    std::vector<glm::vec4> colours(n);
    bool handedness_dropped = false;
    for (std::size_t i = 0; i < n; ++i) {
        const Vertex& v = submesh.vertices[i];
        positions[i] = v.position;
        normals[i] = v.normal;
        uvs[i] = glm::vec2(v.texcoord.x, 1.0f - v.texcoord.y);  // bottom-left → top-left (rule 16)
        colours[i] = v.colour;
        tangents[i] = glm::vec3(v.tangent);
        handedness_dropped |= v.tangent.w != 1.0f;
    }
    if (handedness_dropped)
        report_.warn(path,
                     "tangent handedness (w other than 1) has no Cast field; written back as 1");
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    mesh.set_tangents(tangents);
    // Layer 0 always fits the byte-sized layer counts.
    (void)mesh.set_uv_layer(0, uvs);
    (void)mesh.set_color_layer(0, colours);
    std::size_t whole = submesh.indices.size() / 3 * 3;
    if (whole != submesh.indices.size())
        report_.warn(path, "trailing indices that do not form a triangle dropped");
    mesh.set_faces(std::span(submesh.indices.data(), whole));
    if (submesh.type == MeshType::Skinned) {
        std::vector<std::uint32_t> bones(n * 4, 0);
        std::vector<float> weights(n * 4, 0.0f);
        for (std::size_t i = 0; i < n; ++i)
            for (int k = 0; k < 4; ++k) {
                const Vertex& v = submesh.vertices[i];
                if (v.weights[k] == 0.0f) continue;  // unused slot, whatever its id
                if (v.bone_ids[k] < 0 ||
                    static_cast<std::size_t>(v.bone_ids[k]) >= bone_to_cast_.size()) {
                    return make_error(
                        report_.error(fmt::format("{}/vertex[{}]", path, i),
                                      fmt::format("bone id {} is not one of the {} bones",
                                                  v.bone_ids[k], bone_to_cast_.size())));
                }
                bones[i * 4 + k] = bone_to_cast_[static_cast<std::size_t>(v.bone_ids[k])];
                weights[i * 4 + k] = v.weights[k];
            }
        if (auto ok = mesh.set_weights(4, bones, weights); !ok)
            return make_error(report_.error(path, ok.error().message));
    }
    if (auto material_name = model_.string(submesh.material_name_id)) {
        auto it = materials_.find(*material_name);
        if (it == materials_.end()) {
            cast::Material material = cast_model.add_material();
            material.set_name(*material_name);
            material.set_type("pbr");
            it = materials_.emplace(std::string(*material_name), material).first;
        }
        mesh.set_material(it->second);
    }
    Extents extents = bounds(submesh.vertices);
    if (extents.min != submesh.extents.min || extents.max != submesh.extents.max ||
        center(extents) != submesh.center)
        report_.warn(
            path,
            "stored extents or center differ from the vertices' bounds; Cast keeps neither, "
            "they are recomputed on the way back");
    return {};
}

Expected<void> ToCast::animation(cast::Root& root, std::size_t index) {
    const Animation& animation = model_.animations[index];
    std::string path = fmt::format("animation[{}]", index);
    cast::Animation out = root.add_animation();
    if (auto name = model_.string(animation.name_id)) out.set_name(*name);
    float rate = animation.ticks_per_second;
    if (!(rate > 0.0f)) {
        report_.warn(path, fmt::format("ticks per second is {} (unspecified); Cast fr set to {}",
                                       rate, kDefaultRate));
        rate = kDefaultRate;
    }
    out.set_framerate(rate);
    float last = 0.0f;
    for (std::size_t c = 0; c < animation.channels.size(); ++c) {
        const Channel& channel = animation.channels[c];
        std::string channel_path = fmt::format("{}/channel[{}]", path, c);
        auto node = model_.string(channel.name_id);
        if (!node) {
            report_.warn(channel_path, "channel names no node (dropped)");
            continue;
        }
        formats::NodeKeys keys;
        keys.node = std::string(*node);
        for (const KeyVec3& k : channel.positions) keys.positions.push_back({k.time, k.value});
        for (const KeyQuat& k : channel.rotations) keys.rotations.push_back({k.time, k.value});
        for (const KeyVec3& k : channel.scales) keys.scales.push_back({k.time, k.value});
        auto by_frame = [](const auto& a, const auto& b) { return a.frame < b.frame; };
        std::stable_sort(keys.positions.begin(), keys.positions.end(), by_frame);
        std::stable_sort(keys.rotations.begin(), keys.rotations.end(), by_frame);
        std::stable_sort(keys.scales.begin(), keys.scales.end(), by_frame);
        for (const auto& k : channel.positions) last = std::max(last, k.time);
        for (const auto& k : channel.rotations) last = std::max(last, k.time);
        for (const auto& k : channel.scales) last = std::max(last, k.time);
        if (auto ok = formats::add_curves(out, keys, {file_, channel_path, &resampled_}, warnings_);
            !ok)
            return ok;
    }
    if (animation.duration != last)
        report_.warn(
            path,
            fmt::format("duration {} ticks is not the last key time {}; Cast has no duration, "
                        "it comes back as the last key time",
                        animation.duration, last));
    return {};
}

void ToCast::check_derived_values() {
    if (model_.exporter_type != 1 || model_.exporter_version != 1)
        report_.warn(
            "header",
            fmt::format("exporter type {} version {} have no Cast field; written back as 1, 1",
                        model_.exporter_type, model_.exporter_version));
    Extents all = model_bounds(model_.submeshes);
    if (all.min != model_.extents.min || all.max != model_.extents.max ||
        center(all) != model_.center)
        report_.warn(
            "header",
            "stored extents or center differ from the submeshes' bounds; recomputed on the way "
            "back");
    if (inverse_global(model_.nodes) != model_.inverse_global_transform)
        report_.warn(
            "header",
            "inverse global transform is not the inverse of the root node's; recomputed on the "
            "way back");
}

Expected<cast::Document> ToCast::run() {
    cast::Document document;
    document.source_name = file_;
    cast::Root root = document.add_root();
    cast::Model cast_model = root.add_model();
    skeleton(cast_model);
    for (std::size_t i = 0; i < model_.submeshes.size(); ++i)
        if (auto ok = mesh(cast_model, i); !ok) return make_error(ok.error());
    for (std::size_t i = 0; i < model_.animations.size(); ++i)
        if (auto ok = animation(root, i); !ok) return make_error(ok.error());
    check_derived_values();
    return document;
}

}  // namespace

Expected<cast::Document> to_cast(const Model& model, std::string_view file,
                                 Diagnostics& diagnostics) {
    const std::string name(file);
    return ToCast(model, name, diagnostics).run();
}

}  // namespace castkit::k3d
