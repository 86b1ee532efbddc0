// Test helper: assembles little-endian bytes by hand, value by value, so format tests state a
// layout field by field (from the specs and docs/) instead of trusting castkit's writers.
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
    HandBytes& i16(std::int16_t v) { return put(v); }
    HandBytes& u32(std::uint32_t v) { return put(v); }
    HandBytes& i32(std::int32_t v) { return put(v); }
    HandBytes& u64(std::uint64_t v) { return put(v); }
    HandBytes& f32(float v) { return put(v); }
    HandBytes& f64(double v) { return put(v); }
    HandBytes& floats(std::initializer_list<float> values) {
        for (float v : values) f32(v);
        return *this;
    }
    HandBytes& zeros(std::size_t n) {
        bytes.resize(bytes.size() + n);
        return *this;
    }
    // Characters without a terminator (magic values).
    HandBytes& text(std::string_view s) {
        for (char c : s) bytes.push_back(static_cast<std::byte>(c));
        return *this;
    }
    // A NUL-terminated string.
    HandBytes& cstr(std::string_view s) { return text(s).u8(0); }
    // `s` NUL-padded to `width` bytes.
    HandBytes& fixed(std::string_view s, std::size_t width) {
        text(s);
        return zeros(width - s.size());
    }
    HandBytes& hex(std::initializer_list<int> values) {
        for (int v : values) bytes.push_back(static_cast<std::byte>(v));
        return *this;
    }
    HandBytes& identity() { return floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}); }
    HandBytes& translation(float x, float y, float z) {
        return floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1});
    }
    std::size_t size() const { return bytes.size(); }
};

}  // namespace castkit::test
