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
    return make_byte_array(std::move(name), std::span(reinterpret_cast<const std::uint8_t*>(values.data()), values.size()));
}

// An `s` property holding several NUL-terminated strings (ArrayLength = their count, rule 4).
inline cast::Property make_strings(std::string name, const std::vector<std::string_view>& values) {
    std::vector<std::byte> bytes;
    for (std::string_view v : values) {
        auto raw = std::as_bytes(std::span(v.data(), v.size()));
        bytes.insert(bytes.end(), raw.begin(), raw.end());
        bytes.push_back(std::byte{0});
    }
    return cast::Property(cast::PropertyType::String, std::move(name),
                          static_cast<std::uint32_t>(values.size()), std::move(bytes));
}

// The bytes of a `b` property, or nullopt when missing or of another type.
inline std::optional<std::vector<std::byte>> byte_array(const cast::Node& node, std::string_view name) {
    const cast::Property* p = node.find(name);
    if (p == nullptr || p->type() != cast::PropertyType::Byte) return std::nullopt;
    return std::vector<std::byte>(p->bytes().begin(), p->bytes().end());
}

// Integers of a b/h/i property widened to u32, or nullopt.
inline std::optional<std::vector<std::uint32_t>> integer_array(const cast::Node& node, std::string_view name) {
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

// Every string of an `s` property in one pass, or nullopt.
inline std::optional<std::vector<std::string_view>> string_array(const cast::Node& node, std::string_view name) {
    const cast::Property* p = node.find(name);
    if (p == nullptr || p->type() != cast::PropertyType::String) return std::nullopt;
    std::vector<std::string_view> out;
    std::string_view rest(reinterpret_cast<const char*>(p->bytes().data()), p->bytes().size());
    for (std::uint32_t i = 0; i < p->count(); ++i) {
        std::size_t end = rest.find('\0');
        if (end == std::string_view::npos) return std::nullopt;
        out.push_back(rest.substr(0, end));
        rest.remove_prefix(end + 1);
    }
    return out;
}

// The values of a `d` property, or nullopt.
inline std::optional<std::vector<double>> double_array(const cast::Node& node, std::string_view name) {
    const cast::Property* p = node.find(name);
    if (p == nullptr || p->type() != cast::PropertyType::Double) return std::nullopt;
    return cast::ArrayView<double>::of(p).to_vector();
}

}  // namespace castkit::formats
