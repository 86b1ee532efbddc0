// Numbers as JSON text written through a raw pointer into room the caller reserved: floats laid
// out exactly as fmt::format("{}", v) lays them out, from fmt's own shortest digits (Dragonbox).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace castkit::formats {

// Bytes write_float may touch from `out` on (its text is at most 17 of them): it copies in
// fixed-size blocks, which the following text overwrites.
inline constexpr std::size_t kFloatRoom = 32;
// Bytes write_integer may write: "-9223372036854775808".
inline constexpr std::size_t kIntegerRoom = 20;

// `v` as fmt::format("{}", v) writes it: the shortest digits that read back to `v`, in fixed
// notation for decimal exponents in [-4, 16), otherwise as d.ddde±XX; -0 as "-0"; "inf", "-inf"
// and "nan" (which JSON cannot hold: its writers check first). Returns the end of the text. O(1).
char* write_float(char* out, float v);
// `v` in decimal. Returns the end of the text. O(1).
char* write_integer(char* out, std::int64_t v);

// Whether every float stored in `floats` (4 bytes each, any alignment) is finite, by the largest
// exponent field met: one branch for the array instead of one per float, so checking a model
// before writing it costs little when nothing is wrong. Inline: models call it per vertex. O(size).
inline bool all_finite(std::span<const std::byte> floats) {
    constexpr std::uint32_t kExponent = 0x7F800000u;  // a float's exponent bits
    std::uint32_t top = 0;
    for (std::size_t at = 0; at + 4 <= floats.size(); at += 4) {
        std::uint32_t bits;
        std::memcpy(&bits, floats.data() + at, sizeof bits);
        top = std::max(top, bits & kExponent);
    }
    return top != kExponent;  // all ones: infinity or NaN
}

}  // namespace castkit::formats
