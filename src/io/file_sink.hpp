// FileSink and StdoutSink: the sinks behind the edge functions that write to a path.
#pragma once

#include <castkit/sink.hpp>
#include <filesystem>
#include <memory>

#include "../platform/platform.hpp"

namespace castkit::formats {

// A file that appears at its destination only when commit() succeeds. The temporary file is
// created on the first write, once reserve() may have said how large it will be.
class FileSink final : public Sink {
  public:
    explicit FileSink(std::filesystem::path path) : path_(std::move(path)) {}

    Expected<void> write(std::span<const std::byte> data) override {
        if (auto opened = open(); !opened) return opened;
        return file_->write(data);
    }
    void reserve(std::uint64_t bytes) override { expected_size_ = bytes; }
    std::filesystem::path file() const override { return path_; }

    Expected<void> commit() {
        if (auto opened = open(); !opened) return opened;
        return file_->commit();
    }

  private:
    Expected<void> open() {
        if (file_) return {};
        auto file = platform::create_atomic_file(path_, expected_size_);
        if (!file) return make_error(file.error());
        file_ = std::move(*file);
        return {};
    }

    std::filesystem::path path_;
    std::uint64_t expected_size_ = 0;
    std::unique_ptr<platform::AtomicFile> file_;
};

// Standard output as a sink.
class StdoutSink final : public Sink {
  public:
    Expected<void> write(std::span<const std::byte> data) override {
        return platform::write_stdout(data);
    }
};

// Calls `write(sink)` with a sink for `path`, "-" being standard output; a file appears only when
// `write` succeeds. Returns what `write` returned, or the error of the commit.
template <class Write>
Expected<void> write_to_path(const std::filesystem::path& path, Write write) {
    if (path == "-") {
        StdoutSink sink;
        return write(sink);
    }
    FileSink sink(path);
    if (auto written = write(sink); !written) return written;
    return sink.commit();
}

}  // namespace castkit::formats
