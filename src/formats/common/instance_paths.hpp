// Where a map's Instance files are looked up, as every writer that places them (glTF, OBJ, FBX) and
// the Blender add-on resolve them: the names go through the side-file policy
// (formats::open_side_file), so a name leading outside the allowed folders is refused there.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/io/context.hpp>
#include <filesystem>
#include <optional>
#include <string>

namespace castkit::formats {

// How deep Instances nest in the files they name, in every writer that places them: deeper ones
// are refused, which also ends a cycle that the writer's own check does not catch first.
inline constexpr int kMaxInstanceDepth = 16;

// `folder` (where an instance file was found) relative to `top`'s folder, or to the side-file
// folder holding it; itself when it is in none (only with --allow-any-path). O(folders).
std::filesystem::path relative_to_allowed(const std::filesystem::path& folder, const Context& top);

// The scene root (`sr`) a document's Instance files resolve against: its first Metadata's that
// has one, or none. O(root nodes).
std::optional<std::string> scene_root_of(const cast::Document& document);

// The text an Instance naming `file` is looked up by, relative to `top`'s folder: the folder of
// the file naming it (`found_at`, where that file was found; empty for the top document), then
// the scene root, then the name. Absolute names and roots stay absolute, and `..` stays, so the
// policy refuses what leads outside. O(length).
std::filesystem::path instance_reference(const std::string& file,
                                         const std::filesystem::path& found_at,
                                         const std::optional<std::string>& scene_root,
                                         const Context& top);

}  // namespace castkit::formats
