#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <unordered_set>

namespace castkit::cast {
namespace {

void collect_hashes(const Node& node, std::unordered_set<std::uint64_t>& used) {
    used.insert(node.hash);
    for (const auto& child : node.children) collect_hashes(*child, used);
}

}  // namespace

std::uint64_t HashCounter::next() {
    // Rule 12: deterministic hashes from the reference base, never colliding with stored ones.
    // The stored hashes are collected once, on the first call.
    if (!collected_) {
        if (roots_ != nullptr)
            for (const auto& root : *roots_)
                if (root != nullptr) collect_hashes(*root, used_);
        collected_ = true;
    }
    while (used_.contains(next_)) ++next_;
    used_.insert(next_);
    return next_++;
}

Document::Document(Document&& other) noexcept
    : version(other.version),
      flags(other.flags),
      roots(std::move(other.roots)),
      trailing(std::move(other.trailing)),
      warnings(std::move(other.warnings)),
      source_name(std::move(other.source_name)),
      hashes_(std::move(other.hashes_)) {
    // The counter follows the nodes it numbers; views made before the move keep using it.
    if (hashes_) hashes_->roots_ = &roots;
}

Document::~Document() {
    if (hashes_) hashes_->roots_ = nullptr;  // views that outlive this document keep the counter
}

Document Document::clone() const {
    Document copy;
    copy.version = version;
    copy.flags = flags;
    copy.trailing = trailing;
    copy.warnings = warnings;
    copy.source_name = source_name;
    for (const auto& root : roots) copy.roots.push_back(root->clone());
    return copy;
}

Document& Document::operator=(Document&& other) noexcept {
    if (this != &other) {
        version = other.version;
        flags = other.flags;
        roots = std::move(other.roots);
        trailing = std::move(other.trailing);
        warnings = std::move(other.warnings);
        source_name = std::move(other.source_name);
        if (hashes_) hashes_->roots_ = nullptr;
        hashes_ = std::move(other.hashes_);
        if (hashes_) hashes_->roots_ = &roots;
    }
    return *this;
}

const std::shared_ptr<HashCounter>& Document::hash_counter() {
    if (!hashes_) hashes_ = std::make_shared<HashCounter>(&roots);
    return hashes_;
}

std::vector<Root> Document::root_nodes() {
    std::vector<Root> out;
    for (auto& root : roots)
        if (root->is(NodeId::Root)) out.emplace_back(root.get(), nullptr, hash_counter());
    return out;
}

std::vector<ConstRoot> Document::root_nodes() const {
    std::vector<ConstRoot> out;
    for (const auto& root : roots)
        if (root->is(NodeId::Root)) out.emplace_back(root.get(), nullptr);
    return out;
}

Root Document::add_root() {
    std::uint64_t hash = next_hash();
    roots.push_back(std::make_unique<Node>(NodeId::Root, hash));
    return Root(roots.back().get(), nullptr, hash_counter());
}

std::vector<Model> Document::models() {
    std::vector<Model> out;
    for (const Root& root : root_nodes())
        for (Model& model : root.models()) out.push_back(model);
    return out;
}

std::vector<ConstModel> Document::models() const {
    std::vector<ConstModel> out;
    for (const ConstRoot& root : root_nodes())
        for (ConstModel& model : root.models()) out.push_back(model);
    return out;
}

std::vector<Animation> Document::animations() {
    std::vector<Animation> out;
    for (const Root& root : root_nodes())
        for (Animation& animation : root.animations()) out.push_back(animation);
    return out;
}

std::vector<ConstAnimation> Document::animations() const {
    std::vector<ConstAnimation> out;
    for (const ConstRoot& root : root_nodes())
        for (ConstAnimation& animation : root.animations()) out.push_back(animation);
    return out;
}

}  // namespace castkit::cast
