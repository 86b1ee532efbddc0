// The model node classes: Model, Mesh, Hair and BlendShape.
#include "node_classes.hpp"

namespace castkit::python::nodes {

namespace {

CASTKIT_PYTHON_TYPE(SkinningWords, "Literal['linear', 'quaternion']");

// A float colour layer as stored, a packed one converted: (n, 4) float32 RGBA, or None.
Typed<types::OptionalArray> color_layer(const NodeRef& r, std::uint32_t layer) {
    cast::Mesh v = r.view<cast::Mesh>();
    const cast::Property* p = v.color_layer_property(layer);
    if (p == nullptr) return py::none();
    if (p->type() == PropertyType::Vector4)
        return typed_values(r.doc, *r.node, p->name(), {PropertyType::Vector4});
    if (p->type() != PropertyType::Integer32) return py::none();
    std::vector<glm::vec4> rgba = v.color_layer(layer);
    py::array_t<float> out({static_cast<py::ssize_t>(rgba.size()), py::ssize_t{4}});
    if (!rgba.empty())
        std::memcpy(out.mutable_data(), rgba.data(), rgba.size() * sizeof(glm::vec4));
    return out;
}

// The Mesh's arrays as stored, and its counts.
void add_mesh_arrays(Def<MeshRef, cast::Mesh>& def) {
    def.array_ro("positions", "vp", {PropertyType::Vector3}, 1, "(n, 3) float32, or None")
        .array_ro("normals", "vn", {PropertyType::Vector3}, 1, "(n, 3) float32, or None")
        .array_ro("tangents", "vt", {PropertyType::Vector3}, 1, "(n, 3) float32, or None")
        .array_ro("faces", "f", kIntegers, 3,
                  "(face_count, 3) in the stored dtype (uint8/16/32), counter-clockwise")
        .ro("vertex_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.vertex_count()); })
        .ro("face_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.face_count()); })
        .ro("uv_layer_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.uv_layer_count()); })
        .ro("color_layer_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.color_layer_count()); })
        .ro("max_weight_influence",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.max_weight_influence()); })
        .array_ro("weight_bones", "wb", kIntegers, 1,
                  "vertex_count × max_weight_influence bone indices, stored dtype, or None")
        .array_ro("weight_values", "wv", {PropertyType::Float}, 1, "float32 weights, or None");
}

// The Mesh's skinning method and material.
void add_mesh_skinning(Def<MeshRef, cast::Mesh>& def) {
    def.ro("skinning_method_name",
           [](const cast::Mesh& v, const NodeRef&) { return to_str(v.skinning_method_name()); })
        .choice_rw<cast::SkinningMethod, SkinningWords>(
            "skinning_method", &cast::Mesh::skinning_method, &cast::Mesh::set_skinning_method,
            {{{"linear", cast::SkinningMethod::Linear},
              {"quaternion", cast::SkinningMethod::Quaternion}}})
        .link<MaterialRef>("material", "m", &cast::Mesh::material_hash, &cast::Mesh::material);
}

// The Mesh's UV and colour layers.
void add_mesh_layers(Def<MeshRef, cast::Mesh>& def) {
    def.fn(
           "uv_layer",
           [](const NodeRef& r, std::uint32_t layer) {
               return typed_values(r.doc, *r.node, "u" + std::to_string(layer),
                                   {PropertyType::Vector2});
           },
           py::arg("layer"), "(n, 2) float32, or None")
        .fn(
            "color_layer_is_packed",
            [](const NodeRef& r, std::uint32_t layer) {
                return r.view<cast::Mesh>().color_layer_is_packed(layer);
            },
            py::arg("layer"))
        .fn(
            "color_layer_property",
            [](const NodeRef& r, std::uint32_t layer) {
                return snapshot(r, r.view<cast::Mesh>().color_layer_property(layer));
            },
            py::arg("layer"), "The Property holding the layer (packed uint32 or (n, 4) float32)")
        .fn("color_layer", &color_layer, py::arg("layer"),
            "(n, 4) float32 RGBA: a view of float layers, a converted copy of packed ones");
}

// The Mesh's setters.
void add_mesh_setters(Def<MeshRef, cast::Mesh>& def) {
    def.array_set("set_positions", "vp", PropertyType::Vector3, "(n, 3) floats")
        .array_set("set_normals", "vn", PropertyType::Vector3)
        .array_set("set_tangents", "vt", PropertyType::Vector3)
        .u32_set("set_faces", "indices", "faces", &cast::Mesh::set_faces,
                 "Triangle indices ((n, 3) or flat); stored in the smallest of u8/u16/u32")
        .fn(
            "set_uv_layer",
            [](const NodeRef& r, std::uint32_t layer, const Typed<types::ArrayLike>& values) {
                unwrap(r.view<cast::Mesh>().set_uv_layer(layer, vecs_of<glm::vec2>(values, "uvs")));
            },
            py::arg("layer"), py::arg("uvs"), "(n, 2) floats; grows uv_layer_count to cover it")
        .fn(
            "set_color_layer",
            [](const NodeRef& r, std::uint32_t layer, const Typed<types::ArrayLike>& values) {
                unwrap(r.view<cast::Mesh>().set_color_layer(layer,
                                                            vecs_of<glm::vec4>(values, "rgba")));
            },
            py::arg("layer"), py::arg("rgba"), "(n, 4) float RGBA")
        .fn(
            "set_color_layer_packed",
            [](const NodeRef& r, std::uint32_t layer, const Typed<types::ArrayLike>& values) {
                unwrap(r.view<cast::Mesh>().set_color_layer_packed(layer, to_u32(values, "rgba8")));
            },
            py::arg("layer"), py::arg("rgba8"), "uint32 per vertex, R in the low byte")
        .fn(
            "set_weights",
            [](const NodeRef& r, std::uint32_t influences, const Typed<types::ArrayLike>& bones,
               const Typed<types::ArrayLike>& values) {
                unwrap(r.view<cast::Mesh>().set_weights(influences, to_u32(bones, "bones"),
                                                        floats_of(values, "values")));
            },
            py::arg("influences"), py::arg("bones"), py::arg("values"),
            "vertex_count × influences bone indices and weights");
}

void register_mesh() {
    Def<MeshRef, cast::Mesh> def("Mesh");
    def.name();
    add_mesh_arrays(def);
    add_mesh_skinning(def);
    add_mesh_layers(def);
    add_mesh_setters(def);
}

void register_hair() {
    Def<HairRef, cast::Hair>("Hair")
        .name()
        .array_ro("segments", "se", kIntegers)
        .array_ro("particles", "pt", {PropertyType::Vector3})
        .link<MaterialRef>("material", "m", &cast::Hair::material_hash, &cast::Hair::material)
        .u32_set("set_segments", "values", "segments", &cast::Hair::set_segments)
        .array_set("set_particles", "pt", PropertyType::Vector3);
}

void register_blend_shape() {
    Def<BlendShapeRef, cast::BlendShape>("BlendShape")
        .name()
        .link<MeshRef>("base_shape", "b", &cast::BlendShape::base_shape_hash,
                       &cast::BlendShape::base_shape)
        .array_ro("vertex_indices", "vi", kIntegers)
        .array_ro("vertex_positions", "vp", {PropertyType::Vector3})
        .real_rw("target_weight_scale", &cast::BlendShape::target_weight_scale,
                 &cast::BlendShape::set_target_weight_scale)
        .fn(
            "set_targets",
            [](const NodeRef& r, const Typed<types::ArrayLike>& indices,
               const Typed<types::ArrayLike>& positions) {
                r.view<cast::BlendShape>().set_targets(to_u32(indices, "indices"),
                                                       vecs_of<glm::vec3>(positions, "positions"));
            },
            py::arg("indices"), py::arg("positions"));
}

void register_model() {
    Def<ModelRef, cast::Model>("Model")
        .name()
        .transform()
        .link_ro("skeleton", &cast::Model::skeleton, "The first Skeleton child, or None")
        .list_ro("meshes", &cast::Model::meshes)
        .list_ro("hairs", &cast::Model::hairs)
        .list_ro("blend_shapes", &cast::Model::blend_shapes)
        .list_ro("materials", &cast::Model::materials)
        .add("add_skeleton", &cast::Model::add_skeleton)
        .add("add_mesh", &cast::Model::add_mesh)
        .add("add_hair", &cast::Model::add_hair)
        .add("add_blend_shape", &cast::Model::add_blend_shape)
        .add("add_material", &cast::Model::add_material);
}

}  // namespace

void declare_models(py::module_& m) {
    declare<MeshRef>(m, "Mesh", "A mesh: vertex arrays, faces, layers, weights.");
    declare<HairRef>(m, "Hair", "Hair strands: segments per strand and particles.");
    declare<BlendShapeRef>(
        m, "BlendShape",
        "A blend shape: absolute target positions of some vertices of a base mesh.");
    declare<ModelRef>(m, "Model", "A model: skeleton, meshes, hairs, blend shapes, materials.");
}

void register_models() {
    register_mesh();
    register_hair();
    register_blend_shape();
    register_model();
}

}  // namespace castkit::python::nodes
