// Helpers for the `se.*` properties: values a format needs to be reversible that Cast has no
// property for. They sit on the node they describe, under names no Cast reader uses, so other
// readers skip them (docs/seanim.md, docs/semodel.md).
#pragma once

#include <castkit/cast/node.hpp>
#include <castkit/cast/values.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::formats {

// An array property owning a copy of `values`; unlike cast::make_array it accepts an empty span
// (no memcpy from a null pointer).
template <class T>
cast::Property owned_array(std::string name, std::span<const T> values) {
    auto bytes = std::as_bytes(values);
    return cast::Property(cast::property_type_of<T>(), std::move(name),
                          static_cast<std::uint32_t>(values.size()),
                          std::vector<std::byte>(bytes.begin(), bytes.end()));
}

// A `b` array of raw bytes.
inline cast::Property make_byte_array(std::string name, std::span<const std::uint8_t> values) {
    return owned_array<std::uint8_t>(std::move(name), values);
}
inline cast::Property make_byte_array(std::string name, std::span<const std::byte> values) {
    return make_byte_array(
        std::move(name),
        std::span(reinterpret_cast<const std::uint8_t*>(values.data()), values.size()));
}

// A list of strings as one `s` property per entry, `prefix` + index ("se.bone0", "se.bone1", …),
// each with ArrayLength 1: cast.py and the add-ons read exactly one string per `s` property
// (rule 4), so a list never goes in one property. Appends: the node must not hold these names
// yet. O(total length).
inline void add_string_list(cast::Node& node, std::string_view prefix,
                            const std::vector<std::string_view>& values) {
    for (std::size_t i = 0; i < values.size(); ++i)
        node.properties.push_back(
            cast::make_string(std::string(prefix) + std::to_string(i), values[i]));
}

// The bytes of a `b` property, or nullopt when missing or of another type.
inline std::optional<std::vector<std::byte>> byte_array(const cast::Node& node,
                                                        std::string_view name) {
    const cast::Property* p = node.find(name);
    if (p == nullptr || p->type() != cast::PropertyType::Byte) return std::nullopt;
    return std::vector<std::byte>(p->bytes().begin(), p->bytes().end());
}

// Integers of a b/h/i property widened to u32, or nullopt.
inline std::optional<std::vector<std::uint32_t>> integer_array(const cast::Node& node,
                                                               std::string_view name) {
    const cast::Property* p = node.find(name);
    if (p == nullptr || !cast::is_integer_type(p->type())) return std::nullopt;
    return cast::IndexView::of(p).to_vector();
}

// The first integer of a b/h/i property, or nullopt.
inline std::optional<std::uint32_t> integer_value(const cast::Node& node, std::string_view name) {
    auto values = integer_array(node, name);
    if (!values || values->empty()) return std::nullopt;
    return values->front();
}

// The list add_string_list wrote: the single-string `s` properties named `prefix` + index, in
// index order; nullopt when there is none or the indices are not exactly 0…n-1. One pass over
// the node's properties.
inline std::optional<std::vector<std::string_view>> string_list(const cast::Node& node,
                                                                std::string_view prefix) {
    std::vector<std::optional<std::string_view>> slots;
    std::size_t found = 0;
    for (const cast::Property& p : node.properties) {
        std::string_view name = p.name();
        if (!name.starts_with(prefix) || name.size() == prefix.size() ||
            name.size() - prefix.size() > 9)
            continue;
        std::size_t index = 0;
        bool digits = name[prefix.size()] != '0' || name.size() == prefix.size() + 1;
        for (char c : name.substr(prefix.size())) {
            digits = digits && c >= '0' && c <= '9';
            index = index * 10 + static_cast<std::size_t>(c - '0');
        }
        if (!digits || p.type() != cast::PropertyType::String || p.count() != 1) continue;
        if (index >= node.properties.size()) return std::nullopt;  // a gap no list can fill
        if (index >= slots.size()) slots.resize(index + 1);
        if (!slots[index]) ++found;
        slots[index] = p.string(0);  // the last of duplicates, as typed accessors read (rule 7)
    }
    if (found == 0 || found != slots.size()) return std::nullopt;
    std::vector<std::string_view> out;
    out.reserve(found);
    for (const auto& slot : slots) out.push_back(*slot);
    return out;
}

// The values of a `d` property, or nullopt.
inline std::optional<std::vector<double>> double_array(const cast::Node& node,
                                                       std::string_view name) {
    const cast::Property* p = node.find(name);
    if (p == nullptr || p->type() != cast::PropertyType::Double) return std::nullopt;
    return cast::ArrayView<double>::of(p).to_vector();
}

}  // namespace castkit::formats
