// Base64 (RFC 4648, standard alphabet, padded) for images embedded in JSON data URIs.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::formats {

// Encodes with '=' padding. O(n).
std::string base64_encode(std::span<const std::byte> data);
// Decodes; ASCII whitespace is skipped, padding is optional; nullopt on any other character or
// on a length no encoder produces. O(n): whole groups of four characters take a table-driven
// fast path, the rest (whitespace, padding) one character at a time.
std::optional<std::vector<std::byte>> base64_decode(std::string_view text);

}  // namespace castkit::formats
