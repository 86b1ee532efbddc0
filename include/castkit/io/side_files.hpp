// Files a document names (textures, instanced scenes, any path written inside a file): where
// castkit may read them. A hostile file must not make castkit embed /etc/passwd in its output,
// read /dev/zero until memory runs out or block on /dev/stdin, so every converter that reads or
// copies such a file goes through read_side_file (README.md, "Security").
#pragma once

#include <castkit/expected.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace castkit::platform {
// A folder held open, whose side files are opened beneath it (Context::folder); private to the
// library (src/platform/opened_file.hpp).
class OpenedFolder;
}  // namespace castkit::platform

namespace castkit {

struct SideFilePolicy {
    // Folders the user names (such as `--textures DIR`) searched after the source file's own
    // folder.
    std::vector<std::filesystem::path> folders = {};
    // The user's opt-in (`--allow-any-path`): absolute paths, `..` escapes and symbolic links out
    // of the folders are read as named. Only regular files are ever read, within max_size.
    bool allow_any_path = false;
    // Larger files are refused: nothing castkit embeds is this big.
    std::uint64_t max_size = std::uint64_t{1} << 30;
};

// Where `reference`, a path written inside `source_file`, may be read under `policy`: the first
// existing regular file among the source file's folder (the working folder for a name without
// one) and the policy's folders whose real path stays inside that folder, tried in each folder
// as written, then by its file name alone (so a path from the machine that wrote the file is
// found beside it). No path is checked and then walked again: the folder is opened, and the file
// beneath that descriptor one part at a time, a link followed only while it stays inside, so a
// link swapped in after a check cannot lead outside (docs/security.md).
// `\` counts as a separator; absolute paths (including `C:` forms on any OS) are refused unless
// the policy allows any path. The error says why and names the option that would allow it.
// O(folders) file-system queries.
Expected<std::filesystem::path> resolve_side_file(std::string_view reference,
                                                  const std::filesystem::path& source_file,
                                                  const SideFilePolicy& policy);

// resolve_side_file, then the bytes of the file it opened and checked (read into memory, never
// mapped), refused when larger than policy.max_size. O(file size).
Expected<std::vector<std::byte>> read_side_file(std::string_view reference,
                                                const std::filesystem::path& source_file,
                                                const SideFilePolicy& policy);

}  // namespace castkit
