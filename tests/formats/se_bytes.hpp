// Test helper: assembles little-endian bytes by hand, so readers are tested against layouts
// written out from notes/formats.md rather than against castkit's own writers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace castkit::test {

struct HandBytes {
    std::vector<std::byte> bytes;

    template <class T>
    HandBytes& put(T value) {
        std::size_t at = bytes.size();
        bytes.resize(at + sizeof(T));
        std::memcpy(bytes.data() + at, &value, sizeof(T));
        return *this;
    }
    HandBytes& u8(std::uint8_t v) { return put(v); }
    HandBytes& u16(std::uint16_t v) { return put(v); }
    HandBytes& u32(std::uint32_t v) { return put(v); }
    HandBytes& i32(std::int32_t v) { return put(v); }
    HandBytes& u64(std::uint64_t v) { return put(v); }
    HandBytes& f32(float v) { return put(v); }
    HandBytes& f64(double v) { return put(v); }
    HandBytes& f32s(std::initializer_list<float> values) {
        for (float v : values) put(v);
        return *this;
    }
    // Characters without a terminator (magic values).
    HandBytes& raw(std::string_view text) {
        for (char c : text) bytes.push_back(static_cast<std::byte>(c));
        return *this;
    }
    // A NUL-terminated string.
    HandBytes& cstr(std::string_view text) { return raw(text).u8(0); }
    HandBytes& hex(std::initializer_list<int> values) {
        for (int v : values) bytes.push_back(static_cast<std::byte>(v));
        return *this;
    }
};

}  // namespace castkit::test
