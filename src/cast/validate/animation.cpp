// Animations: framerate, curve key buffers (lengths, order, value type per key property, unit
// rotations), node names against the file's bones, and notification frames.
#include <fmt/format.h>

#include <castkit/cast/nodes.hpp>
#include <cmath>

#include "../english.hpp"
#include "buffers.hpp"
#include "checks.hpp"

namespace castkit::cast::validation {
namespace {

constexpr float kQuaternionTolerance = 1e-3f;

// Rule 24 matches names exactly, then case-insensitively; ASCII folding covers the bone names
// real rigs use.
std::string fold(std::string_view name) {
    std::string out(name);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// Whether `node` or a node below it is a Curve or a CurveModeOverride, whose names are checked.
bool names_a_node(const Node& node) {
    if (node.is(NodeId::Curve) || node.is(NodeId::CurveModeOverride)) return true;
    for (const Node& child : node.children())
        if (names_a_node(child)) return true;
    return false;
}

void index_node(const Node& node, NameIndex& names, bool with_names) {
    if (node.is(NodeId::Skeleton)) names.has_skeleton = true;
    if (node.is(NodeId::Model)) names.has_model = true;
    if (!with_names) {
        for (const Node& child : node.children()) index_node(child, names, false);
        return;
    }
    if (node.is(NodeId::Model) || node.is(NodeId::Mesh))
        if (auto name = valid_string(node, "n")) {
            names.nodes.emplace(*name);
            names.nodes_folded.insert(fold(*name));
        }
    if (node.is(NodeId::Bone) || node.is(NodeId::BlendShape))
        if (auto name = valid_string(node, "n")) {
            const bool bone = node.is(NodeId::Bone);
            (bone ? names.bones : names.blend_shapes).emplace(*name);
            (bone ? names.bones_folded : names.blend_shapes_folded).insert(fold(*name));
        }
    for (const Node& child : node.children()) index_node(child, names, true);
}

bool matches(const std::unordered_set<std::string_view>& exact,
             const std::unordered_set<std::string>& folded, std::string_view name) {
    return exact.contains(name) || folded.contains(fold(name));
}

// Curves and overrides name bones (bs curves may also name a BlendShape, as the DCC importers
// read them); checked only when the file holds a skeleton: an animation-only file is meant for
// skeletons elsewhere. In a file with Models but no skeleton, a curve that can bind to nothing
// is animation.unbound-curve.
void check_node_name(Context& context, const NodeRef& ref, const NameIndex& names, bool blend_shape,
                     bool visibility = false) {
    auto name = valid_string(ref.node, "nn");
    if (!name) return;
    if (!names.has_skeleton) {
        if (!names.has_model) return;
        if ((blend_shape && matches(names.blend_shapes, names.blend_shapes_folded, *name)) ||
            (visibility && matches(names.nodes, names.nodes_folded, *name)))
            return;
        context.report(Rule::UnboundCurve, ref, *ref.node.find("nn"),
                       fmt::format("'nn' = '{}' matches nothing a curve can move: the file has "
                                   "Models but no Skeleton",
                                   *name));
        return;
    }
    if (matches(names.bones, names.bones_folded, *name) ||
        (blend_shape && matches(names.blend_shapes, names.blend_shapes_folded, *name)))
        return;
    context.report(Rule::NodeName, ref, *ref.node.find("nn"),
                   fmt::format("'nn' = '{}' matches no bone of any Skeleton{} in the file", *name,
                               blend_shape ? " nor any BlendShape" : ""));
}

}  // namespace

NameIndex index_names(const Document& document) {
    NameIndex names;
    bool with_names = false;
    for (const Node& root : document.roots()) with_names = with_names || names_a_node(root);
    for (const Node& root : document.roots()) index_node(root, names, with_names);
    return names;
}

void check_animation(Context& context, const NodeRef& ref) {
    auto framerate = valid_number(ref.node, "fr");
    if (framerate && !(std::isfinite(*framerate) && *framerate > 0.0))
        context.report(
            Rule::Framerate, ref, *ref.node.find("fr"),
            fmt::format("'fr' is {}; a framerate is a finite number above 0", *framerate));
}

// The value types a curve of `key` stores: quaternions for rq, indices for vb, floats else.
TypeMask value_types(KeyProperty key) {
    switch (key) {
        case KeyProperty::Rotation:
            return kVector4;
        case KeyProperty::Visibility:
            return kIndexTypes;
        default:
            return kFloat;
    }
}

// The values of a curve whose key property castkit knows: their type, and rotations' length.
void check_curve_values(Context& context, const NodeRef& ref, const Property& values,
                        KeyProperty key) {
    const TypeMask expected = value_types(key);
    if ((type_bit(values.type()) & expected) == 0) {
        context.report(Rule::CurveValueType, ref, values,
                       fmt::format("'kv' is {} but '{}' keys are {}", type_name(values.type()),
                                   key_property_name(key), type_list(expected)));
        return;
    }
    if (key == KeyProperty::Rotation)
        if (Scan bad = unnormalised_quaternions(values, kQuaternionTolerance); bad.count > 0)
            context.report_element(
                Rule::CurveQuaternion, ref, values, bad.first,
                fmt::format("{} not of unit length (first: key {})",
                            part_of(bad.count, values.size(), "rotation keys"), bad.first));
}

void check_curve(Context& context, const NodeRef& ref, const NameIndex& names) {
    const Property* frames = valid_property(ref.node, "kb");
    const Property* values = valid_property(ref.node, "kv");
    const std::optional<std::string_view> key_property = valid_string(ref.node, "kp");
    check_node_name(context, ref, names, key_property == key_property_name(KeyProperty::BlendShape),
                    key_property == key_property_name(KeyProperty::Visibility));
    if (frames != nullptr && values != nullptr && frames->size() != values->size())
        context.report(Rule::CurveKeyCount, ref, *values,
                       fmt::format("'kb' has {} but 'kv' has {}", count_of(frames->size(), "frame"),
                                   count_of(values->size(), "value")));
    if (frames != nullptr)
        if (Scan bad = out_of_order(*frames, true); bad.count > 0)
            context.report_element(
                Rule::CurveKeyOrder, ref, *frames, bad.first,
                fmt::format("'kb' is not strictly increasing: element {} is {} after {}", bad.first,
                            frames->integer(bad.first), frames->integer(bad.first - 1)));
    if (values == nullptr || !key_property) return;
    // An unknown kp is property.enum's finding.
    if (auto key = key_property_from_name(*key_property))
        check_curve_values(context, ref, *values, *key);
}

void check_curve_mode_override(Context& context, const NodeRef& ref, const NameIndex& names) {
    check_node_name(context, ref, names, false);
}

void check_notification_track(Context& context, const NodeRef& ref) {
    const Property* frames = valid_property(ref.node, "kb");
    if (frames == nullptr) return;
    if (Scan bad = out_of_order(*frames, false); bad.count > 0)
        context.report_element(
            Rule::NotificationOrder, ref, *frames, bad.first,
            fmt::format("'kb' is not in ascending order: element {} is {} after {}", bad.first,
                        frames->integer(bad.first), frames->integer(bad.first - 1)));
}

}  // namespace castkit::cast::validation
