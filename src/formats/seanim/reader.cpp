// The SEAnim reader (docs/seanim.md, "Reading"): header, then the body parsed with the widths of
// ruling 26; when that does not land exactly on the end of the data (or on an SEBlend trailer),
// the legacy widths and the SELib-style bone block are tried before giving up. Every count is
// checked against the bytes left before anything is allocated.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <castkit/formats/seanim.hpp>

#include "../common/se_preamble.hpp"
#include "io/binary_io.hpp"

namespace castkit::seanim {
namespace {

using formats::ByteReader;
using formats::diagnostic_at;

constexpr std::size_t kHeaderStart = 8;  // after magic and version
constexpr std::size_t kHeaderSize = 28;  // headerSize counts itself
constexpr char kBlendMagic[8] = {'S', 'E', 'B', 'l', 'e', 'n', 'd', '\n'};

struct Layout {
    std::uint8_t frame_width;
    std::uint8_t bone_width;
    bool names_without_keys;
    bool operator==(const Layout&) const = default;
};

// The body of the file after the header: everything a layout decides.
struct Body {
    std::vector<Bone> bones;
    std::vector<Modifier> modifiers;
    std::vector<Note> notes;
    std::optional<std::vector<std::byte>> custom;
    std::vector<BlendShape> blend_shapes;
    std::vector<std::byte> trailing;
    std::size_t trailing_offset = 0;
    std::size_t first_unknown_modifier = 0;  // the offset of the first of a type above 3
};

class BodyParser {
  public:
    BodyParser(std::span<const std::byte> data, std::string_view file, const Header& header,
               Layout layout)
        : data_(data), file_(file), header_(header), layout_(layout) {}

    Expected<Body> parse(std::size_t start);

  private:
    Expected<void> bones(ByteReader& in, Body& body);
    template <class Frame, class Real>
    Expected<void> vec3_keys(ByteReader& in, std::vector<Vec3Key>& keys, const char* what);
    template <class Frame, class Real>
    Expected<void> quat_keys(ByteReader& in, std::vector<QuatKey>& keys);
    template <class Real>
    Expected<void> bone_keys(ByteReader& in, Bone& bone);
    Expected<void> notes(ByteReader& in, Body& body);
    void tail(ByteReader in, Body& body);

    Unexpected fail(std::size_t offset, std::string message) const {
        return make_error(diagnostic_at(file_, offset, {}, std::move(message)));
    }

    std::span<const std::byte> data_;
    std::string_view file_;
    const Header& header_;
    Layout layout_;
};

Expected<Body> BodyParser::parse(std::size_t start) {
    Body body;
    ByteReader in(data_, std::string(file_), start, "seanim");
    if ((header_.presence & kBoneBits) != 0 || layout_.names_without_keys)
        if (auto ok = bones(in, body); !ok) return make_error(ok.error());
    if ((header_.presence & kNotes) != 0)
        if (auto ok = notes(in, body); !ok) return make_error(ok.error());
    if ((header_.presence & kCustom) != 0) {
        if (!in.has(4))
            return fail(in.offset(), "truncated custom block: no room for its u32 size");
        const std::size_t at = in.offset();
        const auto size = in.take<std::uint32_t>();
        if (size > in.remaining())
            return fail(at, fmt::format("custom block claims {} bytes but {} are left", size,
                                        in.remaining()));
        auto bytes = in.take_bytes(size);
        body.custom.emplace(bytes.begin(), bytes.end());
    }
    tail(in, body);
    return body;
}

Expected<void> BodyParser::bones(ByteReader& in, Body& body) {
    const std::uint32_t count = header_.bone_count;
    if (count > in.remaining())  // every bone has at least a NUL name
        return fail(0x18, fmt::format("header claims {} bones but only {} bytes follow", count,
                                      in.remaining()));
    if (!formats::within_memory_bound(count, sizeof(Bone), in.size()))
        return fail(0x18, formats::memory_bound_message(count, "bones", sizeof(Bone), in.size()));
    body.bones.resize(count);
    for (Bone& bone : body.bones) {
        const std::size_t at = in.offset();
        auto name = in.take_cstr();
        if (!name) return fail(at, "bone name has no NUL before the end of the data");
        bone.name = *name;
    }
    const std::size_t modifier_size = layout_.bone_width + 1u;
    if (std::size_t{header_.modifier_count} * modifier_size > in.remaining())
        return fail(
            in.offset(),
            fmt::format("{} modifiers need {} bytes but {} are left", header_.modifier_count,
                        header_.modifier_count * modifier_size, in.remaining()));
    body.modifiers.resize(header_.modifier_count);
    for (Modifier& modifier : body.modifiers) {
        const std::size_t at = in.offset();
        modifier.bone = in.take_uint(layout_.bone_width);
        modifier.type = in.take<std::uint8_t>();
        if (modifier.bone >= count)
            return fail(at, fmt::format("modifier names bone {} but the file has {} bones",
                                        modifier.bone, count));
        if (modifier.type > 3 && body.first_unknown_modifier == 0) body.first_unknown_modifier = at;
    }
    for (Bone& bone : body.bones) {
        if (!in.has(1))
            return fail(in.offset(),
                        fmt::format("bone '{}': truncated before its flags", bone.name));
        bone.flags = in.take<std::uint8_t>();
        if (layout_.names_without_keys) continue;
        auto ok = (header_.properties & kPrecisionHigh) != 0 ? bone_keys<double>(in, bone)
                                                             : bone_keys<float>(in, bone);
        if (!ok) return ok;
    }
    return {};
}

template <class Real>
Expected<void> BodyParser::bone_keys(ByteReader& in, Bone& bone) {
    // One instantiation per frame_t width keeps the width test out of the key loops.
    auto dispatch = [&](auto frame_tag) -> Expected<void> {
        using Frame = decltype(frame_tag);
        if (header_.presence & kBoneLocation)
            if (auto ok = vec3_keys<Frame, Real>(in, bone.locations, "location"); !ok) return ok;
        if (header_.presence & kBoneRotation)
            if (auto ok = quat_keys<Frame, Real>(in, bone.rotations); !ok) return ok;
        if (header_.presence & kBoneScale)
            if (auto ok = vec3_keys<Frame, Real>(in, bone.scales, "scale"); !ok) return ok;
        return {};
    };
    if (layout_.frame_width == 1) return dispatch(std::uint8_t{});
    if (layout_.frame_width == 2) return dispatch(std::uint16_t{});
    return dispatch(std::uint32_t{});
}

template <class Frame, class Real>
Expected<void> BodyParser::vec3_keys(ByteReader& in, std::vector<Vec3Key>& keys, const char* what) {
    if (!in.has(sizeof(Frame)))
        return fail(in.offset(), fmt::format("truncated {} key count", what));
    const std::size_t at = in.offset();
    const std::size_t count = in.take<Frame>();
    constexpr std::size_t stride = sizeof(Frame) + 3 * sizeof(Real);
    if (count > in.remaining() / stride)
        return fail(at, fmt::format("{} {} keys need {} bytes but {} are left", count, what,
                                    count * stride, in.remaining()));
    keys.reserve(count);
    const std::byte* p = in.here();
    for (std::size_t i = 0; i < count; ++i, p += stride)
        keys.push_back({cast::load<Frame>(p),
                        glm::dvec3(cast::load<Real>(p + sizeof(Frame)),
                                   cast::load<Real>(p + sizeof(Frame) + sizeof(Real)),
                                   cast::load<Real>(p + sizeof(Frame) + 2 * sizeof(Real)))});
    in.skip(count * stride);
    return {};
}

template <class Frame, class Real>
Expected<void> BodyParser::quat_keys(ByteReader& in, std::vector<QuatKey>& keys) {
    if (!in.has(sizeof(Frame))) return fail(in.offset(), "truncated rotation key count");
    const std::size_t at = in.offset();
    const std::size_t count = in.take<Frame>();
    constexpr std::size_t stride = sizeof(Frame) + 4 * sizeof(Real);
    if (count > in.remaining() / stride)
        return fail(at, fmt::format("{} rotation keys need {} bytes but {} are left", count,
                                    count * stride, in.remaining()));
    keys.reserve(count);
    const std::byte* p = in.here();
    for (std::size_t i = 0; i < count; ++i, p += stride) {
        const std::byte* v = p + sizeof(Frame);
        keys.push_back({cast::load<Frame>(p),
                        glm::dvec4(cast::load<Real>(v), cast::load<Real>(v + sizeof(Real)),
                                   cast::load<Real>(v + 2 * sizeof(Real)),
                                   cast::load<Real>(v + 3 * sizeof(Real)))});
    }
    in.skip(count * stride);
    return {};
}

Expected<void> BodyParser::notes(ByteReader& in, Body& body) {
    const std::size_t min_size = layout_.frame_width + 1u;
    if (header_.note_count > in.remaining() / min_size)
        return fail(0x20, fmt::format("header claims {} notes but only {} bytes follow",
                                      header_.note_count, in.remaining()));
    if (!formats::within_memory_bound(header_.note_count, sizeof(Note), in.size()))
        return fail(0x20, formats::memory_bound_message(header_.note_count, "notes", sizeof(Note),
                                                        in.size()));
    body.notes.resize(header_.note_count);
    for (Note& note : body.notes) {
        const std::size_t at = in.offset();
        if (!in.has(min_size)) return fail(at, "truncated note");
        note.frame = in.take_uint(layout_.frame_width);
        auto name = in.take_cstr();
        if (!name) return fail(at, "note name has no NUL before the end of the data");
        note.name = *name;
    }
    return {};
}

// Parses an SEBlend trailer at `in`; nullopt when it is not one or is malformed.
std::optional<std::vector<BlendShape>> blend_trailer(ByteReader& in) {
    if (!in.has(16) || std::memcmp(in.here(), kBlendMagic, 8) != 0) return std::nullopt;
    in.skip(8);
    const auto count = in.take<std::uint64_t>();
    if (count == 0 || count > in.remaining() ||
        !formats::within_memory_bound(count, sizeof(BlendShape), in.size()))
        return std::nullopt;
    std::vector<BlendShape> shapes(static_cast<std::size_t>(count));
    for (BlendShape& shape : shapes) {
        auto name = in.take_cstr();
        if (!name) return std::nullopt;
        shape.name = *name;
    }
    for (BlendShape& shape : shapes) {
        if (!in.has(4)) return std::nullopt;
        const auto keys = in.take<std::uint32_t>();
        if (keys > in.remaining() / 16) return std::nullopt;
        shape.keys.resize(keys);
        for (BlendKey& key : shape.keys) {
            key.frame = in.take<std::uint32_t>();
            key.value.x = in.take<float>();
            key.value.y = in.take<float>();
            key.value.z = in.take<float>();
        }
    }
    return shapes;
}

void BodyParser::tail(ByteReader in, Body& body) {
    ByteReader probe = in;
    if (auto shapes = blend_trailer(probe)) {
        body.blend_shapes = std::move(*shapes);
        in = probe;
    }
    body.trailing_offset = in.offset();
    auto rest = in.take_bytes(in.remaining());
    body.trailing.assign(rest.begin(), rest.end());
}

// The widths ruling 26 prescribes, then the 2016 (`<`) and 2017 (`count-1 <=`) legacy ones.
std::vector<Layout> candidate_layouts(const Header& header) {
    const std::uint32_t frames = header.frame_count, bones = header.bone_count;
    const Layout current{formats::width_for(frames), formats::width_for(bones), false};
    std::vector<Layout> out{current};
    auto add = [&](Layout layout) {
        for (const Layout& seen : out)
            if (seen == layout) return;
        out.push_back(layout);
    };
    const bool keyless_bones = (header.presence & kBoneBits) == 0 && bones > 0;
    if (keyless_bones) add({current.frame_width, current.bone_width, true});
    auto strict = [](std::uint32_t n) -> std::uint8_t { return n < 0xFF ? 1 : n < 0xFFFF ? 2 : 4; };
    const bool legacy = frames == 255 || frames == 256 || frames == 65536 || bones == 255;
    if (legacy) {
        const Layout y2016{strict(frames), strict(bones), false};
        const Layout y2017{formats::width_for(frames == 0 ? 0 : frames - 1u), current.bone_width,
                           false};
        for (const Layout& layout : {y2016, y2017}) {
            add(layout);
            if (keyless_bones) add({layout.frame_width, layout.bone_width, true});
        }
    }
    return out;
}

Header parse_header(const std::byte* h) {
    Header header;
    header.type = cast::load<std::uint8_t>(h + 0x0A);
    header.flags = cast::load<std::uint8_t>(h + 0x0B);
    header.presence = cast::load<std::uint8_t>(h + 0x0C);
    header.properties = cast::load<std::uint8_t>(h + 0x0D);
    header.reserved1 = {cast::load<std::uint8_t>(h + 0x0E), cast::load<std::uint8_t>(h + 0x0F)};
    header.framerate = cast::load<float>(h + 0x10);
    header.frame_count = cast::load<std::uint32_t>(h + 0x14);
    header.bone_count = cast::load<std::uint32_t>(h + 0x18);
    header.modifier_count = cast::load<std::uint8_t>(h + 0x1C);
    header.reserved2 = {cast::load<std::uint8_t>(h + 0x1D), cast::load<std::uint8_t>(h + 0x1E),
                        cast::load<std::uint8_t>(h + 0x1F)};
    header.note_count = cast::load<std::uint32_t>(h + 0x20);
    return header;
}

// One warning for every modifier of a type SEAnim does not define (io_anim_seanim writes 7):
// the first few with their bone and value. The type is kept (a Cast override's `se.type`) and
// its curves are read as absolute.
void warn_unknown_modifiers(const Animation& animation, std::string_view file, std::size_t offset,
                            Diagnostics& warnings) {
    std::vector<std::string> named;
    std::size_t unknown = 0;
    for (const Modifier& modifier : animation.modifiers) {
        if (modifier.type <= 3) continue;
        if (++unknown <= 3)
            named.push_back(
                fmt::format("{} on bone '{}'", modifier.type, animation.bones[modifier.bone].name));
    }
    warnings.push_back(diagnostic_at(
        file, offset, {},
        fmt::format("{} modifier{} of unknown type ({}{}): kept, their curves treated as absolute",
                    unknown, unknown == 1 ? "" : "s", fmt::join(named, ", "),
                    unknown > named.size() ? ", ..." : ""),
        Severity::Warning));
}

}  // namespace

Expected<Animation> read(cast::Bytes bytes, std::string_view source_name, Diagnostics& warnings) {
    auto preamble = formats::read_se_preamble(bytes, source_name, "SEAnim", kHeaderSize, warnings);
    if (!preamble) return make_error(preamble.error());
    const std::uint16_t header_size = preamble->header_size;
    Animation animation;
    animation.header = parse_header(bytes.data());
    animation.header.version = preamble->version;
    animation.header_extra.assign(bytes.begin() + kHeaderStart + kHeaderSize,
                                  bytes.begin() + kHeaderStart + header_size);
    if (animation.header.type > 3)
        warnings.push_back(diagnostic_at(source_name, 0x0A, {},
                                         fmt::format("unknown animation type {}; kept, treated as "
                                                     "absolute",
                                                     animation.header.type),
                                         Severity::Warning));

    const std::size_t start = kHeaderStart + header_size;
    const std::vector<Layout> layouts = candidate_layouts(animation.header);
    std::optional<Expected<Body>> first;
    Layout chosen = layouts.front();
    for (const Layout& layout : layouts) {
        auto body = BodyParser(bytes, source_name, animation.header, layout).parse(start);
        const bool clean = body && body->trailing.empty();
        if (!first)
            first.emplace(std::move(body));
        else if (clean) {
            warnings.push_back(diagnostic_at(
                source_name, 0, {},
                fmt::format("parsed with {} frame_t, {} bone_t{}: the current width rule does not "
                            "fit this (older writer's) file",
                            layout.frame_width, layout.bone_width,
                            layout.names_without_keys ? " and a bone block without key flags" : ""),
                Severity::Warning));
            first.emplace(std::move(body));
            chosen = layout;
            break;
        }
        if (clean) break;
    }
    Expected<Body>& body = *first;
    if (!body) return make_error(body.error());
    if (!body->trailing.empty())
        warnings.push_back(diagnostic_at(
            source_name, body->trailing_offset, {},
            fmt::format("{} unknown bytes after the data; kept", body->trailing.size()),
            Severity::Warning));
    animation.frame_width = chosen.frame_width;
    animation.bone_width = chosen.bone_width;
    animation.bone_names_without_keys = chosen.names_without_keys;
    animation.bones = std::move(body->bones);
    animation.modifiers = std::move(body->modifiers);
    animation.notes = std::move(body->notes);
    animation.custom = std::move(body->custom);
    animation.blend_shapes = std::move(body->blend_shapes);
    animation.trailing = std::move(body->trailing);
    if (body->first_unknown_modifier != 0)
        warn_unknown_modifiers(animation, source_name, body->first_unknown_modifier, warnings);
    return animation;
}

Expected<Animation> open(const std::filesystem::path& path, Diagnostics& warnings) {
    return formats::parse_mapped(path, [&](cast::Bytes bytes, const std::string& name) {
        return read(bytes, name, warnings);
    });
}

}  // namespace castkit::seanim
