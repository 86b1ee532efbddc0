// Little-endian byte cursors shared by the binary format readers and writers (K3D, DMF).
// Reading checks a whole span of bytes once, then loads unchecked with memcpy (rule 1); every
// size is computed in 64 bits so that a hostile count cannot wrap around.
#pragma once

#include <castkit/cast/node.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::formats {

// A read position in a buffer plus the file name used in diagnostics.
class ByteReader {
  public:
    ByteReader(cast::Bytes data, std::string file) : data_(data), file_(std::move(file)) {}

    std::size_t offset() const { return pos_; }
    std::size_t size() const { return data_.size(); }
    std::uint64_t remaining() const { return data_.size() - pos_; }
    void seek(std::size_t offset) { pos_ = offset; }
    const std::string& file() const { return file_; }

    // An error at `offset` naming the file and `path` (a section or JSON-like path).
    Diagnostic error_at(std::uint64_t offset, std::string path, std::string message) const;
    // Succeeds when `bytes` bytes remain; otherwise a truncation error naming `what`.
    Expected<void> need(std::uint64_t bytes, std::string_view what,
                        std::string_view path = {}) const;
    // Succeeds when [offset, offset + bytes) lies inside the buffer.
    Expected<void> need_range(std::uint64_t offset, std::uint64_t bytes, std::string_view what,
                              std::string_view path = {}) const;

    // Loads a T at the cursor and advances; the caller has checked the bytes with need().
    template <class T>
    T take() {
        T value = cast::load<T>(data_.data() + pos_);
        pos_ += sizeof(T);
        return value;
    }
    // Loads a T at an absolute offset checked with need_range().
    template <class T>
    T load_at(std::size_t offset) const {
        return cast::load<T>(data_.data() + offset);
    }
    // `length` bytes at the cursor as text; advances.
    std::string take_string(std::size_t length);
    cast::Bytes bytes_at(std::size_t offset, std::size_t length) const {
        return data_.subspan(offset, length);
    }
    void skip(std::size_t bytes) { pos_ += bytes; }

  private:
    cast::Bytes data_;
    std::string file_;
    std::size_t pos_ = 0;
};

// An output buffer that grows as values are appended.
class ByteWriter {
  public:
    std::size_t size() const { return bytes_.size(); }
    template <class T>
    void put(const T& value) {
        std::size_t at = bytes_.size();
        bytes_.resize(at + sizeof(T));
        std::memcpy(bytes_.data() + at, &value, sizeof(T));
    }
    // Overwrites a T written earlier at `offset`.
    template <class T>
    void patch(std::size_t offset, const T& value) {
        std::memcpy(bytes_.data() + offset, &value, sizeof(T));
    }
    void put_bytes(cast::Bytes data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }
    void put_text(std::string_view text) { put_bytes(std::as_bytes(std::span(text))); }
    void put_zeros(std::size_t count) { bytes_.resize(bytes_.size() + count); }
    std::vector<std::byte> take() { return std::move(bytes_); }

  private:
    std::vector<std::byte> bytes_;
};

// Writes `data` atomically to `path` (a temporary file, then a rename); "-" is standard output.
Expected<void> write_file(const std::filesystem::path& path, cast::Bytes data);

// A warning with the given location and message.
Diagnostic warning(std::string file, std::string path, std::string message);

}  // namespace castkit::formats
