#include "binary_io.hpp"

#include <fmt/format.h>

#include "../../platform/platform.hpp"

namespace castkit::formats {

Diagnostic ByteReader::error_at(std::uint64_t offset, std::string path, std::string message) const {
    Diagnostic d;
    d.file = file_;
    d.offset = offset;
    d.path = std::move(path);
    d.message = std::move(message);
    return d;
}

Expected<void> ByteReader::need(std::uint64_t bytes, std::string_view what,
                                std::string_view path) const {
    return need_range(pos_, bytes, what, path);
}

Expected<void> ByteReader::need_range(std::uint64_t offset, std::uint64_t bytes,
                                      std::string_view what, std::string_view path) const {
    if (offset <= data_.size() && bytes <= data_.size() - offset) return {};
    return make_error(
        error_at(offset, std::string(path),
                 fmt::format("truncated: {} needs {} bytes at offset {:#x}, the file has {}", what,
                             bytes, offset, data_.size())));
}

std::string ByteReader::take_string(std::size_t length) {
    std::string text(reinterpret_cast<const char*>(data_.data() + pos_), length);
    pos_ += length;
    return text;
}

Expected<void> write_file(const std::filesystem::path& path, cast::Bytes data) {
    if (path == "-") return platform::write_stdout(data);
    auto file = platform::create_atomic_file(path);
    if (!file) return make_error(file.error());
    if (auto ok = (*file)->write(data); !ok) return ok;
    return (*file)->commit();
}

Diagnostic warning(std::string file, std::string path, std::string message) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.file = std::move(file);
    d.path = std::move(path);
    d.message = std::move(message);
    return d;
}

}  // namespace castkit::formats
