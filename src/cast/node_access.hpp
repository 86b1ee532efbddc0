// The library's own way into a node's and a document's owned parts, for the code that builds a
// tree exactly as stored (the reader, clone): it keeps hashes as they are, duplicates included,
// which the public members resolve on insertion.
#pragma once

#include <castkit/cast/document.hpp>
#include <memory>
#include <string>
#include <vector>

namespace castkit::cast {

// A change that would break the tree (a null node, a parent from another tree) is a bug in the
// caller, not in the input: says which on stderr and aborts, as Expected's misuse does.
[[noreturn]] void tree_misuse(const std::string& what);

struct NodeAccess {
    // Appends `child` (not null) under `parent` as it is: no hash is changed.
    static Node& append_child(Node& parent, std::unique_ptr<Node> child) {
        child->parent_ = &parent;
        parent.children_.push_back(std::move(child));
        return *parent.children_.back();
    }
    static void reserve_children(Node& node, std::size_t count) { node.children_.reserve(count); }
    // Appends `root` (not null) as the last root as it is: no hash is changed.
    static Node& append_root(Document& document, std::unique_ptr<Node> root) {
        root->document_ = &document;
        document.roots_.push_back(std::move(root));
        return *document.roots_.back();
    }
    static void reserve_roots(Document& document, std::size_t count) {
        document.roots_.reserve(count);
    }
    // Takes `nodes[index]` out as a tree of its own (no parent, no document); nullptr when
    // there is no such node.
    static std::unique_ptr<Node> take(std::vector<std::unique_ptr<Node>>& nodes,
                                      std::size_t index) {
        if (index >= nodes.size()) return nullptr;
        std::unique_ptr<Node> node = std::move(nodes[index]);
        nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(index));
        node->origin_ = node->tree_origin();  // before it leaves: where its links point
        node->parent_ = nullptr;
        node->document_ = nullptr;
        return node;
    }
    // Whether `property` views bytes it neither owns nor shares an owner of (read(Bytes)).
    static bool borrowed(const Property& property) {
        return !property.owner_ && property.size_ > 0;
    }
    static SharedBytes payload(const Property& property) {
        return {property.bytes(), property.owner_};
    }
    // Makes `property` view `bytes` (its payload's, or a copy of them), keeping bytes.owner.
    static void view(Property& property, SharedBytes bytes) {
        property.data_ = bytes.data();
        property.size_ = bytes.size();
        property.owner_ = std::move(bytes.owner);
    }
    static void set_opaque(Node& node, SharedBytes bytes, std::uint32_t properties,
                           std::uint32_t children) {
        node.opaque_ = std::make_unique<Node::Opaque>(Node::Opaque{
            .bytes = std::move(bytes), .properties = properties, .children = children});
    }
};

}  // namespace castkit::cast
