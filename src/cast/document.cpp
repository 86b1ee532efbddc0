#include <fmt/format.h>

#include <atomic>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/values.hpp>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "links.hpp"
#include "node_access.hpp"
#include "node_path.hpp"

namespace castkit::cast {
namespace {

void collect_hashes(const Node& node, std::unordered_set<std::uint64_t>& used) {
    used.insert(node.hash());
    for (const Node& child : node.children()) collect_hashes(child, used);
}

void collect_nodes(Node& node, std::vector<Node*>& out) {
    out.push_back(&node);
    for (Node& child : node.children()) collect_nodes(child, out);
}

// Points the subtree's hash links at the new hashes of the nodes they named.
bool is_single_hash_link(std::uint32_t node_id, const Property& link);

void rewrite_links(Node& node, const std::unordered_map<std::uint64_t, std::uint64_t>& renamed) {
    for (Property& link : node.properties) {
        if (!is_single_hash_link(node.id, link)) continue;
        if (auto it = renamed.find(link.integer(0)); it != renamed.end())
            link = make_value<std::uint64_t>(link.name(), it->second);
    }
}

// Whether `link` is one of a node's single-hash links (the form rewrite_links follows).
bool is_single_hash_link(std::uint32_t node_id, const Property& link) {
    return is_hash_link(node_id, link.name()) && link.type() == PropertyType::Integer64 &&
           link.count() == 1 && link.bytes().size() == 8;
}

// Marks every hash the links of `node`'s subtree name as used, so that no fresh hash drawn
// from `counter` makes one of them name a node it did not.
void note_link_targets(const Node& node, HashCounter& counter) {
    for (const Property& link : node.properties)
        if (is_single_hash_link(node.id, link)) counter.note(link.integer(0));
    for (const Node& child : node.children()) note_link_targets(child, counter);
}

// The warning for `link` of `node`, cut as it joined a document or a tree (`into`: "this one",
// "the tree it joined"): what it named was left in the document the subtree came from.
Diagnostic cut_link(const Node& node, const Property& link, const std::string& file,
                    std::string_view into) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.file = file;
    d.path = path_of(node);
    d.rule = "cast.link-cut";
    d.message = fmt::format(
        "link '{}' named node {:#x} of the document the subtree came from, not of {}: cut",
        link.name(), link.integer(0), into);
    return d;
}

}  // namespace

void HashCounter::prepare(NodeRange<const Node> roots) {
    if (prepared_) return;
    for (const Node& root : roots) collect_hashes(root, used_);
    prepared_ = true;
}

void HashCounter::prepare(const Node& top) {
    if (prepared_) return;
    collect_hashes(top, used_);
    prepared_ = true;
}

std::uint64_t HashCounter::next() {
    // Rule 12: deterministic hashes from the reference base, never colliding with stored ones.
    while (used_.contains(next_)) ++next_;
    used_.insert(next_);
    return next_++;
}

void HashCounter::note(std::uint64_t hash) {
    if (prepared_) used_.insert(hash);
}

std::uint64_t Document::new_serial() {
    static std::atomic<std::uint64_t> last{0};
    return ++last;
}

Document::Document(Document&& other) noexcept
    : version(other.version),
      flags(other.flags),
      trailing(std::move(other.trailing)),
      source_name(std::move(other.source_name)),
      embedded(std::move(other.embedded)),
      roots_(std::move(other.roots_)),
      hashes_(std::move(other.hashes_)),
      serial_(std::exchange(other.serial_, new_serial())) {
    attach_roots();
}

Document& Document::operator=(Document&& other) noexcept {
    if (this != &other) {
        version = other.version;
        flags = other.flags;
        trailing = std::move(other.trailing);
        source_name = std::move(other.source_name);
        embedded = std::move(other.embedded);
        roots_ = std::move(other.roots_);
        hashes_ = std::move(other.hashes_);
        serial_ = std::exchange(other.serial_, new_serial());
        attach_roots();
    }
    return *this;
}

// The roots follow the document they moved into, so their nodes reach its counter.
void Document::attach_roots() {
    for (auto& root : roots_) root->document_ = this;
}

Document Document::clone() const {
    Document copy;
    copy.version = version;
    copy.flags = flags;
    copy.trailing = trailing.detached();  // borrowed bytes may go before the copy does
    copy.source_name = source_name;
    copy.embedded = embedded.detached();
    for (const auto& root : roots_) NodeAccess::append_root(copy, root->clone());
    return copy;
}

std::uint64_t Document::next_hash() {
    hashes_.prepare(roots());
    return hashes_.next();
}

Node& Document::insert(std::unique_ptr<Node> node, Node* parent, Diagnostics* findings) {
    if (node == nullptr) tree_misuse("Document::insert was given a null node");
    return place(std::move(node), parent, false, "Document::insert", findings);
}

Node& Document::adopt(const Node& node, Node* parent, Diagnostics* findings) {
    return place(node.clone(), parent, true, "Document::adopt", findings);
}

void Document::cut_links_out(Node& top, const std::string& file, std::string_view into,
                             Diagnostics* findings) {
    std::vector<Node*> nodes;
    collect_nodes(top, nodes);
    std::unordered_set<std::uint64_t> inside;
    for (const Node* node : nodes) inside.insert(node->hash_);
    for (Node* node : nodes) {
        std::erase_if(node->properties, [&](const Property& link) {
            if (!is_single_hash_link(node->id, link) || inside.contains(link.integer(0)))
                return false;
            if (findings != nullptr) findings->push_back(cut_link(*node, link, file, into));
            return true;
        });
    }
}

Node& Document::place(std::unique_ptr<Node> node, Node* parent, bool all_fresh, const char* call,
                      Diagnostics* findings) {
    if (parent != nullptr && parent->document() != this)
        tree_misuse(fmt::format("{} was given a parent that is not in this document", call));
    const std::uint64_t origin = std::exchange(node->origin_, 0);
    hashes_.prepare(roots());  // before the subtree joins, so its hashes are not counted as used
    Node& placed = parent != nullptr ? NodeAccess::append_child(*parent, std::move(node))
                                     : NodeAccess::append_root(*this, std::move(node));
    if (origin != 0 && origin != serial_) cut_links_out(placed, source_name, "this one", findings);
    make_hashes_unique(placed, all_fresh, hashes_);
    return placed;
}

Node& Document::join(Node& parent, std::unique_ptr<Node> child, Diagnostics* findings) {
    Node* top = &parent;
    while (top->parent_ != nullptr) top = top->parent_;
    const std::uint64_t from = std::exchange(child->origin_, 0);
    if (from == 0 || from == top->origin_)
        return NodeAccess::append_child(parent, std::move(child));
    HashCounter counter;
    counter.prepare(*top);  // before the subtree joins, so its hashes are not counted as used
    note_link_targets(*top, counter);
    note_link_targets(*child, counter);
    const bool built_in_code = top->origin_ == 0;
    if (built_in_code) top->origin_ = from;  // its first subtree from a document: that one's
    Node& joined = NodeAccess::append_child(parent, std::move(child));
    if (!built_in_code) cut_links_out(joined, std::string(), "the tree it joined", findings);
    make_hashes_unique(joined, false, counter);
    return joined;
}

std::unique_ptr<Node> Document::take_root(std::size_t index) {
    return NodeAccess::take(roots_, index);
}

// A node keeps its hash unless `all`, the document uses it, or an earlier node of the subtree
// holds it. The kept hashes are recorded before any fresh one is drawn, so fresh ones avoid
// them; a link inside the subtree follows the first holder of the hash it names.
void Document::make_hashes_unique(Node& top, bool all, HashCounter& hashes) {
    std::vector<Node*> nodes;
    collect_nodes(top, nodes);
    std::unordered_set<std::uint64_t> seen;
    std::vector<Node*> renumber;
    std::vector<bool> first_holder;
    for (Node* node : nodes) {
        const bool first = seen.insert(node->hash_).second;
        if (!all && first && !hashes.used(node->hash_)) {
            hashes.note(node->hash_);  // kept: no fresh hash below may take it
            continue;
        }
        renumber.push_back(node);
        first_holder.push_back(first);
    }
    std::unordered_map<std::uint64_t, std::uint64_t> renamed;
    for (std::size_t i = 0; i < renumber.size(); ++i) {
        const std::uint64_t fresh = hashes.next();
        if (first_holder[i]) renamed.emplace(renumber[i]->hash_, fresh);
        renumber[i]->hash_ = fresh;
    }
    if (!renamed.empty())
        for (Node* node : nodes) rewrite_links(*node, renamed);
}

std::vector<Root> Document::root_nodes() & {
    std::vector<Root> out;
    for (Node& root : roots())
        if (root.is(NodeId::Root)) out.push_back(Root(ViewKey(), &root));
    return out;
}

std::vector<ConstRoot> Document::root_nodes() const& {
    std::vector<ConstRoot> out;
    for (const Node& root : roots())
        if (root.is(NodeId::Root)) out.push_back(ConstRoot(ViewKey(), &root));
    return out;
}

Root Document::add_root() & {
    Node& root = NodeAccess::append_root(*this, std::make_unique<Node>(NodeId::Root, next_hash()));
    return Root(ViewKey(), &root);
}

std::vector<Model> Document::models() & {
    std::vector<Model> out;
    for (const Root& root : root_nodes())
        for (Model& model : root.models()) out.push_back(model);
    return out;
}

std::vector<ConstModel> Document::models() const& {
    std::vector<ConstModel> out;
    for (const ConstRoot& root : root_nodes())
        for (ConstModel& model : root.models()) out.push_back(model);
    return out;
}

std::vector<Animation> Document::animations() & {
    std::vector<Animation> out;
    for (const Root& root : root_nodes())
        for (Animation& animation : root.animations()) out.push_back(animation);
    return out;
}

std::vector<ConstAnimation> Document::animations() const& {
    std::vector<ConstAnimation> out;
    for (const ConstRoot& root : root_nodes())
        for (ConstAnimation& animation : root.animations()) out.push_back(animation);
    return out;
}

}  // namespace castkit::cast
