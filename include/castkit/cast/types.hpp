// The Cast format's registered ids: node identifiers and property value types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace castkit::cast {

// Node identifiers as stored in the file (little-endian u32 of four ASCII bytes).
enum class NodeId : std::uint32_t {
    Root = 0x746F6F72,
    Model = 0x6C646F6D,
    Mesh = 0x6873656D,
    Hair = 0x72696168,
    BlendShape = 0x68736C62,
    Skeleton = 0x6C656B73,
    Bone = 0x656E6F62,
    IKHandle = 0x64686B69,
    Constraint = 0x74736E63,
    Animation = 0x6D696E61,
    Curve = 0x76727563,
    CurveModeOverride = 0x564F4D43,
    NotificationTrack = 0x6669746E,
    Material = 0x6C74616D,
    File = 0x656C6966,
    Color = 0x726C6F63,
    Instance = 0x74736E69,
    Metadata = 0x6174656D,
};

inline constexpr NodeId kAllNodeIds[] = {
    NodeId::Root,
    NodeId::Model,
    NodeId::Mesh,
    NodeId::Hair,
    NodeId::BlendShape,
    NodeId::Skeleton,
    NodeId::Bone,
    NodeId::IKHandle,
    NodeId::Constraint,
    NodeId::Animation,
    NodeId::Curve,
    NodeId::CurveModeOverride,
    NodeId::NotificationTrack,
    NodeId::Material,
    NodeId::File,
    NodeId::Color,
    NodeId::Instance,
    NodeId::Metadata,
};

// The spec's node name in lower case ("mesh", "curvemodeoverride"), or nullopt when unknown.
std::optional<std::string_view> node_name(std::uint32_t id);
// The inverse of node_name.
std::optional<NodeId> node_id_from_name(std::string_view name);

// Property value types (rule 3: u16 values; vectors are the multi-char constants 'v2'..'v4').
enum class PropertyType : std::uint16_t {
    Byte = 'b',
    Short = 'h',
    Integer32 = 'i',
    Integer64 = 'l',
    Float = 'f',
    Double = 'd',
    String = 's',
    Vector2 = 0x7632,
    Vector3 = 0x7633,
    Vector4 = 0x7634,
};

// True for the ten types the spec defines.
bool is_known_type(std::uint16_t type);
// Bytes per element; 0 for String (variable) and for unknown types.
std::size_t element_size(PropertyType type);
// "b", "h", "i", "l", "f", "d", "s", "v2", "v3", "v4".
std::string_view type_name(PropertyType type);
std::optional<PropertyType> type_from_name(std::string_view name);
// True for the unsigned integer types b, h, i, l.
bool is_integer_type(PropertyType type);

// The smallest of b/h/i that holds `maximum` (rule 11).
PropertyType smallest_index_type(std::uint64_t maximum);

}  // namespace castkit::cast
