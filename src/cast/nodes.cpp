#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/cast/nodes.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace castkit::cast {

// ---- NodeView ------------------------------------------------------------------------------

const Node& empty_node() {
    static const Node empty;
    return empty;
}

void empty_view_changed(const char* call) {
    std::fprintf(stderr,
                 "castkit: %s() called on an empty view (a lookup that found no node); test the "
                 "view first, as in `if (view)`\n",
                 call);
    std::abort();
}

void foreign_link(const char* call, bool empty) {
    if (empty)
        std::fprintf(stderr, "castkit: %s() was given an empty view: a link names a node\n", call);
    else
        std::fprintf(stderr,
                     "castkit: %s() was given a node of another document: a hash link binds only "
                     "inside its document, where that hash may name any node; bring the node "
                     "over first (Document::adopt or insert) [%s]\n",
                     call, "cast.foreign-link");
    std::abort();
}

std::optional<std::string_view> ConstNodeView::string(std::string_view name) const {
    const Property* p = node_->find(name);
    if (p == nullptr || p->type() != PropertyType::String || p->count() == 0) return std::nullopt;
    return p->string(0);
}

std::optional<std::uint64_t> ConstNodeView::integer(std::string_view name) const {
    const Property* p = node_->find(name);
    if (p == nullptr || !is_integer_type(p->type()) || p->size() == 0) return std::nullopt;
    return p->integer(0);
}

std::optional<float> ConstNodeView::real(std::string_view name) const {
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

std::optional<glm::vec2> ConstNodeView::vec2(std::string_view name) const {
    return vector_value<glm::vec2>(*node_, name);
}
std::optional<glm::vec3> ConstNodeView::vec3(std::string_view name) const {
    return vector_value<glm::vec3>(*node_, name);
}
std::optional<glm::vec4> ConstNodeView::vec4(std::string_view name) const {
    return vector_value<glm::vec4>(*node_, name);
}

bool ConstNodeView::flag(std::string_view name, bool fallback) const {
    // Rule 9: any non-zero value is true.
    auto value = integer(name);
    return value ? *value != 0 : fallback;
}

// ---- Enumerated values --------------------------------------------------------------------

namespace {
// An error for an enumerated property whose stored text names no known value; the text itself
// stays in the node (lossless), this only says the typed getter cannot map it.
Unexpected unknown_value(const Node& node, std::string_view property, std::string_view text,
                         std::string_view known) {
    Diagnostic d;
    d.offset = node.file_offset;
    d.rule = "cast.unknown-enum-value";
    d.message = fmt::format("`{}` is '{}', not one of {}", property, text, known);
    return make_error(std::move(d));
}
}  // namespace

std::optional<Axis> axis_from_name(std::string_view name) {
    if (name == "x") return Axis::X;
    if (name == "y") return Axis::Y;
    if (name == "z") return Axis::Z;
    return std::nullopt;
}

std::string_view axis_name(Axis axis) {
    switch (axis) {
        case Axis::X:
            return "x";
        case Axis::Y:
            return "y";
        default:
            return "z";
    }
}

namespace {
// The `kp` of each KeyProperty and the `ct` of each ConstraintType, in the enums' order.
constexpr std::array<std::string_view, 9> kKeyPropertyNames = {"tx", "ty", "tz", "rq", "sx",
                                                               "sy", "sz", "bs", "vb"};
constexpr std::array<std::string_view, 3> kConstraintTypeNames = {"pt", "or", "sc"};

template <class Enum, std::size_t N>
std::optional<Enum> enum_from_name(const std::array<std::string_view, N>& names,
                                   std::string_view name) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == name) return static_cast<Enum>(i);
    return std::nullopt;
}

// The name of an enum value; a value outside the enum (made by a cast) is a programming error.
template <std::size_t N>
std::string_view enum_name(const std::array<std::string_view, N>& names, std::size_t index,
                           const char* enum_type) {
    if (index < N) return names[index];
    fmt::print(stderr, "castkit: {} is not a {}\n", index, enum_type);
    std::abort();
}
}  // namespace

std::optional<KeyProperty> key_property_from_name(std::string_view name) {
    return enum_from_name<KeyProperty>(kKeyPropertyNames, name);
}

std::string_view key_property_name(KeyProperty property) {
    return enum_name(kKeyPropertyNames, static_cast<std::size_t>(property), "KeyProperty");
}

std::optional<ConstraintType> constraint_type_from_name(std::string_view name) {
    return enum_from_name<ConstraintType>(kConstraintTypeNames, name);
}

std::string_view constraint_type_name(ConstraintType type) {
    return enum_name(kConstraintTypeNames, static_cast<std::size_t>(type), "ConstraintType");
}

std::optional<CurveMode> curve_mode_from_name(std::string_view name) {
    if (name == "absolute") return CurveMode::Absolute;
    if (name == "relative") return CurveMode::Relative;
    if (name == "additive") return CurveMode::Additive;
    return std::nullopt;
}

std::string_view curve_mode_name(CurveMode mode) {
    switch (mode) {
        case CurveMode::Absolute:
            return "absolute";
        case CurveMode::Relative:
            return "relative";
        default:
            return "additive";
    }
}

std::optional<Expected<Axis>> ConstMetadata::up_axis() const {
    auto text = up_axis_name();
    if (!text) return std::nullopt;
    if (auto axis = axis_from_name(*text)) return Expected<Axis>(*axis);
    return Expected<Axis>(unknown_value(*node_, "up", *text, "x, y, z"));
}

std::optional<Expected<Units>> ConstMetadata::units() const {
    auto text = units_name();
    if (!text) return std::nullopt;
    if (auto units = units_from_name(*text)) return Expected<Units>(*units);
    return Expected<Units>(unknown_value(*node_, "units", *text, "mm, cm, m, in, ft"));
}

Expected<ColorSpace> ConstColor::color_space() const {
    std::string_view text = color_space_name();
    if (text == "srgb") return ColorSpace::Srgb;
    if (text == "linear") return ColorSpace::Linear;
    return unknown_value(*node_, "cs", text, "srgb, linear");
}

Expected<SkinningMethod> ConstMesh::skinning_method() const {
    std::string_view text = skinning_method_name();
    if (text == "linear") return SkinningMethod::Linear;
    if (text == "quaternion") return SkinningMethod::Quaternion;
    return unknown_value(*node_, "sm", text, "linear, quaternion");
}

Expected<CurveMode> ConstCurve::mode() const {
    auto text = mode_name();
    if (!text) return CurveMode::Absolute;
    if (auto mode = curve_mode_from_name(*text)) return *mode;
    return unknown_value(*node_, "m", *text, "absolute, relative, additive");
}

std::optional<Expected<CurveMode>> ConstCurveModeOverride::mode() const {
    auto text = mode_name();
    if (!text) return std::nullopt;
    if (auto mode = curve_mode_from_name(*text)) return Expected<CurveMode>(*mode);
    return Expected<CurveMode>(unknown_value(*node_, "m", *text, "absolute, relative, additive"));
}

// ---- Builders with the spec's required properties -----------------------------------------

File Instance::add_file(std::string_view path) const {
    File file = add<File>(NodeId::File);
    file.set_path(path);
    return file;
}
File Material::add_file(std::string_view path) const {
    File file = add<File>(NodeId::File);
    file.set_path(path);
    return file;
}
Material Model::add_material() const {
    const std::size_t index = materials().size();
    Material material = add<Material>(NodeId::Material);
    material.set_name(fmt::format("material{}", index));
    material.set_type("pbr");
    return material;
}
Curve Animation::add_curve() const {
    Curve curve = add<Curve>(NodeId::Curve);
    curve.set_mode(CurveMode::Absolute);
    return curve;
}
Animation Root::add_animation() const {
    Animation animation = add<Animation>(NodeId::Animation);
    animation.set_framerate(30.0f);
    return animation;
}

// ---- Links ---------------------------------------------------------------------------------

File Material::slot_file(std::string_view slot) const {
    return resolve<File>(writable_, slot_hash(slot), NodeId::File);
}
Color Material::slot_color(std::string_view slot) const {
    return resolve<Color>(writable_, slot_hash(slot), NodeId::Color);
}
Material Mesh::material() const {
    return resolve<Material>(parent(), material_hash(), NodeId::Material);
}

ConstFile ConstInstance::reference_file() const {
    return resolve<ConstFile>(node_, reference_file_hash(), NodeId::File);
}
ConstMaterial ConstMesh::material() const {
    return resolve<ConstMaterial>(parent(), material_hash(), NodeId::Material);
}
ConstMaterial ConstHair::material() const {
    return resolve<ConstMaterial>(parent(), material_hash(), NodeId::Material);
}
ConstMesh ConstBlendShape::base_shape() const {
    return resolve<ConstMesh>(parent(), base_shape_hash(), NodeId::Mesh);
}
ConstBone ConstIKHandle::bone(std::optional<std::uint64_t> hash) const {
    return resolve<ConstBone>(parent(), hash, NodeId::Bone);
}
ConstBone ConstConstraint::constraint_bone() const {
    return resolve<ConstBone>(parent(), constraint_bone_hash(), NodeId::Bone);
}
ConstBone ConstConstraint::target_bone() const {
    return resolve<ConstBone>(parent(), target_bone_hash(), NodeId::Bone);
}
ConstBone ConstSkeleton::bone_by_hash(std::uint64_t hash) const {
    return resolve<ConstBone>(node_, hash, NodeId::Bone);
}
ConstFile ConstMaterial::slot_file(std::string_view slot) const {
    return resolve<ConstFile>(node_, slot_hash(slot), NodeId::File);
}
ConstColor ConstMaterial::slot_color(std::string_view slot) const {
    return resolve<ConstColor>(node_, slot_hash(slot), NodeId::Color);
}

std::vector<ConstMaterial::Slot> ConstMaterial::slots() const {
    std::vector<Slot> out;
    for (const Property& p : node_->properties)
        if (p.type() == PropertyType::Integer64 && p.size() > 0 && p.name() != "n" &&
            p.name() != "t")
            out.push_back({p.name(), p.integer(0)});
    return out;
}

// ---- Mesh ----------------------------------------------------------------------------------

std::uint32_t ConstMesh::uv_layer_count() const {
    return static_cast<std::uint32_t>(integer("ul").value_or(0));
}

ArrayView<glm::vec2> ConstMesh::uv_layer(std::uint32_t layer) const {
    return ArrayView<glm::vec2>::of(node_->find(fmt::format("u{}", layer)));
}

std::uint32_t ConstMesh::color_layer_count() const {
    if (auto count = integer("cl")) return static_cast<std::uint32_t>(*count);
    return node_->find("vc") != nullptr ? 1 : 0;
}

const Property* ConstMesh::color_layer_property(std::uint32_t layer) const {
    if (node_->find("cl") == nullptr) return layer == 0 ? node_->find("vc") : nullptr;
    return node_->find(fmt::format("c{}", layer));
}

bool ConstMesh::color_layer_is_packed(std::uint32_t layer) const {
    const Property* p = color_layer_property(layer);
    return p != nullptr && p->type() == PropertyType::Integer32;
}

std::vector<glm::vec4> ConstMesh::color_layer(std::uint32_t layer) const {
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

std::uint32_t ConstMesh::max_weight_influence() const {
    return static_cast<std::uint32_t>(integer("mi").value_or(0));
}

void Mesh::set_positions(std::span<const glm::vec3> v) {
    target(__func__).set(make_array<glm::vec3>("vp", v));
}
void Mesh::set_normals(std::span<const glm::vec3> v) {
    target(__func__).set(make_array<glm::vec3>("vn", v));
}
void Mesh::set_tangents(std::span<const glm::vec3> v) {
    target(__func__).set(make_array<glm::vec3>("vt", v));
}
void Mesh::set_faces(std::span<const std::uint32_t> indices) {
    target(__func__).set(make_indices("f", indices));
}

namespace {
// `mi` is a byte (rule 11): larger values cannot be stored.
constexpr std::uint32_t kMaxByte = 255;

Unexpected refused(const Node& node, std::string rule, std::string message) {
    Diagnostic d;
    d.offset = node.file_offset;
    d.rule = std::move(rule);
    d.message = std::move(message);
    return make_error(std::move(d));
}

// Grows a layer-count property (`ul`/`cl`, stored as `b` per rule 11) to cover `layer`, which
// check_layer let through: the count it stores is at most 255.
void cover_layer(Node& node, const char* count_name, std::uint32_t current, std::uint32_t layer) {
    if (layer + 1 > current || node.find(count_name) == nullptr)
        node.set(
            make_integer(count_name, PropertyType::Byte, std::max(current, layer + 1)).value());
}

// `ul` and `cl` are bytes holding the layer count, so the last layer they can count is 254.
Expected<void> check_layer(const Node& node, std::uint32_t layer, const char* kind) {
    if (layer < kMaxByte) return {};
    return refused(node, "cast.layer-index",
                   fmt::format("{} layer {} cannot be stored: the layer count is a byte, so "
                               "layers are 0 to {}",
                               kind, layer, kMaxByte - 1));
}
}  // namespace

Expected<void> Mesh::set_uv_layer(std::uint32_t layer, std::span<const glm::vec2> uvs) {
    Node& node = target(__func__);
    if (auto ok = check_layer(node, layer, "UV"); !ok) return ok;
    node.set(make_array<glm::vec2>(fmt::format("u{}", layer), uvs));
    cover_layer(node, "ul", uv_layer_count(), layer);
    return {};
}

Expected<void> Mesh::set_color_layer_packed(std::uint32_t layer,
                                            std::span<const std::uint32_t> rgba8) {
    Node& node = target(__func__);
    if (auto ok = check_layer(node, layer, "colour"); !ok) return ok;
    std::uint32_t count = integer("cl").has_value() ? color_layer_count() : 0;
    node.set(make_array<std::uint32_t>(fmt::format("c{}", layer), rgba8));
    cover_layer(node, "cl", count, layer);
    return {};
}

Expected<void> Mesh::set_color_layer(std::uint32_t layer, std::span<const glm::vec4> rgba) {
    Node& node = target(__func__);
    if (auto ok = check_layer(node, layer, "colour"); !ok) return ok;
    std::uint32_t count = integer("cl").has_value() ? color_layer_count() : 0;
    node.set(make_array<glm::vec4>(fmt::format("c{}", layer), rgba));
    cover_layer(node, "cl", count, layer);
    return {};
}

Expected<void> Mesh::set_weights(std::uint32_t influences, std::span<const std::uint32_t> bones,
                                 std::span<const float> values) {
    if (influences == 0 || influences > kMaxByte)
        return refused(target(__func__), "cast.weight-influences",
                       fmt::format("{} influences per vertex cannot be stored: `mi` is a byte, "
                                   "so it holds 1 to {}",
                                   influences, kMaxByte));
    if (bones.size() != values.size() || bones.size() % influences != 0)
        return refused(target(__func__), "cast.weight-count",
                       fmt::format("{} bone indices and {} weight values do not make whole "
                                   "vertices of {} influences",
                                   bones.size(), values.size(), influences));
    target(__func__).set(make_integer("mi", PropertyType::Byte, influences).value());  // ≤ 255
    target(__func__).set(make_indices("wb", bones));
    target(__func__).set(make_array<float>("wv", values));
    return {};
}

// ---- Others --------------------------------------------------------------------------------

float ConstBlendShape::target_weight_scale() const {
    const Property* p = node_->find("ts");
    if (p == nullptr || p->size() == 0 || p->type() != PropertyType::Float) return 1.0f;
    return static_cast<float>(p->number(0));
}

void BlendShape::set_targets(std::span<const std::uint32_t> indices,
                             std::span<const glm::vec3> positions) {
    target(__func__).set(make_indices("vi", indices));
    target(__func__).set(make_array<glm::vec3>("vp", positions));
}

std::int32_t ConstBone::parent_index() const {
    auto p = integer("p");
    if (!p) return -1;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(*p));
}

void Bone::set_parent_index(std::int32_t index) {
    target(__func__).set(make_value<std::uint32_t>("p", static_cast<std::uint32_t>(index)));
}

glm::vec4 ConstConstraint::custom_offset() const {
    if (auto v4 = vec4("co")) return *v4;
    if (auto v3 = vec3("co")) return glm::vec4(*v3, 0.0f);
    const auto type = constraint_type_from_name(constraint_type().value_or(""));
    if (type == ConstraintType::Orient) return glm::vec4(0, 0, 0, 1);
    if (type == ConstraintType::Scale) return glm::vec4(1, 1, 1, 0);
    return glm::vec4(0.0f);
}

}  // namespace castkit::cast
