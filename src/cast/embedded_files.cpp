// The files a document carries in memory (document.hpp): names unique blind to ASCII case, as
// the side-output writer and the file systems the files are written to compare them.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/document.hpp>
#include <cstring>

namespace castkit::cast {
namespace {

bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               const auto lower = [](char c) {
                   return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
               };
               return lower(x) == lower(y);
           });
}

bool same_bytes(Bytes a, Bytes b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

// `name` with "-n" before the extension of its last path part (`wall-2.png`), as
// SideOutputs::numbered names the files it writes.
std::string numbered(std::string_view name, int n) {
    const std::size_t part =
        name.find_last_of('/') == std::string_view::npos ? 0 : name.find_last_of('/') + 1;
    std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot <= part) dot = name.size();
    return fmt::format("{}-{}{}", name.substr(0, dot), n, name.substr(dot));
}

}  // namespace

std::string EmbeddedFiles::add(std::string_view name, SharedBytes bytes) {
    for (int n = 1;; ++n) {
        const std::string candidate = n == 1 ? std::string(name) : numbered(name, n);
        const EmbeddedFile* taken = find(candidate);
        if (taken == nullptr) {
            files_.push_back({candidate, std::move(bytes)});
            return candidate;
        }
        if (same_bytes(taken->bytes, bytes)) return taken->name;
    }
}

const EmbeddedFile* EmbeddedFiles::find(std::string_view name) const {
    for (const EmbeddedFile& file : files_)
        if (same_name(file.name, name)) return &file;
    return nullptr;
}

EmbeddedFiles EmbeddedFiles::detached() const {
    EmbeddedFiles copy;
    for (const EmbeddedFile& file : files_)
        copy.files_.push_back({file.name, file.bytes.detached()});
    return copy;
}

}  // namespace castkit::cast
