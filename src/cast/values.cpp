#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/values.hpp>
#include <limits>

#include "storable.hpp"

namespace castkit::cast {

IndexView IndexView::of(const Property* property) {
    if (property == nullptr || !is_integer_type(property->type())) return {};
    IndexView view;
    view.data_ = property->bytes().data();
    view.size_ = property->size();
    view.type_ = property->type();
    return view;
}

std::uint32_t IndexView::operator[](std::size_t i) const {
    switch (type_) {
        case PropertyType::Byte:
            return load<std::uint8_t>(data_ + i);
        case PropertyType::Short:
            return load<std::uint16_t>(data_ + i * 2);
        case PropertyType::Integer64:
            return static_cast<std::uint32_t>(load<std::uint64_t>(data_ + i * 8));
        default:
            return load<std::uint32_t>(data_ + i * 4);
    }
}

namespace {
template <class Stored>
std::uint32_t largest_of(const std::byte* data, std::size_t size) {
    std::uint32_t top = 0;
    for (std::size_t i = 0; i < size; ++i)
        top = std::max(top, static_cast<std::uint32_t>(load<Stored>(data + i * sizeof(Stored))));
    return top;
}

template <class Stored>
void widen(const std::byte* data, std::span<std::uint32_t> out) {
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<std::uint32_t>(load<Stored>(data + i * sizeof(Stored)));
}
}  // namespace

std::uint32_t IndexView::largest() const {
    if (size_ == 0) return 0;  // an empty view has no data pointer to read from
    switch (type_) {
        case PropertyType::Byte:
            return largest_of<std::uint8_t>(data_, size_);
        case PropertyType::Short:
            return largest_of<std::uint16_t>(data_, size_);
        case PropertyType::Integer64:
            return largest_of<std::uint64_t>(data_, size_);
        default:
            return largest_of<std::uint32_t>(data_, size_);
    }
}

void IndexView::copy_to(std::span<std::uint32_t> out) const {
    out = out.first(std::min(out.size(), size_));
    if (out.empty()) return;  // an empty view has no data pointer to read from
    switch (type_) {
        case PropertyType::Byte:
            widen<std::uint8_t>(data_, out);
            break;
        case PropertyType::Short:
            widen<std::uint16_t>(data_, out);
            break;
        case PropertyType::Integer64:
            widen<std::uint64_t>(data_, out);
            break;
        default:
            std::memcpy(out.data(), data_, out.size() * 4);
            break;
    }
}

std::vector<std::uint32_t> IndexView::to_vector() const {
    std::vector<std::uint32_t> out(size_);
    copy_to(out);
    return out;
}

Property make_string(std::string name, std::string_view value) {
    // A NUL inside would end the string for every reader and leave the rest of the payload to
    // be misread as further strings: keep what a reader would see.
    value = value.substr(0, value.find('\0'));
    std::vector<std::byte> bytes(value.size() + 1);
    std::memcpy(bytes.data(), value.data(), value.size());
    return Property(PropertyType::String, std::move(name), 1, std::move(bytes));
}

namespace {
// The largest value an integer property of `type` holds.
std::uint64_t widest_value(PropertyType type) {
    switch (type) {
        case PropertyType::Byte:
            return std::numeric_limits<std::uint8_t>::max();
        case PropertyType::Short:
            return std::numeric_limits<std::uint16_t>::max();
        case PropertyType::Integer32:
            return std::numeric_limits<std::uint32_t>::max();
        default:
            return std::numeric_limits<std::uint64_t>::max();
    }
}

// Why `value` cannot be stored in `name` of `type`, as an error.
Unexpected value_too_wide(const std::string& name, PropertyType type, std::uint64_t value) {
    Diagnostic d;
    d.rule = "cast.value-width";
    d.message = is_integer_type(type)
                    ? fmt::format(
                          "property '{}': {} does not fit its type '{}', whose largest "
                          "value is {}",
                          name, value, type_name(type), widest_value(type))
                    : fmt::format("property '{}': '{}' is not an integer type (b, h, i or l)", name,
                                  type_name(type));
    return make_error(std::move(d));
}

// Stores `values` at the width of `type`, which holds every one of them.
Property integers_of(std::string name, PropertyType type, std::span<const std::uint32_t> values) {
    const std::size_t stride = element_size(type);
    std::vector<std::byte> bytes(values.size() * stride);
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint32_t v = values[i];
        switch (type) {
            case PropertyType::Byte:
                bytes[i] = static_cast<std::byte>(v);
                break;
            case PropertyType::Short: {
                auto s = static_cast<std::uint16_t>(v);
                std::memcpy(&bytes[i * 2], &s, 2);
                break;
            }
            case PropertyType::Integer64: {
                std::uint64_t l = v;
                std::memcpy(&bytes[i * 8], &l, 8);
                break;
            }
            default:
                std::memcpy(&bytes[i * 4], &v, 4);
                break;
        }
    }
    return Property(type, std::move(name), static_cast<std::uint32_t>(values.size()),
                    std::move(bytes));
}
}  // namespace

Expected<Property> make_integer(std::string name, PropertyType type, std::uint64_t value) {
    if (!is_integer_type(type) || value > widest_value(type))
        return value_too_wide(name, type, value);
    if (type == PropertyType::Integer64) return make_value<std::uint64_t>(std::move(name), value);
    const auto narrow = static_cast<std::uint32_t>(value);
    return integers_of(std::move(name), type, std::span<const std::uint32_t>(&narrow, 1));
}

Property make_bool(std::string name, bool value) {
    return make_value<std::uint8_t>(std::move(name), std::uint8_t{value});
}

Expected<Property> make_integers(std::string name, PropertyType type,
                                 std::span<const std::uint32_t> values) {
    const std::uint64_t widest = widest_value(type);
    if (!is_integer_type(type)) return value_too_wide(name, type, 0);
    for (std::uint32_t value : values)
        if (value > widest) return value_too_wide(name, type, value);
    return integers_of(std::move(name), type, values);
}

Property make_indices(std::string name, std::span<const std::uint32_t> values) {
    std::uint32_t maximum = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    return integers_of(std::move(name), smallest_index_type(maximum), values);
}

Expected<Property> make_property(PropertyType type, std::string name, std::uint32_t count,
                                 std::vector<std::byte> payload) {
    if (auto why = unstorable(type, name, count, payload)) {
        Diagnostic d;
        d.rule = "property.payload";
        d.message = std::move(*why);
        return make_error(std::move(d));
    }
    return Property(type, std::move(name), count, std::move(payload));
}

}  // namespace castkit::cast
