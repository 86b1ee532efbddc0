#include "side_outputs.hpp"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <functional>
#include <string_view>

#include "../platform/platform.hpp"
#include "binary_io.hpp"
#include "images.hpp"

namespace castkit {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxNumber = 1000;

// How the run tells two names apart: the real folder (links resolved) and the file name, in
// ASCII lower case (Windows and macOS file systems ignore case).
std::string key_of(const fs::path& path) {
    std::error_code error;
    const fs::path parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    fs::path folder = fs::weakly_canonical(fs::absolute(parent, error), error);
    const std::u8string text = (folder / path.filename()).generic_u8string();
    std::string key(text.begin(), text.end());
    for (char& c : key)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return key;
}

std::uint64_t hash_of(std::span<const std::byte> bytes) {
    return std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace

namespace formats {

bool holds(const fs::path& path, std::span<const std::byte> bytes) {
    std::error_code error;
    if (fs::file_size(path, error) != bytes.size() || error) return false;
    auto mapped = platform::map_file(path);
    if (!mapped) return false;
    const std::span<const std::byte> held = (*mapped)->bytes();
    return held.size() == bytes.size() &&
           (bytes.empty() || std::memcmp(held.data(), bytes.data(), bytes.size()) == 0);
}

}  // namespace formats

bool SideOutputs::reserve(const fs::path& path) {
    std::lock_guard lock(mutex_);
    return reserved_.insert(key_of(path)).second;
}

bool SideOutputs::reserved(const fs::path& path) const {
    std::lock_guard lock(mutex_);
    return reserved_.contains(key_of(path));
}

bool SideOutputs::wrote(const fs::path& path) const {
    std::lock_guard lock(mutex_);
    return written_.contains(key_of(path));
}

SideOutputs::Fit SideOutputs::fit(const fs::path& candidate, std::span<const std::byte> bytes,
                                  std::uint64_t hash) const {
    const std::string key = key_of(candidate);
    if (reserved_.contains(key)) return Fit::Taken;
    if (auto it = written_.find(key); it != written_.end())
        return it->second.size == bytes.size() && it->second.hash == hash &&
                       it->second.path == candidate && formats::holds(candidate, bytes)
                   ? Fit::Same
                   : Fit::Taken;
    std::error_code error;
    const fs::file_status status = fs::symlink_status(candidate, error);
    if (status.type() == fs::file_type::not_found) return Fit::Free;
    return fs::is_regular_file(status) && formats::holds(candidate, bytes) ? Fit::Same : Fit::Taken;
}

fs::path SideOutputs::numbered(const fs::path& wanted, int n) {
    if (n == 1) return wanted;
    return wanted.parent_path() /
           platform::path_from_utf8(fmt::format("{}-{}{}", platform::utf8_of(wanted.stem()), n,
                                                platform::utf8_of(wanted.extension())));
}

// The lock is held through the write: two workers never pick one free name.
Expected<SideOutputs::Written> SideOutputs::write(const fs::path& wanted,
                                                  std::span<const std::byte> bytes) {
    const std::uint64_t hash = hash_of(bytes);
    std::lock_guard lock(mutex_);
    for (int n = 1; n <= kMaxNumber; ++n) {
        const fs::path candidate = numbered(wanted, n);
        const Fit found = fit(candidate, bytes, hash);
        if (found == Fit::Taken) continue;
        if (found == Fit::Free) {
            // Created only if still absent: a file another program put there since fit() looked
            // is never replaced; that name is then taken.
            auto created = formats::write_new_file(candidate, bytes);
            if (!created) return make_error(created.error());
            if (!*created) continue;
        }
        written_[key_of(candidate)] = {candidate, bytes.size(), hash};
        return Written{candidate, n > 1};
    }
    return make_error(Diagnostic{
        .file = platform::utf8_of(wanted),
        .path = "/",
        .rule = "io.system",
        .message = fmt::format("no free name: every one up to '{}' is another file",
                               platform::utf8_of(numbered(wanted, kMaxNumber).filename()))});
}

namespace formats {

std::shared_ptr<SideOutputs> side_outputs_for(const FormatOptions& options) {
    return options.side_outputs ? options.side_outputs : std::make_shared<SideOutputs>();
}

std::string_view image_extension_of(std::span<const std::byte> bytes) {
    auto starts = [&](std::size_t at, std::string_view magic) {
        return bytes.size() >= at + magic.size() &&
               std::memcmp(bytes.data() + at, magic.data(), magic.size()) == 0;
    };
    const std::string_view signed_as = images::signature_mime_type(bytes);
    if (signed_as == "image/png") return ".png";
    if (signed_as == "image/jpeg") return ".jpg";
    if (starts(0, "\xABKTX 20\xBB\r\n\x1A\n")) return ".ktx2";
    if (starts(0, "RIFF") && starts(8, "WEBP")) return ".webp";
    if (starts(0, "DDS ")) return ".dds";
    return ".bin";
}

std::string renamed_message(std::string_view what, const fs::path& wanted,
                            const SideOutputs::Written& written) {
    return fmt::format(
        "{} was written as '{}': '{}' is another file (castkit never replaces a file it did not "
        "write) or another output of this run",
        what, platform::utf8_of(written.path.filename()), platform::utf8_of(wanted.filename()));
}

}  // namespace formats
}  // namespace castkit
