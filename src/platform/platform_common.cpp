#include <cctype>
#include <cstdio>
#include <string>
#include <system_error>

#include "platform.hpp"

namespace castkit::platform {
namespace {

class InMemoryFile final : public MappedFile {
  public:
    explicit InMemoryFile(std::vector<std::byte> bytes) : bytes_(std::move(bytes)) {}
    std::span<const std::byte> bytes() const override { return bytes_; }

  private:
    std::vector<std::byte> bytes_;
};

// The current thread's TemporaryTag followed by '-', or empty.
thread_local std::string temporary_tag;

}  // namespace

TemporaryTag::TemporaryTag(std::string_view tag) : previous_(temporary_tag) {
    std::string kept;
    for (char c : tag)
        if (std::isalnum(static_cast<unsigned char>(c))) kept += c;
    temporary_tag = kept.empty() ? kept : kept + '-';
}

TemporaryTag::~TemporaryTag() { temporary_tag = previous_; }

const std::string& temporary_tag_prefix() { return temporary_tag; }

std::shared_ptr<const MappedFile> hold_in_memory(std::vector<std::byte> bytes) {
    return std::make_shared<InMemoryFile>(std::move(bytes));
}

std::filesystem::path path_from_utf8(std::string_view text) {
    try {
        return std::filesystem::path(std::u8string(text.begin(), text.end()));
    } catch (const std::exception&) {
        // Windows keeps names in UTF-16, so text that is not UTF-8 (a name in a hostile file)
        // names nothing there and the conversion throws. Every byte past ASCII becomes '_': a
        // usable path that the side-file rules then judge like any other.
        std::string ascii(text);
        for (char& c : ascii)
            if (static_cast<unsigned char>(c) >= 0x80) c = '_';
        return std::filesystem::path(ascii);
    }
}

std::string utf8_of(const std::filesystem::path& path) {
    const std::u8string text = path.u8string();
    return std::string(text.begin(), text.end());
}

Diagnostic os_error(const std::filesystem::path& path, const std::string& what, int code) {
    Diagnostic d;
    d.file = utf8_of(path);
    d.rule = "io.system";
    d.message = what + ": " + std::system_category().message(code);
    return d;
}

Diagnostic not_a_file(const std::filesystem::path& path) {
    Diagnostic d;
    d.file = utf8_of(path);
    d.rule = "io.not-a-file";
    d.message = "not a regular file, pipe or standard input (a device is never read)";
    return d;
}

}  // namespace castkit::platform
