// What the Cast writer can store so that its own reader reads the same tree back: the one rule
// the writer enforces before it writes a byte and validate() reports (property.payload).
#pragma once

#include <castkit/cast/document.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "node_path.hpp"

namespace castkit::cast {

// Why a property named `name` of `type` with ArrayLength `count` over `payload` cannot be
// built: a type id the reader does not know, or an ArrayLength that disagrees with the payload
// (count × element size for arrays; exactly `count` NUL-terminated strings for `s`); nullopt
// when they agree. What the Property constructors require. O(payload) for strings, O(1)
// otherwise.
std::optional<std::string> disagreement(PropertyType type, std::string_view name,
                                        std::uint32_t count, Bytes payload);
// Why such a property cannot be written as it is, or nullopt: a name over 65,535 bytes (its
// length is a u16), or a disagreement(). O(payload) for strings, O(1) otherwise.
std::optional<std::string> unstorable(PropertyType type, std::string_view name, std::uint32_t count,
                                      Bytes payload);
// unstorable() of a built property, whose constructor has already refused a disagreement.
std::optional<std::string> unstorable(const Property& property);

// A node the writer cannot store: where it is and why.
struct UnstorableNode {
    std::string path;  // "root[0]/model[0]/mesh[1]"
    std::uint64_t file_offset = Node::kNotRead;
    std::string message;
};

// The first place in `document`, in file order, that the writer cannot store. O(nodes +
// properties + string payloads).
std::optional<UnstorableNode> find_unstorable(const Document& document);

}  // namespace castkit::cast
