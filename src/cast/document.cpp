#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <unordered_set>

namespace castkit::cast {
namespace {

constexpr std::uint64_t kHashBase = 0x534E495752545250;  // "PRTRWINS", the reference base

void collect_hashes(const Node& node, std::unordered_set<std::uint64_t>& used) {
    used.insert(node.hash);
    for (const auto& child : node.children) collect_hashes(*child, used);
}

}  // namespace

Document::Document() : next_hash_(kHashBase) {}

void Document::retain(std::shared_ptr<const void> storage) {
    storage_.push_back(std::move(storage));
}

std::uint64_t Document::next_hash() {
    // Rule 12: deterministic hashes from the reference base, never colliding with stored ones.
    // The stored hashes are collected once, on the first call.
    if (!hashes_collected_) {
        for (const auto& root : roots) collect_hashes(*root, used_hashes_);
        hashes_collected_ = true;
    }
    while (used_hashes_.contains(next_hash_)) ++next_hash_;
    used_hashes_.insert(next_hash_);
    return next_hash_++;
}

std::vector<Root> Document::root_nodes() {
    std::vector<Root> out;
    for (auto& root : roots)
        if (root->is(NodeId::Root)) out.emplace_back(root.get(), nullptr, this);
    return out;
}

Root Document::add_root() {
    std::uint64_t hash = next_hash();
    roots.push_back(std::make_unique<Node>(NodeId::Root, hash));
    return Root(roots.back().get(), nullptr, this);
}

std::vector<Model> Document::models() {
    std::vector<Model> out;
    for (Root& root : root_nodes())
        for (Model& model : root.models()) out.push_back(model);
    return out;
}

std::vector<Animation> Document::animations() {
    std::vector<Animation> out;
    for (Root& root : root_nodes())
        for (Animation& animation : root.animations()) out.push_back(animation);
    return out;
}

}  // namespace castkit::cast
