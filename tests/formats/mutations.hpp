// Test helper: the malformed inputs every binary format reader is held to, made from a valid
// file: each proper prefix and each single-bit flip.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace castkit::test {

// Calls `check(prefix, description)` for every prefix of `original` shorter than it.
template <class Check>
void for_each_truncation(const std::vector<std::byte>& original, Check check) {
    for (std::size_t size = 0; size < original.size(); ++size)
        check(std::span<const std::byte>(original.data(), size),
              fmt::format("truncated to {}", size));
}

// Calls `check(flipped, description)` for every copy of `original` with one bit flipped.
template <class Check>
void for_each_bit_flip(const std::vector<std::byte>& original, Check check) {
    for (std::size_t at = 0; at < original.size(); ++at)
        for (int bit = 0; bit < 8; ++bit) {
            std::vector<std::byte> flipped = original;
            flipped[at] ^= static_cast<std::byte>(1 << bit);
            check(std::span<const std::byte>(flipped), fmt::format("bit {} of byte {}", bit, at));
        }
}

}  // namespace castkit::test
