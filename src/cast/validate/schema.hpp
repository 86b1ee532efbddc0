// The spec's node tables as data: for each registered node type, the parents it may have and
// the properties it may hold (types, array or single, required, allowed string values).
#pragma once

#include <castkit/cast/node.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace castkit::cast::validation {

// A set of property types, one bit per type.
using TypeMask = std::uint16_t;
TypeMask type_bit(PropertyType type);
inline constexpr TypeMask kByte = 1 << 0, kShort = 1 << 1, kInteger32 = 1 << 2, kInteger64 = 1 << 3,
                          kFloat = 1 << 4, kDouble = 1 << 5, kString = 1 << 6, kVector2 = 1 << 7,
                          kVector3 = 1 << 8, kVector4 = 1 << 9;
inline constexpr TypeMask kIndexTypes = kByte | kShort | kInteger32;
// "b, h, i" for messages.
std::string type_list(TypeMask mask);

struct PropertySchema {
    std::string_view name;  // the name, or the prefix of an indexed name ("u" for u%d)
    TypeMask types;
    bool array = false;
    bool required = false;
    bool indexed = false;  // the name is `name` followed by a layer number: u0, u1, …
    std::span<const std::string_view> values = {};  // allowed strings; empty: any
};

struct NodeSchema {
    NodeId id;
    std::string_view title;           // the spec's name: "Mesh", "BlendShape"
    std::span<const NodeId> parents;  // empty for Root, which only sits at the top level
    std::span<const PropertySchema> properties;
};

// The schema of a registered node id, or nullptr for unknown ids.
const NodeSchema* node_schema(std::uint32_t id);
// The spec's name of a node id ("Mesh"), or "unknown node 0x…".
std::string node_title(std::uint32_t id);
// `title` with its article: "a Mesh", "an Animation", "an IKHandle".
std::string with_article(std::string_view title);
// The schema entry that describes a property name on this node type, or nullptr.
const PropertySchema* property_schema(const NodeSchema& schema, std::string_view name);
// The entry of castkit's own property `name` on this node type (`se.type` on an Animation, the
// `se.*` and `k3d.*` properties the SEAnim, SEModel and K3D readers write), or nullptr.
const PropertySchema* own_property_schema(const NodeSchema& schema, std::string_view name);
// Whether `name` is in the namespace of castkit's own properties (`se.`, `k3d.`).
bool in_own_namespace(std::string_view name);
// The layer number of an indexed name ("u12" with prefix "u" gives 12), or nullopt when `name`
// is not the prefix followed by a canonical decimal number.
std::optional<std::uint32_t> layer_index(std::string_view name, std::string_view prefix);

// The last property named `name` (rule 7), when its type is one the schema allows and, for a
// single-valued property, it holds a value; nullptr otherwise (other rules report why).
const Property* valid_property(const Node& node, std::string_view name);
// Its first value as an integer / float / string, when valid_property() finds it.
std::optional<std::uint64_t> valid_integer(const Node& node, std::string_view name);
std::optional<double> valid_number(const Node& node, std::string_view name);
std::optional<std::string_view> valid_string(const Node& node, std::string_view name);

}  // namespace castkit::cast::validation
