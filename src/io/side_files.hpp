// Side files: the files an input names beside itself (a .gltf's buffers, the textures and
// instanced .cast files a document names). Every format reads them through these functions
// (and writes its own through SideOutputs, side_outputs.hpp), so that one policy decides which
// names may be followed: castkit's side-file policy (<castkit/io/side_files.hpp>), with
// context.base as the source folder and context.options.side_files as the user's allowances.
#pragma once

#include <castkit/io/context.hpp>
#include <filesystem>
#include <memory>
#include <string_view>

#include "../platform/opened_file.hpp"
#include "../platform/platform.hpp"

namespace castkit::formats {

// A name written inside a file as a path, `\` read as `/`, so Windows paths written into files
// resolve the same on every OS. O(length).
std::filesystem::path portable_path(std::string_view reference);

// Where `name` may be read for `context` (resolve_side_file's rule; context.base empty: the
// source has no folder, and only the policy's folders are searched). The file is opened and
// checked, then closed: for callers that need only a name. O(folders) file-system queries.
Expected<std::filesystem::path> resolve_side_file(const Context& context, std::string_view name);

// A side file opened where the policy allows: the path it was found at (as resolve_side_file
// gives it) and the open file, opened beneath the descriptor of the folder it was found in
// (context.folder for context.base, held from before the source was read), so neither a link
// nor a folder swapped in after a check can lead outside. Its bytes come from file->read();
// the descriptor closes with it.
struct OpenedSideFile {
    std::filesystem::path path;
    std::unique_ptr<platform::OpenedFile> file;
};
Expected<OpenedSideFile> open_side_file(const Context& context, std::string_view name);

// The bytes of a file resolve_side_file returned, read into memory (never mapped: a side file
// truncated later cannot fault the process) when what is opened now, beneath context.base's
// held folder or one of the policy's folders (any path with its opt-in), is a regular file
// within the policy's max_size. O(size).
Expected<std::shared_ptr<const platform::MappedFile>> map_side_file(
    const Context& context, const std::filesystem::path& location);

// open_side_file, then its bytes in memory. O(size).
Expected<std::shared_ptr<const platform::MappedFile>> read_side_file(const Context& context,
                                                                     std::string_view name);

}  // namespace castkit::formats
