// POSIX implementation of opened_file.hpp: open without blocking, fstat, and the descriptor's
// own path.
#include <fcntl.h>
#include <limits.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

#include "load_posix.hpp"
#include "opened_file.hpp"
#include "platform.hpp"

namespace castkit::platform {
namespace {

Diagnostic refusal(const std::filesystem::path& path, std::string message) {
    Diagnostic d;
    d.file = path.string();
    d.rule = "io.system";
    d.message = std::move(message);
    return d;
}

// The path the system holds for open descriptor `fd`; empty when it cannot say.
std::filesystem::path path_of_descriptor(int fd) {
#if defined(__linux__)
    char link[64];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlink(link, target.data(), target.size());
    if (n <= 0 || static_cast<std::size_t>(n) >= target.size()) return {};
    target.resize(static_cast<std::size_t>(n));
    return target;
#elif defined(__APPLE__)
    std::string target(MAXPATHLEN, '\0');
    if (::fcntl(fd, F_GETPATH, target.data()) != 0) return {};
    target.resize(std::strlen(target.c_str()));
    return target;
#else
    (void)fd;
    return {};
#endif
}

// The real path of the file open as `fd` (whose stat is `opened`), opened through `path`: the
// descriptor's own path where the system gives one, else the canonical path of `path` when it
// still names the same file (a swap after the open makes it name another: refused).
Expected<std::filesystem::path> real_path_of(int fd, const struct stat& opened,
                                             const std::filesystem::path& path) {
    std::filesystem::path real = path_of_descriptor(fd);
    if (!real.empty() && real.is_absolute()) return real;
    std::error_code error;
    real = std::filesystem::canonical(path, error);
    struct stat named {};
    if (error || ::stat(real.c_str(), &named) != 0 || named.st_dev != opened.st_dev ||
        named.st_ino != opened.st_ino)
        return make_error(refusal(path, "changed while it was opened"));
    return real;
}

class PosixOpenedFile final : public OpenedFile {
  public:
    PosixOpenedFile(int fd, std::filesystem::path real, std::uint64_t size)
        : fd_(fd), real_(std::move(real)), size_(size) {}
    ~PosixOpenedFile() override { ::close(fd_); }
    const std::filesystem::path& real_path() const override { return real_; }
    std::uint64_t size() const override { return size_; }
    Expected<std::vector<std::byte>> read() override {
        std::vector<std::byte> data(static_cast<std::size_t>(size_));
        std::size_t filled = 0;
        while (filled < data.size()) {
            const ssize_t n = ::read(fd_, data.data() + filled, data.size() - filled);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return make_error(os_error(real_, "cannot read", errno));
            if (n == 0) break;
            filled += static_cast<std::size_t>(n);
        }
        data.resize(filled);
        return data;
    }

    Expected<std::shared_ptr<const MappedFile>> load() override {
        return load_descriptor(fd_, size_, real_);
    }

  private:
    int fd_;
    std::filesystem::path real_;
    std::uint64_t size_;
};

}  // namespace

Expected<std::unique_ptr<OpenedFile>> open_regular_file(const std::filesystem::path& path,
                                                        std::uint64_t max_size) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return make_error(os_error(path, "cannot open", errno));
    auto refuse = [&](Diagnostic why) {
        ::close(fd);
        return make_error(std::move(why));
    };
    struct stat st {};
    if (::fstat(fd, &st) != 0) return refuse(os_error(path, "cannot stat", errno));
    if (!S_ISREG(st.st_mode)) return refuse(refusal(path, "is not a regular file"));
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > max_size)
        return refuse(
            refusal(path, "is larger than the " + std::to_string(max_size) + " bytes allowed"));
    auto real = real_path_of(fd, st, path);
    if (!real) return refuse(real.error());
    return std::unique_ptr<OpenedFile>(std::make_unique<PosixOpenedFile>(fd, *real, size));
}

Expected<std::filesystem::path> real_path(const std::filesystem::path& path) {
    std::error_code error;
    std::filesystem::path real = std::filesystem::canonical(path, error);
    if (error) return make_error(os_error(path, "cannot resolve", error.value()));
    return real;
}

}  // namespace castkit::platform
