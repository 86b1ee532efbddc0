// The animation node classes: Curve, CurveModeOverride, NotificationTrack and Animation.
#include "node_classes.hpp"

namespace castkit::python::nodes {

namespace {

CASTKIT_PYTHON_TYPE(ModeWords, "Literal['absolute', 'relative', 'additive']");

// A curve mode as its name: a Curve's always, an override's None when it has none.
Typed<ModeWords> mode_text(Expected<cast::CurveMode> mode) {
    return py::str(std::string(cast::curve_mode_name(unwrap(std::move(mode)))));
}
OptionalOf<Word<ModeWords>> mode_text(std::optional<Expected<cast::CurveMode>> mode) {
    return mode ? mode_text(std::move(*mode)) : py::object(py::none());
}

// The mode of a Curve or CurveModeOverride: `mode`, and `mode_name`, the stored text.
template <class Ref, class V>
void add_mode(Def<Ref, V>& def, const char* doc) {
    def.ro("mode_name", [](const V& v, const NodeRef&) { return to_str(v.mode_name()); })
        .template rw<Typed<ModeWords>>(
            "mode", [](const V& v, const NodeRef&) { return mode_text(v.mode()); },
            [](V& v, const py::object& value, const NodeRef&) { v.set_mode(curve_mode_of(value)); },
            doc);
}

void register_curve() {
    Def<CurveRef, cast::Curve> def("Curve");
    def.text_rw("node_name", &cast::Curve::node_name, &cast::Curve::set_node_name)
        .text_rw(
            "key_property", &cast::Curve::key_property,
            [](cast::Curve& v, const std::string& s) { v.set_key_property(key_property_of(s)); },
            "rq, tx, ty, tz, sx, sy, sz, bs or vb")
        .array_ro("key_frames", "kb", kIntegers, 1, "Stored dtype (uint8/16/32)")
        .ro(
            "key_values",
            [](const cast::Curve&, const NodeRef& r) {
                return property_values(r.doc, *r.node, "kv");
            },
            "The raw `kv` array (float32, (n, 4) float32 quaternions, or integers)")
        .array_ro("float_values", "kv", {PropertyType::Float})
        .array_ro("quaternion_values", "kv", {PropertyType::Vector4}, 1, "(n, 4) XYZW")
        .array_ro("integer_values", "kv", kIntegers)
        .real_rw("additive_blend_weight", &cast::Curve::additive_blend_weight,
                 &cast::Curve::set_additive_blend_weight)
        .u32_set("set_key_frames", "frames", "key_frames", &cast::Curve::set_key_frames,
                 "Stored in the smallest of u8/u16/u32")
        .array_set("set_float_values", "kv", PropertyType::Float)
        .array_set("set_quaternion_values", "kv", PropertyType::Vector4, "(n, 4) XYZW")
        .u32_set("set_integer_values", "values", "values", &cast::Curve::set_integer_values);
    add_mode(def, "'absolute' (the default), 'relative' or 'additive'");
}

void register_curve_mode_override() {
    using O = cast::CurveModeOverride;
    Def<CurveModeOverrideRef, O> def("CurveModeOverride");
    def.text_rw("node_name", &O::node_name, &O::set_node_name)
        .flag_rw("override_translation", &O::override_translation, &O::set_override_translation)
        .flag_rw("override_rotation", &O::override_rotation, &O::set_override_rotation)
        .flag_rw("override_scale", &O::override_scale, &O::set_override_scale);
    add_mode(def, "");
}

void register_animation() {
    using A = cast::Animation;
    Def<AnimationRef, A>("Animation")
        .name()
        .value_rw<Typed<types::Float>>(
            "framerate", &A::framerate, &A::set_framerate, [](const auto& x) { return opt(x); },
            [](const py::object& value, const char*) { return value.cast<float>(); })
        .flag_rw("looping", &A::looping, &A::set_looping)
        .link_ro("skeleton", &A::skeleton)
        .list_ro("curves", &A::curves)
        .list_ro("curve_mode_overrides", &A::curve_mode_overrides)
        .list_ro("notification_tracks", &A::notification_tracks)
        .add("add_skeleton", &A::add_skeleton)
        .add("add_curve", &A::add_curve)
        .add("add_curve_mode_override", &A::add_curve_mode_override)
        .add("add_notification_track", &A::add_notification_track);
}

}  // namespace

void declare_animations(py::module_& m) {
    declare<CurveRef>(m, "Curve", "One animated channel of one node: key frames and values.");
    declare<CurveModeOverrideRef>(m, "CurveModeOverride",
                                  "Overrides the mode of curves under a node.");
    declare<NotificationTrackRef>(m, "NotificationTrack", "Named events at key frames.");
    declare<AnimationRef>(m, "Animation", "An animation: curves, overrides, notification tracks.");
}

void register_animations() {
    register_curve();
    register_curve_mode_override();
    Def<NotificationTrackRef, cast::NotificationTrack>("NotificationTrack")
        .name()
        .array_ro("key_frames", "kb", kIntegers)
        .u32_set("set_key_frames", "frames", "key_frames",
                 &cast::NotificationTrack::set_key_frames);
    register_animation();
}

}  // namespace castkit::python::nodes
