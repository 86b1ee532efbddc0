// Windows implementation of platform.hpp: file mappings, and MoveFileExW for atomic output.
#include "platform.hpp"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "live_temporaries.hpp"

namespace castkit::platform {
namespace {

detail::LiveTemporaries<wchar_t> live_temporaries;

}  // namespace

template <>
void detail::LiveTemporaries<wchar_t>::pause_a_millisecond() {
    Sleep(1);
}

namespace {

// Runs on a thread of its own when the console is interrupted. A temporary file is open here,
// shared for deletion: DeleteFileW marks it, and the system removes it as the process ends.
BOOL WINAPI remove_temporaries_on_console_event(DWORD event) {
    if (event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT || event == CTRL_CLOSE_EVENT)
        live_temporaries.remove_all([](const wchar_t* path) { DeleteFileW(path); });
    return FALSE;  // the next handler, the system's own, ends the process as before
}

// A console or other character device (NUL, CON, COM1) named as a file: never read.
bool is_device(HANDLE file) { return GetFileType(file) == FILE_TYPE_CHAR; }

class WindowsMappedFile final : public MappedFile {
  public:
    WindowsMappedFile(const void* view, std::size_t size) : view_(view), size_(size) {}
    ~WindowsMappedFile() override {
        if (view_ != nullptr) UnmapViewOfFile(view_);
    }
    std::span<const std::byte> bytes() const override {
        return {static_cast<const std::byte*>(view_), size_};
    }

  private:
    const void* view_;
    std::size_t size_;
};

// UTF-8 from UTF-16; O(length).
std::string utf8_from_wide(const wchar_t* text, int length) {
    const int bytes = WideCharToMultiByte(CP_UTF8, 0, text, length, nullptr, 0, nullptr, nullptr);
    std::string out(bytes > 0 ? static_cast<std::size_t>(bytes) : 0, '\0');
    if (bytes > 0)
        WideCharToMultiByte(CP_UTF8, 0, text, length, out.data(), bytes, nullptr, nullptr);
    return out;
}

// The system's own text for a Windows error code (std::system_category gives C-library texts
// for these codes with some runtimes), with the code itself.
Diagnostic last_error(const std::filesystem::path& path, const std::string& what) {
    const DWORD code = GetLastError();
    wchar_t* text = nullptr;
    const DWORD length = FormatMessageW(
        FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
        nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
    std::string reason = length > 0 ? utf8_from_wide(text, static_cast<int>(length)) : "";
    if (text != nullptr) LocalFree(text);
    while (!reason.empty() &&
           (reason.back() == '\n' || reason.back() == '\r' || reason.back() == '.'))
        reason.pop_back();
    Diagnostic d = os_error(path, what, static_cast<int>(code));
    d.message = what;
    d.message.append(": ").append(reason.empty() ? "error" : reason);
    d.message.append(" (Windows error ").append(std::to_string(code)).append(")");
    return d;
}

class WindowsAtomicFile final : public AtomicFile {
  public:
    WindowsAtomicFile(HANDLE handle, std::filesystem::path temp, int slot,
                      std::filesystem::path target)
        : handle_(handle), temp_(std::move(temp)), slot_(slot), target_(std::move(target)) {}
    ~WindowsAtomicFile() override {
        if (handle_ != INVALID_HANDLE_VALUE) CloseHandle(handle_);
        if (!committed_) DeleteFileW(temp_.c_str());
        live_temporaries.forget(slot_);
    }
    Expected<void> write(std::span<const std::byte> data) override {
        while (!data.empty()) {
            DWORD chunk = data.size() > (1u << 30) ? (1u << 30) : static_cast<DWORD>(data.size());
            DWORD written = 0;
            if (!WriteFile(handle_, data.data(), chunk, &written, nullptr))
                return make_error(last_error(target_, "cannot write"));
            data = data.subspan(written);
        }
        return {};
    }
    Expected<void> commit() override {
        CloseHandle(handle_);
        handle_ = INVALID_HANDLE_VALUE;
        if (!MoveFileExW(temp_.c_str(), target_.c_str(),
                         MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
            return make_error(last_error(target_, "cannot replace"));
        committed_ = true;
        return {};
    }
    Expected<bool> commit_if_absent() override {
        CloseHandle(handle_);
        handle_ = INVALID_HANDLE_VALUE;
        // Without MOVEFILE_REPLACE_EXISTING the move fails on an existing name.
        if (!MoveFileExW(temp_.c_str(), target_.c_str(), MOVEFILE_WRITE_THROUGH)) {
            const DWORD code = GetLastError();
            if (code == ERROR_ALREADY_EXISTS || code == ERROR_FILE_EXISTS) return false;
            return make_error(last_error(target_, "cannot create"));
        }
        committed_ = true;
        return true;
    }

  private:
    HANDLE handle_;
    std::filesystem::path temp_;
    int slot_;  // in live_temporaries
    std::filesystem::path target_;
    bool committed_ = false;
};

}  // namespace

Expected<std::shared_ptr<const MappedFile>> map_file(const std::filesystem::path& path) {
    HANDLE file = CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                              FILE_FLAG_SEQUENTIAL_SCAN, nullptr);
    if (file == INVALID_HANDLE_VALUE) return make_error(last_error(path, "cannot open"));
    if (is_device(file)) {
        CloseHandle(file);
        return make_error(not_a_file(path));
    }
    LARGE_INTEGER size{};
    GetFileSizeEx(file, &size);
    const void* view = nullptr;
    if (size.QuadPart > 0) {
        HANDLE mapping = CreateFileMappingW(file, nullptr, PAGE_READONLY, 0, 0, nullptr);
        if (mapping == nullptr) {
            CloseHandle(file);
            return make_error(last_error(path, "cannot map"));
        }
        view = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
        CloseHandle(mapping);
        if (view == nullptr) {
            CloseHandle(file);
            return make_error(last_error(path, "cannot map"));
        }
    }
    CloseHandle(file);
    return std::shared_ptr<const MappedFile>(
        std::make_shared<WindowsMappedFile>(view, static_cast<std::size_t>(size.QuadPart)));
}

Expected<std::shared_ptr<const MappedFile>> load_file(const std::filesystem::path& path) {
    HANDLE file = CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
                              nullptr, OPEN_EXISTING, FILE_FLAG_SEQUENTIAL_SCAN, nullptr);
    if (file == INVALID_HANDLE_VALUE) return make_error(last_error(path, "cannot open"));
    if (is_device(file)) {
        CloseHandle(file);
        return make_error(not_a_file(path));
    }
    std::vector<std::byte> data;
    std::byte chunk[1 << 16];
    for (DWORD n = 0;; data.insert(data.end(), chunk, chunk + n)) {
        if (!ReadFile(file, chunk, sizeof chunk, &n, nullptr)) {
            Diagnostic error = last_error(path, "cannot read");
            CloseHandle(file);
            return make_error(std::move(error));
        }
        if (n == 0) break;
    }
    CloseHandle(file);
    return hold_in_memory(std::move(data));
}

namespace {

// The end of the readable region of a mapped file view that holds `last` (one byte), or
// nullptr when `last` is not in one. Views are committed up to their last page, which holds
// zeros past the end of the file; the region VirtualQuery reports runs to the end of that page.
const std::byte* end_of_view_holding(const std::byte* last) {
    MEMORY_BASIC_INFORMATION region{};
    if (VirtualQuery(last, &region, sizeof region) == 0) return nullptr;
    constexpr DWORD kReadable = PAGE_READONLY | PAGE_READWRITE | PAGE_WRITECOPY |
                                PAGE_EXECUTE_READ | PAGE_EXECUTE_READWRITE | PAGE_EXECUTE_WRITECOPY;
    if (region.Type != MEM_MAPPED || region.State != MEM_COMMIT ||
        (region.Protect & kReadable) == 0 || (region.Protect & PAGE_GUARD) != 0)
        return nullptr;
    return static_cast<const std::byte*>(region.BaseAddress) + region.RegionSize;
}

}  // namespace

std::size_t readable_past_end(std::span<const std::byte> bytes) {
    if (bytes.empty()) return 0;
    const std::byte* end = bytes.data() + bytes.size();
    const std::byte* view_end = end_of_view_holding(end - 1);
    return view_end == nullptr ? 0 : static_cast<std::size_t>(view_end - end);
}

void release_pages(std::span<const std::byte> bytes) {
    if (bytes.empty() || end_of_view_holding(bytes.data()) == nullptr) return;
    // VirtualUnlock on pages that are not locked takes them out of the working set (it then
    // reports ERROR_NOT_LOCKED, which is expected); a mapped view's pages stay in the file.
    SYSTEM_INFO system{};
    GetSystemInfo(&system);
    const auto page = static_cast<std::uintptr_t>(system.dwPageSize);
    const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data());
    const std::uintptr_t first = (begin + page - 1) / page * page;
    const std::uintptr_t last = (begin + bytes.size()) / page * page;
    if (first < last) VirtualUnlock(reinterpret_cast<void*>(first), last - first);
}

Expected<std::unique_ptr<AtomicFile>> create_atomic_file(const std::filesystem::path& path,
                                                         std::uint64_t expected_size) {
    std::filesystem::path temp = path;
    const std::string& tag = temporary_tag_prefix();  // letters, digits and '-': ASCII
    temp += L".castkit-" + std::wstring(tag.begin(), tag.end()) +
            std::to_wstring(GetCurrentProcessId()) + L"-" + std::to_wstring(GetTickCount64());
    // Recorded before it exists; shared for deletion so that an interruption can remove it.
    const std::optional<int> recorded = live_temporaries.add(temp.native());
    if (!recorded) return make_error(os_error(path, "interrupted before writing", EINTR));
    const int slot = *recorded;
    HANDLE handle = CreateFileW(temp.c_str(), GENERIC_WRITE, FILE_SHARE_DELETE, nullptr, CREATE_NEW,
                                FILE_ATTRIBUTE_NORMAL, nullptr);
    if (handle == INVALID_HANDLE_VALUE) {
        Diagnostic error = last_error(path, "cannot create a temporary file");
        live_temporaries.forget(slot);
        live_temporaries.created();
        return make_error(std::move(error));
    }
    if (live_temporaries.ending()) {  // interrupted meanwhile: leave nothing
        CloseHandle(handle);
        DeleteFileW(temp.c_str());
        live_temporaries.created();
        return make_error(os_error(path, "interrupted before writing", EINTR));
    }
    live_temporaries.created();
    if (expected_size > 0) {  // reserves clusters without moving the end of file; advice only
        FILE_ALLOCATION_INFO allocation{};
        allocation.AllocationSize.QuadPart = static_cast<LONGLONG>(expected_size);
        SetFileInformationByHandle(handle, FileAllocationInfo, &allocation, sizeof allocation);
    }
    return std::unique_ptr<AtomicFile>(
        std::make_unique<WindowsAtomicFile>(handle, temp, slot, path));
}

void remove_temporaries_on_interrupt() {
    SetConsoleCtrlHandler(remove_temporaries_on_console_event, TRUE);
}

std::optional<std::int64_t> last_write_ticks(const std::filesystem::path& path) {
    WIN32_FILE_ATTRIBUTE_DATA data{};
    if (!GetFileAttributesExW(path.c_str(), GetFileExInfoStandard, &data)) return std::nullopt;
    const FILETIME& time = data.ftLastWriteTime;
    return static_cast<std::int64_t>((std::uint64_t{time.dwHighDateTime} << 32) |
                                     time.dwLowDateTime);
}

Expected<void> write_stdout(std::span<const std::byte> data) {
    _setmode(_fileno(stdout), _O_BINARY);
    if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size() || std::fflush(stdout) != 0)
        return make_error(os_error("<stdout>", "cannot write", static_cast<int>(GetLastError())));
    return {};
}

Expected<std::vector<std::byte>> read_stdin() {
    _setmode(_fileno(stdin), _O_BINARY);
    std::vector<std::byte> data;
    std::byte chunk[1 << 16];
    std::size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, stdin)) > 0)
        data.insert(data.end(), chunk, chunk + n);
    return data;
}

}  // namespace castkit::platform
