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
#include <deque>
#include <functional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

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

// A descriptor closed when it goes.
class Descriptor {
  public:
    explicit Descriptor(int fd) : fd_(fd) {}
    Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Descriptor& operator=(Descriptor&&) = delete;
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_;
};

// `fd`, opened through `path`, as an OpenedFile when it is a regular file of at most `max_size`
// bytes; `real` gives its real path from its stat. Closes `fd` when refused.
Expected<std::unique_ptr<OpenedFile>> checked_file(
    Descriptor fd, const std::filesystem::path& path, std::uint64_t max_size,
    const std::function<Expected<std::filesystem::path>(const struct stat&)>& real) {
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return make_error(os_error(path, "cannot stat", errno));
    if (!S_ISREG(st.st_mode)) return make_error(refusal(path, "is not a regular file"));
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > max_size)
        return make_error(
            refusal(path, "is larger than the " + std::to_string(max_size) + " bytes allowed"));
    auto where = real(st);
    if (!where) return make_error(where.error());
    return std::unique_ptr<OpenedFile>(
        std::make_unique<PosixOpenedFile>(fd.release(), std::move(*where), size));
}

// The names of `path`'s parts, in order.
std::deque<std::string> parts_of(const std::filesystem::path& path) {
    std::deque<std::string> parts;
    for (const std::filesystem::path& part : path.relative_path()) parts.push_back(part.string());
    return parts;
}

// The target of the link `name` in the folder open as `at`.
Expected<std::filesystem::path> link_target(int at, const std::string& name,
                                            const std::filesystem::path& shown) {
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlinkat(at, name.c_str(), target.data(), target.size());
    if (n < 0) return make_error(os_error(shown, "cannot read the link", errno));
    if (static_cast<std::size_t>(n) >= target.size())
        return make_error(refusal(shown, "has a link too long to follow"));
    target.resize(static_cast<std::size_t>(n));
    return std::filesystem::path(target);
}

// A walk beneath an opened folder: the folders entered below it, each opened from the one
// before, and their names.
class Walk {
  public:
    Walk(int root, std::filesystem::path real_root, std::filesystem::path named_root,
         std::filesystem::path shown)
        : root_(root),
          real_root_(std::move(real_root)),
          named_root_(std::move(named_root)),
          shown_(std::move(shown)) {}

    // Opens `relative` beneath the root (OpenedFolder::open_file).
    Expected<std::unique_ptr<OpenedFile>> open(const std::filesystem::path& relative,
                                               std::uint64_t max_size) {
        std::deque<std::string> rest = parts_of(relative);
        while (!rest.empty()) {
            std::string name = std::move(rest.front());
            rest.pop_front();
            if (name.empty() || name == ".") continue;
            if (name == "..") {
                if (entered_.empty()) return make_error(leads_outside());
                entered_.pop_back();
                names_.pop_back();
                continue;
            }
            struct stat st {};
            if (::fstatat(here(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno == ENOENT || errno == ENOTDIR) return std::unique_ptr<OpenedFile>();
                return make_error(os_error(shown_, "cannot stat", errno));
            }
            if (S_ISLNK(st.st_mode)) {
                if (auto followed = follow(name, rest); !followed)
                    return make_error(followed.error());
                continue;
            }
            if (!rest.empty()) {
                if (!S_ISDIR(st.st_mode)) return std::unique_ptr<OpenedFile>();
                if (auto entered = enter(name); !entered) return make_error(entered.error());
                continue;
            }
            // Asked before it is opened so that no device is ever opened (opening some has
            // effects); the decision is made on what is opened.
            if (!S_ISREG(st.st_mode)) return make_error(refusal(shown_, "is not a regular file"));
            return open_last(name, max_size);
        }
        return make_error(refusal(shown_, "is not a regular file"));
    }

  private:
    int here() const { return entered_.empty() ? root_ : entered_.back().get(); }

    // Its own id, so that a caller can say which opt-in would follow the link.
    Diagnostic leads_outside() const {
        Diagnostic d =
            refusal(shown_, "leads outside '" + real_root_.string() + "' through a link");
        d.rule = "io.link-outside";
        return d;
    }

    // The link `name` here: its target walked in its place, when it stays beneath the root (a
    // relative one from here, an absolute one naming the root's real path from the root).
    Expected<void> follow(const std::string& name, std::deque<std::string>& rest) {
        constexpr int kMaxLinks = 40;  // as the kernel's own walk allows
        if (++links_ > kMaxLinks) return make_error(refusal(shown_, "has too many links"));
        auto target = link_target(here(), name, shown_);
        if (!target) return make_error(target.error());
        std::filesystem::path relative = *target;
        if (target->is_absolute()) {
            relative = beneath_root(*target);
            if (relative.empty()) return make_error(leads_outside());
            entered_.clear();
            names_.clear();
        }
        std::deque<std::string> parts = parts_of(relative);
        rest.insert(rest.begin(), parts.begin(), parts.end());
        return {};
    }

    // An absolute link target relative to the root, named by its real path or by the path it
    // was opened by; empty when it names neither or lies outside.
    std::filesystem::path beneath_root(const std::filesystem::path& target) const {
        for (const std::filesystem::path* root : {&real_root_, &named_root_}) {
            const std::filesystem::path relative =
                target.lexically_normal().lexically_relative(*root);
            if (!relative.empty() && *relative.begin() != "..") return relative;
        }
        return {};
    }

    Expected<void> enter(const std::string& name) {
        const int fd =
            ::openat(here(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return make_error(changed_or(errno));
        entered_.emplace_back(fd);
        names_.push_back(name);
        return {};
    }

    Expected<std::unique_ptr<OpenedFile>> open_last(const std::string& name,
                                                    std::uint64_t max_size) {
        const int fd = ::openat(here(), name.c_str(),
                                O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) return make_error(changed_or(errno));
        std::filesystem::path real = real_root_;
        for (const std::string& entered : names_) real /= entered;
        real /= name;
        return checked_file(
            Descriptor(fd), shown_, max_size,
            [&](const struct stat&) -> Expected<std::filesystem::path> { return real; });
    }

    // A part that became a link (or another type) between its stat and its open is refused.
    Diagnostic changed_or(int error) const {
        if (error == ELOOP || error == ENOTDIR)
            return refusal(shown_, "changed while it was opened");
        return os_error(shown_, "cannot open", error);
    }

    int root_;
    std::filesystem::path real_root_, named_root_, shown_;
    std::vector<Descriptor> entered_;
    std::vector<std::string> names_;
    int links_ = 0;
};

class PosixOpenedFolder final : public OpenedFolder {
  public:
    PosixOpenedFolder(Descriptor fd, std::filesystem::path path, std::filesystem::path real)
        : fd_(std::move(fd)), path_(std::move(path)), real_(std::move(real)) {}
    const std::filesystem::path& path() const override { return path_; }
    const std::filesystem::path& real_path() const override { return real_; }
    Expected<std::unique_ptr<OpenedFile>> open_file(const std::filesystem::path& relative,
                                                    std::uint64_t max_size) const override {
        return Walk(fd_.get(), real_, path_, path_ / relative).open(relative, max_size);
    }

  private:
    Descriptor fd_;
    std::filesystem::path path_, real_;
};

}  // namespace

Expected<std::unique_ptr<OpenedFile>> open_regular_file(const std::filesystem::path& path,
                                                        std::uint64_t max_size) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return make_error(os_error(path, "cannot open", errno));
    return checked_file(Descriptor(fd), path, max_size,
                        [&](const struct stat& st) { return real_path_of(fd, st, path); });
}

Expected<std::shared_ptr<const OpenedFolder>> open_folder(const std::filesystem::path& path) {
    Descriptor fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0) return make_error(os_error(path, "cannot open", errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return make_error(os_error(path, "cannot stat", errno));
    auto real = real_path_of(fd.get(), st, path);
    if (!real) return make_error(real.error());
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error).lexically_normal();
    return std::shared_ptr<const OpenedFolder>(
        std::make_shared<PosixOpenedFolder>(std::move(fd), std::move(absolute), std::move(*real)));
}

Expected<std::filesystem::path> real_path(const std::filesystem::path& path) {
    std::error_code error;
    std::filesystem::path real = std::filesystem::canonical(path, error);
    if (error) return make_error(os_error(path, "cannot resolve", error.value()));
    return real;
}

}  // namespace castkit::platform
