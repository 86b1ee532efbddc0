// The rule table: id, severity and one-line meaning of every check, in Rule order. The table in
// docs/validate.md is generated from it (`castkit validate --list-rules`) and a test keeps the
// two equal.
#include "rules.hpp"

#include <array>

namespace castkit::cast {
namespace {

using enum Severity;

constexpr std::array<ValidationRule, static_cast<std::size_t>(validation::Rule::Count)> kRules{{
    {"cast.read", Error,
     "the file cannot be read; the one finding keeps the reader's own id where it has one "
     "(cast.truncated, cast.bad-magic, seanim.truncated, gltf.parse, ...; docs/diagnostics.md)"},
    {"cast.nodesize", Warning, "a node's NodeSize disagrees with its content (the content wins)"},
    {"cast.trailing", Warning, "bytes follow the last root node"},
    {"cast.flags", Warning, "the header's reserved flags are not zero"},
    {"cast.unknown-property-type", Warning,
     "a property type id is unknown; the rest of its node is kept opaque"},
    {"structure.top-level", Error, "a top-level node is not a Root"},
    {"structure.parent", Error,
     "a node sits under a parent its type does not allow (e.g. a Mesh outside a Model)"},
    {"structure.skeleton-count", Error, "a Model has more than one Skeleton"},
    {"structure.unknown-node", Warning, "a node id is not one the spec registers"},
    {"property.payload", Error,
     "a property's ArrayLength disagrees with its payload, its name is over 65,535 bytes or its "
     "type id is unknown: the writer refuses it, since no reader would read it back"},
    {"property.required", Error, "a property the spec requires is missing"},
    {"property.type", Error, "a property's type is not one the spec allows for it"},
    {"property.single", Error, "a single-valued property does not hold exactly one value"},
    {"property.string-count", Error,
     "a string property's ArrayLength is not 1: cast.py, and the Blender and Maya add-ons that "
     "load through it, read one string and misread the rest of the file"},
    {"property.utf8", Error,
     "a property name or string is not valid UTF-8, which cast.py (and so the Blender and Maya "
     "add-ons) cannot decode"},
    {"property.enum", Error,
     "a string property holds a value outside its allowed set (sm, m, kp, ct, cs, up, t)"},
    {"property.duplicate", Warning,
     "a property name appears more than once in a node (readers disagree on which wins)"},
    {"property.unknown", Info, "a property name the spec does not define for this node type"},
    {"property.castkit", Info,
     "a property named as castkit's own are (se.*, k3d.*) that castkit does not write on this "
     "node type, or not of the type it writes: castkit's writers ignore it (its own are no "
     "finding)"},
    {"value.non-finite", Warning, "a float value is NaN or infinite"},
    {"mesh.vertex-count", Error,
     "a per-vertex buffer (vn, vt, c%d, u%d, vc) does not have the vertex count of vp"},
    {"mesh.layer-count", Error, "ul or cl does not match the u%d or c%d layers present"},
    {"mesh.weights", Error, "wb or wv does not hold vertex count x mi entries, or mi is missing"},
    {"mesh.weight-bone", Error, "a wb bone index has no bone in the Model's Skeleton"},
    {"mesh.weight-sum", Warning, "a vertex's weights sum far from 1"},
    {"mesh.face-length", Error, "the face buffer length is not a multiple of 3"},
    {"mesh.face-index", Error, "a face index is not below the vertex count"},
    {"mesh.degenerate-face", Warning, "faces with two equal indices"},
    {"mesh.material", Error, "m names no Material among the Model's children"},
    {"blendshape.base", Error, "b names no Mesh among the Model's children"},
    {"blendshape.length", Error, "vi and vp have different lengths"},
    {"blendshape.index", Error, "a vi index is not below the base mesh's vertex count"},
    {"hair.particles", Error, "pt does not hold the sum over strands of segments + 1 particles"},
    {"hair.material", Error, "m names no Material among the Model's children"},
    {"bone.parent", Error, "a bone's parent index is outside the skeleton"},
    {"bone.cycle", Error, "bone parent indices form a cycle"},
    {"bone.duplicate-name", Warning,
     "two bones of one Skeleton share a name, so curves cannot tell them apart"},
    {"quaternion.unnormalised", Warning,
     "a rotation quaternion (bone lr/wr, model or instance r) is not of unit length"},
    {"ikhandle.bone", Error, "an IKHandle bone hash names no Bone of the same Skeleton"},
    {"constraint.bone", Error, "a Constraint bone hash names no Bone of the same Skeleton"},
    {"constraint.offset-type", Error,
     "co is not the type its constraint type expects (pt, sc: v3; or: v4)"},
    {"material.slot", Error, "a material slot hash names no File or Color child of the Material"},
    {"instance.file", Error, "rf names no File child of the Instance"},
    {"file.empty-path", Warning,
     "a File's path p is empty (Blender's exporter writes one per packed texture); writers skip "
     "the file"},
    {"animation.framerate", Error, "fr is not a finite number above 0"},
    {"curve.key-count", Error, "kb and kv have different lengths"},
    {"curve.key-order", Error, "kb is not strictly increasing"},
    {"curve.value-type", Error, "kv is not the type its kp expects (rq: v4; vb: b/h/i; others: f)"},
    {"curve.quaternion", Warning, "rq key values are not of unit length"},
    {"animation.node-name", Warning,
     "a curve or override nn matches no bone (nor, for bs, blend shape) in the file's skeletons"},
    {"animation.unbound-curve", Warning,
     "a file holds Models but no Skeleton, and a curve's nn matches no BlendShape (bs) nor Mesh or "
     "Model (vb): nothing it keys moves"},
    {"notification.key-order", Error, "notification frames are not in ascending order"},
    {"hash.duplicate", Error,
     "two nodes under one Root share a hash that a link refers to, or two Root children share one"},
    {"hash.duplicate-unreferenced", Warning,
     "two nodes under one Root share a hash no link refers to"},
}};

}  // namespace

std::span<const ValidationRule> validation_rules() { return kRules; }

const ValidationRule* find_validation_rule(std::string_view id) {
    for (const ValidationRule& rule : kRules)
        if (rule.id == id) return &rule;
    return nullptr;
}

namespace validation {
const ValidationRule& rule_info(Rule rule) { return kRules[static_cast<std::size_t>(rule)]; }
}  // namespace validation

}  // namespace castkit::cast
