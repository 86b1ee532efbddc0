// Stand-ins for the C++20 library pieces that a standard library castkit builds with lacks:
// Emscripten 3.1.6's libc++ (the WebAssembly build) has no std::bit_cast and no floating-point
// std::from_chars. Each behaves as the standard one for what castkit passes it.
#pragma once

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <type_traits>
#include <version>

namespace castkit::compat {

// The bits of `from` as a `To` of the same size, as std::bit_cast (but not constexpr). O(1).
template <class To, class From>
To bit_cast(const From& from) {
    static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of the same size");
    static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>);
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}

// std::from_chars for a float in the general format. Without the standard one, strtof reads a
// NUL-terminated copy of the longest run of characters such a float can hold (digits, '.', 'e',
// signs), so it stops where from_chars stops, a leading '+' is refused as from_chars refuses it,
// and ERANGE is result_out_of_range (value unchanged); "inf" and "nan", which castkit never
// passes, are refused there. O(last - first).
inline std::from_chars_result from_chars(const char* first, const char* last, float& value) {
#if defined(__cpp_lib_to_chars)
    return std::from_chars(first, last, value);
#else
    const auto numeric = [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
               c == '+' || c == '-';
    };
    const std::string text(first, std::find_if_not(first, last, numeric));
    if (text.empty() || text[0] == '+') return {first, std::errc::invalid_argument};
    char* end = nullptr;
    errno = 0;
    const float parsed = std::strtof(text.c_str(), &end);
    const char* next = first + (end - text.c_str());
    if (next == first) return {first, std::errc::invalid_argument};
    if (errno == ERANGE) return {next, std::errc::result_out_of_range};
    value = parsed;
    return {next, std::errc()};
#endif
}

}  // namespace castkit::compat
