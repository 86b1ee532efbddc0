// Cast → SEAnim (docs/seanim.md): curves grouped by bone become keys, CurveModeOverrides become
// modifiers, NotificationTracks notes, `bs` curves the SEBlend trailer. The header is derived as
// the reference writers do, then the `se.*` properties restore what the source file had, each
// only when it still agrees with the Cast data (an edited document falls back to the derived
// value). Warnings name everything SEAnim cannot hold.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/seanim.hpp>
#include <cstring>
#include <unordered_map>

#include "../cast_extras.hpp"
#include "axis_tracks.hpp"
#include "io/binary_io.hpp"
#include "mapping.hpp"
#include "scene/write_check.hpp"

namespace castkit::seanim {
namespace {

using detail::Channel;
using detail::curve_mode;
using detail::merge_axes;
using detail::Track;

// Curve slots per bone: tx ty tz rq sx sy sz.
enum Slot { kTx, kTy, kTz, kRq, kSx, kSy, kSz, kSlots };

// The slot of a transform's key property; nullopt for bs, vb and key properties not in the spec.
std::optional<Slot> slot_of(std::optional<cast::KeyProperty> key_property) {
    using cast::KeyProperty;
    switch (key_property.value_or(KeyProperty::Visibility)) {
        case KeyProperty::TranslationX:
            return kTx;
        case KeyProperty::TranslationY:
            return kTy;
        case KeyProperty::TranslationZ:
            return kTz;
        case KeyProperty::Rotation:
            return kRq;
        case KeyProperty::ScaleX:
            return kSx;
        case KeyProperty::ScaleY:
            return kSy;
        case KeyProperty::ScaleZ:
            return kSz;
        case KeyProperty::BlendShape:
        case KeyProperty::Visibility:
            return std::nullopt;
    }
    return std::nullopt;
}

// The slot of a curve collect_curves() filed as a bone's (its key property is a transform's).
Slot slot_of(const cast::ConstCurve& bone_curve) {
    return *slot_of(cast::key_property_from_name(*bone_curve.key_property()));
}

Channel channel_of(Slot slot) {
    return slot == kRq ? Channel::Rotation : slot < kRq ? Channel::Translation : Channel::Scale;
}

class Builder {
  public:
    Builder(cast::ConstAnimation in, Diagnostics& warnings) : in_(in), warnings_(warnings) {}
    Expected<Animation> run();

  private:
    void warn(std::string message) {
        warnings_.push_back(formats::warning("", {}, std::move(message)));
    }
    std::size_t bone(std::string_view name);
    void collect_curves();
    Track track(const cast::ConstCurve& curve, std::size_t width);
    void bone_keys();
    std::vector<Vec3Key> merge(std::size_t bone, Slot first, double fallback);
    void animation_type();
    bool type_fits(std::uint8_t type, std::span<const cast::ConstCurve> curves) const;
    std::uint8_t best_type(std::span<const cast::ConstCurve> curves) const;
    void modifiers();
    void notes();
    void blend_shapes();
    void header();

    cast::ConstAnimation in_;
    Diagnostics& warnings_;
    Animation out_;
    std::unordered_map<std::string, std::size_t> bone_index_;
    std::vector<std::array<std::optional<cast::ConstCurve>, kSlots>> slots_;
    std::vector<cast::ConstCurve> bone_curves_;
    std::vector<cast::ConstCurve> blend_curves_;
    std::vector<std::uint32_t> modifier_bones_;  // bones that got a modifier from an override
};

std::size_t Builder::bone(std::string_view name) {
    auto [it, added] = bone_index_.try_emplace(std::string(name), out_.bones.size());
    if (added) {
        out_.bones.emplace_back().name = std::string(name);
        slots_.emplace_back();
    }
    return it->second;
}

void Builder::collect_curves() {
    if (auto names = formats::string_list(in_.node(), "se.bone"))
        for (std::string_view name : *names)
            if (!bone_index_.contains(std::string(name))) bone(name);
    std::size_t dropped_visibility = 0;
    for (const cast::ConstCurve& curve : in_.curves()) {
        std::string_view kp = curve.key_property().value_or("");
        std::string_view nn = curve.node_name().value_or("");
        const std::optional<cast::KeyProperty> property = cast::key_property_from_name(kp);
        if (auto slot = slot_of(property)) {
            auto& slots = slots_[bone(nn)];
            if (slots[*slot])
                warn(fmt::format("bone '{}' has two '{}' curves; the last one is kept", nn, kp));
            slots[*slot] = curve;
            bone_curves_.push_back(curve);
            if (curve.additive_blend_weight() != 1.0f)
                warn(fmt::format(
                    "curve '{}' of '{}': SEAnim has no additive blend weight; {} dropped", kp, nn,
                    curve.additive_blend_weight()));
        } else if (property == cast::KeyProperty::BlendShape) {
            blend_curves_.push_back(curve);
        } else if (property == cast::KeyProperty::Visibility) {
            ++dropped_visibility;
        } else {
            warn(fmt::format("curve of '{}' animates '{}', which SEAnim cannot hold; dropped", nn,
                             kp));
        }
    }
    if (dropped_visibility > 0)
        warn(fmt::format("{} visibility (vb) curves dropped: SEAnim has no visibility keys",
                         dropped_visibility));
    for (const cast::ConstCurveModeOverride& o : in_.curve_mode_overrides())
        bone(o.node_name().value_or(""));
}

Track Builder::track(const cast::ConstCurve& curve, std::size_t width) {
    Track t;
    t.frames = curve.key_frames().to_vector();
    std::vector<float> floats;
    if (width == 1) {
        floats = curve.float_values().to_vector();
    } else {
        auto quats = curve.quaternion_values();
        floats.resize(quats.size() * 4);
        for (std::size_t i = 0; i < quats.size(); ++i)
            for (int c = 0; c < 4; ++c) floats[i * 4 + c] = quats[i][c];
    }
    const std::string_view nn = curve.node_name().value_or(""),
                           kp = curve.key_property().value_or("");
    if (floats.size() != t.frames.size() * width) {
        warn(fmt::format(
            "curve '{}' of '{}' has {} frames but {} {} values; keys beyond the "
            "shorter are dropped",
            kp, nn, t.frames.size(), floats.size() / width, width == 1 ? "float" : "quaternion"));
        t.frames.resize(std::min(t.frames.size(), floats.size() / width));
        floats.resize(t.frames.size() * width);
    }
    t.values.assign(floats.begin(), floats.end());
    if (auto exact = formats::double_array(curve.node(), "se.kv");
        exact && exact->size() == floats.size()) {
        bool agrees = true;
        for (std::size_t i = 0; agrees && i < floats.size(); ++i) {
            float narrowed = static_cast<float>((*exact)[i]);
            agrees = std::memcmp(&narrowed, &floats[i], 4) == 0;
        }
        if (agrees) t.values = std::move(*exact);
    }
    return t;
}

// tx/ty/tz (or sx/sy/sz) as vec3 keys (merge_axes), with warnings for missing and merged axes.
std::vector<Vec3Key> Builder::merge(std::size_t bone, Slot first, double fallback) {
    const auto& slots = slots_[bone];
    std::array<std::optional<Track>, 3> tracks;
    for (int axis = 0; axis < 3; ++axis)
        if (slots[first + axis]) tracks[axis] = track(*slots[first + axis], 1);
    if (!tracks[0] && !tracks[1] && !tracks[2]) return {};
    const std::string& name = out_.bones[bone].name;
    const char* kind = first == kTx ? "translation" : "scale";
    for (int axis = 0; axis < 3; ++axis)
        if (!tracks[axis])
            warn(
                fmt::format("bone '{}' has no '{}{}' curve; SEAnim keys all three {} axes, so "
                            "it is written as {}",
                            name, first == kTx ? 't' : 's', "xyz"[axis], kind, fallback));
    bool at_union = false;
    std::vector<Vec3Key> keys = merge_axes(tracks, fallback, at_union);
    if (at_union)
        warn(
            fmt::format("bone '{}': {} axes are keyed at different frames; merged at the union of "
                        "their frames, each axis interpolated linearly between its own keys",
                        name, kind));
    return keys;
}

void Builder::bone_keys() {
    for (std::size_t b = 0; b < out_.bones.size(); ++b) {
        Bone& bone = out_.bones[b];
        bone.locations = merge(b, kTx, 0.0);
        bone.scales = merge(b, kSx, 1.0);
        if (const auto& rq = slots_[b][kRq]) {
            Track t = track(*rq, 4);
            bone.rotations.resize(t.frames.size());
            for (std::size_t i = 0; i < t.frames.size(); ++i) {
                bone.rotations[i].frame = t.frames[i];
                bone.rotations[i].value = glm::dvec4(t.values[i * 4], t.values[i * 4 + 1],
                                                     t.values[i * 4 + 2], t.values[i * 4 + 3]);
            }
        }
    }
}

bool Builder::type_fits(std::uint8_t type, std::span<const cast::ConstCurve> curves) const {
    for (const cast::ConstCurve& curve : curves)
        if (curve.mode_name().value_or("absolute") !=
            cast::curve_mode_name(curve_mode(type, channel_of(slot_of(curve)))))
            return false;
    return true;
}

// The type whose modes match the most curves; ties go to absolute, then relative, additive.
std::uint8_t Builder::best_type(std::span<const cast::ConstCurve> curves) const {
    std::uint8_t best = 0;
    std::size_t best_score = 0;
    for (std::uint8_t type : {0, 2, 1}) {
        std::size_t score = 0;
        for (const cast::ConstCurve& curve : curves)
            score += curve.mode_name().value_or("absolute") ==
                     cast::curve_mode_name(curve_mode(type, channel_of(slot_of(curve))));
        if (score > best_score) {
            best = type;
            best_score = score;
        }
    }
    return best;
}

void Builder::animation_type() {
    auto stored = formats::integer_value(in_.node(), "se.type");
    if (stored && *stored <= 0xFF && type_fits(static_cast<std::uint8_t>(*stored), bone_curves_)) {
        out_.header.type = static_cast<std::uint8_t>(*stored);
        return;
    }
    out_.header.type = best_type(bone_curves_);
}

// Consecutive overrides of one node with disjoint channel flags form one modifier.
void Builder::modifiers() {
    auto overrides = in_.curve_mode_overrides();
    for (std::size_t i = 0; i < overrides.size();) {
        const std::string_view nn = overrides[i].node_name().value_or("");
        std::optional<std::string_view> modes[3];
        std::optional<std::uint32_t> stored;
        std::size_t j = i;
        for (; j < overrides.size() && overrides[j].node_name().value_or("") == nn; ++j) {
            const cast::ConstCurveModeOverride& o = overrides[j];
            const bool flags[3] = {o.override_translation(), o.override_rotation(),
                                   o.override_scale()};
            bool overlap = false;
            for (int c = 0; c < 3; ++c) overlap |= flags[c] && modes[c].has_value();
            if (j > i && overlap) break;
            for (int c = 0; c < 3; ++c)
                if (flags[c]) modes[c] = o.mode_name().value_or("absolute");
            if (!stored) stored = formats::integer_value(o.node(), "se.type");
        }
        i = j;
        if (!modes[0] && !modes[1] && !modes[2]) {
            warn(fmt::format("override of '{}' overrides no channel; dropped", nn));
            continue;
        }
        auto fits = [&](std::uint32_t type) {
            for (int c = 0; c < 3; ++c)
                if (modes[c] &&
                    *modes[c] != cast::curve_mode_name(curve_mode(static_cast<std::uint8_t>(type),
                                                                  static_cast<Channel>(c))))
                    return false;
            return true;
        };
        std::uint8_t type = 0;
        if (stored && *stored <= 0xFF && fits(*stored))
            type = static_cast<std::uint8_t>(*stored);
        else if (modes[0] == "relative")
            type = 2;
        else if (modes[0] == "additive" || modes[1] == "additive" || modes[2] == "additive")
            type = 1;
        if (!fits(type))
            warn(
                fmt::format("override of '{}' mixes modes SEAnim cannot mix in one modifier; "
                            "written as type {}",
                            nn, type));
        if (out_.modifiers.size() == 0xFF) {
            warn(fmt::format("more than 255 modifiers; the override of '{}' is dropped", nn));
            continue;
        }
        const auto index = static_cast<std::uint32_t>(bone(nn));
        out_.modifiers.push_back({index, type});
        modifier_bones_.push_back(index);
    }
    // Bones whose curves disagree with the animation type get a modifier of their own.
    for (std::size_t b = 0; b < out_.bones.size(); ++b) {
        std::vector<cast::ConstCurve> curves;
        for (const auto& slot : slots_[b])
            if (slot) curves.push_back(*slot);
        if (curves.empty() || type_fits(out_.header.type, curves)) continue;
        if (std::find(modifier_bones_.begin(), modifier_bones_.end(), b) != modifier_bones_.end())
            continue;
        const std::uint8_t type = best_type(curves);
        if (!type_fits(type, curves))
            warn(fmt::format("bone '{}' mixes curve modes SEAnim cannot hold; written as type {}",
                             out_.bones[b].name, type));
        if (type == out_.header.type || out_.modifiers.size() == 0xFF) continue;
        warn(
            fmt::format("bone '{}' has curve modes of type {}: written as a modifier, which "
                        "SEAnim also applies to its descendants",
                        out_.bones[b].name, type));
        out_.modifiers.push_back({static_cast<std::uint32_t>(b), type});
    }
}

void Builder::notes() {
    std::vector<std::vector<std::uint32_t>> tracks;
    std::vector<std::string_view> names;
    for (const cast::ConstNotificationTrack& track : in_.notification_tracks()) {
        tracks.push_back(track.key_frames().to_vector());
        names.push_back(track.name().value_or(""));
    }
    std::size_t total = 0;
    for (const auto& t : tracks) total += t.size();
    // `se.noteOrder` interleaves the tracks back into the file's order when it still fits them.
    std::vector<std::uint32_t> order;
    if (auto stored = formats::integer_array(in_.node(), "se.noteOrder");
        stored && stored->size() == total) {
        std::vector<std::size_t> used(tracks.size(), 0);
        bool fits = true;
        for (std::uint32_t t : *stored)
            fits = fits && t < tracks.size() && used[t]++ < tracks[t].size();
        if (fits) order = std::move(*stored);
    }
    if (order.empty())
        for (std::uint32_t t = 0; t < tracks.size(); ++t)
            order.insert(order.end(), tracks[t].size(), t);
    std::vector<std::size_t> next(tracks.size(), 0);
    out_.notes.reserve(total);
    for (std::uint32_t t : order)
        out_.notes.push_back({tracks[t][next[t]++], std::string(names[t])});
}

void Builder::blend_shapes() {
    for (const cast::ConstCurve& curve : blend_curves_) {
        Track t = track(curve, 1);
        BlendShape& shape = out_.blend_shapes.emplace_back();
        shape.name = curve.node_name().value_or("");
        shape.keys.resize(t.frames.size());
        auto unused = curve.node().find("se.yz");
        auto yz = cast::ArrayView<float>::of(unused);
        const bool keep_yz = yz.size() == t.frames.size() * 2;
        for (std::size_t i = 0; i < t.frames.size(); ++i) {
            shape.keys[i].frame = t.frames[i];
            shape.keys[i].value =
                glm::vec3(static_cast<float>(t.values[i]), keep_yz ? yz[i * 2] : 0.0f,
                          keep_yz ? yz[i * 2 + 1] : 0.0f);
        }
    }
}

std::uint64_t width_max(std::uint64_t width) {
    return width >= 4 ? 0xFFFFFFFFu : (1ull << (8 * width)) - 1;
}

// The largest value frame_t must hold: key and note frames, and key counts.
std::uint64_t frame_need(const Animation& a) {
    std::uint64_t need = 0;
    for (const Bone& bone : a.bones) {
        need = std::max<std::uint64_t>(
            {need, bone.locations.size(), bone.rotations.size(), bone.scales.size()});
        for (const Vec3Key& k : bone.locations) need = std::max<std::uint64_t>(need, k.frame);
        for (const QuatKey& k : bone.rotations) need = std::max<std::uint64_t>(need, k.frame);
        for (const Vec3Key& k : bone.scales) need = std::max<std::uint64_t>(need, k.frame);
    }
    for (const Note& note : a.notes) need = std::max<std::uint64_t>(need, note.frame);
    return need;
}

// The derived header, then each `se.*` value that still agrees with the data.
void Builder::header() {
    const cast::Node& node = in_.node();
    const std::uint8_t keyed = detail::keyed_bits(out_);
    out_.header.framerate = in_.framerate().value_or(30.0f);
    std::uint8_t flags =
        static_cast<std::uint8_t>(formats::integer_value(node, "se.flags").value_or(0));
    flags = static_cast<std::uint8_t>((flags & ~kLooped) | (in_.looping() ? kLooped : 0));
    const auto properties =
        static_cast<std::uint8_t>(formats::integer_value(node, "se.properties").value_or(0));
    if (auto custom = formats::byte_array(node, "se.custom")) out_.custom = std::move(*custom);
    if (auto trailing = formats::byte_array(node, "se.trailing"))
        out_.trailing = std::move(*trailing);
    if (auto bone_flags = formats::byte_array(node, "se.boneFlags");
        bone_flags && bone_flags->size() == out_.bones.size())
        for (std::size_t b = 0; b < bone_flags->size(); ++b)
            out_.bones[b].flags = static_cast<std::uint8_t>((*bone_flags)[b]);

    detail::Canonical c = detail::canonical_header(out_);
    std::uint8_t presence = c.header.presence;
    if (auto stored = formats::integer_value(node, "se.presence")) {
        const auto p = static_cast<std::uint8_t>(*stored);
        const bool agrees = (keyed & ~p) == 0 && ((p & kNotes) != 0) == !out_.notes.empty() &&
                            ((p & kCustom) != 0) == out_.custom.has_value();
        if (agrees) presence = p;
    }
    const bool names_only = formats::integer_value(node, "se.boneBlock").value_or(0) != 0 &&
                            (presence & kBoneBits) == 0 && !out_.bones.empty();
    const bool bone_block = (presence & kBoneBits) != 0 || names_only;
    if (!bone_block && !out_.modifiers.empty())
        warn("modifiers without any keyed bone cannot be stored in SEAnim; dropped");
    if (!bone_block) {
        out_.bones.clear();
        out_.modifiers.clear();
    }
    Header& h = out_.header;
    h = c.header;
    h.flags = flags;
    h.properties = properties;
    h.presence = presence;
    h.bone_count = static_cast<std::uint32_t>(out_.bones.size());
    h.modifier_count = static_cast<std::uint8_t>(out_.modifiers.size());
    out_.bone_names_without_keys = names_only;
    if (auto version = formats::integer_value(node, "se.version"))
        h.version = static_cast<std::uint16_t>(*version);
    if (auto extra = formats::byte_array(node, "se.headerExtra");
        extra && extra->size() <= 0xFFFF - 28)
        out_.header_extra = std::move(*extra);
    if (auto reserved = formats::byte_array(node, "se.reserved");
        reserved && reserved->size() == 5) {
        auto r = [&](int i) { return static_cast<std::uint8_t>((*reserved)[i]); };
        h.reserved1 = {r(0), r(1)};
        h.reserved2 = {r(2), r(3), r(4)};
    }
    if (auto counts = formats::integer_array(node, "se.counts"); counts && counts->size() == 4) {
        h.frame_count = (*counts)[0];
        if (!bone_block) {
            h.bone_count = (*counts)[1];
            h.modifier_count = static_cast<std::uint8_t>((*counts)[2]);
        }
        if ((presence & kNotes) == 0) h.note_count = (*counts)[3];
    }
    out_.frame_width = formats::width_for(h.frame_count);
    out_.bone_width = formats::width_for(h.bone_count);
    if (auto widths = formats::integer_array(node, "se.widths"); widths && widths->size() == 2) {
        auto valid = [](std::uint32_t w) { return w == 1 || w == 2 || w == 4; };
        if (valid((*widths)[0]) && valid((*widths)[1])) {
            out_.frame_width = static_cast<std::uint8_t>((*widths)[0]);
            out_.bone_width = static_cast<std::uint8_t>((*widths)[1]);
        }
    }
    std::uint64_t bone_need = 0;
    for (const Modifier& m : out_.modifiers) bone_need = std::max<std::uint64_t>(bone_need, m.bone);
    if (frame_need(out_) > width_max(out_.frame_width) || bone_need > width_max(out_.bone_width)) {
        // The stored counts or widths no longer fit the (edited) data: derive them again.
        h.frame_count = c.header.frame_count;
        out_.frame_width = c.frame_width;
        out_.bone_width = formats::width_for(h.bone_count);
    }
}

Expected<Animation> Builder::run() {
    collect_curves();
    bone_keys();
    animation_type();
    modifiers();
    notes();
    blend_shapes();
    header();
    return std::move(out_);
}

}  // namespace

Expected<Animation> from_cast(const cast::Document& document, Diagnostics& warnings) {
    // As the registry checks before it writes, so that a direct call refuses the same floats.
    if (auto finite = scene::refuse_non_finite(document, WrittenModels::None, document.source_name);
        !finite)
        return make_error(finite.error());
    return detail::from_checked_cast(document, warnings);
}

Expected<Animation> detail::from_checked_cast(const cast::Document& document,
                                              Diagnostics& warnings) {
    auto animations = document.animations();
    if (animations.empty()) {
        return make_error(formats::diagnostic_at(
            document.source_name, Diagnostic::kNoOffset, {},
            "the document has no Animation node, so there is nothing to write as SEAnim"));
    }
    if (animations.size() > 1)
        warnings.push_back(
            formats::warning(document.source_name, {},
                             fmt::format("SEAnim holds one animation; the first of {} is written",
                                         animations.size())));
    return Builder(animations.front(), warnings).run();
}

}  // namespace castkit::seanim
