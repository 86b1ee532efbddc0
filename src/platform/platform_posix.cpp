// POSIX implementation of platform.hpp: mmap, and write + fsync-free rename for atomic output.
// The performance choices here (file-to-file copies, preallocation) are measured by bench/run.py.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>  // renameat2
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "live_temporaries.hpp"
#include "load_posix.hpp"
#include "platform.hpp"

namespace castkit::platform {
namespace {

// Every live mapping, so that output taken from one can be copied file to file (see
// copy_from_mapping), and parsers can ask what of one they may read past its end or give back
// (readable_past_end, release_pages). Mappings register on creation and leave on destruction.
struct MappingRecord {
    std::uintptr_t begin;
    std::uintptr_t end;
    int fd;
};
std::mutex mappings_mutex;
std::vector<MappingRecord> mappings;

std::uintptr_t page_size() { return static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE)); }

// The end of the live mapping that holds all of `bytes`, or 0 when none does.
std::uintptr_t end_of_mapping_holding(std::span<const std::byte> bytes) {
    if (bytes.empty()) return 0;
    const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data());
    const std::uintptr_t end = begin + bytes.size();
    std::lock_guard lock(mappings_mutex);
    for (const MappingRecord& r : mappings)
        if (begin >= r.begin && end <= r.end) return r.end;
    return 0;
}

class PosixMappedFile final : public MappedFile {
  public:
    // Takes ownership of `fd`, kept open so that writes can copy from the file itself.
    PosixMappedFile(void* address, std::size_t size, int fd)
        : address_(address), size_(size), fd_(fd) {
        if (address_ == nullptr) return;
        const auto begin = reinterpret_cast<std::uintptr_t>(address_);
        std::lock_guard lock(mappings_mutex);
        mappings.push_back({begin, begin + size_, fd_});
    }
    ~PosixMappedFile() override {
        if (address_ != nullptr) {
            std::lock_guard lock(mappings_mutex);
            std::erase_if(mappings, [&](const MappingRecord& r) {
                return r.begin == reinterpret_cast<std::uintptr_t>(address_);
            });
            munmap(address_, size_);
        }
        ::close(fd_);
    }
    std::span<const std::byte> bytes() const override {
        return {static_cast<const std::byte*>(address_), size_};
    }

  private:
    void* address_;
    std::size_t size_;
    int fd_;
};

// Writes the front of `data` that lies in a live mapping with copy_file_range, file to file in
// the kernel as `cp` does, instead of write() from the mapping: a 1 GiB `castkit convert` takes
// about half the CPU time this way (bench/run.py). Returns what is left for write(): all of
// `data` when it is small, not in a mapping, or the kernel cannot copy between these files.
std::span<const std::byte> copy_from_mapping(int fd, std::span<const std::byte> data) {
#ifdef __linux__
    constexpr std::size_t kCopyAbove = std::size_t{1} << 16;
    if (data.size() < kCopyAbove) return data;
    const auto begin = reinterpret_cast<std::uintptr_t>(data.data());
    int source = -1;
    off_t offset = 0;
    {
        std::lock_guard lock(mappings_mutex);
        for (const MappingRecord& r : mappings)
            if (begin >= r.begin && begin + data.size() <= r.end) {
                source = r.fd;
                offset = static_cast<off_t>(begin - r.begin);
                break;
            }
    }
    while (source >= 0 && !data.empty()) {
        ssize_t n = ::copy_file_range(source, &offset, fd, nullptr, data.size(), 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // EXDEV, EINVAL, ENOSYS, …: write() does the rest
        data = data.subspan(static_cast<std::size_t>(n));
    }
#else
    (void)fd;
#endif
    return data;
}

Expected<void> write_all(int fd, std::span<const std::byte> data,
                         const std::filesystem::path& path) {
    data = copy_from_mapping(fd, data);
    while (!data.empty()) {
        ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return make_error(os_error(path, "cannot write", errno));
        }
        data = data.subspan(static_cast<std::size_t>(n));
    }
    return {};
}

Expected<std::vector<std::byte>> read_all(int fd, const std::filesystem::path& path) {
    std::vector<std::byte> data;
    std::byte chunk[1 << 16];
    for (;;) {
        ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR) continue;
            return make_error(os_error(path, "cannot read", errno));
        }
        if (n == 0) break;
        data.insert(data.end(), chunk, chunk + n);
    }
    return data;
}

detail::LiveTemporaries<char> live_temporaries;

}  // namespace

template <>
void detail::LiveTemporaries<char>::pause_a_millisecond() {
    const timespec millisecond{0, 1000000};
    ::nanosleep(&millisecond, nullptr);  // async-signal-safe
}

namespace {

extern "C" void remove_temporaries_and_reraise(int signal) {
    live_temporaries.remove_all([](const char* path) { ::unlink(path); });
    // The default action, raised again, ends the process by this signal (the shell's 128 + n).
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    ::sigaction(signal, &default_action, nullptr);
    ::raise(signal);
}

// `length` random letters and digits for a temporary file's name. O(length).
std::string random_name(std::size_t length) {
    static constexpr char kAlphabet[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    thread_local std::minstd_rand generator{std::random_device{}()};
    std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 2);
    std::string name(length, ' ');
    for (char& c : name) c = kAlphabet[pick(generator)];
    return name;
}

class PosixAtomicFile final : public AtomicFile {
  public:
    PosixAtomicFile(int fd, std::string temp, int slot, std::filesystem::path target,
                    std::uint64_t reserved)
        : fd_(fd),
          temp_(std::move(temp)),
          slot_(slot),
          target_(std::move(target)),
          reserved_(reserved) {}
    ~PosixAtomicFile() override {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temp_.c_str());
        live_temporaries.forget(slot_);
    }
    Expected<void> write(std::span<const std::byte> data) override {
        written_ += data.size();
        return write_all(fd_, data, target_);
    }
    Expected<void> commit() override {
        if (auto closed = finish(); !closed) return closed;
        if (::rename(temp_.c_str(), target_.c_str()) != 0)
            return make_error(os_error(target_, "cannot replace", errno));
        committed_ = true;
        return {};
    }
    Expected<bool> commit_if_absent() override {
        if (auto closed = finish(); !closed) return make_error(closed.error());
#ifdef __linux__
        if (::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) ==
            0) {
            committed_ = true;
            return true;
        }
        if (errno == EEXIST) return false;
        if (errno != EINVAL && errno != ENOSYS)
            return make_error(os_error(target_, "cannot create", errno));
#endif
        // No atomic no-replace rename here: a hard link fails the same way on an existing name.
        if (::link(temp_.c_str(), target_.c_str()) != 0) {
            if (errno == EEXIST) return false;
            if (!lacks_hard_links(errno))
                return make_error(os_error(target_, "cannot create", errno));
            return rename_if_absent();
        }
        ::unlink(temp_.c_str());
        committed_ = true;
        return true;
    }

  private:
    // Whether link() failed because the file system has no hard links (FAT and exFAT: EPERM;
    // the browser's in-memory file system: EMLINK), not because of the name.
    static bool lacks_hard_links(int error) {
        return error == EPERM || error == EMLINK || error == ENOTSUP || error == ENOSYS;
    }

    // Where there are no hard links: a rename after checking that the name is free. Another
    // process could take the name between the two; no call closes that gap on such a file
    // system, and in the browser no other process exists.
    Expected<bool> rename_if_absent() {
        struct stat existing;
        if (::lstat(target_.c_str(), &existing) == 0) return false;
        if (::rename(temp_.c_str(), target_.c_str()) != 0)
            return make_error(os_error(target_, "cannot create", errno));
        committed_ = true;
        return true;
    }

    // Closes the temporary, cut to what was written (a reservation larger than that must not
    // leave zeros at the end).
    Expected<void> finish() {
        int fd = fd_;
        fd_ = -1;
        if (written_ < reserved_ && ::ftruncate(fd, static_cast<off_t>(written_)) != 0) {
            int code = errno;
            ::close(fd);
            return make_error(os_error(target_, "cannot write", code));
        }
        if (::close(fd) != 0) return make_error(os_error(target_, "cannot write", errno));
        return {};
    }

    int fd_;
    std::string temp_;
    int slot_;  // in live_temporaries
    std::filesystem::path target_;
    std::uint64_t reserved_ = 0;
    std::uint64_t written_ = 0;
    bool committed_ = false;
};

// Allocates `size` bytes of blocks in one call, so the writes that follow skip the file system's
// per-block delayed allocation (about 20% of a large write on ext4). Linux only; returns the
// bytes reserved, 0 when the file system cannot (never glibc's posix_fallocate, which would
// write zeros instead).
std::uint64_t reserve(int fd, std::uint64_t size) {
#ifdef __linux__
    if (size > 0 && ::fallocate(fd, 0, 0, static_cast<off_t>(size)) == 0) return size;
#else
    (void)fd;
    (void)size;
#endif
    return 0;
}

}  // namespace

namespace {

// Opens `path` for reading and fills `st` with what was opened; a device is refused: /dev/zero
// or /dev/urandom would be read until memory runs out, a terminal or a disk is no model file.
Expected<int> open_for_reading(const std::filesystem::path& path, struct stat& st) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return make_error(os_error(path, "cannot open", errno));
    if (::fstat(fd, &st) != 0) {
        int code = errno;
        ::close(fd);
        return make_error(os_error(path, "cannot stat", code));
    }
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
        ::close(fd);
        return make_error(not_a_file(path));
    }
    return fd;
}

}  // namespace

Expected<std::shared_ptr<const MappedFile>> map_file(const std::filesystem::path& path) {
    struct stat st {};
    auto opened = open_for_reading(path, st);
    if (!opened) return make_error(opened.error());
    const int fd = *opened;
    if (!S_ISREG(st.st_mode)) {  // a pipe: read it instead
        auto data = read_all(fd, path);
        ::close(fd);
        if (!data) return make_error(data.error());
        return hold_in_memory(std::move(*data));
    }
    auto size = static_cast<std::size_t>(st.st_size);
    void* address = nullptr;
    if (size > 0) {
        address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (address == MAP_FAILED) {
            int code = errno;
            ::close(fd);
            return make_error(os_error(path, "cannot map", code));
        }
        // Start reading the whole file in. (Advice values are not flags: the former
        // MADV_SEQUENTIAL | MADV_WILLNEED was MADV_WILLNEED alone, and views read payloads in
        // any order anyway.)
        ::madvise(address, size, MADV_WILLNEED);
    }
    return std::shared_ptr<const MappedFile>(std::make_shared<PosixMappedFile>(address, size, fd));
}

namespace {

// A file's bytes in memory of their own: an anonymous mapping of the file's size, its pages made
// in one call (MAP_POPULATE, not one fault per page), read into directly and then made
// read-only. Growing a vector 64 KiB at a time copied and faulted the bytes several times over:
// 40 ms for a 32 MiB file here, 13 to 18 ms this way. (Huge pages gave 8 ms, but stalls of 80 ms
// whenever the kernel had to compact memory for them.)
#ifdef MAP_POPULATE
constexpr int kPopulate = MAP_POPULATE;
#else
constexpr int kPopulate = 0;  // macOS: the pages fault in as read() fills them
#endif

class LoadedFile final : public MappedFile {
  public:
    LoadedFile(void* address, std::size_t capacity) : address_(address), capacity_(capacity) {}
    ~LoadedFile() override { munmap(address_, capacity_); }
    std::span<const std::byte> bytes() const override {
        return {static_cast<const std::byte*>(address_), size_};
    }
    std::byte* data() const { return static_cast<std::byte*>(address_); }
    void set_size(std::size_t size) { size_ = size; }

  private:
    void* address_;
    std::size_t capacity_;
    std::size_t size_ = 0;
};

// Reads the regular file `fd` of `size` bytes (fstat's) whole; a null pointer when it has grown
// since (the caller then reads it as a stream). A file that shrank gives the bytes it still had.
Expected<std::shared_ptr<const MappedFile>> read_regular(int fd, std::size_t size,
                                                         const std::filesystem::path& path) {
    void* address = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | kPopulate, -1, 0);
    if (address == MAP_FAILED)
        return make_error(os_error(path, "cannot allocate memory for", errno));
    auto file = std::make_shared<LoadedFile>(address, size);
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::read(fd, file->data() + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return make_error(os_error(path, "cannot read", errno));
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    std::byte more;
    ssize_t past = 0;
    while ((past = ::read(fd, &more, 1)) < 0 && errno == EINTR) {
    }
    if (past != 0) return std::shared_ptr<const MappedFile>();  // it grew (or cannot tell)
    file->set_size(done);
    ::mprotect(address, size, PROT_READ);
    return std::shared_ptr<const MappedFile>(std::move(file));
}

}  // namespace

Expected<std::shared_ptr<const MappedFile>> load_descriptor(int fd, std::uint64_t size,
                                                            const std::filesystem::path& path) {
    if (size > 0) {
        auto loaded = read_regular(fd, static_cast<std::size_t>(size), path);
        if (!loaded || *loaded) return loaded;
        if (::lseek(fd, 0, SEEK_SET) != 0)  // it grew: read it again as a stream
            return make_error(os_error(path, "cannot read", errno));
    }
    auto data = read_all(fd, path);
    if (!data) return make_error(data.error());
    return hold_in_memory(std::move(*data));
}

Expected<std::shared_ptr<const MappedFile>> load_file(const std::filesystem::path& path) {
    struct stat st {};
    auto opened = open_for_reading(path, st);
    if (!opened) return make_error(opened.error());
    auto loaded = load_descriptor(
        *opened, S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0, path);
    ::close(*opened);
    return loaded;
}

std::size_t readable_past_end(std::span<const std::byte> bytes) {
    const std::uintptr_t mapping_end = end_of_mapping_holding(bytes);
    if (mapping_end == 0) return 0;
    // Mappings start on a page boundary, so the last page ends at the next multiple of its size.
    const std::uintptr_t page = page_size();
    const std::uintptr_t in_last_page = mapping_end % page;
    const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(bytes.data()) + bytes.size();
    return (mapping_end - end) + (in_last_page == 0 ? 0 : page - in_last_page);
}

void release_pages(std::span<const std::byte> bytes) {
    // Only file mappings: on anonymous memory MADV_DONTNEED would zero the bytes.
    if (end_of_mapping_holding(bytes) == 0) return;
    const std::uintptr_t page = page_size();
    const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data());
    const std::uintptr_t first = (begin + page - 1) / page * page;
    const std::uintptr_t last = (begin + bytes.size()) / page * page;
    if (first < last) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

Expected<std::unique_ptr<AtomicFile>> create_atomic_file(const std::filesystem::path& path,
                                                         std::uint64_t expected_size) {
    // mkstemp's pattern, made here so that the name is recorded before the file exists.
    constexpr int kAttempts = 100;
    int code = EEXIST;
    for (int attempt = 0; attempt < kAttempts && code == EEXIST; ++attempt) {
        std::string temp = path.string() + ".castkit-" + temporary_tag_prefix() + random_name(6);
        const std::optional<int> recorded = live_temporaries.add(temp);
        if (!recorded) return make_error(os_error(path, "interrupted before writing", EINTR));
        const int slot = *recorded;
        // Mode 0666 less the umask: the usual permissions of a new file.
        const int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        const int open_error = errno;
        if (fd >= 0 && live_temporaries.ending()) {  // interrupted meanwhile: leave nothing
            ::close(fd);
            ::unlink(temp.c_str());
            live_temporaries.created();
            return make_error(os_error(path, "interrupted before writing", EINTR));
        }
        live_temporaries.created();
        errno = open_error;
        if (fd >= 0) {
            const std::uint64_t reserved = reserve(fd, expected_size);
            return std::unique_ptr<AtomicFile>(
                std::make_unique<PosixAtomicFile>(fd, std::move(temp), slot, path, reserved));
        }
        code = errno;
        live_temporaries.forget(slot);
    }
    return make_error(os_error(path, "cannot create a temporary file", code));
}

void remove_temporaries_on_interrupt() {
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    // Past a file-size limit (ulimit -f), a write fails with EFBIG and the writer removes its
    // temporary and says why, where SIGXFSZ would end the process with neither.
    ::signal(SIGXFSZ, SIG_IGN);
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction previous {};
        // A signal ignored from the start (a background job, nohup) stays ignored.
        if (::sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN)
            continue;
        ::sigaction(signal, &action, nullptr);
    }
}

std::optional<std::int64_t> last_write_ticks(const std::filesystem::path& path) {
    std::error_code error;
    const auto time = std::filesystem::last_write_time(path, error);
    if (error) return std::nullopt;
    return std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
}

Expected<void> write_stdout(std::span<const std::byte> data) {
    return write_all(STDOUT_FILENO, data, "<stdout>");
}

Expected<std::vector<std::byte>> read_stdin() { return read_all(STDIN_FILENO, "<stdin>"); }

}  // namespace castkit::platform
