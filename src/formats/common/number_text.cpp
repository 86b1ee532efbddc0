#include "number_text.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace castkit::formats {

// Standard libraries without floating-point std::to_chars (Emscripten 3.1's libc++) leave out
// its feature macro; there fmt's "{}" writes the text itself.
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
namespace {

// The digits d.ddd of std::to_chars' scientific text, without the point.
struct Digits {
    char text[32] = {};  // room for the 16-byte copies of the layouts below
    int count = 1;
};

// `scientific` is "d[.ddd]" of to_chars' "d[.ddd]e±XX" (at most 9 digits for a float).
Digits digits_of(const char* scientific, const char* exponent) {
    Digits d;
    d.text[0] = scientific[0];
    if (exponent - scientific > 1) {
        std::memcpy(d.text + 1, scientific + 2, 8);
        d.count = static_cast<int>(exponent - scientific) - 1;
    }
    return d;
}

// fmt's fixed layouts for a decimal exponent `exp` in [-4, 16): 0.000ddd, ddd000 and dd.ddd.
char* fixed(char* out, const Digits& d, int exp) {
    if (exp < 0) {
        std::memcpy(out, "0.000000", 8);
        out += 1 - exp;
        std::memcpy(out, d.text, 16);
        return out + d.count;
    }
    std::memcpy(out, d.text, 16);
    if (exp >= d.count - 1) {
        std::memcpy(out + d.count, "0000000000000000", 16);
        return out + exp + 1;
    }
    out[exp + 1] = '.';
    std::memcpy(out + exp + 2, d.text + exp + 1, 16);
    return out + d.count + 1;
}

}  // namespace

char* write_float(char* out, float v) {
    if (v == 0.0f) {
        if (std::signbit(v)) *out++ = '-';
        *out = '0';
        return out + 1;
    }
    char text[32] = {};
    const char* end = std::to_chars(text, text + sizeof text, v, std::chars_format::scientific).ptr;
    const char* s = text;
    if (*s == '-') *out++ = *s++;
    // A float's decimal exponent has two digits (-45 to 38): "e±XX" ends the text.
    const char* e = end - 4;
    int exp = (e[2] - '0') * 10 + (e[3] - '0');
    if (e[1] == '-') exp = -exp;
    // Outside fmt's fixed range, to_chars' text is fmt's.
    if (exp < -4 || exp >= 16) {
        std::memcpy(out, s, 16);
        return out + (end - s);
    }
    return fixed(out, digits_of(s, e), exp);
}
#else
char* write_float(char* out, float v) { return fmt::format_to(out, FMT_COMPILE("{}"), v); }
#endif

char* write_integer(char* out, std::int64_t v) {
    return std::to_chars(out, out + kIntegerRoom, v).ptr;
}

bool all_finite(std::span<const std::byte> floats) {
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
