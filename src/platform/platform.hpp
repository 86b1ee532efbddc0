// The one place castkit touches the operating system: memory-mapped input here, and what the
// programs need besides (atomic output, UTF-8 paths, standard streams) in the public
// <castkit/platform.hpp>. POSIX and Windows implementations live beside this header; nothing
// else includes OS headers.
#pragma once

#include <castkit/expected.hpp>
#include <castkit/platform.hpp>
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

// A read-only view of a whole file. Empty files map to an empty span.
class MappedFile {
  public:
    virtual ~MappedFile() = default;
    virtual std::span<const std::byte> bytes() const = 0;
};

// `bytes` already in memory (a pipe read whole, a file loaded, a side file), owned behind the
// interface of a mapping. O(1).
std::shared_ptr<const MappedFile> hold_in_memory(std::vector<std::byte> bytes);

// Maps `path` read-only. O(1) until pages are touched.
Expected<std::shared_ptr<const MappedFile>> map_file(const std::filesystem::path& path);

// Reads all of `path` into memory: for processes that keep a document while other programs may
// rewrite its file (`castkit view`, the Python module). A mapping of a file that shrinks faults
// (SIGBUS) when its lost pages are touched; a copy cannot. O(file size).
Expected<std::shared_ptr<const MappedFile>> load_file(const std::filesystem::path& path);

// How many bytes after the end of `bytes` may be read when `bytes` lies in a live file mapping
// made by map_file: the rest of the mapping, then the rest of its last page, which the system
// fills with zeros past the end of the file. 0 for memory that is not such a mapping. Parsers
// that read a few bytes past their input (simdjson) can then use the mapping in place instead
// of a padded copy. O(live mappings) on POSIX, one VirtualQuery on Windows.
std::size_t readable_past_end(std::span<const std::byte> bytes);

// Takes the pages wholly inside `bytes` out of the process's resident memory when `bytes` lies in
// a live file mapping made by map_file; reading them again brings them back from the file (or
// the system's cache of it). For readers that pass through a large file once: what they have
// passed stops counting against their memory. Does nothing for other memory. O(live mappings +
// pages released).
void release_pages(std::span<const std::byte> bytes);

// What the current thread's TemporaryTag puts after ".castkit-" in a temporary's name: the tag
// and a '-', or nothing. O(1).
const std::string& temporary_tag_prefix();

}  // namespace castkit::platform
