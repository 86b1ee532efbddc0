#include <array>
#include <castkit/cast/types.hpp>
#include <utility>

namespace castkit::cast {
namespace {

constexpr std::array<std::pair<NodeId, std::string_view>, 18> kNodeNames{{
    {NodeId::Root, "root"},
    {NodeId::Model, "model"},
    {NodeId::Mesh, "mesh"},
    {NodeId::Hair, "hair"},
    {NodeId::BlendShape, "blendshape"},
    {NodeId::Skeleton, "skeleton"},
    {NodeId::Bone, "bone"},
    {NodeId::IKHandle, "ikhandle"},
    {NodeId::Constraint, "constraint"},
    {NodeId::Animation, "animation"},
    {NodeId::Curve, "curve"},
    {NodeId::CurveModeOverride, "curvemodeoverride"},
    {NodeId::NotificationTrack, "notificationtrack"},
    {NodeId::Material, "material"},
    {NodeId::File, "file"},
    {NodeId::Color, "color"},
    {NodeId::Instance, "instance"},
    {NodeId::Metadata, "metadata"},
}};

constexpr std::array<std::pair<PropertyType, std::string_view>, 10> kTypeNames{{
    {PropertyType::Byte, "b"},
    {PropertyType::Short, "h"},
    {PropertyType::Integer32, "i"},
    {PropertyType::Integer64, "l"},
    {PropertyType::Float, "f"},
    {PropertyType::Double, "d"},
    {PropertyType::String, "s"},
    {PropertyType::Vector2, "v2"},
    {PropertyType::Vector3, "v3"},
    {PropertyType::Vector4, "v4"},
}};

}  // namespace

std::optional<std::string_view> node_name(std::uint32_t id) {
    for (const auto& [known, name] : kNodeNames)
        if (static_cast<std::uint32_t>(known) == id) return name;
    return std::nullopt;
}

std::optional<NodeId> node_id_from_name(std::string_view name) {
    for (const auto& [id, known] : kNodeNames)
        if (known == name) return id;
    return std::nullopt;
}

bool is_known_type(std::uint16_t type) {
    for (const auto& entry : kTypeNames)
        if (static_cast<std::uint16_t>(entry.first) == type) return true;
    return false;
}

std::size_t element_size(PropertyType type) {
    switch (type) {
        case PropertyType::Byte:
            return 1;
        case PropertyType::Short:
            return 2;
        case PropertyType::Integer32:
            return 4;
        case PropertyType::Integer64:
            return 8;
        case PropertyType::Float:
            return 4;
        case PropertyType::Double:
            return 8;
        case PropertyType::String:
            return 0;
        case PropertyType::Vector2:
            return 8;
        case PropertyType::Vector3:
            return 12;
        case PropertyType::Vector4:
            return 16;
    }
    return 0;
}

std::string_view type_name(PropertyType type) {
    for (const auto& [known, name] : kTypeNames)
        if (known == type) return name;
    return "?";
}

std::optional<PropertyType> type_from_name(std::string_view name) {
    for (const auto& [type, known] : kTypeNames)
        if (known == name) return type;
    return std::nullopt;
}

bool is_integer_type(PropertyType type) {
    return type == PropertyType::Byte || type == PropertyType::Short ||
           type == PropertyType::Integer32 || type == PropertyType::Integer64;
}

PropertyType smallest_index_type(std::uint64_t maximum) {
    if (maximum <= 0xFF) return PropertyType::Byte;
    if (maximum <= 0xFFFF) return PropertyType::Short;
    return PropertyType::Integer32;
}

}  // namespace castkit::cast
