#include <algorithm>
#include <cassert>
#include <castkit/cast/node.hpp>
#include <utility>

namespace castkit::cast {

SharedBytes SharedBytes::detached() const {
    if (owner || bytes.empty()) return *this;
    auto copy = std::make_shared<const std::vector<std::byte>>(bytes.begin(), bytes.end());
    return {Bytes(*copy), copy};
}

Property::Property(PropertyType type, std::string name, std::uint32_t count, SharedBytes payload)
    : type_(type),
      name_(std::move(name)),
      count_(count),
      data_(payload.data()),
      size_(payload.size()),
      owner_(std::move(payload.owner)) {}

Property::Property(PropertyType type, std::string name, std::uint32_t count,
                   std::vector<std::byte> payload)
    : type_(type), name_(std::move(name)), count_(count), owned_(std::move(payload)) {
    data_ = owned_.data();
    size_ = owned_.size();
}

Property::Property(const Property& other)
    : type_(other.type_),
      name_(other.name_),
      count_(other.count_),
      data_(other.data_),
      size_(other.size_),
      owned_(other.owned_),
      owner_(other.owner_) {
    if (!owned_.empty()) data_ = owned_.data();
}

Property Property::detached() const {
    if (owner_ || !owned_.empty() || size_ == 0) return *this;
    return Property(type_, name_, count_, std::vector<std::byte>(data_, data_ + size_));
}

Property& Property::operator=(const Property& other) {
    if (this != &other) {
        Property copy(other);
        *this = std::move(copy);
    }
    return *this;
}

std::uint64_t Property::integer(std::size_t i) const {
    switch (type_) {
        case PropertyType::Byte:
            return load<std::uint8_t>(data_ + i);
        case PropertyType::Short:
            return load<std::uint16_t>(data_ + i * 2);
        case PropertyType::Integer32:
            return load<std::uint32_t>(data_ + i * 4);
        case PropertyType::Integer64:
            return load<std::uint64_t>(data_ + i * 8);
        default:
            return 0;
    }
}

double Property::number(std::size_t i) const {
    switch (type_) {
        case PropertyType::Float:
            return load<float>(data_ + i * 4);
        case PropertyType::Double:
            return load<double>(data_ + i * 8);
        default:
            return static_cast<double>(integer(i));
    }
}

float Property::component(std::size_t i, std::size_t component) const {
    std::size_t stride = element_size(type_);
    return load<float>(data_ + i * stride + component * 4);
}

std::string_view Property::string(std::size_t i) const {
    const char* begin = reinterpret_cast<const char*>(data_);
    std::string_view rest(begin, size_);
    for (;;) {
        std::size_t end = rest.find('\0');
        if (end == std::string_view::npos) return i == 0 ? rest : std::string_view{};
        if (i == 0) return rest.substr(0, end);
        rest.remove_prefix(end + 1);
        --i;
    }
}

std::size_t Property::size() const {
    if (type_ == PropertyType::String) return count_;
    std::size_t stride = element_size(type_);
    return stride == 0 ? 0 : size_ / stride;
}

std::unique_ptr<Node> Node::clone() const {
    auto copy = std::make_unique<Node>(id, hash);
    copy->properties.reserve(properties.size());
    for (const Property& p : properties) copy->properties.push_back(p.detached());
    copy->opaque = opaque.detached();
    copy->opaque_property_count = opaque_property_count;
    copy->opaque_child_count = opaque_child_count;
    copy->file_offset = file_offset;
    copy->children.reserve(children.size());
    for (const auto& child : children) copy->children.push_back(child->clone());
    return copy;
}

const Property* Node::find(std::string_view name) const {
    for (auto it = properties.rbegin(); it != properties.rend(); ++it)
        if (it->name() == name) return &*it;
    return nullptr;
}

// The one const_cast in the library: the mutable overload reuses the const search, which is
// safe because `this` is not const here.
Property* Node::find(std::string_view name) {
    return const_cast<Property*>(std::as_const(*this).find(name));
}

Property& Node::set(Property property) {
    if (Property* existing = find(property.name())) {
        *existing = std::move(property);
        return *existing;
    }
    properties.push_back(std::move(property));
    return properties.back();
}

std::size_t Node::remove(std::string_view name) {
    return std::erase_if(properties, [&](const Property& p) { return p.name() == name; });
}

Node& Node::add_child(std::unique_ptr<Node> child) {
    children.push_back(std::move(child));
    return *children.back();
}

std::uint64_t Node::own_size() const {
    std::uint64_t size = 24 + opaque.size();
    for (const Property& p : properties) size += p.stored_size();
    return size;
}

std::uint64_t Node::computed_size() const {
    std::uint64_t size = own_size();
    for (const auto& child : children)
        if (child != nullptr) size += child->computed_size();  // the writer refuses null ones
    return size;
}

}  // namespace castkit::cast
