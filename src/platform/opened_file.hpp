// Opening a file that a document names, judged by what was opened (platform layer: POSIX and
// Windows implementations beside this header; nothing else includes OS headers).
#pragma once

#include <castkit/expected.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "platform.hpp"

namespace castkit::platform {

// A regular file opened for reading, judged by what was opened rather than by its path: a link
// or folder swapped in after a path was checked cannot change what is read (side files,
// README.md "Security"). Nothing is mapped: read() copies the bytes, so a file truncated later
// cannot fault a long-running process.
class OpenedFile {
  public:
    virtual ~OpenedFile() = default;
    // The real path of the opened file itself (links resolved by the system for this open), in
    // the form real_path() gives folders.
    virtual const std::filesystem::path& real_path() const = 0;
    // Its size when opened.
    virtual std::uint64_t size() const = 0;
    // Its bytes, at most size() of them (a file that shrank since is read to its new end).
    // O(size).
    virtual Expected<std::vector<std::byte>> read() = 0;
    // The same bytes, held as load_file holds them (one populated allocation on POSIX), for
    // inputs large enough that a vector's page-by-page zeroing shows. Call it, or read(), once.
    // O(size).
    virtual Expected<std::shared_ptr<const MappedFile>> load() = 0;
};

// Opens `path` for reading without ever waiting (a FIFO or a terminal is not blocked on), and
// refuses what was opened unless it is a regular file of at most `max_size` bytes. The real
// path comes from the descriptor (Linux /proc/self/fd, macOS F_GETPATH, Windows
// GetFinalPathNameByHandleW; elsewhere the canonical path, accepted only when it names the
// opened file). One open, one stat, one path query.
Expected<std::unique_ptr<OpenedFile>> open_regular_file(const std::filesystem::path& path,
                                                        std::uint64_t max_size);

// A folder opened once, whose files are opened beneath its descriptor (handle): a side file's
// path is never walked again from the folder's name, so a folder inside it (or the folder
// itself) swapped for a link after it was opened cannot lead a read outside (docs/security.md,
// "What castkit reads").
class OpenedFolder {
  public:
    virtual ~OpenedFolder() = default;
    // The path it was opened by, absolute and normal.
    virtual const std::filesystem::path& path() const = 0;
    // Its real path when it was opened, in the form real_path() gives.
    virtual const std::filesystem::path& real_path() const = 0;
    // Opens `relative` (a relative, lexically normal path) beneath this folder without ever
    // waiting, and refuses what was opened unless it is a regular file of at most `max_size`
    // bytes. POSIX walks it one component at a time from the descriptor of the one before
    // (openat with O_NOFOLLOW), following a link only while it stays beneath the folder; Windows
    // opens it under the folder's final path, refuses a reparse point and checks the final path
    // of the handle it opened against the folder's. The opened file's real_path() is where it
    // was reached below real_path(). Null when nothing is there. O(components + links).
    virtual Expected<std::unique_ptr<OpenedFile>> open_file(const std::filesystem::path& relative,
                                                            std::uint64_t max_size) const = 0;
};

// Opens the folder `path` and keeps it open (on Windows, so that it cannot be renamed or
// removed meanwhile). One open, one path query.
Expected<std::shared_ptr<const OpenedFolder>> open_folder(const std::filesystem::path& path);

// True when `path` lies strictly below `folder` (not the folder itself), the two given alike:
// both absolute and normal, or both real paths. Lexical only. O(path length).
inline bool inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    const std::filesystem::path relative = path.lexically_relative(folder);
    return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

// The real path of an existing file or folder (links resolved), in the form
// OpenedFile::real_path() uses, for telling whether an opened file lies inside a folder.
Expected<std::filesystem::path> real_path(const std::filesystem::path& path);

}  // namespace castkit::platform
