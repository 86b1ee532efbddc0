#include <algorithm>
#include <castkit/cast/values.hpp>

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

Property make_integer(std::string name, PropertyType type, std::uint64_t value) {
    std::uint32_t narrow = static_cast<std::uint32_t>(value);
    if (type == PropertyType::Integer64) return make_value<std::uint64_t>(std::move(name), value);
    return make_integers(std::move(name), type, std::span<const std::uint32_t>(&narrow, 1));
}

Property make_bool(std::string name, bool value) {
    return make_integer(std::move(name), PropertyType::Byte, value ? 1 : 0);
}

Property make_integers(std::string name, PropertyType type, std::span<const std::uint32_t> values) {
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

Property make_indices(std::string name, std::span<const std::uint32_t> values) {
    std::uint32_t maximum = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    return make_integers(std::move(name), smallest_index_type(maximum), values);
}

}  // namespace castkit::cast
