// Helpers for format tests. Hand-assembly of golden files: little-endian values appended one by
// one, so tests state the layout of a format field by field instead of trusting castkit's own
// writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::test {

class ByteBuilder {
  public:
    template <class T>
    ByteBuilder& put(T value) {
        std::size_t at = bytes_.size();
        bytes_.resize(at + sizeof(T));
        std::memcpy(bytes_.data() + at, &value, sizeof(T));
        return *this;
    }
    ByteBuilder& u8(std::uint8_t v) { return put(v); }
    ByteBuilder& u16(std::uint16_t v) { return put(v); }
    ByteBuilder& i16(std::int16_t v) { return put(v); }
    ByteBuilder& u32(std::uint32_t v) { return put(v); }
    ByteBuilder& i32(std::int32_t v) { return put(v); }
    ByteBuilder& u64(std::uint64_t v) { return put(v); }
    ByteBuilder& f32(float v) { return put(v); }
    ByteBuilder& floats(std::initializer_list<float> values) {
        for (float v : values) f32(v);
        return *this;
    }
    ByteBuilder& zeros(std::size_t n) {
        bytes_.resize(bytes_.size() + n);
        return *this;
    }
    ByteBuilder& text(std::string_view s) {
        for (char c : s) u8(static_cast<std::uint8_t>(c));
        return *this;
    }
    // `s` NUL-padded to `width` bytes.
    ByteBuilder& fixed(std::string_view s, std::size_t width) {
        text(s);
        return zeros(width - s.size());
    }
    ByteBuilder& identity() { return floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}); }
    ByteBuilder& translation(float x, float y, float z) {
        return floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1});
    }
    std::size_t size() const { return bytes_.size(); }
    const std::vector<std::byte>& bytes() const { return bytes_; }

  private:
    std::vector<std::byte> bytes_;
};

// `command` with each {name} replaced by the quoted path of `name` inside `dir`.
inline std::string in_dir(const std::filesystem::path& dir, std::string command) {
    std::string out;
    for (std::size_t i = 0; i < command.size(); ++i) {
        if (command[i] != '{') {
            out += command[i];
            continue;
        }
        std::size_t end = command.find('}', i);
        // Appended piece by piece: `"\"" + path + "\""` trips GCC 12's -Wrestrict at -O3.
        out.push_back('"');
        out += (dir / command.substr(i + 1, end - i - 1)).string();
        out.push_back('"');
        i = end;
    }
    return out;
}

}  // namespace castkit::test
