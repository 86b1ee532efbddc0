// Telling a format from a file's first bytes, for standard input and names whose extension
// names no format (format_for_bytes). Every binary format castkit reads starts with a magic;
// the two JSON formats are told apart by glTF's required top-level "asset" member.
#include <array>
#include <castkit/platform.hpp>
#include <castkit/registry.hpp>
#include <string_view>

#include "io/images.hpp"

namespace castkit {
namespace {

struct SniffMagic {
    std::string_view bytes;
    std::string_view format;
};

// The magics at offset 0. K3D's is the little-endian u32 0xDECAFBAD, DMF's the u32 "DASH".
constexpr std::array<SniffMagic, 6> kSniffMagics{{
    {"cast", "cast"},
    {"SEAnim", "seanim"},
    {"SEModel", "semodel"},
    {"DASH", "dmf"},
    {"\xAD\xFB\xCA\xDE", "k3d"},
    {"glTF", "glb"},
}};

bool sniff_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// True when the JSON object starting at text[0] == '{' has the member "asset" at its top level.
// Strings are skipped whole (with their escapes), so a value "asset" or a nested member of that
// name does not count. Malformed JSON gives false (the DMF JSON reader then says what is wrong).
// O(text size), stopping at the first top-level "asset".
bool sniff_has_asset_member(std::string_view text) {
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) return false;
        } else if (c == '"') {
            const std::size_t start = i + 1;
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            if (i >= text.size()) return false;
            const std::string_view name = text.substr(start, i - start);
            std::size_t next = i + 1;
            while (next < text.size() && sniff_space(text[next])) ++next;
            // A member name is a string followed by ':' directly inside the outer object.
            if (depth == 1 && name == "asset" && next < text.size() && text[next] == ':')
                return true;
        }
    }
    return false;
}

}  // namespace

const FormatInfo* format_for_bytes(std::span<const std::byte> bytes) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    for (const SniffMagic& magic : kSniffMagics)
        if (text.starts_with(magic.bytes)) return format_by_name(magic.format);
    std::size_t first = 0;
    if (text.starts_with("\xEF\xBB\xBF")) first = 3;  // a UTF-8 byte order mark
    while (first < text.size() && sniff_space(text[first])) ++first;
    if (first == text.size() || text[first] != '{') return nullptr;
    return format_by_name(sniff_has_asset_member(text.substr(first)) ? "gltf" : "dmf-json");
}

std::string_view image_format_of(std::span<const std::byte> bytes,
                                 const std::filesystem::path& path) {
    return images::image_kind(bytes, platform::utf8_of(path.filename()));
}

}  // namespace castkit
