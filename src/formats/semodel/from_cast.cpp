// Cast → SEModel (docs/semodel.md): the first Model's Skeleton, Meshes (winding reversed back to
// clockwise) and Materials. Stream flags are derived from what the meshes hold; `se.*` values
// restore the source file's header and per-mesh bytes when they still agree with the data.
// Warnings name everything SEModel cannot hold.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/semodel.hpp>
#include <cmath>

#include "../../cast/node_path.hpp"
#include "../cast_extras.hpp"
#include "io/binary_io.hpp"
#include "mapping.hpp"
#include "scene/write_check.hpp"

namespace castkit::semodel {
namespace {

constexpr std::uint32_t id(cast::NodeId node) { return static_cast<std::uint32_t>(node); }

class Builder {
  public:
    // `place` is the Model's node path ("root[0]/model[0]"), which every warning extends.
    Builder(cast::ConstModel in, std::string file, std::string place, Diagnostics& warnings)
        : in_(in), file_(std::move(file)), place_(std::move(place)), warnings_(warnings) {}
    Expected<Model> run();

  private:
    // A warning at `below` under the Model ("mesh[2]", or empty for the Model itself), located
    // as every Cast finding is: the file and the node path.
    void warn(std::string_view below, std::string message) {
        std::string path = below.empty() ? place_ : fmt::format("{}/{}", place_, below);
        warnings_.push_back(formats::warning(file_, std::move(path), std::move(message)));
    }
    static std::string mesh_at(std::size_t index) {
        return cast::step_name(id(cast::NodeId::Mesh), static_cast<std::uint32_t>(index));
    }
    void bones();
    void mesh(const cast::ConstMesh& in, std::size_t index);
    void fill_streams();
    void materials();
    void header();
    void dropped();

    cast::ConstModel in_;
    std::string file_, place_;
    Diagnostics& warnings_;
    Model out_;
    std::vector<cast::ConstMesh> meshes_;
    std::vector<cast::ConstMaterial> materials_;
    std::uint8_t bone_blocks_ = 0;
    std::uint8_t mesh_streams_ = 0;
};

void Builder::bones() {
    cast::ConstSkeleton skeleton = in_.skeleton();
    if (!skeleton) return;
    const std::vector<cast::ConstBone> bones = skeleton.bones();
    for (std::size_t index = 0; index < bones.size(); ++index) {
        const cast::ConstBone& in = bones[index];
        Bone& bone = out_.bones.emplace_back();
        bone.name = in.name().value_or("");
        bone.parent = in.parent_index();
        if (in.local_position() || in.local_rotation()) bone_blocks_ |= kLocalMatrices;
        if (in.world_position() || in.world_rotation()) bone_blocks_ |= kGlobalMatrices;
        if (in.scale()) bone_blocks_ |= kScales;
        bone.local_position = in.local_position().value_or(bone.local_position);
        bone.local_rotation = in.local_rotation().value_or(bone.local_rotation);
        bone.global_position = in.world_position().value_or(bone.global_position);
        bone.global_rotation = in.world_rotation().value_or(bone.global_rotation);
        bone.scale = in.scale().value_or(bone.scale);
        bone.flags =
            static_cast<std::uint8_t>(formats::integer_value(in.node(), "se.flags").value_or(0));
        if (!in.segment_scale_compensate())
            warn(fmt::format(
                     "{}/{}", cast::step_name(id(cast::NodeId::Skeleton), 0),
                     cast::step_name(id(cast::NodeId::Bone), static_cast<std::uint32_t>(index))),
                 fmt::format("bone '{}': SEModel has no segment scale compensate flag; dropped",
                             bone.name));
    }
    // Transforms castkit derived on the way in (to_cast.cpp) are left out again.
    if (auto stored = formats::integer_value(in_.node(), "se.boneBlocks")) {
        constexpr std::uint8_t both = kLocalMatrices | kGlobalMatrices;
        bone_blocks_ = static_cast<std::uint8_t>((bone_blocks_ & ~both) | (*stored & both));
    }
}

void Builder::mesh(const cast::ConstMesh& in, std::size_t index) {
    Mesh& mesh = out_.meshes.emplace_back();
    const std::size_t vertices = in.vertex_count();
    mesh.positions = in.positions().to_vector();
    mesh.normals = in.normals().to_vector();
    if (!mesh.normals.empty()) mesh_streams_ |= kNormals;
    const std::uint32_t layers = std::min<std::uint32_t>(in.uv_layer_count(), 0xFF);
    if (in.uv_layer_count() > 0xFF)
        warn(mesh_at(index), "SEModel holds 255 UV layers; the rest are dropped");
    if (layers > 0) mesh_streams_ |= kUVs;
    mesh.uv_layer_count = static_cast<std::uint8_t>(layers);
    mesh.uvs.resize(vertices * layers);
    for (std::uint32_t layer = 0; layer < layers; ++layer) {
        auto uvs = in.uv_layer(layer);  // one per vertex, or none: the check left out the rest
        for (std::size_t v = 0; v < std::min(vertices, uvs.size()); ++v)
            mesh.uvs[v * layers + layer] = uvs[v];
    }
    if (in.color_layer_count() > 0) {
        mesh_streams_ |= kColors;
        if (in.color_layer_count() > 1)
            warn(mesh_at(index), fmt::format("SEModel holds one colour layer; {} dropped",
                                             in.color_layer_count() - 1));
        const cast::Property* packed = in.color_layer_property(0);
        mesh.colors.resize(vertices);
        if (packed != nullptr && packed->type() == cast::PropertyType::Integer32) {
            if (const std::size_t n = std::min(packed->bytes().size(), vertices * 4); n > 0)
                std::memcpy(mesh.colors.data(), packed->bytes().data(), n);
        } else {
            std::vector<glm::vec4> rgba = in.color_layer(0);
            for (std::size_t v = 0; v < std::min(vertices, rgba.size()); ++v)
                for (int c = 0; c < 4; ++c)  // rule 15: round to nearest and clamp
                    mesh.colors[v][c] = static_cast<std::uint8_t>(
                        std::lround(std::clamp(rgba[v][c], 0.0f, 1.0f) * 255.0f));
        }
    }
    const std::uint32_t influences = in.max_weight_influence();
    auto bones = in.weight_bones();
    auto values = in.weight_values();
    if (influences > 0xFF) {
        warn(mesh_at(index),
             fmt::format("SEModel holds 255 influences per vertex, not {}; weights dropped",
                         influences));
    } else if (influences > 0 && bones.size() == vertices * influences) {
        // The check before writing left out weights that do not fill every vertex, so wv holds
        // as many as wb.
        mesh_streams_ |= kWeights;
        mesh.max_influence = static_cast<std::uint8_t>(influences);
        mesh.weights.resize(vertices * influences);
        for (std::size_t i = 0; i < mesh.weights.size(); ++i)
            mesh.weights[i] = {bones[i], values[i]};
    }
    std::vector<std::uint32_t> faces = in.faces().to_vector();
    if (faces.size() % 3 != 0)
        warn(mesh_at(index),
             fmt::format("{} face indices are not whole triangles; the rest is dropped",
                         faces.size()));
    // The check before writing left out every triangle past the vertices.
    for (std::size_t i = 0; i + 2 < faces.size(); i += 3)
        mesh.faces.insert(mesh.faces.end(), {faces[i + 2], faces[i + 1], faces[i]});
    mesh.flags =
        static_cast<std::uint8_t>(formats::integer_value(in.node(), "se.flags").value_or(0));
    if (in.tangents().size() > 0) warn(mesh_at(index), "SEModel has no tangents; dropped");
    if (in.name())
        warn(mesh_at(index), fmt::format("SEModel meshes have no names; '{}' dropped", *in.name()));
    if (in.skinning_method_name() != "linear")
        warn(mesh_at(index), fmt::format("SEModel has no skinning method; '{}' dropped",
                                         in.skinning_method_name()));
}

// SEModel's stream flags are per file: meshes lacking a stream another mesh has get zeros.
void Builder::fill_streams() {
    for (std::size_t i = 0; i < out_.meshes.size(); ++i) {
        Mesh& mesh = out_.meshes[i];
        const std::size_t vertices = mesh.positions.size();
        const std::uint8_t streams = out_.header.mesh_presence;
        if ((streams & kNormals) && mesh.normals.size() != vertices) {
            warn(mesh_at(i),
                 fmt::format("{} normals for {} vertices; SEModel stores normals for every mesh, "
                             "missing ones are 0",
                             mesh.normals.size(), vertices));
            mesh.normals.resize(vertices, glm::vec3(0.0f));
        }
        if (!(streams & kNormals)) mesh.normals.clear();
        if (!(streams & kColors)) mesh.colors.clear();
        if ((streams & kColors) && mesh.colors.size() != vertices) {
            if (!mesh.colors.empty() || vertices > 0)
                warn(mesh_at(i),
                     "no colours; SEModel stores colours for every mesh, written as opaque white");
            mesh.colors.resize(vertices, {255, 255, 255, 255});
        }
    }
}

void Builder::materials() {
    materials_ = in_.materials();
    // `se.simple` sits on the Model: every other property of a Material is a slot to readers.
    auto simple = formats::byte_array(in_.node(), "se.simple");
    if (simple && simple->size() != materials_.size()) simple.reset();
    for (std::size_t index = 0; index < materials_.size(); ++index) {
        const cast::ConstMaterial& in = materials_[index];
        const std::string at =
            cast::step_name(id(cast::NodeId::Material), static_cast<std::uint32_t>(index));
        Material& material = out_.materials.emplace_back();
        material.name = in.name().value_or("");
        material.simple =
            simple ? static_cast<std::uint8_t>((*simple)[out_.materials.size() - 1]) : 1;
        auto path = [&](std::string_view slot) {
            cast::ConstFile file = in.slot_file(slot);
            if (file && file.path().value_or("").empty())
                warn(at, fmt::format("material '{}': slot '{}' has a File with an empty path (a "
                                     "texture packed in a .blend?); written without a map",
                                     material.name, slot));
            return file ? std::string(file.path().value_or("")) : std::string();
        };
        if (material.simple == 0) continue;
        material.diffuse = path(in.slot_file("diffuse") ? "diffuse" : "albedo");
        material.normal = path("normal");
        material.specular = path("specular");
        for (const cast::ConstMaterial::Slot& slot : in.slots())
            if (slot.name != "diffuse" && slot.name != "normal" && slot.name != "specular" &&
                !(slot.name == "albedo" && !in.slot_file("diffuse")))
                warn(at, fmt::format("material '{}': SEModel has diffuse, normal and specular "
                                     "maps; slot '{}' dropped",
                                     material.name, slot.name));
    }
    for (std::size_t i = 0; i < out_.meshes.size(); ++i) {
        Mesh& mesh = out_.meshes[i];
        const cast::ConstMesh& in = meshes_[i];
        std::int32_t linked = -1;
        if (cast::ConstMaterial material = in.material())
            for (std::size_t m = 0; m < materials_.size(); ++m)
                if (materials_[m].hash() == material.hash()) linked = static_cast<std::int32_t>(m);
        if (linked >= 0 && mesh.uv_layer_count == 0)
            warn(mesh_at(i),
                 "SEModel links materials through UV layers; without one the material link is "
                 "dropped");
        mesh.material_indices.assign(mesh.uv_layer_count, linked);
        if (auto stored = formats::integer_array(in.node(), "se.materials");
            stored && stored->size() == mesh.uv_layer_count) {
            std::vector<std::int32_t> indices(stored->begin(), stored->end());
            if (detail::linked_material(indices, out_.materials.size()) == linked)
                mesh.material_indices = std::move(indices);
        }
    }
}

// The derived header, then each `se.*` value that still agrees with the data.
void Builder::header() {
    const cast::Node& node = in_.node();
    Header& h = out_.header;
    h.bone_presence = out_.bones.empty() ? 0 : bone_blocks_;
    h.mesh_presence = out_.meshes.empty() ? 0 : mesh_streams_;
    canonicalize(out_);
    if (auto stored = formats::byte_array(node, "se.presence"); stored && stored->size() == 3) {
        // Stored flags may add blocks the data does not need (Greyhound sets them all); they are
        // used when they keep every block the data has.
        const auto derived = detail::derived_presence(out_);
        const std::uint8_t kept[3] = {h.presence, h.bone_presence, h.mesh_presence};
        bool agrees = true;
        for (int i = 0; i < 3; ++i)
            agrees = agrees && (kept[i] & ~static_cast<std::uint8_t>((*stored)[i])) == 0 &&
                     (derived[i] & ~static_cast<std::uint8_t>((*stored)[i])) == 0;
        if (agrees) {
            h.presence = static_cast<std::uint8_t>((*stored)[0]);
            h.bone_presence = static_cast<std::uint8_t>((*stored)[1]);
            h.mesh_presence = static_cast<std::uint8_t>((*stored)[2]);
        }
    }
    if (auto counts = formats::integer_array(node, "se.counts"); counts && counts->size() == 3) {
        if (!(h.presence & kBones)) h.bone_count = (*counts)[0];
        if (!(h.presence & kMeshes)) h.mesh_count = (*counts)[1];
        if (!(h.presence & kMaterials)) h.material_count = (*counts)[2];
    }
    if (auto version = formats::integer_value(node, "se.version"))
        h.version = static_cast<std::uint16_t>(*version);
    if (auto extra = formats::byte_array(node, "se.headerExtra");
        extra && extra->size() <= 0xFFFF - 20)
        out_.header_extra = std::move(*extra);
    if (auto reserved = formats::byte_array(node, "se.reserved"); reserved && reserved->size() == 3)
        for (int i = 0; i < 3; ++i) h.reserved[i] = static_cast<std::uint8_t>((*reserved)[i]);
    if (auto trailing = formats::byte_array(node, "se.trailing"))
        out_.trailing = std::move(*trailing);
    for (std::size_t i = 0; i < out_.meshes.size(); ++i) {
        Mesh& mesh = out_.meshes[i];
        auto stored = formats::byte_array(meshes_[i].node(), "se.layers");
        if (!stored || stored->size() != 2) continue;
        // Stored counts whose flag is clear are not read, so they can differ from the data.
        const auto layers = static_cast<std::uint8_t>((*stored)[0]);
        const auto influences = static_cast<std::uint8_t>((*stored)[1]);
        if (!(h.mesh_presence & kUVs) && mesh.uv_layer_count == 0) mesh.uv_layer_count = layers;
        if (!(h.mesh_presence & kWeights) && mesh.max_influence == 0)
            mesh.max_influence = influences;
    }
    // A clear flag drops its streams (the reader would not find them).
    for (Mesh& mesh : out_.meshes) {
        if (!(h.mesh_presence & kUVs)) mesh.uvs.clear(), mesh.material_indices.clear();
        if (!(h.mesh_presence & kWeights)) mesh.weights.clear();
    }
}

void Builder::dropped() {
    auto note = [&](std::size_t count, const char* what) {
        if (count > 0)
            warn({}, fmt::format("{} {} dropped: SEModel cannot hold them", count, what));
    };
    note(in_.hairs().size(), "hair nodes");
    note(in_.blend_shapes().size(), "blend shapes");
    if (cast::ConstSkeleton skeleton = in_.skeleton()) {
        note(skeleton.ik_handles().size(), "IK handles");
        note(skeleton.constraints().size(), "constraints");
    }
    if (in_.position() || in_.rotation() || in_.scale())
        warn({}, "the Model's own position, rotation and scale are dropped: SEModel has none");
}

Expected<Model> Builder::run() {
    bones();
    meshes_ = in_.meshes();
    for (std::size_t i = 0; i < meshes_.size(); ++i) mesh(meshes_[i], i);
    materials();
    header();
    fill_streams();
    dropped();
    return std::move(out_);
}

// "root[r]/model[m]": where `model` is in `document`, as node paths count.
std::string model_place(const cast::Document& document, const cast::ConstModel& model) {
    const auto roots = document.root_nodes();
    for (std::size_t r = 0; r < roots.size(); ++r) {
        const auto models = roots[r].models();
        for (std::size_t m = 0; m < models.size(); ++m)
            if (&models[m].node() == &model.node()) {
                const cast::PathStep root{nullptr, id(cast::NodeId::Root), std::uint32_t(r)};
                const cast::PathStep at{&root, id(cast::NodeId::Model), std::uint32_t(m)};
                return cast::format_path(&at);
            }
    }
    return cast::step_name(id(cast::NodeId::Model), 0);
}

}  // namespace

Expected<Model> from_cast(const cast::Document& given, Diagnostics& warnings) {
    std::optional<cast::Document> repair;
    auto checked = scene::checked_first_model(given, repair, warnings);
    if (!checked) return make_error(checked.error());
    return detail::from_checked_cast(**checked, warnings);
}

Expected<Model> detail::from_checked_cast(const cast::Document& document, Diagnostics& warnings) {
    auto models = document.models();
    if (models.empty()) {
        return make_error(formats::diagnostic_at(
            document.source_name, Diagnostic::kNoOffset, {},
            "the document has no Model node, so there is nothing to write as SEModel"));
    }
    if (models.size() > 1)
        warnings.push_back(formats::warning(
            document.source_name, {},
            fmt::format("SEModel holds one model; the first of {} is written", models.size())));
    return Builder(models.front(), document.source_name, model_place(document, models.front()),
                   warnings)
        .run();
}

}  // namespace castkit::semodel
