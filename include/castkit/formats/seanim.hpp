// SEAnim v1 (`.seanim`): the native data, its reader and writer, and the conversion to and from
// the Cast document. Layout: SE2Dev's SEAnim-Docs; rulings 26–30 (docs/decisions.md); the mapping
// and the `se.*` properties that make SEAnim → Cast → SEAnim exact are in docs/seanim.md.
#pragma once

#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/ext/vector_double3.hpp>
#include <glm/ext/vector_double4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace castkit::seanim {

enum class AnimType : std::uint8_t { Absolute = 0, Additive = 1, Relative = 2, Delta = 3 };

// dataPresenceFlags bits.
inline constexpr std::uint8_t kBoneLocation = 1 << 0;
inline constexpr std::uint8_t kBoneRotation = 1 << 1;
inline constexpr std::uint8_t kBoneScale = 1 << 2;
inline constexpr std::uint8_t kBoneBits = kBoneLocation | kBoneRotation | kBoneScale;
inline constexpr std::uint8_t kNotes = 1 << 6;
inline constexpr std::uint8_t kCustom = 1 << 7;
// animFlags and dataPropertyFlags bits.
inline constexpr std::uint8_t kLooped = 1 << 0;
inline constexpr std::uint8_t kPrecisionHigh = 1 << 0;

// The header fields exactly as stored (headerSize is 28 + Animation::header_extra.size()).
// The counts say what the header claims; where a block is written they equal the data's sizes.
struct Header {
    std::uint16_t version = 1;
    std::uint8_t type = 0;        // AnimType, kept raw so unknown values survive
    std::uint8_t flags = 0;       // animFlags
    std::uint8_t presence = 0;    // dataPresenceFlags
    std::uint8_t properties = 0;  // dataPropertyFlags
    std::array<std::uint8_t, 2> reserved1{};
    float framerate = 30.0f;
    std::uint32_t frame_count = 1;
    std::uint32_t bone_count = 0;
    std::uint8_t modifier_count = 0;
    std::array<std::uint8_t, 3> reserved2{};
    std::uint32_t note_count = 0;
};

// Key values are held as doubles: f32 files convert exactly, PRECISION_HIGH files keep f64.
struct Vec3Key {
    std::uint32_t frame = 0;
    glm::dvec3 value{0.0};
};
struct QuatKey {
    std::uint32_t frame = 0;
    glm::dvec4 value{0.0, 0.0, 0.0, 1.0};  // x, y, z, w
};

struct Bone {
    std::string name;
    std::uint8_t flags = 0;  // 0 default, 1 cosmetic
    std::vector<Vec3Key> locations;
    std::vector<QuatKey> rotations;
    std::vector<Vec3Key> scales;
};

// Overrides the animation type for a bone and its descendants (ruling 29).
struct Modifier {
    std::uint32_t bone = 0;  // index into Animation::bones
    std::uint8_t type = 0;   // AnimType, raw
};

struct Note {
    std::uint32_t frame = 0;
    std::string name;
};

// One shape of the non-standard `SEBlend\n` trailer (docs/seanim.md).
struct BlendKey {
    std::uint32_t frame = 0;
    glm::vec3 value{0.0f};  // x = weight; y and z are unused by every writer (0)
};
struct BlendShape {
    std::string name;
    std::vector<BlendKey> keys;
};

struct Animation {
    Header header;
    std::vector<std::byte> header_extra;  // header bytes past the 28 this version defines
    std::uint8_t frame_width = 1;         // bytes of frame_t
    std::uint8_t bone_width = 1;          // bytes of bone_t
    // SELib/Greyhound write names, modifiers and flags even when no bone bit is set.
    bool bone_names_without_keys = false;
    std::vector<Bone> bones;
    std::vector<Modifier> modifiers;
    std::vector<Note> notes;
    std::optional<std::vector<std::byte>> custom;  // present iff presence has kCustom
    std::vector<BlendShape> blend_shapes;          // written as an SEBlend trailer when non-empty
    std::vector<std::byte> trailing;               // unknown bytes after everything (ruling 28)

    AnimType type() const { return static_cast<AnimType>(header.type); }
    bool looped() const { return (header.flags & kLooped) != 0; }
    bool high_precision() const { return (header.properties & kPrecisionHigh) != 0; }
};

// Sets every derived header field the way the reference writers do: version 1, 28-byte
// header, zero reserved bytes, presence bits from the data, frameCount = last frame + 1, counts
// from the data, and frame_t/bone_t widths by the `<=` rule. Bones and modifiers are cleared
// when no bone has a key (no reader could find them). O(keys).
void canonicalize(Animation& animation);

// Reads SEAnim bytes; `file` names them in diagnostics. Widths follow ruling 26 with the legacy
// fallback, unknown trailing bytes are kept (ruling 28); anything malformed is an error naming
// the byte offset. O(size).
Expected<Animation> read(cast::Bytes bytes, std::string_view file, Diagnostics& warnings);
// Memory-maps and parses a file.
Expected<Animation> open(const std::filesystem::path& path, Diagnostics& warnings);

// Serialises exactly what `animation` holds (call canonicalize first for a fresh animation);
// an error when the header and the data disagree. O(size).
Expected<std::vector<std::byte>> write_to_buffer(const Animation& animation);
// Writes atomically (temporary file, then rename); "-" is standard output.
Expected<void> write(const Animation& animation, const std::filesystem::path& path);

// The Cast document for an animation: Root → Animation with curves, overrides and
// notification tracks, plus the `se.*` properties that make the way back exact. Expected, as
// every format's to_cast, so that callers handle them alike. O(keys).
Expected<cast::Document> to_cast(const Animation& animation, Diagnostics& warnings);
// The first Animation of a Cast document as SEAnim; warnings name what SEAnim cannot hold. A
// NaN or infinite key, rest or transform is an error (output.non-finite, docs/diagnostics.md).
// O(keys log keys) when translation components are keyed at different frames, else O(keys).
Expected<Animation> from_cast(const cast::Document& document, Diagnostics& warnings);

}  // namespace castkit::seanim
