// The generic Cast node tree: every node and property exactly as stored, so that anything
// castkit does not understand still survives a round trip. Typed views (nodes.hpp) sit on top.
#pragma once

#include <castkit/cast/types.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::cast {

using Bytes = std::span<const std::byte>;

// Bytes plus the handle that keeps them alive (a file mapping, an adopted buffer). A null owner
// means borrowed: whoever made the bytes keeps them alive. Copies share the owner.
struct SharedBytes {
    Bytes bytes;
    std::shared_ptr<const void> owner;

    const std::byte* data() const { return bytes.data(); }
    std::size_t size() const { return bytes.size(); }
    bool empty() const { return bytes.empty(); }
    auto begin() const { return bytes.begin(); }
    auto end() const { return bytes.end(); }
    operator Bytes() const { return bytes; }
    // `count` bytes from `offset` (to the end by default), sharing the owner.
    SharedBytes subspan(std::size_t offset, std::size_t count = std::dynamic_extent) const {
        return {bytes.subspan(offset, count), owner};
    }
    // These bytes kept alive on their own: shared when owned, copied when borrowed. O(size)
    // for borrowed bytes, O(1) otherwise.
    SharedBytes detached() const;
};

// Loads a T from possibly unaligned little-endian bytes (rule 1: never cast file pointers).
template <class T>
inline T load(const std::byte* bytes) {
    T value;
    std::memcpy(&value, bytes, sizeof(T));
    return value;
}

// One property: its type, name, element count and payload bytes. The payload is either a view
// into the buffer the document was read from (zero copy; the property holds that buffer's
// owner, so it stays valid wherever the property is copied) or bytes the property owns.
class Property {
  public:
    Property() = default;
    // A property viewing `payload` and keeping `payload.owner` alive (borrowed when null).
    Property(PropertyType type, std::string name, std::uint32_t count, SharedBytes payload);
    // A property owning `payload`.
    Property(PropertyType type, std::string name, std::uint32_t count,
             std::vector<std::byte> payload);
    Property(const Property& other);
    Property& operator=(const Property& other);
    Property(Property&&) noexcept = default;
    Property& operator=(Property&&) noexcept = default;

    PropertyType type() const { return type_; }
    const std::string& name() const { return name_; }
    // ArrayLength as stored: elements for arrays, strings for `s` (rule 4).
    std::uint32_t count() const { return count_; }
    Bytes bytes() const { return {data_, size_}; }
    // Bytes this property takes in a file: 8-byte header + name + payload.
    std::uint64_t stored_size() const { return 8 + name_.size() + size_; }
    // A copy that keeps its payload alive on its own: it shares the owner of a viewed payload,
    // and copies a borrowed one. O(payload) only for borrowed payloads.
    Property detached() const;

    // Element i widened to u64; valid for b/h/i/l.
    std::uint64_t integer(std::size_t i) const;
    // Element i as a double; valid for b/h/i/l/f/d.
    double number(std::size_t i) const;
    // Float component `component` of element i; valid for f/v2/v3/v4.
    float component(std::size_t i, std::size_t component) const;
    // The i-th string of an `s` property (strings are NUL-separated in the payload).
    std::string_view string(std::size_t i = 0) const;
    // Number of elements that can be read: count() for fixed-size types, strings for `s`.
    std::size_t size() const;

  private:
    PropertyType type_ = PropertyType::Byte;
    std::string name_;
    std::uint32_t count_ = 0;
    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    std::vector<std::byte> owned_;
    std::shared_ptr<const void> owner_;  // keeps a viewed payload alive; null when owned/borrowed
};

// A node: header fields, properties in file order (duplicates kept, rule 7), children, and the
// opaque tail of a node whose property type was unknown (rule 6).
struct Node {
    std::uint32_t id = 0;
    std::uint64_t hash = 0;
    std::vector<Property> properties;
    std::vector<std::unique_ptr<Node>> children;

    // Rule 6: bytes from the first unknown property to the node's end, written back unchanged
    // after `properties` and before `children` (which then hold only what was added in code).
    // The counts say how many properties and children the opaque bytes hold, so the header's
    // PropertyCount and ChildCount stay right when properties or children are added.
    SharedBytes opaque;
    std::uint32_t opaque_property_count = 0;  // properties inside opaque, the unknown one first
    std::uint32_t opaque_child_count = 0;     // children inside opaque

    // Where the node was read from; kNotRead for nodes made in code.
    static constexpr std::uint64_t kNotRead = ~std::uint64_t{0};
    std::uint64_t file_offset = kNotRead;

    Node() = default;
    Node(std::uint32_t id_, std::uint64_t hash_) : id(id_), hash(hash_) {}
    Node(NodeId id_, std::uint64_t hash_) : id(static_cast<std::uint32_t>(id_)), hash(hash_) {}

    // A deep copy that may outlive this node's document: viewed payloads share their owner,
    // borrowed ones (read(Bytes)) are copied. O(nodes + properties + borrowed bytes).
    std::unique_ptr<Node> clone() const;

    bool is(NodeId kind) const { return id == static_cast<std::uint32_t>(kind); }

    // The last property with this name (rule 7), or nullptr.
    const Property* find(std::string_view name) const;
    Property* find(std::string_view name);
    // Replaces the last property with this name, or appends one.
    Property& set(Property property);
    // Removes every property with this name; returns how many were removed.
    std::size_t remove(std::string_view name);

    Node& add_child(std::unique_ptr<Node> child);

    // Bytes of this node without its children: 24-byte header + properties + opaque tail.
    std::uint64_t own_size() const;
    // NodeSize as the writer computes it: own_size() + every child's NodeSize (rule 2).
    std::uint64_t computed_size() const;
};

}  // namespace castkit::cast
