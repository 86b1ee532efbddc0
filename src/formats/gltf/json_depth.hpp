// How deep JSON text nests, counted before any recursive code (tinygltf's parser, the
// exporter's JSON-to-Value conversion) sees it: deep enough nesting overflows the stack. And
// how many values it holds, counted before a DOM is built: a DOM takes tens of bytes a value,
// and a value can take 2 bytes of text ("0,").
#pragma once

#include <algorithm>
#include <castkit/anim/budget.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace castkit::gltf::detail {

// JSON nested deeper than this is refused (glTF input) or ignored (carried settings).
inline constexpr std::size_t kMaxJsonDepth = 512;

// Calls `on(c, i)` for each character `c` of `text` at offset `i` that is outside a string
// (escapes skipped), until `on` returns false. The one scanner behind the counts below, which
// must agree on what a string is. O(text size).
template <class OnCharacter>
void scan_outside_strings(std::string_view text, OnCharacter on) {
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
        } else if (!on(c, i)) {
            return;
        }
    }
}

// The offset in `text` of the first bracket deeper than `limit`, or nullopt. O(text size).
inline std::optional<std::size_t> first_too_deep(std::string_view text,
                                                 std::size_t limit = kMaxJsonDepth) {
    std::size_t depth = 0;
    std::optional<std::size_t> found;
    scan_outside_strings(text, [&](char c, std::size_t i) {
        if (c == '[' || c == '{') {
            if (++depth > limit) found = i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
        return !found;
    });
    return found;
}

// The values (scalars, arrays, objects) and object members of JSON text, at most: every value
// but the first follows a ',', '[' or ':', and every member has its ':'. Strings are skipped,
// escapes included. O(text size).
struct JsonShape {
    std::size_t values = 0;
    std::size_t members = 0;
};

inline JsonShape json_shape(std::string_view text) {
    JsonShape shape{.values = 1};
    scan_outside_strings(text, [&](char c, std::size_t) {
        if (c == ',' || c == '[' || c == '{') {
            ++shape.values;
        } else if (c == ':') {
            ++shape.values;
            ++shape.members;
        }
        return true;
    });
    return shape;
}

// The memory a file may take for what it declares (docs/security.md): anim::memory_budget's one
// promise, in the size type the parse counts in (saturated where size_t is 32 bits).
constexpr std::size_t memory_budget(std::size_t file_size) {
    return static_cast<std::size_t>(std::min<std::uint64_t>(
        anim::memory_budget(file_size), std::numeric_limits<std::size_t>::max()));
}

// The bytes simdjson's DOM of `text` takes, at most: the padded copy of the text, the strings'
// copies, and per value its structural indices (4 bytes each for it and the character before it),
// its tape words (8 bytes, 16 for a number, an array or an object) and, for a member, its key's.
inline std::size_t simdjson_dom_bytes(std::string_view text) {
    const JsonShape shape = json_shape(text);
    return 2 * text.size() + 24 * shape.values + 16 * shape.members;
}

// The bytes nlohmann::json's DOM of `text` takes, at most: per value its 16 bytes, twice over
// for the capacity an array grows to; per member its map node (links, key, value and the
// allocation's header); and the strings' copies.
inline std::size_t nlohmann_dom_bytes(std::string_view text) {
    const JsonShape shape = json_shape(text);
    return text.size() + 32 * shape.values + 96 * shape.members;
}

// Whether the carried glTF settings (a Metadata `gltf` string, docs/gltf.md) are too large to
// parse: their DOM would pass the budget of the file that holds them, which holds at least the
// string and keeps it (memory_budget of the string, less the string twice). The glTF export
// ignores them then, with gltf.carried-budget, and a change of axes leaves them as they are.
inline bool carried_too_large(std::string_view text) {
    return nlohmann_dom_bytes(text) > memory_budget(text.size()) - 2 * text.size();
}

}  // namespace castkit::gltf::detail
