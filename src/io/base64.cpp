#include "base64.hpp"

#include <array>
#include <cstdint>

namespace castkit::formats {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> decode_table() {
    std::array<std::int8_t, 256> table{};
    for (auto& v : table) v = -1;
    for (int i = 0; i < 64; ++i)
        table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
    return table;
}

}  // namespace

std::string base64_encode(std::span<const std::byte> data) {
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < data.size(); i += 3) {
        std::uint32_t chunk = std::to_integer<std::uint32_t>(data[i]) << 16;
        if (i + 1 < data.size()) chunk |= std::to_integer<std::uint32_t>(data[i + 1]) << 8;
        if (i + 2 < data.size()) chunk |= std::to_integer<std::uint32_t>(data[i + 2]);
        out += kAlphabet[(chunk >> 18) & 63];
        out += kAlphabet[(chunk >> 12) & 63];
        out += i + 1 < data.size() ? kAlphabet[(chunk >> 6) & 63] : '=';
        out += i + 2 < data.size() ? kAlphabet[chunk & 63] : '=';
    }
    return out;
}

std::optional<std::vector<std::byte>> base64_decode(std::string_view text) {
    static constexpr auto kTable = decode_table();
    auto value = [&](std::size_t i) { return kTable[static_cast<unsigned char>(text[i])]; };
    // Six bits per character: never more than this many bytes.
    std::vector<std::byte> out(text.size() / 4 * 3 + 3);
    std::size_t written = 0, i = 0;
    // The fast path: whole groups of four alphabet characters, three bytes each.
    for (; i + 4 <= text.size(); i += 4) {
        const int a = value(i), b = value(i + 1), c = value(i + 2), d = value(i + 3);
        if ((a | b | c | d) < 0) break;  // padding, whitespace or a stray: the careful path
        const auto chunk = static_cast<std::uint32_t>(a << 18 | b << 12 | c << 6 | d);
        out[written] = static_cast<std::byte>(chunk >> 16);
        out[written + 1] = static_cast<std::byte>((chunk >> 8) & 0xFF);
        out[written + 2] = static_cast<std::byte>(chunk & 0xFF);
        written += 3;
    }
    std::uint32_t chunk = 0;
    int bits = 0;
    bool padding = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') {
            padding = true;
            continue;
        }
        const std::int8_t v = value(i);
        if (v < 0 || padding) return std::nullopt;
        chunk = (chunk << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[written++] = static_cast<std::byte>((chunk >> bits) & 0xFF);
        }
    }
    if (bits >= 6) return std::nullopt;  // a lone trailing character encodes no whole byte
    out.resize(written);
    return out;
}

}  // namespace castkit::formats
