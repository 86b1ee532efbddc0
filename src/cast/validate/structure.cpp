// Structure: where each node type may sit (the Parent and Children rows of the spec's tables).
#include <fmt/format.h>

#include <algorithm>

#include "checks.hpp"

namespace castkit::cast::validation {

void check_structure(Context& context, const NodeRef& ref) {
    const NodeSchema* schema = node_schema(ref.node.id);
    if (ref.parent == nullptr && !ref.node.is(NodeId::Root))
        context.report(Rule::TopLevel, ref,
                       fmt::format("a top-level node must be a Root, not {}",
                                   with_article(node_title(ref.node.id))));
    if (schema == nullptr) {
        context.report(Rule::UnknownNode, ref,
                       fmt::format("node id {:#010x} is not registered; it is kept as is and its "
                                   "children are not checked against the spec",
                                   ref.node.id));
        return;
    }
    if (ref.parent != nullptr) {
        const bool allowed = std::any_of(schema->parents.begin(), schema->parents.end(),
                                         [&](NodeId id) { return ref.parent->is(id); });
        if (!allowed) {
            std::string parents;
            for (NodeId id : schema->parents) {
                if (!parents.empty()) parents += " or ";
                parents += node_title(static_cast<std::uint32_t>(id));
            }
            context.report(Rule::Parent, ref,
                           schema->parents.empty()
                               ? fmt::format("{} may only be a top-level node, not a child of {}",
                                             with_article(schema->title),
                                             with_article(node_title(ref.parent->id)))
                               : fmt::format("{} must be a child of {}, not of {}",
                                             with_article(schema->title), with_article(parents),
                                             with_article(node_title(ref.parent->id))));
        }
    }
    if (ref.node.is(NodeId::Model)) {
        const auto skeletons =
            std::count_if(ref.node.children().begin(), ref.node.children().end(),
                          [](const Node& child) { return child.is(NodeId::Skeleton); });
        if (skeletons > 1)
            context.report(
                Rule::SkeletonCount, ref,
                fmt::format("the Model has {} Skeletons; a Model has at most one", skeletons));
    }
}

}  // namespace castkit::cast::validation
