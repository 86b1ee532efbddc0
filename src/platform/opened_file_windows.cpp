// Windows implementation of opened_file.hpp: CreateFileW, the handle's file type and size, and
// GetFinalPathNameByHandleW for the real path of what was opened.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <string>

#include "opened_file.hpp"
#include "platform.hpp"

namespace castkit::platform {
namespace {

Diagnostic refusal(const std::filesystem::path& path, std::string message) {
    Diagnostic d;
    d.file = utf8_of(path);
    d.rule = "io.system";
    d.message = std::move(message);
    return d;
}

Diagnostic windows_error(const std::filesystem::path& path, const std::string& what) {
    return os_error(path, what, static_cast<int>(GetLastError()));
}

// The final path of open handle `handle` as a plain DOS path (`C:\a\b`, `\\server\share\b`);
// empty when the system cannot say.
std::filesystem::path final_path(HANDLE handle) {
    constexpr DWORD kFlags = FILE_NAME_NORMALIZED | VOLUME_NAME_DOS;
    std::wstring text(MAX_PATH, L'\0');
    DWORD length =
        GetFinalPathNameByHandleW(handle, text.data(), static_cast<DWORD>(text.size()), kFlags);
    if (length >= text.size()) {  // too small: length is the size needed, with the terminator
        text.assign(length, L'\0');
        length =
            GetFinalPathNameByHandleW(handle, text.data(), static_cast<DWORD>(text.size()), kFlags);
    }
    if (length == 0 || length >= text.size()) return {};
    text.resize(length);
    if (text.rfind(L"\\\\?\\UNC\\", 0) == 0) return L"\\\\" + text.substr(8);
    if (text.rfind(L"\\\\?\\", 0) == 0) return text.substr(4);
    return text;
}

class WindowsOpenedFile final : public OpenedFile {
  public:
    WindowsOpenedFile(HANDLE handle, std::filesystem::path real, std::uint64_t size)
        : handle_(handle), real_(std::move(real)), size_(size) {}
    ~WindowsOpenedFile() override { CloseHandle(handle_); }
    const std::filesystem::path& real_path() const override { return real_; }
    std::uint64_t size() const override { return size_; }
    Expected<std::vector<std::byte>> read() override {
        std::vector<std::byte> data(static_cast<std::size_t>(size_));
        std::size_t filled = 0;
        while (filled < data.size()) {
            const std::size_t left = data.size() - filled;
            const DWORD chunk = left > (1u << 30) ? (1u << 30) : static_cast<DWORD>(left);
            DWORD n = 0;
            if (!ReadFile(handle_, data.data() + filled, chunk, &n, nullptr))
                return make_error(windows_error(real_, "cannot read"));
            if (n == 0) break;
            filled += n;
        }
        data.resize(filled);
        return data;
    }

    Expected<std::shared_ptr<const MappedFile>> load() override {
        auto data = read();
        if (!data) return make_error(data.error());
        return hold_in_memory(std::move(*data));
    }

  private:
    HANDLE handle_;
    std::filesystem::path real_;
    std::uint64_t size_;
};

// `path` opened for reading with `flags`, as an OpenedFile when the handle is a regular file of
// at most `max_size` bytes (with `no_reparse`, not a reparse point either: a link or junction
// is refused, not followed). Null for a missing file when `missing_is_null`.
Expected<std::unique_ptr<OpenedFile>> open_handle(const std::filesystem::path& path,
                                                  std::uint64_t max_size, DWORD flags,
                                                  bool no_reparse, bool missing_is_null) {
    HANDLE handle = CreateFileW(path.c_str(), GENERIC_READ,
                                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                OPEN_EXISTING, FILE_FLAG_SEQUENTIAL_SCAN | flags, nullptr);
    if (handle == INVALID_HANDLE_VALUE) {
        const DWORD code = GetLastError();
        if (missing_is_null && (code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND))
            return std::unique_ptr<OpenedFile>();
        // A folder cannot be opened as a file (access denied): refused either way, and said as
        // on POSIX. The attributes only choose the message.
        const DWORD attributes = GetFileAttributesW(path.c_str());
        if (code == ERROR_ACCESS_DENIED && attributes != INVALID_FILE_ATTRIBUTES &&
            (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0)
            return make_error(refusal(path, "is not a regular file"));
        return make_error(os_error(path, "cannot open", static_cast<int>(code)));
    }
    auto refuse = [&](Diagnostic why) {
        CloseHandle(handle);
        return make_error(std::move(why));
    };
    BY_HANDLE_FILE_INFORMATION info{};
    if (GetFileType(handle) != FILE_TYPE_DISK || !GetFileInformationByHandle(handle, &info) ||
        (info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_DEVICE)) != 0)
        return refuse(refusal(path, "is not a regular file"));
    if (no_reparse && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0)
        return refuse(refusal(path, "is a link: refused"));
    const std::uint64_t size = (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow;
    if (size > max_size)
        return refuse(
            refusal(path, "is larger than the " + std::to_string(max_size) + " bytes allowed"));
    std::filesystem::path real = final_path(handle);
    if (real.empty()) return refuse(windows_error(path, "cannot tell where it is"));
    return std::unique_ptr<OpenedFile>(std::make_unique<WindowsOpenedFile>(handle, real, size));
}

// A folder held open without FILE_SHARE_DELETE, so that it cannot be renamed, removed or
// replaced by a link while castkit reads beneath it.
class WindowsOpenedFolder final : public OpenedFolder {
  public:
    WindowsOpenedFolder(HANDLE handle, std::filesystem::path path, std::filesystem::path real)
        : handle_(handle), path_(std::move(path)), real_(std::move(real)) {}
    ~WindowsOpenedFolder() override { CloseHandle(handle_); }
    const std::filesystem::path& path() const override { return path_; }
    const std::filesystem::path& real_path() const override { return real_; }
    Expected<std::unique_ptr<OpenedFile>> open_file(const std::filesystem::path& relative,
                                                    std::uint64_t max_size) const override {
        const std::filesystem::path shown = path_ / relative;
        if (relative.has_root_path() || (!relative.empty() && *relative.begin() == ".."))
            return make_error(leads_outside(shown));
        auto opened =
            open_handle(real_ / relative, max_size, FILE_FLAG_OPEN_REPARSE_POINT, true, true);
        if (!opened || !*opened) return opened;
        // A folder on the way that is a junction or link leading out shows in the final path.
        if (!inside((*opened)->real_path(), real_)) return make_error(leads_outside(shown));
        return opened;
    }

  private:
    // Its own id, so that a caller can say which opt-in would follow the link.
    Diagnostic leads_outside(const std::filesystem::path& shown) const {
        Diagnostic d = refusal(shown, "leads outside '" + utf8_of(real_) + "' through a link");
        d.rule = "io.link-outside";
        return d;
    }

    HANDLE handle_;
    std::filesystem::path path_, real_;
};

}  // namespace

Expected<std::unique_ptr<OpenedFile>> open_regular_file(const std::filesystem::path& path,
                                                        std::uint64_t max_size) {
    return open_handle(path, max_size, 0, false, false);
}

Expected<std::shared_ptr<const OpenedFolder>> open_folder(const std::filesystem::path& path) {
    // FILE_FLAG_BACKUP_SEMANTICS opens folders; FILE_LIST_DIRECTORY is all it is opened for.
    HANDLE handle =
        CreateFileW(path.c_str(), FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                    OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (handle == INVALID_HANDLE_VALUE) return make_error(windows_error(path, "cannot open"));
    std::filesystem::path real = final_path(handle);
    if (real.empty()) {
        const DWORD code = GetLastError();
        CloseHandle(handle);
        return make_error(os_error(path, "cannot tell where it is", static_cast<int>(code)));
    }
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error).lexically_normal();
    return std::shared_ptr<const OpenedFolder>(
        std::make_shared<WindowsOpenedFolder>(handle, std::move(absolute), std::move(real)));
}

Expected<std::filesystem::path> real_path(const std::filesystem::path& path) {
    // FILE_FLAG_BACKUP_SEMANTICS opens folders too; no access is asked for, only the name.
    HANDLE handle =
        CreateFileW(path.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (handle == INVALID_HANDLE_VALUE) return make_error(windows_error(path, "cannot open"));
    std::filesystem::path real = final_path(handle);
    const DWORD code = GetLastError();
    CloseHandle(handle);
    if (real.empty())
        return make_error(os_error(path, "cannot tell where it is", static_cast<int>(code)));
    return real;
}

}  // namespace castkit::platform
