// Little-endian cursor and builder shared by the binary format readers and writers (SEAnim,
// SEModel). The cursor never reads past its span: callers check has() before take(), and the
// checked helpers return nullopt at the end of the data.
#pragma once

#include <castkit/cast/node.hpp>
#include <castkit/diagnostic.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::formats {

// Byte width of a count-sized integer: u8 up to 0xFF, u16 up to 0xFFFF, else u32 (the SE rule).
inline std::uint8_t width_for(std::uint64_t maximum) {
    return maximum <= 0xFF ? 1 : maximum <= 0xFFFF ? 2 : 4;
}

class ByteCursor {
public:
    explicit ByteCursor(std::span<const std::byte> data, std::size_t pos = 0) : data_(data), pos_(pos) {}

    std::size_t pos() const { return pos_; }
    std::size_t left() const { return data_.size() - pos_; }
    bool has(std::size_t n) const { return left() >= n; }
    const std::byte* here() const { return data_.data() + pos_; }
    void skip(std::size_t n) { pos_ += n; }

    // Unchecked: the caller has checked has(sizeof(T)).
    template <class T>
    T take() {
        T value = cast::load<T>(here());
        pos_ += sizeof(T);
        return value;
    }
    // Unchecked unsigned integer of 1, 2 or 4 bytes.
    std::uint32_t take_uint(unsigned width) {
        std::uint32_t value = width == 1 ? take<std::uint8_t>()
                              : width == 2 ? take<std::uint16_t>()
                                           : take<std::uint32_t>();
        return value;
    }
    // A NUL-terminated string, or nullopt when no NUL comes before the end.
    std::optional<std::string_view> take_cstr() {
        if (left() == 0) return std::nullopt;
        const char* begin = reinterpret_cast<const char*>(here());
        const void* nul = std::memchr(begin, 0, left());
        if (nul == nullptr) return std::nullopt;
        std::size_t length = static_cast<std::size_t>(static_cast<const char*>(nul) - begin);
        pos_ += length + 1;
        return std::string_view(begin, length);
    }
    std::span<const std::byte> take_bytes(std::size_t n) {
        auto out = data_.subspan(pos_, n);
        pos_ += n;
        return out;
    }

private:
    std::span<const std::byte> data_;
    std::size_t pos_;
};

class ByteBuilder {
public:
    std::vector<std::byte> bytes;

    template <class T>
    void put(T value) {
        std::size_t at = bytes.size();
        bytes.resize(at + sizeof(T));
        std::memcpy(bytes.data() + at, &value, sizeof(T));
    }
    void put_uint(std::uint32_t value, unsigned width) {
        if (width == 1) put(static_cast<std::uint8_t>(value));
        else if (width == 2) put(static_cast<std::uint16_t>(value));
        else put(value);
    }
    void put_cstr(std::string_view text) {
        put_bytes(std::as_bytes(std::span(text.data(), text.size())));
        bytes.push_back(std::byte{0});
    }
    void put_bytes(std::span<const std::byte> data) { bytes.insert(bytes.end(), data.begin(), data.end()); }
};

// An error or warning at `offset` of `file`.
inline Diagnostic diagnostic_at(std::string_view file, std::uint64_t offset, std::string message,
                                Severity severity = Severity::Error) {
    Diagnostic d;
    d.severity = severity;
    d.file = std::string(file);
    d.offset = offset;
    d.message = std::move(message);
    return d;
}

}  // namespace castkit::formats
