// SEModel → Cast (docs/semodel.md): bones become a Skeleton, meshes Meshes with every triangle
// reversed (SEModel is clockwise, Cast counter-clockwise), materials Materials with File
// children. What Cast cannot say goes into `se.*` properties, only when the way back could not
// infer it.
#include <fmt/format.h>

#include <castkit/anim/rest_pose.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/semodel.hpp>

#include "../cast_extras.hpp"
#include "io/binary_io.hpp"
#include "mapping.hpp"

namespace castkit::semodel {
namespace {

using formats::make_byte_array;

void model_properties(const Model& m, cast::Node& node) {
    const Header& h = m.header;
    if (h.version != 1) node.set(cast::make_value<std::uint16_t>("se.version", h.version));
    if (!m.header_extra.empty()) node.set(make_byte_array("se.headerExtra", m.header_extra));
    if (h.reserved[0] | h.reserved[1] | h.reserved[2])
        node.set(make_byte_array("se.reserved", h.reserved));
    const std::array<std::uint8_t, 3> derived = detail::derived_presence(m);
    const std::array<std::uint8_t, 3> stored = {h.presence, h.bone_presence, h.mesh_presence};
    if (stored != derived) node.set(make_byte_array("se.presence", stored));
    if (h.bone_count != m.bones.size() || h.mesh_count != m.meshes.size() ||
        h.material_count != m.materials.size()) {
        const std::uint32_t counts[3] = {h.bone_count, h.mesh_count, h.material_count};
        node.set(cast::make_array<std::uint32_t>("se.counts", counts));
    }
    if (!m.trailing.empty()) node.set(make_byte_array("se.trailing", m.trailing));
}

void skeleton(const Model& m, cast::Model& out) {
    if (m.bones.empty()) return;
    cast::Skeleton skeleton = out.add_skeleton();
    const std::uint8_t blocks = m.header.bone_presence;
    for (const Bone& b : m.bones) {
        cast::Bone bone = skeleton.add_bone();
        bone.set_name(b.name);
        bone.set_parent_index(b.parent);
        if (blocks & kLocalMatrices) {
            bone.set_local_position(b.local_position);
            bone.set_local_rotation(b.local_rotation);
        }
        if (blocks & kGlobalMatrices) {
            bone.set_world_position(b.global_position);
            bone.set_world_rotation(b.global_rotation);
        }
        if (blocks & kScales) bone.set_scale(b.scale);
        if (b.flags != 0) bone.node().set(cast::make_value<std::uint8_t>("se.flags", b.flags));
    }
    // Every bone gets lp/lr and wp/wr (the Blender add-on reads lp/lr unconditionally); which
    // of the two blocks the file really had goes back through `se.boneBlocks`.
    anim::complete_rest_transforms(skeleton);
    constexpr std::uint8_t both = kLocalMatrices | kGlobalMatrices;
    if ((blocks & both) != both)
        out.node().set(
            cast::make_integer("se.boneBlocks", cast::PropertyType::Byte, blocks & both).value());
}

// A property holding `values`: a view keeping `owner` (the model) alive when there is one, else
// a copy.
template <class T>
cast::Property stream(std::string name, cast::PropertyType type, const std::vector<T>& values,
                      const std::shared_ptr<const void>& owner) {
    auto bytes = std::as_bytes(std::span(values));
    const auto count = static_cast<std::uint32_t>(values.size());
    if (owner) return cast::Property(type, std::move(name), count, cast::SharedBytes{bytes, owner});
    return cast::Property(type, std::move(name), count,
                          std::vector<std::byte>(bytes.begin(), bytes.end()));
}

cast::Mesh mesh(const Model& m, const Mesh& in, cast::Model& out,
                const std::shared_ptr<const void>& view) {
    cast::Mesh mesh = out.add_mesh();
    cast::Node& node = mesh.node();
    const std::size_t vertices = in.positions.size();
    node.properties.push_back(stream("vp", cast::PropertyType::Vector3, in.positions, view));
    if (m.header.mesh_presence & kNormals)
        node.properties.push_back(stream("vn", cast::PropertyType::Vector3, in.normals, view));
    const std::uint32_t layers = m.layer_count(in);
    if (layers > 0) {
        node.set(cast::make_integer("ul", cast::PropertyType::Byte, layers)
                     .value());  // a byte in SEModel
        if (layers == 1) {
            node.properties.push_back(stream("u0", cast::PropertyType::Vector2, in.uvs, view));
        } else {
            std::vector<glm::vec2> uvs(vertices);
            for (std::uint32_t layer = 0; layer < layers; ++layer) {
                for (std::size_t v = 0; v < vertices; ++v) uvs[v] = in.uvs[v * layers + layer];
                node.set(formats::owned_array<glm::vec2>(fmt::format("u{}", layer), uvs));
            }
        }
    }
    if (m.header.mesh_presence & kColors) {
        // RGBA bytes are the packed `i` colour of rule 15 (R in the low byte) as they stand.
        node.set(cast::make_value<std::uint8_t>("cl", std::uint8_t{1}));
        node.properties.push_back(stream("c0", cast::PropertyType::Integer32, in.colors, view));
    }
    if (const std::uint32_t influences = m.influence_count(in); influences > 0) {
        std::vector<std::uint32_t> bones(in.weights.size());
        std::vector<float> values(in.weights.size());
        for (std::size_t i = 0; i < in.weights.size(); ++i) {
            bones[i] = in.weights[i].bone;
            values[i] = in.weights[i].value;
        }
        node.set(cast::make_integer("mi", cast::PropertyType::Byte, influences)
                     .value());  // a byte in SEModel
        node.set(cast::make_indices("wb", bones));
        node.set(formats::owned_array<float>("wv", values));
    }
    std::vector<std::uint32_t> faces(in.faces.size());
    for (std::size_t i = 0; i + 2 < faces.size(); i += 3) {
        faces[i] = in.faces[i + 2];
        faces[i + 1] = in.faces[i + 1];
        faces[i + 2] = in.faces[i];
    }
    mesh.set_faces(faces);
    if (in.flags != 0) node.set(cast::make_value<std::uint8_t>("se.flags", in.flags));
    if (in.uv_layer_count != layers || in.max_influence != m.influence_count(in)) {
        const std::uint8_t stored[2] = {in.uv_layer_count, in.max_influence};
        node.set(make_byte_array("se.layers", stored));
    }
    return mesh;
}

void material(const Material& in, cast::Material& material) {
    material.set_name(in.name);
    material.set_type("pbr");
    const std::pair<const char*, const std::string*> slots[3] = {
        {"diffuse", &in.diffuse}, {"normal", &in.normal}, {"specular", &in.specular}};
    for (auto [slot, path] : slots) {
        if (path->empty()) continue;
        cast::File file = material.add_file(*path);
        material.set_slot(slot, file);
    }
}

cast::Document convert(const Model& m, std::shared_ptr<const Model> owner) {
    cast::Document document;
    const std::shared_ptr<const void> view = std::move(owner);
    cast::Root root = document.add_root();
    cast::Model model = root.add_model();
    model_properties(m, model.node());
    skeleton(m, model);
    std::vector<cast::Mesh> meshes;
    for (const Mesh& in : m.meshes) meshes.push_back(mesh(m, in, model, view));
    std::vector<cast::Material> materials;
    std::vector<std::uint8_t> simple;
    bool any_not_simple = false;
    for (const Material& in : m.materials) {
        materials.push_back(model.add_material());
        material(in, materials.back());
        simple.push_back(in.simple);
        any_not_simple |= in.simple != 1;
    }
    // On the Model, not the Material: readers take every Material property but n and t for a slot.
    if (any_not_simple) model.node().set(make_byte_array("se.simple", simple));
    for (std::size_t i = 0; i < m.meshes.size(); ++i) {
        const Mesh& in = m.meshes[i];
        const std::int32_t linked =
            detail::linked_material(in.material_indices, m.materials.size());
        if (linked >= 0) meshes[i].set_material(materials[static_cast<std::size_t>(linked)]);
        if (in.material_indices != detail::inferred_material_indices(m, in, linked)) {
            std::vector<std::uint32_t> raw(in.material_indices.begin(), in.material_indices.end());
            meshes[i].node().set(cast::make_array<std::uint32_t>("se.materials", raw));
        }
    }
    return document;
}

}  // namespace

Expected<cast::Document> to_cast(const Model& model, Diagnostics&) {
    return convert(model, nullptr);
}

Expected<cast::Document> to_cast(Model&& model, Diagnostics&) {
    auto owner = std::make_shared<const Model>(std::move(model));
    return convert(*owner, owner);
}

}  // namespace castkit::semodel
