// Typed, zero-copy views of property payloads, and helpers that build properties from values.
// Payloads are unaligned little-endian bytes (rule 1); views convert element by element.
#pragma once

#include <algorithm>
#include <castkit/cast/node.hpp>
#include <castkit/expected.hpp>
#include <concepts>
#include <cstdint>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace castkit::cast {

// The property type that stores T: float→f, double→d, vec2→v2, vec3→v3, vec4→v4.
template <class T>
constexpr PropertyType property_type_of() {
    if constexpr (std::is_same_v<T, float>)
        return PropertyType::Float;
    else if constexpr (std::is_same_v<T, double>)
        return PropertyType::Double;
    else if constexpr (std::is_same_v<T, glm::vec2>)
        return PropertyType::Vector2;
    else if constexpr (std::is_same_v<T, glm::vec3>)
        return PropertyType::Vector3;
    else if constexpr (std::is_same_v<T, glm::vec4>)
        return PropertyType::Vector4;
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return PropertyType::Byte;
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return PropertyType::Short;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return PropertyType::Integer32;
    else {
        static_assert(std::is_same_v<T, std::uint64_t>, "not a Cast value type");
        return PropertyType::Integer64;
    }
}

// A read-only array of T over unaligned bytes. Empty when the property is missing or of
// another type. O(1) to make; each access is one unaligned load.
template <class T>
class ArrayView {
  public:
    ArrayView() = default;
    ArrayView(const std::byte* data, std::size_t size) : data_(data), size_(size) {}
    // A view of `property` if it stores T, else empty.
    static ArrayView of(const Property* property) {
        if (property == nullptr || property->type() != property_type_of<T>()) return {};
        return ArrayView(property->bytes().data(), property->size());
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T operator[](std::size_t i) const { return load<T>(data_ + i * sizeof(T)); }
    // Copies min(size(), out.size()) elements; one memcpy.
    void copy_to(std::span<T> out) const {
        // An empty view has no data pointer, and memcpy from null is undefined even for 0 bytes.
        if (const std::size_t n = std::min(out.size(), size_); n > 0)
            std::memcpy(out.data(), data_, n * sizeof(T));
    }
    std::vector<T> to_vector() const {
        std::vector<T> out(size_);
        copy_to(out);
        return out;
    }
    Bytes bytes() const { return {data_, size_ * sizeof(T)}; }

  private:
    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
};

// An integer array stored as b, h, i or l, read widened to u32 (l is truncated; the spec never
// uses l for arrays that a view reads this way).
class IndexView {
  public:
    IndexView() = default;
    // A view of `property` if it is b/h/i/l, else empty.
    static IndexView of(const Property* property);

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    PropertyType stored_type() const { return type_; }
    std::uint32_t operator[](std::size_t i) const;
    // The largest element as operator[] gives it, 0 when empty: whether every index is in range
    // in one pass per stored width. O(size).
    std::uint32_t largest() const;
    // Widens min(size(), out.size()) elements; one pass per stored width.
    void copy_to(std::span<std::uint32_t> out) const;
    std::vector<std::uint32_t> to_vector() const;

  private:
    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    PropertyType type_ = PropertyType::Integer32;
};

// Builders: each returns a property owning a copy of the values. Those whose values could not
// fit the stored type return an error instead (cast.value-width), never a narrowed value.
// A Cast string ends at its first NUL, so a value holding one keeps only what comes before it.
Property make_string(std::string name, std::string_view value);
// `value` in an integer property of `type` (b, h, i or l); an error when `type` is not an
// integer type or cannot hold `value`.
Expected<Property> make_integer(std::string name, PropertyType type, std::uint64_t value);
Property make_bool(std::string name, bool value);
template <class T>
Property make_array(std::string name, std::span<const T> values) {
    std::vector<std::byte> bytes(values.size_bytes());
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());  // never from null
    return Property(property_type_of<T>(), std::move(name),
                    static_cast<std::uint32_t>(values.size()), std::move(bytes));
}
// One value of exactly the type T stores (make_value<std::uint8_t>("mi", 300) does not compile:
// the caller converts, and sees the conversion).
template <class T, class Value = T>
requires std::same_as<Value, T> Property make_value(std::string name, const Value& value) {
    return make_array<T>(std::move(name), std::span<const T>(&value, 1));
}
// An index-like buffer in the smallest of b/h/i that holds its maximum (rule 11).
Property make_indices(std::string name, std::span<const std::uint32_t> values);
// An integer buffer in an explicit type (b, h, i or l); an error naming the first value the
// type cannot hold.
Expected<Property> make_integers(std::string name, PropertyType type,
                                 std::span<const std::uint32_t> values);
// A property of any type over raw payload bytes, checked as the writer checks it: an error
// (property.payload) when `count` disagrees with the payload (count × element size for arrays,
// exactly `count` NUL-terminated strings for `s`), the type id is unknown or the name is over
// 65,535 bytes. The Property constructors abort on the same disagreement; this is the way for
// bytes and counts that come from elsewhere.
Expected<Property> make_property(PropertyType type, std::string name, std::uint32_t count,
                                 std::vector<std::byte> payload);

}  // namespace castkit::cast
