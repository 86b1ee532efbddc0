// Cast → K3D: skeleton bones become nodes; bones with a world transform or a skin weight become
// K3D bones (offset = inverse bind); meshes become submeshes; curves become channels.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/k3d.hpp>
#include <numeric>

#include "../cast_extras.hpp"
#include "../common/keyframes.hpp"
#include "../common/single_model.hpp"
#include "../common/transform.hpp"
#include "io/binary_io.hpp"
#include "scene/write_check.hpp"
#include "shared.hpp"

namespace castkit::k3d {
namespace {

class FromCast {
  public:
    FromCast(const cast::Document& document, Diagnostics& warnings)
        : document_(document), warnings_(warnings), report_(document.source_name, warnings) {}

    Expected<Model> run();

  private:
    Expected<void> skeleton(const cast::ConstModel& cast_model);
    Submesh mesh(const cast::ConstMesh& mesh, const std::string& path);
    Expected<void> animation(cast::ConstAnimation& animation, const std::string& path);

    const cast::Document& document_;
    Diagnostics& warnings_;
    formats::Reporter report_;
    Model model_;
    std::vector<cast::ConstBone> cast_bones_;
    std::vector<std::int32_t> cast_to_bone_;  // Cast bone index → K3D bone index, -1 when none
    std::vector<std::pair<std::string, formats::RestPose>> rest_;
};

Expected<void> FromCast::skeleton(const cast::ConstModel& cast_model) {
    cast::ConstSkeleton skeleton = cast_model.skeleton();
    if (!skeleton) return {};
    cast_bones_ = skeleton.bones();
    if (cast_bones_.size() >= kInvalidId)
        return make_error(report_.error("skeleton", "K3D holds at most 65534 nodes"));
    std::vector<glm::mat4> locals = formats::local_matrices(cast_bones_);
    std::vector<std::int32_t> parents;
    for (std::size_t i = 0; i < cast_bones_.size(); ++i) {
        std::int32_t parent = cast_bones_[i].parent_index();
        if (parent >= static_cast<std::int32_t>(cast_bones_.size()) ||
            parent == static_cast<std::int32_t>(i)) {
            report_.warn(
                fmt::format("skeleton/bone[{}]", i),
                fmt::format("parent index {} is not another bone; written as a root", parent));
            parent = -1;
        }
        parents.push_back(parent < 0 ? -1 : parent);
        SceneNode node;
        node.name_id = model_.add_string(cast_bones_[i].name().value_or(""));
        node.parent = parent < 0 ? kInvalidId : static_cast<std::uint16_t>(parent);
        node.local = locals[i];
        model_.nodes.push_back(node);
        anim::Transform trs = anim::decompose(locals[i]);
        rest_.emplace_back(
            std::string(cast_bones_[i].name().value_or("")),
            formats::RestPose{trs.translation, cast::xyzw_from_quat(trs.rotation), trs.scale});
    }
    // Bones: every Cast bone with a world transform or a non-zero skin weight, in skeleton order.
    std::vector<bool> weighted(cast_bones_.size(), false);
    for (const cast::ConstMesh& mesh : cast_model.meshes()) {
        cast::IndexView ids = mesh.weight_bones();
        cast::ArrayView<float> values = mesh.weight_values();
        for (std::size_t i = 0; i < std::min(ids.size(), values.size()); ++i)
            if (values[i] != 0.0f && ids[i] < weighted.size()) weighted[ids[i]] = true;
    }
    std::vector<glm::mat4> worlds = formats::world_matrices(locals, parents);
    cast_to_bone_.assign(cast_bones_.size(), -1);
    for (std::size_t i = 0; i < cast_bones_.size(); ++i) {
        const cast::ConstBone& bone = cast_bones_[i];
        // A world castkit derived from the rest pose (to_cast.cpp) is not a bind pose.
        bool has_world = (bone.world_position() || bone.world_rotation()) &&
                         formats::integer_value(bone.node(), "k3d.noBind").value_or(0) == 0;
        if (!has_world && !weighted[i]) continue;
        glm::mat4 bind = worlds[i];
        if (has_world) {
            anim::Transform trs;
            trs.translation = bone.world_position().value_or(glm::vec3(0.0f));
            trs.rotation = glm::normalize(
                cast::quat_from_xyzw(bone.world_rotation().value_or(glm::vec4(0, 0, 0, 1))));
            bind = anim::to_matrix(trs);
        }
        cast_to_bone_[i] = static_cast<std::int32_t>(model_.bones.size());
        model_.bones.push_back({model_.add_string(bone.name().value_or("")), glm::inverse(bind)});
    }
    return {};
}

Submesh FromCast::mesh(const cast::ConstMesh& mesh, const std::string& path) {
    Submesh out;
    out.name_id = model_.add_string(mesh.name().value_or(""));
    cast::ConstMaterial material = mesh.material();
    if (material) out.material_name_id = model_.add_string(material.name().value_or(""));
    std::size_t n = mesh.vertex_count();
    out.vertices.resize(n);
    cast::ArrayView<glm::vec3> normals = mesh.normals(), tangents = mesh.tangents();
    cast::ArrayView<glm::vec2> uvs = mesh.uv_layer(0);
    std::vector<glm::vec4> colours =
        mesh.color_layer_count() > 0 ? mesh.color_layer(0) : std::vector<glm::vec4>{};
    if (mesh.uv_layer_count() > 1)
        report_.warn(path, "UV layers after the first dropped (K3D holds one)");
    if (mesh.color_layer_count() > 1)
        report_.warn(path, "colour layers after the first dropped (K3D holds one)");
    for (std::size_t i = 0; i < n; ++i) {
        Vertex& v = out.vertices[i];
        v.position = mesh.positions()[i];
        if (i < normals.size()) v.normal = normals[i];
        if (i < uvs.size())
            v.texcoord = glm::vec2(uvs[i].x, 1.0f - uvs[i].y);  // top-left → bottom-left
        if (i < colours.size()) v.colour = colours[i];
        if (i < tangents.size()) v.tangent = glm::vec4(tangents[i], 1.0f);
    }
    std::uint32_t influences = mesh.max_weight_influence();
    cast::IndexView ids = mesh.weight_bones();
    cast::ArrayView<float> values = mesh.weight_values();
    if (influences > 0 && !ids.empty()) {
        out.type = MeshType::Skinned;
        bool trimmed = false;
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<std::pair<float, std::int32_t>> slots;
            for (std::uint32_t k = 0; k < influences; ++k) {
                std::size_t at = i * influences + k;
                if (at >= ids.size() || at >= values.size() || values[at] == 0.0f) continue;
                // The check before writing left weights that name bones of the skeleton, and a
                // weighted bone is one of K3D's bones (skeleton()).
                slots.emplace_back(values[at], cast_to_bone_[ids[at]]);
            }
            if (slots.size() > 4) {
                // Keep the four largest and renormalise so the vertex keeps its total weight.
                float total = 0.0f;
                for (auto& s : slots) total += s.first;
                std::stable_sort(slots.begin(), slots.end(),
                                 [](auto& a, auto& b) { return a.first > b.first; });
                slots.resize(4);
                float kept = 0.0f;
                for (auto& s : slots) kept += s.first;
                for (auto& s : slots) s.first *= total / kept;
                trimmed = true;
            }
            for (std::size_t k = 0; k < slots.size(); ++k) {
                out.vertices[i].weights[static_cast<int>(k)] = slots[k].first;
                out.vertices[i].bone_ids[static_cast<int>(k)] = slots[k].second;
            }
        }
        if (trimmed)
            report_.warn(path,
                         "vertices with more than 4 influences keep the 4 largest, renormalised");
    }
    cast::IndexView faces = mesh.faces();  // none past the vertices: the check left them out
    out.indices.resize(faces.size() / 3 * 3);
    for (std::size_t i = 0; i < out.indices.size(); ++i) out.indices[i] = faces[i];
    out.extents = bounds(out.vertices);
    out.center = center(out.extents);
    return out;
}

Expected<void> FromCast::animation(cast::ConstAnimation& cast_animation, const std::string& path) {
    Animation out;
    out.name_id = model_.add_string(cast_animation.name().value_or(""));
    out.ticks_per_second = cast_animation.framerate().value_or(kDefaultRate);
    if (cast_animation.looping()) report_.warn(path, "looping has no K3D field (dropped)");
    std::vector<formats::NodeKeys> nodes = formats::collect_curves(
        cast_animation, rest_, {document_.source_name, path, nullptr}, warnings_);
    if (nodes.size() > kInvalidId)
        return make_error(report_.error(path, "more than 65535 animated nodes"));
    for (const formats::NodeKeys& keys : nodes) {
        Channel channel;
        channel.name_id = model_.add_string(keys.node);
        for (const auto& k : keys.positions)
            channel.positions.push_back({k.value, static_cast<float>(k.frame)});
        for (const auto& k : keys.rotations)
            channel.rotations.push_back({k.value, static_cast<float>(k.frame)});
        for (const auto& k : keys.scales)
            channel.scales.push_back({k.value, static_cast<float>(k.frame)});
        for (const auto& k : keys.positions)
            out.duration = std::max(out.duration, static_cast<float>(k.frame));
        for (const auto& k : keys.rotations)
            out.duration = std::max(out.duration, static_cast<float>(k.frame));
        for (const auto& k : keys.scales)
            out.duration = std::max(out.duration, static_cast<float>(k.frame));
        out.channels.push_back(std::move(channel));
    }
    model_.animations.push_back(std::move(out));
    return {};
}

Expected<Model> FromCast::run() {
    std::vector<cast::ConstModel> models = document_.models();
    std::vector<cast::ConstMesh> meshes;
    if (const cast::ConstModel* first = formats::single_model(models, report_, "K3D")) {
        const cast::ConstModel& cast_model = *first;
        if (auto skeleton = cast_model.skeleton();
            skeleton && (!skeleton.ik_handles().empty() || !skeleton.constraints().empty()))
            report_.warn("model[0]/skeleton",
                         "IK handles and constraints have no K3D equivalent (dropped)");
        if (auto ok = skeleton(cast_model); !ok) return make_error(ok.error());
        meshes = cast_model.meshes();
    }
    // Strings are added as they are met (nodes, bones, submeshes, animations): K3D ids are
    // free-form indices into the table, so any order is valid.
    for (std::size_t i = 0; i < meshes.size(); ++i)
        model_.submeshes.push_back(mesh(meshes[i], fmt::format("model[0]/mesh[{}]", i)));
    std::vector<cast::ConstAnimation> animations = document_.animations();
    for (std::size_t i = 0; i < animations.size(); ++i)
        if (auto ok = animation(animations[i], fmt::format("animation[{}]", i)); !ok)
            return make_error(ok.error());
    model_.extents = model_bounds(model_.submeshes);
    model_.center = center(model_.extents);
    model_.inverse_global_transform = inverse_global(model_.nodes);
    if (model_.strings.size() >= kInvalidId)
        return make_error(report_.error("", "more than 65534 names; K3D string ids are 16-bit"));
    return std::move(model_);
}

}  // namespace

Expected<Model> from_cast(const cast::Document& given, Diagnostics& warnings) {
    std::optional<cast::Document> repair;
    auto checked = scene::checked_first_model(given, repair, warnings);
    if (!checked) return make_error(checked.error());
    return from_checked_cast(**checked, warnings);
}

Expected<Model> from_checked_cast(const cast::Document& document, Diagnostics& warnings) {
    return FromCast(document, warnings).run();
}

}  // namespace castkit::k3d
