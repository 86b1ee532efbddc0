// Little-endian reading and writing shared by the binary formats (SEAnim, SEModel, K3D, DMF),
// the diagnostics they report and their atomic output. Reading checks a whole span of bytes
// once (need(), need_range() or has()), then loads unchecked with memcpy; every size is
// computed in 64 bits so that a hostile count cannot wrap around.
#pragma once

#include <fmt/format.h>

#include <castkit/cast/node.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/sink.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../platform/platform.hpp"

namespace castkit::formats {

// take<T>() and put(T) move glm vectors and matrices as their packed floats, in file order.
static_assert(sizeof(glm::vec2) == 8 && sizeof(glm::vec3) == 12 && sizeof(glm::vec4) == 16 &&
              sizeof(glm::mat4) == 64 && sizeof(glm::u8vec4) == 4);

// Byte width of a count-sized integer: u8 up to 0xFF, u16 up to 0xFFFF, else u32 (the SE rule).
inline std::uint8_t width_for(std::uint64_t maximum) {
    return maximum <= 0xFF ? 1 : maximum <= 0xFFFF ? 2 : 4;
}

// The memory bound of every reader (README.md, "Security"): what a file declares may take at most
// kMemoryFactor bytes in memory per byte of input, plus kMemoryConstant. Counts are checked
// against the bytes left and against this, since an element can take far more memory than the
// bytes it needs on disk (an SEAnim bone is one NUL byte on disk and over 100 bytes in memory).
inline constexpr std::uint64_t kMemoryFactor = 8;
inline constexpr std::uint64_t kMemoryConstant = std::uint64_t{64} << 20;

// True when `count` elements of `element_size` bytes fit the bound for an input of
// `input_size` bytes. O(1).
inline bool within_memory_bound(std::uint64_t count, std::size_t element_size,
                                std::size_t input_size) {
    return count <= (kMemoryFactor * input_size + kMemoryConstant) / element_size;
}

// The error for a count past within_memory_bound. O(1).
inline std::string memory_bound_message(std::uint64_t count, const char* what,
                                        std::size_t element_size, std::size_t input_size) {
    return fmt::format(
        "{} {} would take {} bytes in memory, more than castkit allows for a "
        "{}-byte file ({} per byte plus {})",
        count, what, count * element_size, input_size, kMemoryFactor, kMemoryConstant);
}

// A diagnostic at `offset` (Diagnostic::kNoOffset when none) and `path` of `file`. O(1).
Diagnostic diagnostic_at(std::string_view file, std::uint64_t offset, std::string path,
                         std::string message, Severity severity = Severity::Error);

// A warning naming `file` and `path` but no offset. O(1).
inline Diagnostic warning(std::string_view file, std::string path, std::string message) {
    return diagnostic_at(file, Diagnostic::kNoOffset, std::move(path), std::move(message),
                         Severity::Warning);
}

// An error at `path` of a file being written, which write_serialised names. O(1).
inline Diagnostic write_error(std::string path, std::string message) {
    return diagnostic_at({}, Diagnostic::kNoOffset, std::move(path), std::move(message));
}

// Where a conversion reports: errors and warnings name `file` and a path in it.
class Reporter {
  public:
    Reporter(std::string file, Diagnostics& warnings)
        : file_(std::move(file)), warnings_(warnings) {}

    const std::string& file() const { return file_; }
    // Appends a warning at `path`. O(1).
    void warn(std::string path, std::string message) const {
        warnings_.push_back(warning(file_, std::move(path), std::move(message)));
    }
    // An error at `path`, without an offset. O(1).
    Diagnostic error(std::string path, std::string message) const {
        return diagnostic_at(file_, Diagnostic::kNoOffset, std::move(path), std::move(message));
    }

  private:
    std::string file_;
    Diagnostics& warnings_;
};

// A read position in a buffer plus the file name used in diagnostics and the format whose ids
// its errors carry ("seanim" gives "seanim.truncated").
class ByteReader {
  public:
    explicit ByteReader(cast::Bytes data, std::string file = {}, std::size_t offset = 0,
                        std::string_view format = {})
        : data_(data), file_(std::move(file)), format_(format), pos_(offset) {}

    std::size_t offset() const { return pos_; }
    std::size_t size() const { return data_.size(); }
    std::size_t remaining() const { return data_.size() - pos_; }
    bool has(std::uint64_t bytes) const { return bytes <= remaining(); }
    const std::byte* here() const { return data_.data() + pos_; }
    void seek(std::size_t offset) { pos_ = offset; }
    void skip(std::size_t bytes) { pos_ += bytes; }
    const std::string& file() const { return file_; }

    // An error at `offset` naming the file and `path` (a section or JSON-like path).
    Diagnostic error_at(std::uint64_t offset, std::string path, std::string message) const {
        return diagnostic_at(file_, offset, std::move(path), std::move(message));
    }
    // Succeeds when `bytes` bytes remain; otherwise a truncation error naming `what`.
    Expected<void> need(std::uint64_t bytes, std::string_view what,
                        std::string_view path = {}) const;
    // Succeeds when [offset, offset + bytes) lies inside the buffer.
    Expected<void> need_range(std::uint64_t offset, std::uint64_t bytes, std::string_view what,
                              std::string_view path = {}) const;

    // Loads a T at the cursor and advances; the caller has checked the bytes.
    template <class T>
    T take() {
        T value = cast::load<T>(here());
        pos_ += sizeof(T);
        return value;
    }
    // An unsigned integer of `width` (1, 2 or 4) bytes; the caller has checked the bytes.
    std::uint32_t take_uint(unsigned width) {
        return width == 1   ? take<std::uint8_t>()
               : width == 2 ? take<std::uint16_t>()
                            : take<std::uint32_t>();
    }
    // A NUL-terminated string (checked), or nullopt when no NUL comes before the end.
    std::optional<std::string_view> take_cstr();
    // `length` checked bytes at the cursor as text; advances.
    std::string take_string(std::size_t length);
    // `length` checked bytes at the cursor, not copied; advances.
    cast::Bytes take_bytes(std::size_t length) {
        cast::Bytes out = data_.subspan(pos_, length);
        pos_ += length;
        return out;
    }
    // `length` bytes at an absolute offset checked with need_range(), not copied.
    cast::Bytes bytes_at(std::size_t offset, std::size_t length) const {
        return data_.subspan(offset, length);
    }

  private:
    cast::Bytes data_;
    std::string file_;
    std::string_view format_;
    std::size_t pos_ = 0;
};

// An output buffer that grows as little-endian values are appended.
class ByteWriter {
  public:
    std::size_t size() const { return bytes_.size(); }
    void reserve(std::size_t bytes) { bytes_.reserve(bytes); }
    template <class T>
    void put(const T& value) {
        std::size_t at = bytes_.size();
        bytes_.resize(at + sizeof(T));
        std::memcpy(bytes_.data() + at, &value, sizeof(T));
    }
    // An unsigned integer in `width` (1, 2 or 4) bytes, cut to that width.
    void put_uint(std::uint32_t value, unsigned width) {
        if (width == 1)
            put(static_cast<std::uint8_t>(value));
        else if (width == 2)
            put(static_cast<std::uint16_t>(value));
        else
            put(value);
    }
    // Overwrites a T written earlier at `offset`.
    template <class T>
    void patch(std::size_t offset, const T& value) {
        std::memcpy(bytes_.data() + offset, &value, sizeof(T));
    }
    void put_bytes(cast::Bytes data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }
    // The characters of `text`, without a terminator.
    void put_text(std::string_view text) {
        put_bytes(std::as_bytes(std::span(text.data(), text.size())));
    }
    // The characters of `text` and a NUL.
    void put_cstr(std::string_view text) {
        put_text(text);
        bytes_.push_back(std::byte{0});
    }
    void put_zeros(std::size_t count) { bytes_.resize(bytes_.size() + count); }
    std::vector<std::byte> take() { return std::move(bytes_); }

  private:
    std::vector<std::byte> bytes_;
};

// Writes `data` atomically to `path` (a temporary file, then a rename); "-" is standard output.
Expected<void> write_file(const std::filesystem::path& path, cast::Bytes data);

// write_file for a name that must not exist: false, and nothing written, when a file has
// that name by the time the data is in place (AtomicFile::commit_if_absent).
Expected<bool> write_new_file(const std::filesystem::path& path, cast::Bytes data);

// Writes what a format's serialiser returned (bytes or text) to `path` with write_file; when it
// returned an error instead, that error with `path` as its file. O(size).
template <class Buffer>
Expected<void> write_serialised(const std::filesystem::path& path,
                                const Expected<Buffer>& serialised) {
    if (!serialised) {
        Diagnostic d = serialised.error();
        d.file = platform::utf8_of(path);
        return make_error(std::move(d));
    }
    return write_file(path, std::as_bytes(std::span(*serialised)));
}

// Writes what a format's serialiser returned (bytes or text) into `sink`; when it returned an
// error instead, that error with `file` as its file. O(size).
template <class Buffer>
Expected<void> write_serialised(Sink& sink, const Expected<Buffer>& serialised,
                                std::string_view file) {
    if (!serialised) {
        Diagnostic d = serialised.error();
        d.file = std::string(file);
        return make_error(std::move(d));
    }
    sink.reserve(serialised->size());
    return sink.write(std::as_bytes(std::span(*serialised)));
}

// Maps `path` read-only and returns parse(bytes, the path as UTF-8), or the error that kept it from
// being mapped. O(1) before the parse touches the pages.
template <class Parse>
auto parse_mapped(const std::filesystem::path& path, Parse parse)
    -> decltype(parse(cast::Bytes{}, std::string{})) {
    auto mapped = platform::map_file(path);
    if (!mapped) return make_error(mapped.error());
    return parse((*mapped)->bytes(), platform::utf8_of(path));
}

}  // namespace castkit::formats
