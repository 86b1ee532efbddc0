// What the SEAnim reader, writer and Cast conversion share: the canonical header (§1.9) and the
// mapping of animation types to Cast curve modes (docs/seanim.md, "Curve modes").
#pragma once

#include <castkit/formats/seanim.hpp>

#include <string_view>

namespace castkit::seanim::detail {

enum class Channel { Translation, Rotation, Scale };

// The Cast curve mode of a channel under SEAnim type `type`: absolute → absolute, additive →
// additive, relative and delta → translation relative, rotation and scale absolute (the SE
// importers' semantics); unknown types → absolute.
std::string_view curve_mode(std::uint8_t type, Channel channel);

// The presence bits of the key kinds some bone has.
std::uint8_t keyed_bits(const Animation& animation);

struct Canonical {
    Header header;
    std::uint8_t frame_width = 1;
    std::uint8_t bone_width = 1;
    bool keeps_bones = false;  // false when no bone has a key: canonical files drop the block
};
// The header canonicalize() would set, without changing `animation`. O(keys).
Canonical canonical_header(const Animation& animation);

}  // namespace castkit::seanim::detail
