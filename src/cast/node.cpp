#include <algorithm>
#include <cassert>
#include <castkit/cast/node.hpp>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "node_access.hpp"
#include "storable.hpp"

namespace castkit::cast {
namespace {

// The constructors' precondition (node.hpp): a count that disagrees with the payload is a bug in
// the caller, stopped here rather than written into a file no reader takes back.
void require_agreement(PropertyType type, const std::string& name, std::uint32_t count,
                       Bytes payload) {
    if (auto why = disagreement(type, name, count, payload))
        tree_misuse(*why + "; make_property returns this as an error instead of stopping");
}

}  // namespace

SharedBytes SharedBytes::detached() const {
    if (owner || bytes.empty()) return *this;
    auto copy = std::make_shared<const std::vector<std::byte>>(bytes.begin(), bytes.end());
    return {Bytes(*copy), copy};
}

Property::Property(PropertyType type, std::string name, std::uint32_t count, SharedBytes payload)
    : type_(type),
      count_(count),
      name_(std::move(name)),
      data_(payload.data()),
      size_(payload.size()),
      owner_(std::move(payload.owner)) {
    require_agreement(type_, name_, count_, bytes());
}

namespace {

// `bytes` kept alive by the SharedBytes' owner.
SharedBytes owned_bytes(std::vector<std::byte> bytes) {
    auto owner = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
    return {Bytes(owner->data(), owner->size()), owner};
}

}  // namespace

Property::Property(PropertyType type, std::string name, std::uint32_t count,
                   std::vector<std::byte> payload)
    : Property(type, std::move(name), count, owned_bytes(std::move(payload))) {}

// A copy never dangles: it shares the owner of a viewed or owned payload, and copies a borrowed
// one (read(Bytes)), whose bytes the caller may free before the copy dies.
Property::Property(const Property& other)
    : type_(other.type_),
      count_(other.count_),
      name_(other.name_),
      data_(other.data_),
      size_(other.size_),
      owner_(other.owner_) {
    if (!owner_ && size_ > 0) {
        SharedBytes copy = owned_bytes(std::vector<std::byte>(data_, data_ + size_));
        data_ = copy.data();
        owner_ = std::move(copy.owner);
    }
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

Node::~Node() = default;

void tree_misuse(const std::string& what) {
    std::fprintf(stderr, "castkit: %s\n", what.c_str());
    std::abort();
}

std::unique_ptr<Node> Node::clone() const {
    auto copy = std::make_unique<Node>(id, hash_);
    copy->origin_ = tree_origin();  // its links out of the copy name nodes of that document
    copy->properties.reserve(properties.size());
    for (const Property& p : properties) copy->properties.push_back(p);  // copies never dangle
    if (opaque_)
        NodeAccess::set_opaque(*copy, opaque_->bytes.detached(), opaque_->properties,
                               opaque_->children);
    copy->file_offset = file_offset;
    copy->children_.reserve(children_.size());
    for (const auto& child : children_) NodeAccess::append_child(*copy, child->clone());
    return copy;
}

void Node::set_hash(std::uint64_t hash) {
    hash_ = hash;
    if (Document* document = this->document()) document->hashes_.note(hash);
}

std::uint64_t Node::tree_origin() const {
    const Node* top = this;
    while (top->parent_ != nullptr) top = top->parent_;
    return top->document_ != nullptr ? top->document_->serial_ : top->origin_;
}

bool in_one_tree(const Node& a, const Node& b) {
    const Node* top_a = &a;
    while (top_a->parent() != nullptr) top_a = top_a->parent();
    const Node* top_b = &b;
    while (top_b->parent() != nullptr) top_b = top_b->parent();
    return top_a == top_b ||
           (top_a->document() != nullptr && top_a->document() == top_b->document());
}

const Document* Node::document() const {
    const Node* top = this;
    while (top->parent_ != nullptr) top = top->parent_;
    return top->document_;
}

Document* Node::document() {
    return const_cast<Document*>(std::as_const(*this).document());  // safe: `this` is not const
}

const Property* Node::find(std::string_view name) const {
    for (auto it = properties.rbegin(); it != properties.rend(); ++it)
        if (it->name() == name) return &*it;
    return nullptr;
}

Property* Node::find(std::string_view name) {
    return const_cast<Property*>(std::as_const(*this).find(name));  // safe: `this` is not const
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

namespace {

// A hash no node of `node`'s tree holds, for a tree that is in no document (so has no counter
// of its own): what a fresh counter over that tree hands out first (rule 12). O(tree).
std::uint64_t unused_hash_in_tree(const Node& node) {
    const Node* top = &node;
    while (top->parent() != nullptr) top = top->parent();
    HashCounter counter;
    counter.prepare(*top);
    return counter.next();
}

}  // namespace

Node& Node::add_child(NodeId kind) {
    Document* owner = document();
    const std::uint64_t hash = owner != nullptr ? owner->next_hash() : unused_hash_in_tree(*this);
    return NodeAccess::append_child(*this, std::make_unique<Node>(kind, hash));
}

Node& Node::add_child(std::unique_ptr<Node> child, Diagnostics* findings) {
    if (child == nullptr) tree_misuse("Node::add_child was given a null node");
    for (const Node* above = this; above != nullptr; above = above->parent_)
        if (above == child.get())
            tree_misuse(
                "Node::add_child was given the node itself or one of its ancestors: the "
                "tree would be a loop");
    Document* owner = document();
    if (owner != nullptr) return owner->insert(std::move(child), this, findings);
    return Document::join(*this, std::move(child), findings);
}

std::unique_ptr<Node> Node::take_child(std::size_t index) {
    return NodeAccess::take(children_, index);
}

const SharedBytes& Node::opaque() const {
    static const SharedBytes none;
    return opaque_ ? opaque_->bytes : none;
}

std::uint64_t Node::own_size() const {
    std::uint64_t size = 24 + opaque().size();
    for (const Property& p : properties) size += p.stored_size();
    return size;
}

std::uint64_t Node::computed_size() const {
    std::uint64_t size = own_size();
    for (const Node& child : children()) size += child.computed_size();
    return size;
}

}  // namespace castkit::cast
