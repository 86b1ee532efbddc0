// Hash links: each resolves among the siblings the spec names (rule 12), and hashes are unique
// under a Root wherever a link could be ambiguous.
#include "../links.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "checks.hpp"

namespace castkit::cast::validation {

const Node* child_by_hash(const Node& scope, std::uint64_t hash) {
    for (const Node& child : scope.children())
        if (child.hash() == hash) return &child;
    return nullptr;
}

void check_link(Context& context, Rule rule, const NodeRef& ref, std::string_view name,
                const Node& scope, NodeId kind, std::string_view scope_title) {
    const Property* link = valid_property(ref.node, name);
    if (link == nullptr) return;
    const std::uint64_t hash = link->integer(0);
    const Node* other = nullptr;
    for (const Node& child : scope.children())
        if (child.hash() == hash) {
            if (child.is(kind)) return;
            other = &child;
        }
    const std::string wanted = node_title(static_cast<std::uint32_t>(kind));
    context.report(rule, ref, *link,
                   other != nullptr
                       ? fmt::format("'{}' = {:#x} names {}, not {}", name, hash,
                                     with_article(node_title(other->id)), with_article(wanted))
                       : fmt::format("'{}' = {:#x} names no {} among the {}'s children", name, hash,
                                     wanted, scope_title));
}

void check_material(Context& context, const NodeRef& ref) {
    for (const Property& p : ref.node.properties) {
        if (p.name() == "n" || p.name() == "t" || valid_property(ref.node, p.name()) != &p)
            continue;
        const std::uint64_t hash = p.integer(0);
        const Node* target = child_by_hash(ref.node, hash);
        bool found = false;
        for (const Node& child : ref.node.children())
            if (child.hash() == hash && (child.is(NodeId::File) || child.is(NodeId::Color)))
                found = true;
        if (!found)
            context.report(Rule::MaterialSlot, ref, p,
                           target != nullptr
                               ? fmt::format("slot '{}' = {:#x} names {}, not a File or Color",
                                             p.name(), hash, with_article(node_title(target->id)))
                               : fmt::format("slot '{}' = {:#x} names no File or Color among the "
                                             "Material's children",
                                             p.name(), hash));
    }
}

void check_instance(Context& context, const NodeRef& ref) {
    check_link(context, Rule::InstanceFile, ref, "rf", ref.node, NodeId::File, "Instance");
}

// An empty path names no file. The official Blender add-on's exporter writes one for each
// texture packed in the .blend; every castkit writer skips such a File with a warning.
void check_file(Context& context, const NodeRef& ref) {
    const Property* path = valid_property(ref.node, "p");
    if (path != nullptr && path->string(0).empty())
        context.report(Rule::FileEmptyPath, ref, *path,
                       "'p' is empty: the File names no file (a texture packed in a .blend?)");
}

namespace {

// The hashes a node's link properties refer to.
void add_links(const Node& node, std::unordered_set<std::uint64_t>& links) {
    for (const Property& p : node.properties)
        if (is_hash_link(node.id, p.name()))
            if (auto hash = valid_integer(node, p.name())) links.insert(*hash);
}

struct HashEntry {
    std::uint64_t hash;
    std::size_t order;  // pre-order index under the Root
    bool root_child;
};

// Pre-order like DuplicateReporter::walk, where the Root is order 0.
void collect(const Node& node, bool root_child, std::vector<HashEntry>& entries,
             std::unordered_set<std::uint64_t>& links) {
    entries.push_back({node.hash(), entries.size() + 1, root_child});
    add_links(node, links);
    for (const Node& child : node.children()) collect(child, false, entries, links);
}

struct Finding {
    std::size_t first;    // order of the node that had the hash first
    std::size_t holders;  // nodes sharing the hash
    Rule rule;
};

// Second walk, only when there are duplicates: the path of each hash's first holder, and one
// report per shared hash at its second holder (Cast.NET gives every node hash 0: one finding).
class DuplicateReporter {
  public:
    DuplicateReporter(Context& context, const std::unordered_map<std::size_t, Finding>& findings,
                      const std::unordered_set<std::size_t>& firsts)
        : context_(context), findings_(findings), firsts_(firsts) {}

    void walk(const Node& node, const Node* parent, const PathStep& step) {
        const std::size_t order = order_++;
        if (firsts_.contains(order)) first_paths_[order] = format_path(&step);
        if (auto it = findings_.find(order); it != findings_.end())
            context_.report(
                it->second.rule, {node, parent, step},
                it->second.holders == 2
                    ? fmt::format("hash {:#x} is also the hash of {}", node.hash(),
                                  first_paths_[it->second.first])
                    : fmt::format("hash {:#x} is shared by {} nodes under this Root, the "
                                  "first being {}",
                                  node.hash(), it->second.holders, first_paths_[it->second.first]));
        SiblingCounter counter;
        for (const Node& child : node.children()) {
            PathStep child_step{&step, child.id, counter.next(child.id)};
            walk(child, &node, child_step);
        }
    }

  private:
    Context& context_;
    const std::unordered_map<std::size_t, Finding>& findings_;
    const std::unordered_set<std::size_t>& firsts_;
    std::unordered_map<std::size_t, std::string> first_paths_;
    std::size_t order_ = 0;
};

}  // namespace

void check_hashes(Context& context, const NodeRef& root) {
    std::vector<HashEntry> entries;
    std::unordered_set<std::uint64_t> links;
    // The Root itself is not among its descendants, and no link can name it.
    for (const Node& child : root.node.children()) collect(child, true, entries, links);
    std::sort(entries.begin(), entries.end(), [](const HashEntry& a, const HashEntry& b) {
        return a.hash != b.hash ? a.hash < b.hash : a.order < b.order;
    });
    std::unordered_map<std::size_t, Finding> findings;
    std::unordered_set<std::size_t> firsts;
    for (std::size_t begin = 0; begin < entries.size();) {
        std::size_t end = begin + 1;
        while (end < entries.size() && entries[end].hash == entries[begin].hash) ++end;
        if (end - begin > 1) {
            const auto root_children =
                std::count_if(entries.begin() + begin, entries.begin() + end,
                              [](const HashEntry& e) { return e.root_child; });
            // A duplicate is ambiguous where a link may name it, and among the Root's children,
            // which the spec requires to be unique.
            const Rule rule = links.contains(entries[begin].hash) || root_children > 1
                                  ? Rule::HashDuplicate
                                  : Rule::HashDuplicateUnreferenced;
            firsts.insert(entries[begin].order);
            findings[entries[begin + 1].order] = {entries[begin].order, end - begin, rule};
        }
        begin = end;
    }
    if (findings.empty()) return;
    DuplicateReporter(context, findings, firsts).walk(root.node, root.parent, root.step);
}

}  // namespace castkit::cast::validation
