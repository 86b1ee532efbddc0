// POSIX only, shared by its two implementation files: a descriptor's bytes read into memory of
// their own, as load_file reads them.
#pragma once

#include <castkit/expected.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "platform.hpp"

namespace castkit::platform {

// Reads the file open as `fd` from its current offset: `size` bytes (fstat's, 0 for a stream)
// in one populated allocation, or as a stream when it is not a regular file or has grown
// since. `fd` stays open. O(size).
Expected<std::shared_ptr<const MappedFile>> load_descriptor(int fd, std::uint64_t size,
                                                            const std::filesystem::path& path);

}  // namespace castkit::platform
