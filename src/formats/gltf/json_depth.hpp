// How deep JSON text nests, counted before any recursive code (tinygltf's parser, the
// exporter's JSON-to-Value conversion) sees it: deep enough nesting overflows the stack.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace castkit::gltf::detail {

// JSON nested deeper than this is refused (glTF input) or ignored (carried settings).
inline constexpr std::size_t kMaxJsonDepth = 512;

// The offset in `text` of the first bracket deeper than `limit`, or nullopt. Strings are
// skipped, escapes included. O(text size).
inline std::optional<std::size_t> first_too_deep(std::string_view text,
                                                 std::size_t limit = kMaxJsonDepth) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

}  // namespace castkit::gltf::detail
