// What every check shares: the node being checked (with its parent and path) and the list the
// findings go to, each with its rule's id and severity, the node path and the best byte offset
// known (element, else property, else node header).
#pragma once

#include <castkit/cast/document.hpp>
#include <string>

#include "../node_path.hpp"
#include "rules.hpp"

namespace castkit::cast::validation {

// A node being checked: the node, its parent (nullptr at the top level) and its path step.
struct NodeRef {
    const Node& node;
    const Node* parent;
    const PathStep& step;
};

class Context {
  public:
    explicit Context(const Document& document) : document_(document) {}

    Diagnostics& diagnostics() { return diagnostics_; }

    // A finding at a path given as text (a null node has no NodeRef).
    void report_at(Rule rule, std::string path, std::string message);
    // A finding about a node; the offset is its header's.
    void report(Rule rule, const NodeRef& at, std::string message);
    // A finding about one property of `at`; the offset is the property header's.
    void report(Rule rule, const NodeRef& at, const Property& property, std::string message);
    // A finding about element `index` of a property; the offset is that element's.
    void report_element(Rule rule, const NodeRef& at, const Property& property, std::size_t index,
                        std::string message);

  private:
    void add(Rule rule, const NodeRef& at, std::uint64_t offset, std::string message);

    const Document& document_;
    Diagnostics diagnostics_;
};

// Byte offset of a property's header, when its node was read from a file and not edited since
// (properties are laid out in order after the 24-byte node header); kNoOffset otherwise.
std::uint64_t property_offset(const Node& node, const Property& property);

}  // namespace castkit::cast::validation
