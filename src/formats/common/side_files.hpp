// Side files: the files an input names beside itself (a .gltf's buffers, the textures and
// instanced .cast files a document names) and the ones a writer puts beside its output. Every
// format reads and writes them through these functions, so that one policy decides which
// names may be followed.
#pragma once

#include <castkit/formats.hpp>
#include <filesystem>
#include <memory>
#include <string_view>

#include "../../platform/platform.hpp"

namespace castkit::formats {

// Where `name` resolves for `context`: relative names against context.base. O(length).
std::filesystem::path side_file_path(const Context& context, const std::filesystem::path& name);

// Maps the side file `name` read-only. O(1) until its pages are touched.
Expected<std::shared_ptr<const platform::MappedFile>> read_side_file(
    const Context& context, const std::filesystem::path& name);

// Writes `data` atomically to the side file `name` (resolved as side_file_path does). O(size).
Expected<void> write_side_file(const Context& context, const std::filesystem::path& name,
                               cast::Bytes data);

}  // namespace castkit::formats
