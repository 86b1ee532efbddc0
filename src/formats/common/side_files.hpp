// Side files: the files an input names beside itself (a .gltf's buffers, the textures and
// instanced .cast files a document names) and the ones a writer puts beside its output. Every
// format reads and writes them through these functions, so that one policy decides which
// names may be followed: castkit's side-file policy (<castkit/side_files.hpp>), with
// context.base as the source folder and context.options.side_files as the user's allowances.
#pragma once

#include <castkit/formats.hpp>
#include <filesystem>
#include <memory>
#include <string_view>

#include "../../platform/platform.hpp"

namespace castkit::formats {

// Where `name` may be read for `context` (resolve_side_file's rule). O(folders) file-system
// queries.
Expected<std::filesystem::path> resolve_side_file(const Context& context, std::string_view name);

// Maps a file resolve_side_file returned read-only, refused when larger than the policy's
// max_size. O(1) until its pages are touched.
Expected<std::shared_ptr<const platform::MappedFile>> map_side_file(
    const Context& context, const std::filesystem::path& location);

// resolve_side_file, then map_side_file.
Expected<std::shared_ptr<const platform::MappedFile>> read_side_file(const Context& context,
                                                                     std::string_view name);

// Writes `data` atomically to the side file `name`, a name castkit chose, relative to
// context.base. O(size).
Expected<void> write_side_file(const Context& context, const std::filesystem::path& name,
                               cast::Bytes data);

}  // namespace castkit::formats
