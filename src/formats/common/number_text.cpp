#include "number_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace castkit::formats {

namespace {

// The decimal digits of a float's shortest significand (at most 9), without a point.
struct Digits {
    char text[32] = {};  // room for the 16-byte copies of the layouts below
    int count = 1;
};

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

// fmt's exponent layout d[.ddd]e±XX; a float's decimal exponent has two digits (-45 to 38).
char* scientific(char* out, const Digits& d, int exp) {
    *out++ = d.text[0];
    if (d.count > 1) {
        *out = '.';
        std::memcpy(out + 1, d.text + 1, 16);
        out += d.count;
    }
    *out++ = 'e';
    *out++ = exp < 0 ? '-' : '+';
    exp = std::abs(exp);
    *out++ = static_cast<char>('0' + exp / 10);
    *out++ = static_cast<char>('0' + exp % 10);
    return out;
}

}  // namespace

// The shortest digits come from fmt's Dragonbox, the algorithm fmt::format("{}") itself uses,
// called without fmt's formatting around it: half the time of std::to_chars (Ryu) per float, and
// most of writing a DMF JSON file is floats. It is fmt's detail API, the same from fmt 8 to 11,
// so the versions are bound here (a newer fmt stops the build at this line, not at a changed
// result); the tests compare every layout with fmt::format.
static_assert(FMT_VERSION >= 80000 && FMT_VERSION < 120000,
              "write_float uses fmt::detail::dragonbox as fmt 8 to 11 have it: check it against "
              "this fmt and widen the bound");
char* write_float(char* out, float v) {
    if (!std::isfinite(v)) return fmt::format_to(out, "{}", v);  // "inf", "-inf", "nan"
    if (std::signbit(v)) *out++ = '-';
    if (v == 0.0f) {
        *out = '0';
        return out + 1;
    }
    const auto shortest = fmt::detail::dragonbox::to_decimal(std::fabs(v));
    Digits d;
    d.count =
        static_cast<int>(std::to_chars(d.text, d.text + 16, shortest.significand).ptr - d.text);
    const int exp = shortest.exponent + d.count - 1;  // of the first digit
    return exp < -4 || exp >= 16 ? scientific(out, d, exp) : fixed(out, d, exp);
}

char* write_integer(char* out, std::int64_t v) {
    return std::to_chars(out, out + kIntegerRoom, v).ptr;
}

}  // namespace castkit::formats
