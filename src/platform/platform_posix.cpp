// POSIX implementation of platform.hpp: mmap, and write + fsync-free rename for atomic output.
#include "platform.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace castkit::platform {
namespace {

class PosixMappedFile final : public MappedFile {
public:
    PosixMappedFile(void* address, std::size_t size) : address_(address), size_(size) {}
    ~PosixMappedFile() override {
        if (address_ != nullptr) munmap(address_, size_);
    }
    std::span<const std::byte> bytes() const override {
        return {static_cast<const std::byte*>(address_), size_};
    }

private:
    void* address_;
    std::size_t size_;
};

// A file whose contents were read into memory: used for pipes and other unmappable inputs.
class BufferedFile final : public MappedFile {
public:
    explicit BufferedFile(std::vector<std::byte> data) : data_(std::move(data)) {}
    std::span<const std::byte> bytes() const override { return data_; }

private:
    std::vector<std::byte> data_;
};

Expected<void> write_all(int fd, std::span<const std::byte> data, const std::filesystem::path& path) {
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

class PosixAtomicFile final : public AtomicFile {
public:
    PosixAtomicFile(int fd, std::string temp, std::filesystem::path target)
        : fd_(fd), temp_(std::move(temp)), target_(std::move(target)) {}
    ~PosixAtomicFile() override {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temp_.c_str());
    }
    Expected<void> write(std::span<const std::byte> data) override {
        return write_all(fd_, data, target_);
    }
    Expected<void> commit() override {
        int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) return make_error(os_error(target_, "cannot write", errno));
        if (::rename(temp_.c_str(), target_.c_str()) != 0)
            return make_error(os_error(target_, "cannot replace", errno));
        committed_ = true;
        return {};
    }

private:
    int fd_;
    std::string temp_;
    std::filesystem::path target_;
    bool committed_ = false;
};

}  // namespace

Expected<std::shared_ptr<const MappedFile>> map_file(const std::filesystem::path& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return make_error(os_error(path, "cannot open", errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int code = errno;
        ::close(fd);
        return make_error(os_error(path, "cannot stat", code));
    }
    if (!S_ISREG(st.st_mode)) {  // a pipe or device: read it instead
        auto data = read_all(fd, path);
        ::close(fd);
        if (!data) return make_error(data.error());
        return std::shared_ptr<const MappedFile>(std::make_shared<BufferedFile>(std::move(*data)));
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
        // Readers walk payloads front to back.
        ::madvise(address, size, MADV_SEQUENTIAL | MADV_WILLNEED);
    }
    ::close(fd);
    return std::shared_ptr<const MappedFile>(std::make_shared<PosixMappedFile>(address, size));
}

Expected<std::unique_ptr<AtomicFile>> create_atomic_file(const std::filesystem::path& path) {
    std::string temp = path.string() + ".castkit-XXXXXX";
    int fd = ::mkstemp(temp.data());
    if (fd < 0) return make_error(os_error(path, "cannot create a temporary file", errno));
    // mkstemp makes 0600 files; give the result the usual permissions.
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    return std::unique_ptr<AtomicFile>(std::make_unique<PosixAtomicFile>(fd, temp, path));
}

Expected<void> write_stdout(std::span<const std::byte> data) {
    return write_all(STDOUT_FILENO, data, "<stdout>");
}

Expected<std::vector<std::byte>> read_stdin() { return read_all(STDIN_FILENO, "<stdin>"); }

}  // namespace castkit::platform
