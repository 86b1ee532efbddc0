#include "binary_io.hpp"

#include <fmt/format.h>

#include "../platform/platform.hpp"

namespace castkit::formats {

Diagnostic diagnostic_at(std::string_view file, std::uint64_t offset, std::string path,
                         std::string message, Severity severity) {
    Diagnostic d;
    d.severity = severity;
    d.file = std::string(file);
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
    Diagnostic d =
        error_at(offset, std::string(path),
                 fmt::format("truncated: {} needs {} bytes at offset {:#x}, the file has {}", what,
                             bytes, offset, data_.size()));
    if (!format_.empty()) d.rule = fmt::format("{}.truncated", format_);
    return make_error(std::move(d));
}

std::optional<std::string_view> ByteReader::take_cstr() {
    if (remaining() == 0) return std::nullopt;
    const char* begin = reinterpret_cast<const char*>(here());
    const void* nul = std::memchr(begin, 0, remaining());
    if (nul == nullptr) return std::nullopt;
    std::size_t length = static_cast<std::size_t>(static_cast<const char*>(nul) - begin);
    pos_ += length + 1;
    return std::string_view(begin, length);
}

std::string ByteReader::take_string(std::size_t length) {
    std::string text(reinterpret_cast<const char*>(here()), length);
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

Expected<bool> write_new_file(const std::filesystem::path& path, cast::Bytes data) {
    auto file = platform::create_atomic_file(path);
    if (!file) return make_error(file.error());
    if (auto ok = (*file)->write(data); !ok) return make_error(ok.error());
    return (*file)->commit_if_absent();
}

}  // namespace castkit::formats
