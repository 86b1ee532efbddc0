#include "storable.hpp"

#include <fmt/format.h>

#include <cstring>
#include <limits>

namespace castkit::cast {
namespace {

// Strings the reader would take from `bytes`: each ends at a NUL; trailing bytes after the last
// NUL are not a string and would be read as the next property's header.
bool holds_exactly_strings(Bytes bytes, std::uint32_t count) {
    std::size_t nuls = 0;
    for (std::byte b : bytes) nuls += b == std::byte{0};
    return nuls == count && (bytes.empty() || bytes.back() == std::byte{0});
}

std::optional<UnstorableNode> check_node(const Node& node, const PathStep& step) {
    for (const Property& p : node.properties)
        if (auto why = unstorable(p))
            return UnstorableNode{format_path(&step), node.file_offset, std::move(*why)};
    SiblingCounter counter;
    for (const Node& child : node.children()) {
        PathStep child_step{&step, child.id, counter.next(child.id)};
        if (auto found = check_node(child, child_step)) return found;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> disagreement(PropertyType type, std::string_view name,
                                        std::uint32_t count, Bytes payload) {
    if (!is_known_type(static_cast<std::uint16_t>(type)))
        return fmt::format("property '{}' has type id {}, which no Cast reader knows", name,
                           static_cast<unsigned>(type));
    if (type == PropertyType::String) {
        if (!holds_exactly_strings(payload, count))
            return fmt::format(
                "property '{}' says it holds {} strings but its {} payload bytes "
                "are not that many NUL-terminated strings",
                name, count, payload.size());
        return std::nullopt;
    }
    const std::uint64_t expected = std::uint64_t{count} * element_size(type);
    if (payload.size() != expected)
        return fmt::format(
            "property '{}' says it holds {} {} values ({} bytes) but its payload "
            "has {} bytes",
            name, count, type_name(type), expected, payload.size());
    return std::nullopt;
}

std::optional<std::string> unstorable(PropertyType type, std::string_view name, std::uint32_t count,
                                      Bytes payload) {
    if (name.size() > std::numeric_limits<std::uint16_t>::max())
        return fmt::format("a property name of {} bytes does not fit Cast's 16-bit name length",
                           name.size());
    return disagreement(type, name, count, payload);
}

std::optional<std::string> unstorable(const Property& p) {
    return unstorable(p.type(), p.name(), p.count(), p.bytes());
}

std::optional<UnstorableNode> find_unstorable(const Document& document) {
    SiblingCounter counter;
    for (const Node& root : document.roots()) {
        PathStep step{nullptr, root.id, counter.next(root.id)};
        if (auto found = check_node(root, step)) return found;
    }
    return std::nullopt;
}

}  // namespace castkit::cast
