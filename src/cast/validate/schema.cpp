// The node tables of the Cast specification, transcribed, with IKHandle `to` (added upstream
// later); Mesh `vc` is the legacy colour layer (docs/decisions.md rule 15).
#include "schema.hpp"

#include <fmt/format.h>

#include <array>
#include <castkit/cast/units.hpp>

namespace castkit::cast::validation {
namespace {

constexpr PropertySchema single(std::string_view name, TypeMask types, bool required = false,
                                std::span<const std::string_view> values = {}) {
    return {name, types, false, required, false, values};
}
constexpr PropertySchema array(std::string_view name, TypeMask types, bool required = false) {
    return {name, types, true, required, false, {}};
}
constexpr PropertySchema layers(std::string_view prefix, TypeMask types) {
    return {prefix, types, true, false, true, {}};
}

constexpr std::string_view kSkinningMethods[] = {"linear", "quaternion"};
constexpr std::string_view kCurveModes[] = {"additive", "absolute", "relative"};
constexpr std::string_view kKeyProperties[] = {"rq", "tx", "ty", "tz", "sx",
                                               "sy", "sz", "bs", "vb"};
constexpr std::string_view kConstraintTypes[] = {"pt", "or", "sc"};
constexpr std::string_view kColorSpaces[] = {"srgb", "linear"};
constexpr std::string_view kUpAxes[] = {"x", "y", "z"};
constexpr std::string_view kMaterialTypes[] = {"pbr"};

constexpr NodeId kUnderRoot[] = {NodeId::Root};
constexpr NodeId kUnderModel[] = {NodeId::Model};
constexpr NodeId kUnderModelOrAnimation[] = {NodeId::Model, NodeId::Animation};
constexpr NodeId kUnderSkeleton[] = {NodeId::Skeleton};
constexpr NodeId kUnderMaterial[] = {NodeId::Material};
constexpr NodeId kUnderMaterialOrInstance[] = {NodeId::Material, NodeId::Instance};
constexpr NodeId kUnderAnimation[] = {NodeId::Animation};

constexpr PropertySchema kModel[] = {single("n", kString), single("p", kVector3),
                                     single("r", kVector4), single("s", kVector3)};
constexpr PropertySchema kMesh[] = {single("n", kString),
                                    array("vp", kVector3, true),
                                    array("vn", kVector3),
                                    array("vt", kVector3),
                                    layers("c", kInteger32 | kVector4),
                                    layers("u", kVector2),
                                    array("vc", kInteger32 | kVector4),
                                    array("wb", kIndexTypes),
                                    array("wv", kFloat),
                                    array("f", kIndexTypes, true),
                                    single("cl", kIndexTypes),
                                    single("ul", kIndexTypes),
                                    single("mi", kIndexTypes),
                                    single("sm", kString, false, kSkinningMethods),
                                    single("m", kInteger64)};
constexpr PropertySchema kHair[] = {single("n", kString), array("se", kIndexTypes, true),
                                    array("pt", kVector3, true), single("m", kInteger64)};
constexpr PropertySchema kBlendShape[] = {single("n", kString, true), single("b", kInteger64, true),
                                          array("vi", kIndexTypes, true),
                                          array("vp", kVector3, true), array("ts", kFloat)};
constexpr PropertySchema kBone[] = {single("n", kString, true), single("p", kInteger32),
                                    single("ssc", kByte),       single("lp", kVector3),
                                    single("lr", kVector4),     single("wp", kVector3),
                                    single("wr", kVector4),     single("s", kVector3)};
constexpr PropertySchema kIKHandle[] = {
    single("n", kString),     single("sb", kInteger64, true), single("eb", kInteger64, true),
    single("tb", kInteger64), single("pv", kInteger64),       single("pb", kInteger64),
    single("tr", kByte),      single("to", kVector3)};
constexpr PropertySchema kConstraint[] = {single("n", kString),
                                          single("ct", kString, true, kConstraintTypes),
                                          single("cb", kInteger64, true),
                                          single("tb", kInteger64, true),
                                          single("mo", kByte),
                                          single("co", kVector3 | kVector4),
                                          single("wt", kFloat),
                                          single("sx", kByte),
                                          single("sy", kByte),
                                          single("sz", kByte)};
constexpr PropertySchema kMaterial[] = {
    single("n", kString, true),
    single("t", kString, true, kMaterialTypes),
    single("albedo", kInteger64),
    single("diffuse", kInteger64),
    single("normal", kInteger64),
    single("specular", kInteger64),
    single("gloss", kInteger64),
    single("roughness", kInteger64),
    single("emissive", kInteger64),
    single("emask", kInteger64),
    single("ao", kInteger64),
    single("cavity", kInteger64),
    single("aniso", kInteger64),
    // Not in the spec's table, but the official Blender add-on reads it (metalness workflow).
    single("metal", kInteger64),
    {"extra", kInteger64, false, false, true, {}}};
constexpr PropertySchema kFile[] = {single("p", kString, true)};
constexpr PropertySchema kColor[] = {single("n", kString),
                                     single("cs", kString, false, kColorSpaces),
                                     single("rgba", kVector4, true)};
constexpr PropertySchema kAnimation[] = {single("n", kString), single("fr", kFloat, true),
                                         single("lo", kByte)};
constexpr PropertySchema kCurve[] = {single("nn", kString, true),
                                     single("kp", kString, true, kKeyProperties),
                                     array("kb", kIndexTypes, true),
                                     array("kv", kIndexTypes | kFloat | kVector4, true),
                                     single("m", kString, true, kCurveModes),
                                     single("ab", kFloat)};
constexpr PropertySchema kCurveModeOverride[] = {
    single("nn", kString, true), single("m", kString, true, kCurveModes), single("ot", kByte),
    single("or", kByte), single("os", kByte)};
constexpr PropertySchema kNotificationTrack[] = {single("n", kString, true),
                                                 array("kb", kIndexTypes, true)};
constexpr PropertySchema kInstance[] = {single("n", kString), single("rf", kInteger64, true),
                                        single("p", kVector3, true), single("r", kVector4, true),
                                        single("s", kVector3, true)};
constexpr PropertySchema kMetadata[] = {
    single("a", kString), single("s", kString), single("up", kString, false, kUpAxes),
    single("sr", kString),
    // castkit's own: the unit of the Root's lengths (docs/decisions.md rule 36).
    single("units", kString, false, detail::kUnitNames),
    // castkit's glTF import: what Cast cannot hold, for a Cast → glTF export (docs/gltf.md).
    single("gltf", kString)};

// castkit's own properties: what SEAnim, SEModel and K3D need to come back byte for byte and
// Cast has no property for, which their readers write and writers read (docs/seanim.md,
// docs/semodel.md, docs/k3d.md). Integers are read whatever their width.
constexpr PropertySchema kOwnModel[] = {
    single("se.version", kIndexTypes),    array("se.headerExtra", kByte),
    array("se.reserved", kByte),          array("se.presence", kByte),
    single("se.boneBlocks", kIndexTypes), array("se.counts", kIndexTypes),
    array("se.trailing", kByte),          array("se.simple", kByte)};
constexpr PropertySchema kOwnMesh[] = {single("se.flags", kIndexTypes), array("se.layers", kByte),
                                       array("se.materials", kIndexTypes)};
constexpr PropertySchema kOwnBone[] = {single("se.flags", kIndexTypes),
                                       single("k3d.noBind", kIndexTypes)};
constexpr PropertySchema kOwnAnimation[] = {single("se.type", kIndexTypes),
                                            single("se.flags", kIndexTypes),
                                            single("se.properties", kIndexTypes),
                                            single("se.version", kIndexTypes),
                                            array("se.headerExtra", kByte),
                                            array("se.reserved", kByte),
                                            single("se.presence", kIndexTypes),
                                            array("se.counts", kIndexTypes),
                                            array("se.widths", kByte),
                                            {"se.bone", kString, false, false, true, {}},
                                            array("se.boneFlags", kByte),
                                            single("se.boneBlock", kIndexTypes),
                                            array("se.noteOrder", kIndexTypes),
                                            array("se.custom", kByte),
                                            array("se.trailing", kByte)};
constexpr PropertySchema kOwnCurve[] = {array("se.kv", kDouble), array("se.yz", kFloat)};
constexpr PropertySchema kOwnCurveModeOverride[] = {single("se.type", kIndexTypes)};

struct OwnProperties {
    NodeId id;
    std::span<const PropertySchema> properties;
};
constexpr OwnProperties kOwn[] = {
    {NodeId::Model, kOwnModel}, {NodeId::Mesh, kOwnMesh},
    {NodeId::Bone, kOwnBone},   {NodeId::Animation, kOwnAnimation},
    {NodeId::Curve, kOwnCurve}, {NodeId::CurveModeOverride, kOwnCurveModeOverride}};

constexpr NodeSchema kNodes[] = {
    {NodeId::Root, "Root", {}, {}},
    {NodeId::Model, "Model", kUnderRoot, kModel},
    {NodeId::Mesh, "Mesh", kUnderModel, kMesh},
    {NodeId::Hair, "Hair", kUnderModel, kHair},
    {NodeId::BlendShape, "BlendShape", kUnderModel, kBlendShape},
    // The Animation table lists Skeleton among its children, the Skeleton table only Model.
    {NodeId::Skeleton, "Skeleton", kUnderModelOrAnimation, {}},
    {NodeId::Bone, "Bone", kUnderSkeleton, kBone},
    {NodeId::IKHandle, "IKHandle", kUnderSkeleton, kIKHandle},
    {NodeId::Constraint, "Constraint", kUnderSkeleton, kConstraint},
    {NodeId::Animation, "Animation", kUnderRoot, kAnimation},
    {NodeId::Curve, "Curve", kUnderAnimation, kCurve},
    {NodeId::CurveModeOverride, "CurveModeOverride", kUnderAnimation, kCurveModeOverride},
    {NodeId::NotificationTrack, "NotificationTrack", kUnderAnimation, kNotificationTrack},
    {NodeId::Material, "Material", kUnderModel, kMaterial},
    {NodeId::File, "File", kUnderMaterialOrInstance, kFile},
    {NodeId::Color, "Color", kUnderMaterial, kColor},
    {NodeId::Instance, "Instance", kUnderRoot, kInstance},
    {NodeId::Metadata, "Metadata", kUnderRoot, kMetadata},
};

constexpr PropertyType kTypeOrder[] = {
    PropertyType::Byte,    PropertyType::Short,  PropertyType::Integer32, PropertyType::Integer64,
    PropertyType::Float,   PropertyType::Double, PropertyType::String,    PropertyType::Vector2,
    PropertyType::Vector3, PropertyType::Vector4};

}  // namespace

TypeMask type_bit(PropertyType type) {
    for (std::size_t i = 0; i < std::size(kTypeOrder); ++i)
        if (kTypeOrder[i] == type) return static_cast<TypeMask>(1u << i);
    return 0;
}

std::string type_list(TypeMask mask) {
    std::string out;
    for (std::size_t i = 0; i < std::size(kTypeOrder); ++i)
        if (mask & (1u << i)) {
            if (!out.empty()) out += ", ";
            out += type_name(kTypeOrder[i]);
        }
    return out;
}

const NodeSchema* node_schema(std::uint32_t id) {
    for (const NodeSchema& schema : kNodes)
        if (static_cast<std::uint32_t>(schema.id) == id) return &schema;
    return nullptr;
}

std::string node_title(std::uint32_t id) {
    if (const NodeSchema* schema = node_schema(id)) return std::string(schema->title);
    return fmt::format("unknown node {:#010x}", id);
}

std::string with_article(std::string_view title) {
    const bool vowel =
        !title.empty() && std::string_view("AEIOUaeiou").find(title[0]) != std::string_view::npos;
    return fmt::format("{} {}", vowel ? "an" : "a", title);
}

std::optional<std::uint32_t> layer_index(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix) || name.size() == prefix.size()) return std::nullopt;
    std::string_view digits = name.substr(prefix.size());
    if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
    std::uint32_t value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<std::uint32_t>(c - '0');
    }
    return value;
}

namespace {

const PropertySchema* find_entry(std::span<const PropertySchema> properties,
                                 std::string_view name) {
    for (const PropertySchema& property : properties) {
        if (property.indexed ? layer_index(name, property.name).has_value() : property.name == name)
            return &property;
    }
    return nullptr;
}

}  // namespace

const PropertySchema* property_schema(const NodeSchema& schema, std::string_view name) {
    return find_entry(schema.properties, name);
}

const PropertySchema* own_property_schema(const NodeSchema& schema, std::string_view name) {
    for (const OwnProperties& own : kOwn)
        if (own.id == schema.id) return find_entry(own.properties, name);
    return nullptr;
}

bool in_own_namespace(std::string_view name) {
    return name.starts_with("se.") || name.starts_with("k3d.");
}

const Property* valid_property(const Node& node, std::string_view name) {
    const NodeSchema* schema = node_schema(node.id);
    const Property* property = node.find(name);
    if (schema == nullptr || property == nullptr) return nullptr;
    const PropertySchema* entry = property_schema(*schema, name);
    if (entry == nullptr || (entry->types & type_bit(property->type())) == 0) return nullptr;
    if (!entry->array && property->size() != 1) return nullptr;
    return property;
}

std::optional<std::uint64_t> valid_integer(const Node& node, std::string_view name) {
    const Property* p = valid_property(node, name);
    if (p == nullptr || !is_integer_type(p->type()) || p->size() == 0) return std::nullopt;
    return p->integer(0);
}

std::optional<double> valid_number(const Node& node, std::string_view name) {
    const Property* p = valid_property(node, name);
    if (p == nullptr || p->size() == 0) return std::nullopt;
    if (p->type() != PropertyType::Float && p->type() != PropertyType::Double &&
        !is_integer_type(p->type()))
        return std::nullopt;
    return p->number(0);
}

std::optional<std::string_view> valid_string(const Node& node, std::string_view name) {
    const Property* p = valid_property(node, name);
    if (p == nullptr || p->type() != PropertyType::String || p->size() == 0) return std::nullopt;
    return p->string(0);
}

}  // namespace castkit::cast::validation
