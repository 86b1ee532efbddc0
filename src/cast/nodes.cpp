#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <cmath>

namespace castkit::cast {

// ---- NodeView ------------------------------------------------------------------------------

std::optional<std::string_view> NodeView::string(std::string_view name) const {
    const Property* p = node_->find(name);
    if (p == nullptr || p->type() != PropertyType::String || p->count() == 0) return std::nullopt;
    return p->string(0);
}

std::optional<std::uint64_t> NodeView::integer(std::string_view name) const {
    const Property* p = node_->find(name);
    if (p == nullptr || !is_integer_type(p->type()) || p->size() == 0) return std::nullopt;
    return p->integer(0);
}

std::optional<float> NodeView::real(std::string_view name) const {
    const Property* p = node_->find(name);
    if (p == nullptr || p->size() == 0) return std::nullopt;
    if (p->type() == PropertyType::Float || p->type() == PropertyType::Double)
        return static_cast<float>(p->number(0));
    return std::nullopt;
}

namespace {
template <class V>
std::optional<V> vector_value(const Node& node, std::string_view name) {
    const Property* p = node.find(name);
    if (p == nullptr || p->type() != property_type_of<V>() || p->size() == 0) return std::nullopt;
    return load<V>(p->bytes().data());
}
}  // namespace

std::optional<glm::vec2> NodeView::vec2(std::string_view name) const {
    return vector_value<glm::vec2>(*node_, name);
}
std::optional<glm::vec3> NodeView::vec3(std::string_view name) const {
    return vector_value<glm::vec3>(*node_, name);
}
std::optional<glm::vec4> NodeView::vec4(std::string_view name) const {
    return vector_value<glm::vec4>(*node_, name);
}

bool NodeView::flag(std::string_view name, bool fallback) const {
    // Rule 9: any non-zero value is true.
    auto value = integer(name);
    return value ? *value != 0 : fallback;
}

void NodeView::set_string(std::string name, std::string_view value) {
    node_->set(make_string(std::move(name), value));
}
void NodeView::set_hash_link(std::string name, std::uint64_t hash) {
    node_->set(make_value<std::uint64_t>(std::move(name), hash));
}
void NodeView::set_flag(std::string name, bool value) {
    node_->set(make_bool(std::move(name), value));
}
void NodeView::set_real(std::string name, float value) {
    node_->set(make_value<float>(std::move(name), value));
}
void NodeView::set_vec3(std::string name, const glm::vec3& value) {
    node_->set(make_value(std::move(name), value));
}
void NodeView::set_vec4(std::string name, const glm::vec4& value) {
    node_->set(make_value(std::move(name), value));
}

Node* NodeView::find_by_hash(Node* scope, std::uint64_t hash) {
    if (scope == nullptr) return nullptr;
    for (auto& child : scope->children)
        if (child->hash == hash) return child.get();
    return nullptr;
}

// ---- Links ---------------------------------------------------------------------------------

namespace {
// Resolves `hash` among the children of `scope`, requiring the node type `kind`.
template <class V>
V resolve(Node* scope, std::optional<std::uint64_t> hash, NodeId kind, Document* document) {
    if (!hash || scope == nullptr) return V();
    for (auto& child : scope->children)
        if (child->hash == *hash && child->is(kind)) return V(child.get(), scope, document);
    return V();
}
}  // namespace

File Instance::reference_file() const {
    return resolve<File>(node_, reference_file_hash(), NodeId::File, document_);
}
Material Mesh::material() const {
    return resolve<Material>(parent_, material_hash(), NodeId::Material, document_);
}
Material Hair::material() const {
    return resolve<Material>(parent_, material_hash(), NodeId::Material, document_);
}
Mesh BlendShape::base_shape() const {
    return resolve<Mesh>(parent_, base_shape_hash(), NodeId::Mesh, document_);
}
Bone IKHandle::bone(std::optional<std::uint64_t> hash) const {
    return resolve<Bone>(parent_, hash, NodeId::Bone, document_);
}
Bone Constraint::constraint_bone() const {
    return resolve<Bone>(parent_, constraint_bone_hash(), NodeId::Bone, document_);
}
Bone Constraint::target_bone() const {
    return resolve<Bone>(parent_, target_bone_hash(), NodeId::Bone, document_);
}
Bone Skeleton::bone_by_hash(std::uint64_t hash) const {
    return resolve<Bone>(node_, hash, NodeId::Bone, document_);
}
File Material::slot_file(std::string_view slot) const {
    return resolve<File>(node_, slot_hash(slot), NodeId::File, document_);
}
Color Material::slot_color(std::string_view slot) const {
    return resolve<Color>(node_, slot_hash(slot), NodeId::Color, document_);
}

std::vector<Material::Slot> Material::slots() const {
    std::vector<Slot> out;
    for (const Property& p : node_->properties)
        if (p.type() == PropertyType::Integer64 && p.size() > 0 && p.name() != "n" &&
            p.name() != "t")
            out.push_back({p.name(), p.integer(0)});
    return out;
}

// ---- Mesh ----------------------------------------------------------------------------------

std::uint32_t Mesh::uv_layer_count() const {
    return static_cast<std::uint32_t>(integer("ul").value_or(0));
}

ArrayView<glm::vec2> Mesh::uv_layer(std::uint32_t layer) const {
    return ArrayView<glm::vec2>::of(node_->find(fmt::format("u{}", layer)));
}

std::uint32_t Mesh::color_layer_count() const {
    if (auto count = integer("cl")) return static_cast<std::uint32_t>(*count);
    return node_->find("vc") != nullptr ? 1 : 0;
}

const Property* Mesh::color_layer_property(std::uint32_t layer) const {
    if (node_->find("cl") == nullptr) return layer == 0 ? node_->find("vc") : nullptr;
    return node_->find(fmt::format("c{}", layer));
}

bool Mesh::color_layer_is_packed(std::uint32_t layer) const {
    const Property* p = color_layer_property(layer);
    return p != nullptr && p->type() == PropertyType::Integer32;
}

std::vector<glm::vec4> Mesh::color_layer(std::uint32_t layer) const {
    const Property* p = color_layer_property(layer);
    if (p == nullptr) return {};
    if (p->type() == PropertyType::Vector4) return ArrayView<glm::vec4>::of(p).to_vector();
    if (p->type() != PropertyType::Integer32) return {};
    std::vector<glm::vec4> out(p->size());
    const std::byte* bytes = p->bytes().data();
    for (std::size_t i = 0; i < out.size(); ++i)  // R in the low byte: file bytes run R,G,B,A
        out[i] = glm::vec4(float(bytes[i * 4]), float(bytes[i * 4 + 1]), float(bytes[i * 4 + 2]),
                           float(bytes[i * 4 + 3])) /
                 255.0f;
    return out;
}

std::uint32_t Mesh::max_weight_influence() const {
    return static_cast<std::uint32_t>(integer("mi").value_or(0));
}

void Mesh::set_positions(std::span<const glm::vec3> v) {
    node_->set(make_array<glm::vec3>("vp", v));
}
void Mesh::set_normals(std::span<const glm::vec3> v) { node_->set(make_array<glm::vec3>("vn", v)); }
void Mesh::set_tangents(std::span<const glm::vec3> v) {
    node_->set(make_array<glm::vec3>("vt", v));
}
void Mesh::set_faces(std::span<const std::uint32_t> indices) {
    node_->set(make_indices("f", indices));
}

namespace {
// Grows a layer-count property (`ul`/`cl`, stored as `b` per rule 11) to cover `layer`.
void cover_layer(Node& node, const char* count_name, std::uint32_t current, std::uint32_t layer) {
    if (layer + 1 > current || node.find(count_name) == nullptr)
        node.set(make_integer(count_name, PropertyType::Byte, std::max(current, layer + 1)));
}
}  // namespace

void Mesh::set_uv_layer(std::uint32_t layer, std::span<const glm::vec2> uvs) {
    node_->set(make_array<glm::vec2>(fmt::format("u{}", layer), uvs));
    cover_layer(*node_, "ul", uv_layer_count(), layer);
}

void Mesh::set_color_layer_packed(std::uint32_t layer, std::span<const std::uint32_t> rgba8) {
    std::uint32_t count = integer("cl").has_value() ? color_layer_count() : 0;
    node_->set(make_integers(fmt::format("c{}", layer), PropertyType::Integer32, rgba8));
    cover_layer(*node_, "cl", count, layer);
}

void Mesh::set_color_layer(std::uint32_t layer, std::span<const glm::vec4> rgba) {
    std::uint32_t count = integer("cl").has_value() ? color_layer_count() : 0;
    node_->set(make_array<glm::vec4>(fmt::format("c{}", layer), rgba));
    cover_layer(*node_, "cl", count, layer);
}

void Mesh::set_weights(std::uint32_t influences, std::span<const std::uint32_t> bones,
                       std::span<const float> values) {
    node_->set(make_integer("mi", PropertyType::Byte, influences));
    node_->set(make_indices("wb", bones));
    node_->set(make_array<float>("wv", values));
}

// ---- Others --------------------------------------------------------------------------------

float BlendShape::target_weight_scale() const {
    const Property* p = node_->find("ts");
    if (p == nullptr || p->size() == 0 || p->type() != PropertyType::Float) return 1.0f;
    return static_cast<float>(p->number(0));
}

void BlendShape::set_targets(std::span<const std::uint32_t> indices,
                             std::span<const glm::vec3> positions) {
    node_->set(make_indices("vi", indices));
    node_->set(make_array<glm::vec3>("vp", positions));
}

std::int32_t Bone::parent_index() const {
    auto p = integer("p");
    if (!p) return -1;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(*p));
}

void Bone::set_parent_index(std::int32_t index) {
    node_->set(make_integer("p", PropertyType::Integer32, static_cast<std::uint32_t>(index)));
}

glm::vec4 Constraint::custom_offset() const {
    if (auto v4 = vec4("co")) return *v4;
    if (auto v3 = vec3("co")) return glm::vec4(*v3, 0.0f);
    std::string_view type = constraint_type().value_or("");
    if (type == "or") return glm::vec4(0, 0, 0, 1);
    if (type == "sc") return glm::vec4(1, 1, 1, 0);
    return glm::vec4(0.0f);
}

}  // namespace castkit::cast
