// The SEAnim writer: serialises the header and data exactly as held, after checking that they
// agree (counts, widths, presence bits), and `canonicalize`, which derives the header the way
// the reference writers do (docs/seanim.md).
#include <fmt/format.h>

#include <algorithm>
#include <castkit/formats/seanim.hpp>

#include "io/binary_io.hpp"
#include "mapping.hpp"

namespace castkit::seanim {
namespace {

using detail::keyed_bits;
using formats::ByteWriter;

Unexpected invalid(std::string_view message) {
    return make_error(formats::write_error({}, fmt::format("cannot write SEAnim: {}", message)));
}

std::uint64_t max_of(std::uint64_t width) {
    return width >= 4 ? 0xFFFFFFFFu : (1ull << (8 * width)) - 1;
}

Expected<void> check(const Animation& a) {
    const Header& h = a.header;
    for (std::uint8_t width : {a.frame_width, a.bone_width})
        if (width != 1 && width != 2 && width != 4)
            return invalid(fmt::format("integer width {} is not 1, 2 or 4", width));
    if (a.header_extra.size() > 0xFFFF - 28) return invalid("header_extra does not fit headerSize");
    const bool bone_block = (h.presence & kBoneBits) != 0 || a.bone_names_without_keys;
    if (bone_block) {
        if (h.bone_count != a.bones.size() || h.modifier_count != a.modifiers.size())
            return invalid(fmt::format("header counts {} bones, {} modifiers; the data has {}, {}",
                                       h.bone_count, h.modifier_count, a.bones.size(),
                                       a.modifiers.size()));
    } else if (!a.bones.empty() || !a.modifiers.empty()) {
        return invalid("bones without a presence bit or bone_names_without_keys would be lost");
    }
    if (a.bone_names_without_keys && (h.presence & kBoneBits) != 0)
        return invalid("bone_names_without_keys needs a header without bone presence bits");
    const std::uint8_t needed = keyed_bits(a);
    if ((needed & ~h.presence) != 0 || (a.bone_names_without_keys && needed != 0))
        return invalid(
            fmt::format("keys of kinds {:#x} but presence flags {:#x}", needed, h.presence));
    const std::uint64_t frame_max = max_of(a.frame_width);
    for (const Modifier& m : a.modifiers)
        if (m.bone >= a.bones.size() || m.bone > max_of(a.bone_width))
            return invalid(
                fmt::format("modifier bone index {} is not a bone of {} or does not fit "
                            "bone_t",
                            m.bone, a.bones.size()));
    for (const Bone& bone : a.bones) {
        auto fits = [&](const auto& keys) {
            if (keys.size() > frame_max) return false;
            return std::all_of(keys.begin(), keys.end(),
                               [&](const auto& k) { return k.frame <= frame_max; });
        };
        if (!fits(bone.locations) || !fits(bone.rotations) || !fits(bone.scales))
            return invalid(
                fmt::format("bone '{}': a key frame or count does not fit the {}-byte "
                            "frame_t",
                            bone.name, a.frame_width));
    }
    if ((h.presence & kNotes) != 0) {
        if (h.note_count != a.notes.size())
            return invalid(fmt::format("header counts {} notes, the data has {}", h.note_count,
                                       a.notes.size()));
        for (const Note& note : a.notes)
            if (note.frame > frame_max)
                return invalid(fmt::format("note frame {} does not fit frame_t", note.frame));
    } else if (!a.notes.empty()) {
        return invalid("notes without the NOTE presence bit would be lost");
    }
    if (((h.presence & kCustom) != 0) != a.custom.has_value())
        return invalid("the CUSTOM presence bit and the custom block disagree");
    if (a.custom && a.custom->size() > 0xFFFFFFFFu) return invalid("custom block over 4 GiB");
    return {};
}

void put_header(ByteWriter& out, const Animation& a) {
    const Header& h = a.header;
    out.put_bytes(std::as_bytes(std::span("SEAnim", 6)));
    out.put(h.version);
    out.put(static_cast<std::uint16_t>(28 + a.header_extra.size()));
    out.put(h.type);
    out.put(h.flags);
    out.put(h.presence);
    out.put(h.properties);
    for (std::uint8_t r : h.reserved1) out.put(r);
    out.put(h.framerate);
    out.put(h.frame_count);
    out.put(h.bone_count);
    out.put(h.modifier_count);
    for (std::uint8_t r : h.reserved2) out.put(r);
    out.put(h.note_count);
    out.put_bytes(a.header_extra);
}

template <class Real>
void put_bone_keys(ByteWriter& out, const Animation& a, const Bone& bone) {
    const unsigned fw = a.frame_width;
    const std::uint8_t presence = a.header.presence;
    if (presence & kBoneLocation) {
        out.put_uint(static_cast<std::uint32_t>(bone.locations.size()), fw);
        for (const Vec3Key& k : bone.locations) {
            out.put_uint(k.frame, fw);
            for (int i = 0; i < 3; ++i) out.put(static_cast<Real>(k.value[i]));
        }
    }
    if (presence & kBoneRotation) {
        out.put_uint(static_cast<std::uint32_t>(bone.rotations.size()), fw);
        for (const QuatKey& k : bone.rotations) {
            out.put_uint(k.frame, fw);
            for (int i = 0; i < 4; ++i) out.put(static_cast<Real>(k.value[i]));
        }
    }
    if (presence & kBoneScale) {
        out.put_uint(static_cast<std::uint32_t>(bone.scales.size()), fw);
        for (const Vec3Key& k : bone.scales) {
            out.put_uint(k.frame, fw);
            for (int i = 0; i < 3; ++i) out.put(static_cast<Real>(k.value[i]));
        }
    }
}

std::size_t estimated_size(const Animation& a) {
    const std::size_t real = a.high_precision() ? 8 : 4;
    std::size_t size = 64 + a.header_extra.size() + a.trailing.size();
    for (const Bone& b : a.bones)
        size += b.name.size() + 16 +
                (b.locations.size() + b.scales.size()) * (a.frame_width + 3 * real) +
                b.rotations.size() * (a.frame_width + 4 * real);
    return size;
}

}  // namespace

namespace detail {

cast::CurveMode curve_mode(std::uint8_t type, Channel channel) {
    switch (static_cast<AnimType>(type)) {
        case AnimType::Additive:
            return cast::CurveMode::Additive;
        case AnimType::Relative:
        case AnimType::Delta:
            return channel == Channel::Translation ? cast::CurveMode::Relative
                                                   : cast::CurveMode::Absolute;
        default:
            return cast::CurveMode::Absolute;
    }
}

std::uint8_t keyed_bits(const Animation& animation) {
    std::uint8_t bits = 0;
    for (const Bone& bone : animation.bones) {
        if (!bone.locations.empty()) bits |= kBoneLocation;
        if (!bone.rotations.empty()) bits |= kBoneRotation;
        if (!bone.scales.empty()) bits |= kBoneScale;
    }
    return bits;
}

std::uint32_t canonical_frame_count(const Animation& a) {
    std::uint64_t frames = 1;
    auto cover = [&](std::uint64_t frame) { frames = std::max(frames, frame + 1); };
    if (keyed_bits(a) != 0)
        for (const Bone& bone : a.bones) {
            frames = std::max<std::uint64_t>(
                {frames, bone.locations.size(), bone.rotations.size(), bone.scales.size()});
            std::uint32_t last = 0;
            for (const Vec3Key& k : bone.locations) last = std::max(last, k.frame);
            for (const QuatKey& k : bone.rotations) last = std::max(last, k.frame);
            for (const Vec3Key& k : bone.scales) last = std::max(last, k.frame);
            if (!bone.locations.empty() || !bone.rotations.empty() || !bone.scales.empty())
                cover(last);
        }
    for (const Note& note : a.notes) cover(note.frame);
    for (const BlendShape& shape : a.blend_shapes)
        for (const BlendKey& k : shape.keys) cover(k.frame);
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(frames, 0xFFFFFFFFu));
}

Canonical canonical_header(const Animation& a, std::uint32_t frame_count) {
    Canonical c;
    Header& h = c.header;
    h = a.header;
    h.version = 1;
    h.reserved1 = {};
    h.reserved2 = {};
    h.flags &= kLooped;
    h.properties &= kPrecisionHigh;
    std::uint8_t presence = keyed_bits(a);
    c.keeps_bones = presence != 0;
    if (!a.notes.empty()) presence |= kNotes;
    if (a.custom) presence |= kCustom;
    h.presence = presence;
    h.frame_count = frame_count;
    h.bone_count = c.keeps_bones ? static_cast<std::uint32_t>(a.bones.size()) : 0;
    h.modifier_count =
        c.keeps_bones ? static_cast<std::uint8_t>(std::min<std::size_t>(a.modifiers.size(), 0xFF))
                      : 0;
    h.note_count = static_cast<std::uint32_t>(a.notes.size());
    c.frame_width = formats::width_for(h.frame_count);
    c.bone_width = formats::width_for(h.bone_count);
    return c;
}

}  // namespace detail

void canonicalize(Animation& a) {
    detail::Canonical c = detail::canonical_header(a);
    a.header = c.header;
    a.header_extra.clear();
    a.frame_width = c.frame_width;
    a.bone_width = c.bone_width;
    a.bone_names_without_keys = false;
    if (!c.keeps_bones) {
        a.bones.clear();
        a.modifiers.clear();
    }
}

Expected<std::vector<std::byte>> write_to_buffer(const Animation& a) {
    if (auto ok = check(a); !ok) return make_error(ok.error());
    ByteWriter out;
    out.reserve(estimated_size(a));
    put_header(out, a);
    if ((a.header.presence & kBoneBits) != 0 || a.bone_names_without_keys) {
        for (const Bone& bone : a.bones) out.put_cstr(bone.name);
        for (const Modifier& m : a.modifiers) {
            out.put_uint(m.bone, a.bone_width);
            out.put(m.type);
        }
        for (const Bone& bone : a.bones) {
            out.put(bone.flags);
            if (a.bone_names_without_keys) continue;
            if (a.high_precision())
                put_bone_keys<double>(out, a, bone);
            else
                put_bone_keys<float>(out, a, bone);
        }
    }
    if (a.header.presence & kNotes)
        for (const Note& note : a.notes) {
            out.put_uint(note.frame, a.frame_width);
            out.put_cstr(note.name);
        }
    if (a.custom) {
        out.put(static_cast<std::uint32_t>(a.custom->size()));
        out.put_bytes(*a.custom);
    }
    if (!a.blend_shapes.empty()) {
        out.put_bytes(std::as_bytes(std::span("SEBlend\n", 8)));
        out.put(static_cast<std::uint64_t>(a.blend_shapes.size()));
        for (const BlendShape& shape : a.blend_shapes) out.put_cstr(shape.name);
        for (const BlendShape& shape : a.blend_shapes) {
            out.put(static_cast<std::uint32_t>(shape.keys.size()));
            for (const BlendKey& k : shape.keys) {
                out.put(k.frame);
                out.put(k.value.x);
                out.put(k.value.y);
                out.put(k.value.z);
            }
        }
    }
    out.put_bytes(a.trailing);
    return out.take();
}

Expected<void> write(const Animation& animation, const std::filesystem::path& path) {
    return formats::write_serialised(path, write_to_buffer(animation));
}

}  // namespace castkit::seanim
