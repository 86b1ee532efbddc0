// The generic Cast node tree: every node and property exactly as stored, so that anything
// castkit does not understand still survives a round trip. Typed views (nodes.hpp) sit on top.
#pragma once

#include <castkit/cast/types.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace castkit {
class Diagnostics;
}

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
// owner, so it stays valid wherever the property is copied) or bytes the property owns. A copy
// never dangles: it shares a viewed or owned payload (no payload changes in place), and copies a
// borrowed one (read(Bytes)), so only the properties inside a borrowing document depend on the
// caller.
class Property {
  public:
    Property() = default;
    // Both constructors require `count` to agree with the payload (count × element size for
    // arrays, exactly `count` NUL-terminated strings for `s`) and a type id the reader knows;
    // otherwise they print what disagrees and abort, as for every misuse of the tree. For counts
    // and bytes that come from elsewhere, make_property (values.hpp) returns that as an error.
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
    friend struct NodeAccess;

    // 72 bytes: a map's Instance holds six properties, so each byte here is 6 bytes an instance.
    PropertyType type_ = PropertyType::Byte;
    std::uint32_t count_ = 0;
    std::string name_;
    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    // Keeps the payload alive: the buffer a viewed payload points into, or the property's own
    // bytes (shared by its copies: a payload is never changed in place); null when borrowed.
    std::shared_ptr<const void> owner_;
};

class Node;
class Document;
struct NodeAccess;  // the reader's and the document's access to a node's owned parts (src/cast)

// The nodes a node or a document owns, seen as references: a const owner gives const nodes, so
// constness reaches the whole tree (a vector of unique_ptr alone would not carry it). Random
// access, in file order; valid until the owner gains or loses a child.
template <class T>
class NodeRange {
    using Owned = std::vector<std::unique_ptr<Node>>;
    using Base = std::conditional_t<std::is_const_v<T>, typename Owned::const_iterator,
                                    typename Owned::iterator>;

  public:
    class iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Node;
        using difference_type = std::ptrdiff_t;
        using pointer = T*;
        using reference = T&;

        iterator() = default;
        explicit iterator(Base base) : base_(base) {}
        T& operator*() const { return **base_; }
        T* operator->() const { return base_->get(); }
        T& operator[](difference_type n) const { return *base_[n]; }
        iterator& operator++() { return ++base_, *this; }
        iterator operator++(int) { return iterator(base_++); }
        iterator& operator--() { return --base_, *this; }
        iterator operator--(int) { return iterator(base_--); }
        iterator& operator+=(difference_type n) { return base_ += n, *this; }
        iterator& operator-=(difference_type n) { return base_ -= n, *this; }
        friend iterator operator+(iterator it, difference_type n) { return it += n; }
        friend iterator operator+(difference_type n, iterator it) { return it += n; }
        friend iterator operator-(iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(iterator a, iterator b) { return a.base_ - b.base_; }
        friend bool operator==(iterator a, iterator b) { return a.base_ == b.base_; }
        friend bool operator!=(iterator a, iterator b) { return a.base_ != b.base_; }
        friend bool operator<(iterator a, iterator b) { return a.base_ < b.base_; }
        friend bool operator>(iterator a, iterator b) { return a.base_ > b.base_; }
        friend bool operator<=(iterator a, iterator b) { return a.base_ <= b.base_; }
        friend bool operator>=(iterator a, iterator b) { return a.base_ >= b.base_; }

      private:
        // The underlying iterator stays inside the ranges: through a const range's, `get()`
        // would give a mutable Node.
        template <class>
        friend class NodeRange;
        Base base_{};
    };

    NodeRange(Base begin, Base end) : begin_(begin), end_(end) {}
    // Mutable nodes seen as const ones.
    template <class U>
    requires(std::is_const_v<T> && !std::is_const_v<U>) NodeRange(const NodeRange<U>& other)
        : NodeRange(other.begin_.base_, other.end_.base_) {}
    iterator begin() const { return begin_; }
    iterator end() const { return end_; }
    std::size_t size() const { return static_cast<std::size_t>(end_ - begin_); }
    bool empty() const { return begin_ == end_; }
    T& operator[](std::size_t i) const { return begin_[static_cast<std::ptrdiff_t>(i)]; }
    T& front() const { return *begin_; }
    T& back() const { return *(end_ - 1); }

  private:
    template <class>
    friend class NodeRange;
    iterator begin_, end_;
};

// Whether `a` and `b` are nodes of one document, or of one tree of its own: the only nodes a
// hash link of one may name (a hash names any node in another document). O(depth).
bool in_one_tree(const Node& a, const Node& b);

// A node: header fields, properties in file order (duplicates kept, rule 7), children, and the
// opaque tail of a node whose property type was unknown (rule 6).
//
// A node lives in a tree: it knows its parent, and a root knows its Document, so a node reaches
// the hash counter of the document it is in now (rule 12), wherever it came from. The tree is
// changed only through members that keep it whole: children are added and taken out here or
// through Document, never through a vector anyone can reach. Nodes are made with make_unique
// and never copied or moved themselves (clone() copies a subtree).
class Node {
  public:
    std::uint32_t id = 0;
    std::vector<Property> properties;
    // Where the node was read from; kNotRead for nodes made in code.
    static constexpr std::uint64_t kNotRead = ~std::uint64_t{0};
    std::uint64_t file_offset = kNotRead;

    Node() = default;
    Node(std::uint32_t id_, std::uint64_t hash) : id(id_), hash_(hash) {}
    Node(NodeId id_, std::uint64_t hash) : id(static_cast<std::uint32_t>(id_)), hash_(hash) {}
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;
    ~Node();

    std::uint64_t hash() const { return hash_; }
    // Sets this node's hash as given (a game's own hashes, say), duplicates included: validate
    // reports those. The document's counter never hands out a hash set here.
    void set_hash(std::uint64_t hash);

    // The children in file order; a const node gives const children.
    NodeRange<Node> children() { return {children_.begin(), children_.end()}; }
    NodeRange<const Node> children() const { return {children_.cbegin(), children_.cend()}; }
    Node* parent() { return parent_; }
    const Node* parent() const { return parent_; }
    // The document this node's tree is in, or nullptr for a tree of its own. O(depth).
    Document* document();
    const Document* document() const;

    // Rule 6: bytes from the first unknown property to the node's end, written back unchanged
    // after `properties` and before children() (which then hold only what was added in code).
    // The counts say how many properties and children the opaque bytes hold, so the header's
    // PropertyCount and ChildCount stay right when properties or children are added.
    const SharedBytes& opaque() const;
    std::uint32_t opaque_property_count() const { return opaque_ ? opaque_->properties : 0; }
    std::uint32_t opaque_child_count() const { return opaque_ ? opaque_->children : 0; }

    // A deep copy with the same hashes, in a tree of its own, that may outlive this node's
    // document: viewed payloads share their owner, borrowed ones (read(Bytes)) are copied.
    // O(nodes + properties + borrowed bytes). Document::adopt puts one in a document.
    std::unique_ptr<Node> clone() const;

    bool is(NodeId kind) const { return id == static_cast<std::uint32_t>(kind); }

    // The last property with this name (rule 7), or nullptr.
    const Property* find(std::string_view name) const;
    Property* find(std::string_view name);
    // Replaces the last property with this name, or appends one.
    Property& set(Property property);
    // Removes every property with this name; returns how many were removed.
    std::size_t remove(std::string_view name);

    // A new empty child with a fresh hash from the document's counter (rule 12). O(1)
    // amortised in a document; O(tree) in a tree of its own, which has no counter.
    Node& add_child(NodeId kind);
    // Takes `child`'s subtree as the last child. A hash link binds only inside its document, so
    // links out of a subtree from another document are cut, each reported to `findings` (when
    // given) as a warning cast.link-cut. In a document this is Document::insert: every node of
    // the subtree whose hash the document already uses (or that repeats inside it) gets a fresh
    // hash, the links inside the subtree following. A tree of its own belongs to the document
    // it was taken or copied from (or, built in code, to that of the first subtree taken from
    // one that joins it): it keeps links out of a subtree from that document until it joins a
    // document, and cuts those of a subtree from any other, whose nodes it also re-hashes where
    // they meet its hashes. A null child is a bug in the caller: says so on stderr and aborts.
    Node& add_child(std::unique_ptr<Node> child, Diagnostics* findings = nullptr);
    // Takes child `index` out, as a tree of its own; nullptr when there is no such child.
    std::unique_ptr<Node> take_child(std::size_t index);
    // Takes out every child for which `pred(const Node&)` is true, in file order, each as a tree
    // of its own. O(children).
    template <class Pred>
    std::vector<std::unique_ptr<Node>> take_children_if(Pred pred) {
        std::vector<std::unique_ptr<Node>> taken;
        std::erase_if(children_, [&](std::unique_ptr<Node>& child) {
            if (!pred(std::as_const(*child))) return false;
            child->origin_ = tree_origin();
            child->parent_ = nullptr;
            taken.push_back(std::move(child));
            return true;
        });
        return taken;
    }

    // Bytes of this node without its children: 24-byte header + properties + opaque tail.
    std::uint64_t own_size() const;
    // NodeSize as the writer computes it: own_size() + every child's NodeSize (rule 2).
    std::uint64_t computed_size() const;

  private:
    friend struct NodeAccess;
    friend class Document;

    std::uint64_t hash_ = 0;
    std::vector<std::unique_ptr<Node>> children_;
    Node* parent_ = nullptr;
    Document* document_ = nullptr;  // set on the roots of a document only
    // On the top of a tree of its own: the serial of the document it was taken or copied from
    // (0: none), so that a document it joins can tell whether its links out of the tree name
    // nodes of that document (Document::insert). A subtree from elsewhere that joins the tree
    // leaves its own behind (Document::join).
    std::uint64_t origin_ = 0;

    // The serial of the document this node's tree belongs to, or its top's origin_. O(depth).
    std::uint64_t tree_origin() const;
    // Rare (a node with an unknown property), so kept apart: a map's Instance and its File are
    // two nodes, and each byte of a node is two bytes an instance.
    struct Opaque {
        SharedBytes bytes;
        std::uint32_t properties = 0;  // properties inside bytes, the unknown one first
        std::uint32_t children = 0;    // children inside bytes
    };
    std::unique_ptr<Opaque> opaque_;
};

}  // namespace castkit::cast
