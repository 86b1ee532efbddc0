// Which properties are hash links (rule 12): the one table the validator and the document's
// re-hashing share.
#pragma once

#include <cstdint>
#include <string_view>

namespace castkit::cast {

// Whether property `name` of a node with id `node_id` names another node by its hash: a Mesh's
// or Hair's material, a BlendShape's base shape, an IKHandle's bones, a Constraint's bones, an
// Instance's file, and every Material slot (all its properties but the name and the type).
bool is_hash_link(std::uint32_t node_id, std::string_view name);

}  // namespace castkit::cast
