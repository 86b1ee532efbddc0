// Counts in the messages castkit prints (info, dump, the reader's and the validator's findings):
// "1 root", "2 roots", never "1 roots".
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace castkit::cast {

// "1 vertex", "3 vertices": `n` and the noun in the number `n` calls for.
inline std::string count_of(std::uint64_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

// count_of for the nouns whose plural adds an "s": "1 root", "2 roots".
inline std::string count_of(std::uint64_t n, std::string_view one) {
    return n == 1 ? fmt::format("1 {}", one) : fmt::format("{} {}s", n, one);
}

// "1 of 4 faces is", "2 of 4 faces are": a part of a whole, with the verb that agrees with it.
inline std::string part_of(std::uint64_t part, std::uint64_t whole, std::string_view many) {
    return fmt::format("{} of {} {} {}", part, whole, many, part == 1 ? "is" : "are");
}

}  // namespace castkit::cast
