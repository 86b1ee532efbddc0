#include "links.hpp"

#include <castkit/cast/types.hpp>

namespace castkit::cast {

bool is_hash_link(std::uint32_t node_id, std::string_view name) {
    switch (static_cast<NodeId>(node_id)) {
        case NodeId::Mesh:
        case NodeId::Hair:
            return name == "m";
        case NodeId::BlendShape:
            return name == "b";
        case NodeId::IKHandle:
            return name == "sb" || name == "eb" || name == "tb" || name == "pv" || name == "pb";
        case NodeId::Constraint:
            return name == "cb" || name == "tb";
        case NodeId::Instance:
            return name == "rf";
        case NodeId::Material:
            return name != "n" && name != "t";
        default:
            return false;
    }
}

}  // namespace castkit::cast
