// What castkit's programs (the CLI, the Python module) need of the operating system, behind one
// interface with POSIX and Windows implementations (src/platform/): files that appear only when
// committed, UTF-8 paths and arguments whatever the system's code page, standard input and
// output in binary, and the desktop's browser. The library's own mapping of input files is in
// src/platform/platform.hpp, which includes this header.
#pragma once

#include <castkit/expected.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::platform {

// An output file that appears at its destination only when committed: data goes to a temporary
// file in the same directory, which commit() renames over the destination. Destroying an
// uncommitted file removes the temporary and leaves the destination as it was.
class AtomicFile {
  public:
    virtual ~AtomicFile() = default;
    virtual Expected<void> write(std::span<const std::byte> data) = 0;
    virtual Expected<void> commit() = 0;
    // commit(), but only where no file has the destination's name by then, in one step of the
    // file system (so a file another program creates after a check is never replaced): false,
    // and the temporary removed, when one has.
    virtual Expected<bool> commit_if_absent() = 0;
};

// `expected_size`, when known, is reserved up front (fewer block allocations while writing); a
// file committed shorter than that is cut to what was written.
Expected<std::unique_ptr<AtomicFile>> create_atomic_file(const std::filesystem::path& path,
                                                         std::uint64_t expected_size = 0);

// While it lives, the temporary files of the atomic files this thread creates carry `tag` in
// their names (`<name>.castkit-<tag>-<random>`), so that whoever chose the tag tells them from
// any other program's: castkit.batch removes those its workers killed mid-write left, and no
// file it did not make. Only letters and digits of `tag` are kept; an empty tag marks nothing.
// The thread's previous tag comes back when it ends. O(length of the tag).
class TemporaryTag {
  public:
    explicit TemporaryTag(std::string_view tag);
    ~TemporaryTag();
    TemporaryTag(const TemporaryTag&) = delete;
    TemporaryTag& operator=(const TemporaryTag&) = delete;

  private:
    std::string previous_;
};

// From now on, an interruption removes the temporary files of atomic files not yet committed
// before the process ends: on POSIX SIGINT, SIGTERM and SIGHUP (the process then ends by the
// same signal, which a shell reports as 130, 143 or 129; signals it ignores stay ignored), on
// Windows Ctrl-C, Ctrl-Break and a closed console (then the system ends the process as before).
// A temporary another thread creates while that happens removes itself. On POSIX it also
// ignores SIGXFSZ, so a file-size limit (ulimit -f) makes a write fail with a message (EFBIG)
// instead of ending the process with its temporary left behind.
// Call once at the start of a program; a handler installed later for a signal replaces this one.
// O(1).
void remove_temporaries_on_interrupt();

// When `path` was last written, in the finest unit the system keeps (nanoseconds on POSIX,
// 100 ns on Windows), for telling which of two files is newer; nullopt when it cannot be read.
// std::filesystem::last_write_time keeps whole seconds with mingw-w64's libstdc++, so a file
// written in the same second as its source looked no newer. One stat (GetFileAttributesExW).
std::optional<std::int64_t> last_write_ticks(const std::filesystem::path& path);

// Writes everything to standard output (binary mode on Windows).
Expected<void> write_stdout(std::span<const std::byte> data);
// Reads all of standard input (binary mode on Windows).
Expected<std::vector<std::byte>> read_stdin();

// A path from UTF-8 text (command-line arguments, names stored in files), and a path as UTF-8
// text (messages, source names). std::filesystem's conversions from and to `char` use the
// system's code page on Windows, which mangles or rejects names outside it; these convert
// through char8_t, which is UTF-8 everywhere. O(length).
std::filesystem::path path_from_utf8(std::string_view text);
std::string utf8_of(const std::filesystem::path& path);

// A diagnostic for an OS failure on `path`.
Diagnostic os_error(const std::filesystem::path& path, const std::string& what, int code);
// The refusal of a path that names a device (/dev/zero, a terminal, a disk, NUL): castkit reads
// regular files, pipes and standard input ("-") only (io.not-a-file).
Diagnostic not_a_file(const std::filesystem::path& path);

}  // namespace castkit::platform
