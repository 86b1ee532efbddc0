// What the SEAnim reader, writer and Cast conversion share: the canonical header and the
// mapping of animation types to Cast curve modes (docs/seanim.md, "Curve modes").
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/seanim.hpp>
#include <string_view>

namespace castkit::seanim::detail {

// from_cast of a document that has passed the check before every write (the registry's write,
// which checks first): what from_cast does after its own check.
Expected<Animation> from_checked_cast(const cast::Document& document, Diagnostics& warnings);

enum class Channel { Translation, Rotation, Scale };

// The Cast curve mode of a channel under SEAnim type `type`: absolute → absolute, additive →
// additive, relative and delta → translation relative, rotation and scale absolute (the SE
// importers' semantics); unknown types → absolute.
cast::CurveMode curve_mode(std::uint8_t type, Channel channel);

// The presence bits of the key kinds some bone has.
std::uint8_t keyed_bits(const Animation& animation);

struct Canonical {
    Header header;
    std::uint8_t frame_width = 1;
    std::uint8_t bone_width = 1;
    bool keeps_bones = false;  // false when no bone has a key: canonical files drop the block
};
// frameCount as the reference writers set it: the last key or note frame + 1 (and at least the
// longest key list, which frame_t must also count), 1 for an empty animation. O(keys).
std::uint32_t canonical_frame_count(const Animation& animation);
// The header canonicalize() would set, without changing `animation`, given its canonical
// frameCount. O(bones).
Canonical canonical_header(const Animation& animation, std::uint32_t frame_count);
inline Canonical canonical_header(const Animation& animation) {
    return canonical_header(animation, canonical_frame_count(animation));
}

}  // namespace castkit::seanim::detail
