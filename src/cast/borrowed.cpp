// Borrowed payloads held on their own (borrowed.hpp).
#include "borrowed.hpp"

#include <functional>
#include <vector>

#include "node_access.hpp"

namespace castkit::cast {
namespace {

// Whether `bytes` lie inside `input`. std::less orders pointers into different objects too.
bool inside(Bytes bytes, Bytes input) {
    const std::less<const std::byte*> before;
    return !before(bytes.data(), input.data()) &&
           !before(input.data() + input.size(), bytes.data() + bytes.size());
}

// `bytes` kept alive on their own, as hold_borrowed says.
SharedBytes held(const SharedBytes& bytes, const SharedBytes& input) {
    if (bytes.owner || bytes.empty()) return bytes;
    if (inside(bytes, input)) return {bytes.bytes, input.owner};
    return bytes.detached();
}

// Without recursion: a tree a plug-in built may be deeper than any file castkit reads.
void hold_in_tree(Node& top, const SharedBytes& input) {
    std::vector<Node*> pending{&top};
    while (!pending.empty()) {
        Node& node = *pending.back();
        pending.pop_back();
        for (Property& property : node.properties)
            if (NodeAccess::borrowed(property))
                NodeAccess::view(property, held(NodeAccess::payload(property), input));
        if (!node.opaque().empty())
            NodeAccess::set_opaque(node, held(node.opaque(), input), node.opaque_property_count(),
                                   node.opaque_child_count());
        for (Node& child : node.children()) pending.push_back(&child);
    }
}

EmbeddedFiles held(const EmbeddedFiles& files, const SharedBytes& input) {
    EmbeddedFiles copy;
    for (const EmbeddedFile& file : files) copy.add(file.name, held(file.bytes, input));
    return copy;
}

}  // namespace

void hold_borrowed(Document& document, const SharedBytes& input) {
    for (Node& root : document.roots()) hold_in_tree(root, input);
    document.trailing = held(document.trailing, input);
    if (!document.embedded.empty()) document.embedded = held(document.embedded, input);
}

}  // namespace castkit::cast
