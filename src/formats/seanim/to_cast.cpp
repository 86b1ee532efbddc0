// SEAnim → Cast (docs/seanim.md): bone keys become curves, modifiers CurveModeOverrides, notes
// NotificationTracks, the SEBlend trailer `bs` curves; whatever Cast cannot say goes into `se.*`
// properties, each written only when the way back could not infer it.
#include <fmt/format.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/seanim.hpp>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "../cast_extras.hpp"
#include "io/binary_io.hpp"
#include "mapping.hpp"

namespace castkit::seanim {
namespace {

using detail::Channel;
using detail::curve_mode;
using formats::make_byte_array;

// True when every value survives the trip through f32 bit for bit.
template <class Values>
bool fits_float(const Values& values) {
    for (double v : values) {
        double back = static_cast<float>(v);
        if (std::memcmp(&back, &v, sizeof v) != 0) return false;
    }
    return true;
}

class Converter {
  public:
    Converter(const Animation& animation, Diagnostics& warnings)
        : a_(animation), warnings_(warnings) {}

    cast::Document run();

  private:
    void header_properties(cast::Node& node);
    void bone_curves(cast::Animation& out, const Bone& bone);
    void vec3_curves(cast::Animation& out, const Bone& bone, const std::vector<Vec3Key>& keys,
                     const std::array<cast::KeyProperty, 3>& names, Channel channel);
    void overrides(cast::Animation& out);
    void notification_tracks(cast::Animation& out);
    void blend_curves(cast::Animation& out);
    cast::Curve curve(cast::Animation& out, std::string_view node_name,
                      cast::KeyProperty key_property, const cast::Property& frames);

    // Records the key frames just put in frames_ (and their count) towards frameCount.
    void note_frames(std::size_t count) {
        frame_count_ = std::max<std::uint64_t>(frame_count_, count);
        std::uint32_t last = 0;
        for (std::uint32_t f : frames_) last = std::max(last, f);
        if (count > 0)
            frame_count_ = std::max<std::uint64_t>(frame_count_, std::uint64_t{last} + 1);
    }

    const Animation& a_;
    Diagnostics& warnings_;
    std::vector<std::uint32_t> frames_;
    std::uint64_t frame_count_ = 1;  // the canonical frameCount, gathered while converting
};

cast::Document Converter::run() {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Animation out = root.add_animation();
    out.set_framerate(a_.header.framerate);
    out.set_looping(a_.looped());
    std::unordered_set<std::string_view> names;
    for (const Bone& bone : a_.bones) {
        if (!names.insert(bone.name).second)
            warnings_.push_back(formats::warning(
                "", {},
                fmt::format("two bones are named '{}': Cast curves name bones, so their keys merge "
                            "on the way back",
                            bone.name)));
        bone_curves(out, bone);
    }
    overrides(out);
    notification_tracks(out);
    blend_curves(out);
    for (const Note& note : a_.notes)
        frame_count_ = std::max<std::uint64_t>(frame_count_, std::uint64_t{note.frame} + 1);
    for (const BlendShape& shape : a_.blend_shapes)
        for (const BlendKey& k : shape.keys)
            frame_count_ = std::max<std::uint64_t>(frame_count_, std::uint64_t{k.frame} + 1);
    header_properties(out.node());
    return document;
}

// The `se.*` properties of the Animation node (docs/seanim.md, "Reversibility").
void Converter::header_properties(cast::Node& node) {
    const Header& h = a_.header;
    const detail::Canonical canonical = detail::canonical_header(
        a_, static_cast<std::uint32_t>(std::min<std::uint64_t>(frame_count_, 0xFFFFFFFFu)));
    node.set(cast::make_value<std::uint8_t>("se.type", h.type));
    if ((h.flags & ~kLooped) != 0) node.set(cast::make_value<std::uint8_t>("se.flags", h.flags));
    if (h.properties != 0) node.set(cast::make_value<std::uint8_t>("se.properties", h.properties));
    if (h.version != 1) node.set(cast::make_value<std::uint16_t>("se.version", h.version));
    if (!a_.header_extra.empty()) node.set(make_byte_array("se.headerExtra", a_.header_extra));
    const std::uint8_t reserved[5] = {h.reserved1[0], h.reserved1[1], h.reserved2[0],
                                      h.reserved2[1], h.reserved2[2]};
    if (reserved[0] | reserved[1] | reserved[2] | reserved[3] | reserved[4])
        node.set(make_byte_array("se.reserved", reserved));
    if (h.presence != canonical.header.presence)
        node.set(cast::make_value<std::uint8_t>("se.presence", h.presence));
    const std::uint32_t counts[4] = {h.frame_count, h.bone_count, h.modifier_count, h.note_count};
    const Header& c = canonical.header;
    if (h.frame_count != c.frame_count || h.bone_count != c.bone_count ||
        h.modifier_count != c.modifier_count || h.note_count != c.note_count)
        node.set(cast::make_array<std::uint32_t>("se.counts", counts));
    if (a_.frame_width != formats::width_for(h.frame_count) ||
        a_.bone_width != formats::width_for(h.bone_count)) {
        const std::uint8_t widths[2] = {a_.frame_width, a_.bone_width};
        node.set(make_byte_array("se.widths", widths));
    }

    // The bone list the way back infers: keyed bones in order, then modifier-only bones.
    std::vector<std::string_view> inferred;
    std::unordered_set<std::string_view> seen;
    for (const Bone& bone : a_.bones)
        if ((!bone.locations.empty() || !bone.rotations.empty() || !bone.scales.empty()) &&
            seen.insert(bone.name).second)
            inferred.push_back(bone.name);
    for (const Modifier& m : a_.modifiers)
        if (m.bone < a_.bones.size() && seen.insert(a_.bones[m.bone].name).second)
            inferred.push_back(a_.bones[m.bone].name);
    bool same = inferred.size() == a_.bones.size();
    for (std::size_t i = 0; same && i < inferred.size(); ++i)
        same = inferred[i] == a_.bones[i].name;
    if (!same) {
        std::vector<std::string_view> names;
        for (const Bone& bone : a_.bones) names.push_back(bone.name);
        formats::add_string_list(node, "se.bone", names);
    }
    std::vector<std::uint8_t> flags;
    bool any_flag = false;
    for (const Bone& bone : a_.bones) {
        flags.push_back(bone.flags);
        any_flag |= bone.flags != 0;
    }
    if (any_flag) node.set(make_byte_array("se.boneFlags", flags));
    if (a_.bone_names_without_keys) node.set(cast::make_bool("se.boneBlock", true));
    if (a_.custom) node.set(make_byte_array("se.custom", *a_.custom));
    if (!a_.trailing.empty()) node.set(make_byte_array("se.trailing", a_.trailing));
}

cast::Curve Converter::curve(cast::Animation& out, std::string_view node_name,
                             cast::KeyProperty key_property, const cast::Property& frames) {
    cast::Curve curve = out.add_curve();
    curve.set_node_name(node_name);
    curve.set_key_property(key_property);
    curve.node().properties.push_back(frames);
    return curve;
}

// The `kb` property of a key list (rule 11 width), built once and shared by a bone's curves.
template <class Keys>
cast::Property key_frames(const Keys& keys, std::vector<std::uint32_t>& scratch) {
    scratch.resize(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) scratch[i] = keys[i].frame;
    return cast::make_indices("kb", scratch);
}

// A `kv` payload of `components` floats per key, written straight into the property's bytes.
template <class Keys, class Pick>
cast::Property float_values(const Keys& keys, cast::PropertyType type, std::size_t components,
                            Pick pick) {
    std::vector<std::byte> bytes(keys.size() * components * 4);
    std::byte* out = bytes.data();
    for (const auto& key : keys)
        for (std::size_t c = 0; c < components; ++c, out += 4) {
            const float value = static_cast<float>(pick(key, c));
            std::memcpy(out, &value, 4);
        }
    return cast::Property(type, "kv", static_cast<std::uint32_t>(keys.size()), std::move(bytes));
}

// `se.kv`: the f64 values of a high-precision curve, when some do not survive f32.
template <class Keys, class Pick>
void exact_values(cast::Curve& curve, const Keys& keys, std::size_t components, Pick pick) {
    std::vector<double> exact;
    exact.reserve(keys.size() * components);
    for (const auto& key : keys)
        for (std::size_t c = 0; c < components; ++c) exact.push_back(pick(key, c));
    if (!fits_float(exact)) curve.node().set(cast::make_array<double>("se.kv", exact));
}

void Converter::vec3_curves(cast::Animation& out, const Bone& bone,
                            const std::vector<Vec3Key>& keys,
                            const std::array<cast::KeyProperty, 3>& names, Channel channel) {
    // One pass over the keys fills the frames and all three axes' payloads.
    frames_.resize(keys.size());
    std::vector<std::byte> axes[3];
    for (auto& axis : axes) axis.resize(keys.size() * 4);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        frames_[i] = keys[i].frame;
        for (int axis = 0; axis < 3; ++axis) {
            const float value = static_cast<float>(keys[i].value[axis]);
            std::memcpy(axes[axis].data() + i * 4, &value, 4);
        }
    }
    note_frames(keys.size());
    const cast::Property frames = cast::make_indices("kb", frames_);
    const cast::CurveMode mode = curve_mode(a_.header.type, channel);
    for (int axis = 0; axis < 3; ++axis) {
        cast::Curve c = curve(out, bone.name, names[axis], frames);
        c.node().properties.emplace_back(cast::PropertyType::Float, "kv",
                                         static_cast<std::uint32_t>(keys.size()),
                                         std::move(axes[axis]));
        c.set_mode(mode);
        if (a_.high_precision())
            exact_values(c, keys, 1,
                         [axis](const Vec3Key& key, std::size_t) { return key.value[axis]; });
    }
}

void Converter::bone_curves(cast::Animation& out, const Bone& bone) {
    if (!bone.locations.empty())
        vec3_curves(out, bone, bone.locations, cast::kTranslationKeys, Channel::Translation);
    if (!bone.rotations.empty()) {
        auto pick = [](const QuatKey& key, std::size_t c) {
            return key.value[static_cast<int>(c)];
        };
        cast::Curve c =
            curve(out, bone.name, cast::KeyProperty::Rotation, key_frames(bone.rotations, frames_));
        note_frames(bone.rotations.size());
        c.node().properties.push_back(
            float_values(bone.rotations, cast::PropertyType::Vector4, 4, pick));
        c.set_mode(curve_mode(a_.header.type, Channel::Rotation));
        if (a_.high_precision()) exact_values(c, bone.rotations, 4, pick);
    }
    if (!bone.scales.empty()) vec3_curves(out, bone, bone.scales, cast::kScaleKeys, Channel::Scale);
}

// Absolute and additive modifiers are one override of every channel; relative and delta ones
// are two (translation relative; rotation and scale absolute), matching the curve modes.
void Converter::overrides(cast::Animation& out) {
    for (const Modifier& m : a_.modifiers) {
        if (m.bone >= a_.bones.size())
            continue;  // the reader never makes one; write() refuses them
        const std::string& name = a_.bones[m.bone].name;
        const bool split = m.type == 2 || m.type == 3;
        cast::CurveModeOverride first = out.add_curve_mode_override();
        first.set_node_name(name);
        first.set_mode(curve_mode(m.type, Channel::Translation));
        first.set_override_translation(true);
        first.set_override_rotation(!split);
        first.set_override_scale(!split);
        if (m.type > 2) first.node().set(cast::make_value<std::uint8_t>("se.type", m.type));
        if (!split) continue;
        cast::CurveModeOverride second = out.add_curve_mode_override();
        second.set_node_name(name);
        second.set_mode(curve_mode(m.type, Channel::Rotation));
        second.set_override_translation(false);
        second.set_override_rotation(true);
        second.set_override_scale(true);
    }
}

// One track per distinct name, in order of first appearance; `se.noteOrder` keeps the file's
// order when its notes are not grouped by name.
void Converter::notification_tracks(cast::Animation& out) {
    std::unordered_map<std::string_view, std::size_t> index;
    std::vector<std::string_view> names;
    std::vector<std::vector<std::uint32_t>> frames;
    std::vector<std::uint32_t> order;
    bool grouped = true;
    for (const Note& note : a_.notes) {
        auto [it, added] = index.try_emplace(note.name, names.size());
        if (added) {
            names.push_back(note.name);
            frames.emplace_back();
        }
        if (!order.empty() && it->second < order.back()) grouped = false;
        order.push_back(static_cast<std::uint32_t>(it->second));
        frames[it->second].push_back(note.frame);
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        cast::NotificationTrack track = out.add_notification_track();
        track.set_name(names[i]);
        track.set_key_frames(frames[i]);
    }
    if (!grouped) out.node().set(cast::make_indices("se.noteOrder", order));
}

void Converter::blend_curves(cast::Animation& out) {
    for (const BlendShape& shape : a_.blend_shapes) {
        frames_.resize(shape.keys.size());
        std::vector<float> weights(shape.keys.size());
        std::vector<float> unused(shape.keys.size() * 2);
        bool any_unused = false;
        for (std::size_t i = 0; i < shape.keys.size(); ++i) {
            frames_[i] = shape.keys[i].frame;
            weights[i] = shape.keys[i].value.x;
            unused[i * 2] = shape.keys[i].value.y;
            unused[i * 2 + 1] = shape.keys[i].value.z;
            std::uint64_t bits = 0;
            std::memcpy(&bits, &unused[i * 2], 8);
            any_unused |= bits != 0;
        }
        cast::Curve c = curve(out, shape.name, cast::KeyProperty::BlendShape,
                              cast::make_indices("kb", frames_));
        c.node().set(formats::owned_array<float>("kv", weights));
        c.set_mode(cast::CurveMode::Absolute);
        if (any_unused) c.node().set(cast::make_array<float>("se.yz", unused));
    }
}

}  // namespace

Expected<cast::Document> to_cast(const Animation& animation, Diagnostics& warnings) {
    return Converter(animation, warnings).run();
}

}  // namespace castkit::seanim
