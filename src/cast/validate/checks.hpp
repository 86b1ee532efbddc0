// The checks, one family per file; the walker (validate.cpp) calls them for every node.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

#include "context.hpp"
#include "schema.hpp"

namespace castkit::cast::validation {

// structure.cpp: top-level Roots, allowed parents, one Skeleton per Model, unknown ids.
void check_structure(Context& context, const NodeRef& ref);
// properties.cpp: required, type, single, enum, duplicate, unknown names, non-finite floats.
void check_properties(Context& context, const NodeRef& ref, const NodeSchema& schema);

// mesh.cpp: Mesh buffers, weights, faces and material; BlendShape; Hair.
void check_mesh(Context& context, const NodeRef& ref);
void check_blend_shape(Context& context, const NodeRef& ref);
void check_hair(Context& context, const NodeRef& ref);
// The per-vertex buffers of `mesh` that readers use: vn, vt, vc, u%d and c%d, each the last
// property of its name (rule 7) and of a type the spec allows; in property order. The check
// before every write (src/scene/write_check.cpp) judges the same ones. O(properties).
std::vector<const Property*> vertex_buffers(const Node& mesh);

// skeleton.cpp: bone parents and cycles; IKHandle and Constraint bone links; rotations.
void check_skeleton(Context& context, const NodeRef& ref);
void check_ik_handle(Context& context, const NodeRef& ref);
void check_constraint(Context& context, const NodeRef& ref);
// A single v4 rotation property (`name`) of unit length.
void check_rotation(Context& context, const NodeRef& ref, std::string_view name);

// links.cpp: material slots, instance files, hash uniqueness under a Root.
void check_material(Context& context, const NodeRef& ref);
void check_instance(Context& context, const NodeRef& ref);
void check_file(Context& context, const NodeRef& ref);
void check_hashes(Context& context, const NodeRef& root);
// The child of `scope` with this hash, or nullptr (links resolve among siblings, rule 12).
const Node* child_by_hash(const Node& scope, std::uint64_t hash);
// Checks that the link property `name` of `ref` names a child of `scope` of type `kind`.
void check_link(Context& context, Rule rule, const NodeRef& ref, std::string_view name,
                const Node& scope, NodeId kind, std::string_view scope_title);

// animation.cpp.
// The names curves may bind to: every bone name of every Skeleton in the document, every
// BlendShape name, and Mesh and Model names, kept only when the document has a Curve or
// CurveModeOverride to check (a file of bones alone would hold each name twice more for
// nothing). The exact names view the document's strings.
struct NameIndex {
    bool has_skeleton = false;
    bool has_model = false;
    std::unordered_set<std::string_view> nodes;  // Mesh and Model names (vb targets)
    std::unordered_set<std::string> nodes_folded;
    std::unordered_set<std::string_view> bones, blend_shapes;
    std::unordered_set<std::string> bones_folded, blend_shapes_folded;
};
NameIndex index_names(const Document& document);
void check_animation(Context& context, const NodeRef& ref);
void check_curve(Context& context, const NodeRef& ref, const NameIndex& names);
void check_curve_mode_override(Context& context, const NodeRef& ref, const NameIndex& names);
void check_notification_track(Context& context, const NodeRef& ref);

}  // namespace castkit::cast::validation
