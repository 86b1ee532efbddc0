// The policy for files a document names (include/castkit/io/side_files.hpp), and the side files of
// the formats (side_files.hpp) read through it. Every file-system query takes an error_code: a
// missing or unreadable folder is a refusal, never an exception.
#include "side_files.hpp"

#include <fmt/format.h>

#include <castkit/io/side_files.hpp>
#include <cctype>
#include <optional>
#include <string>
#include <system_error>

#include "../platform/opened_file.hpp"
#include "binary_io.hpp"

namespace castkit {
namespace {

namespace fs = std::filesystem;

Unexpected refuse(const std::string& source_name, std::string message) {
    Diagnostic diagnostic;
    diagnostic.file = source_name;
    diagnostic.rule = "io.side-file";
    diagnostic.message = std::move(message);
    return make_error(std::move(diagnostic));
}

// Absolute on any OS: a root directory, a root name, or a drive letter such as `C:`. O(1).
bool absolute_anywhere(std::string_view reference, const fs::path& path) {
    bool drive = reference.size() >= 2 && std::isalpha(static_cast<unsigned char>(reference[0])) &&
                 reference[1] == ':';
    return drive || path.has_root_directory() || path.has_root_name();
}

// The folders side files may come from, absolute and normal: `base` (none when empty: bytes
// read without a folder) and then the policy's. O(folders).
std::vector<fs::path> allowed_folders(const fs::path& base, const SideFilePolicy& policy) {
    std::vector<fs::path> folders;
    std::error_code error;
    if (!base.empty()) folders.push_back(fs::absolute(base, error).lexically_normal());
    for (const fs::path& folder : policy.folders)
        folders.push_back(fs::absolute(folder, error).lexically_normal());
    return folders;
}

// The allowed folders of one lookup, each opened once: the source's folder as its context
// holds it open (when it was opened for that folder), the others when first tried.
class Folders {
  public:
    Folders(const fs::path& base, const std::shared_ptr<const platform::OpenedFolder>& held,
            const SideFilePolicy& policy)
        : paths_(allowed_folders(base, policy)), opened_(paths_.size()) {
        if (!base.empty() && held && held->path() == paths_.front()) opened_.front() = held;
    }

    const std::vector<fs::path>& paths() const { return paths_; }

    // Folder `i` opened; null when it cannot be (missing: nothing can be found there).
    const platform::OpenedFolder* opened(std::size_t i) {
        if (!opened_[i]) {
            auto folder = platform::open_folder(paths_[i]);
            opened_[i] = folder ? std::move(*folder) : nullptr;
        }
        return opened_[i]->get();
    }

  private:
    using Held = std::shared_ptr<const platform::OpenedFolder>;
    std::vector<fs::path> paths_;
    std::vector<std::optional<Held>> opened_;  // nullopt: not tried yet; null: cannot be opened
};

using Opened = std::unique_ptr<platform::OpenedFile>;

// `candidate`, a path lexically inside folder `i`, opened beneath that folder's descriptor
// (platform::OpenedFolder::open_file: no part of it walked from a name again); null when
// nothing is there, else refused unless a regular file within the size limit that the walk
// reached without leaving the folder. O(components) file-system calls.
Expected<Opened> open_beneath(const fs::path& candidate, Folders& folders, std::size_t i,
                              const SideFilePolicy& policy, const std::string& source_name) {
    const platform::OpenedFolder* folder = folders.opened(i);
    if (folder == nullptr) return Opened();
    auto opened =
        folder->open_file(candidate.lexically_relative(folders.paths()[i]), policy.max_size);
    if (!opened)
        return refuse(source_name,
                      fmt::format("'{}' {}", platform::utf8_of(candidate), opened.error().message));
    return opened;
}

// `candidate` opened as named, links followed anywhere (the policy's opt-in): null when it does
// not exist, else refused unless a regular file within the size limit. O(1) file-system calls.
Expected<Opened> open_anywhere(const fs::path& candidate, const SideFilePolicy& policy,
                               const std::string& source_name) {
    std::error_code error;
    if (!fs::exists(candidate, error)) return Opened();
    // Asked first so that no device is ever opened (opening some has effects); the decision is
    // made on what is opened below.
    if (!fs::is_regular_file(fs::status(candidate, error)))
        return refuse(source_name,
                      fmt::format("'{}' is not a regular file", platform::utf8_of(candidate)));
    auto opened = platform::open_regular_file(candidate, policy.max_size);
    if (!opened)
        return refuse(source_name,
                      fmt::format("'{}' {}", platform::utf8_of(candidate), opened.error().message));
    return opened;
}

// The policy's folders, for a "not found" message. O(folders).
std::string folder_list(const SideFilePolicy& policy) {
    std::string folders;
    for (const fs::path& folder : policy.folders)
        folders += (folders.empty() ? "" : ", ") + platform::utf8_of(folder);
    return folders;
}

// The folders searched after the source file's own, for a "not found" message. O(folders).
std::string where_else(const SideFilePolicy& policy) {
    if (policy.folders.empty()) return " (give --textures DIR)";
    return " or in " + folder_list(policy);
}

using Found = formats::OpenedSideFile;

// The side file `reference` names for a source named `source_name` whose folder is `base`
// (empty: the source has none) and is held open as `held` (may be null), opened
// (resolve_side_file's rule).
Expected<Found> find(std::string_view reference, const fs::path& base,
                     const std::shared_ptr<const platform::OpenedFolder>& held,
                     const std::string& source_name, const SideFilePolicy& policy) {
    if (reference.empty()) return refuse(source_name, "a referenced file has an empty path");
    Folders folders(base, held, policy);
    if (folders.paths().empty())
        return refuse(source_name,
                      fmt::format("'{}' was not read: the source has no folder (it was read from "
                                  "memory or standard input), so the files it names are read "
                                  "only from a folder named for them (--textures DIR; in "
                                  "Python, base=)",
                                  std::string(reference)));
    fs::path path = formats::portable_path(reference);
    bool absolute = absolute_anywhere(reference, path);

    // (candidate, index of the folder it must stay in) in the order they are tried; an
    // absolute path (with the opt-in only) is in none.
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::vector<std::pair<fs::path, std::size_t>> candidates;
    if (absolute && policy.allow_any_path) candidates.emplace_back(path, kNone);
    for (std::size_t i = 0; i < folders.paths().size(); ++i) {
        const fs::path& folder = folders.paths()[i];
        if (!absolute) candidates.emplace_back((folder / path).lexically_normal(), i);
        if (path.has_filename()) candidates.emplace_back(folder / path.filename(), i);
    }

    std::string why;
    for (const auto& [candidate, folder] : candidates) {
        const bool within = folder != kNone && platform::inside(candidate, folders.paths()[folder]);
        if (!policy.allow_any_path && !within) {
            if (why.empty())
                why = fmt::format("'{}' leads outside '{}'", std::string(reference),
                                  platform::utf8_of(folders.paths()[folder]));
            continue;
        }
        auto opened = policy.allow_any_path
                          ? open_anywhere(candidate, policy, source_name)
                          : open_beneath(candidate, folders, folder, policy, source_name);
        if (opened && *opened) return Found{candidate, std::move(*opened)};
        if (!opened && why.empty()) why = opened.error().message;
    }
    if (absolute && !policy.allow_any_path && why.empty())
        why = fmt::format("'{}' is an absolute path", std::string(reference));
    if (why.empty() && base.empty())
        return refuse(source_name, fmt::format("'{}' was not found in {}", std::string(reference),
                                               folder_list(policy)));
    if (why.empty())
        return refuse(source_name, fmt::format("'{}' was not found beside the source file{}",
                                               std::string(reference), where_else(policy)));
    return refuse(source_name, why +
                                   "; only files inside the source file's folder (or one named "
                                   "with --textures) are read unless --allow-any-path is given");
}

// The bytes of a file find or open_found opened. O(size).
Expected<std::vector<std::byte>> read_all(platform::OpenedFile& file,
                                          const std::string& source_name) {
    auto bytes = file.read();
    if (!bytes) return refuse(source_name, bytes.error().message);
    return bytes;
}

// The folder of a source file named by its path: its parent, or the working folder.
fs::path folder_of(const fs::path& source_file) {
    const fs::path folder = source_file.parent_path();
    return folder.empty() ? fs::path(".") : folder;
}

// `location`, a path find() gave for `context`, opened again under the same rule: beneath the
// allowed folder it lies in (the context's held folder for its base), or as named with the
// opt-in. O(components) file-system calls.
Expected<Opened> open_found(const fs::path& location, const Context& context,
                            const SideFilePolicy& policy) {
    std::error_code error;
    const fs::path normal = fs::absolute(location, error).lexically_normal();
    if (policy.allow_any_path) {
        auto opened = open_anywhere(normal, policy, context.name);
        if (opened && !*opened)
            return refuse(context.name,
                          fmt::format("'{}' was not found", platform::utf8_of(location)));
        return opened;
    }
    Folders folders(context.base, context.folder, policy);
    for (std::size_t i = 0; i < folders.paths().size(); ++i) {
        if (!platform::inside(normal, folders.paths()[i])) continue;
        auto opened = open_beneath(normal, folders, i, policy, context.name);
        if (!opened || *opened) return opened;
    }
    return refuse(context.name,
                  fmt::format("'{}' is not inside the source file's folder or one named with "
                              "--textures",
                              platform::utf8_of(location)));
}

}  // namespace

Expected<fs::path> resolve_side_file(std::string_view reference, const fs::path& source_file,
                                     const SideFilePolicy& policy) {
    auto found = find(reference, folder_of(source_file), nullptr, source_file.string(), policy);
    if (!found) return make_error(found.error());
    return found->path;
}

Expected<std::vector<std::byte>> read_side_file(std::string_view reference,
                                                const fs::path& source_file,
                                                const SideFilePolicy& policy) {
    auto found = find(reference, folder_of(source_file), nullptr, source_file.string(), policy);
    if (!found) return make_error(found.error());
    return read_all(*found->file, source_file.string());
}

namespace formats {

fs::path portable_path(std::string_view reference) {
    std::string text(reference);
    for (char& c : text)
        if (c == '\\') c = '/';
    return platform::path_from_utf8(text);
}

Expected<fs::path> resolve_side_file(const Context& context, std::string_view name) {
    auto found = find(name, context.base, context.folder, context.name, context.options.side_files);
    if (!found) return make_error(found.error());
    return found->path;
}

Expected<OpenedSideFile> open_side_file(const Context& context, std::string_view name) {
    return find(name, context.base, context.folder, context.name, context.options.side_files);
}

Expected<std::shared_ptr<const platform::MappedFile>> map_side_file(const Context& context,
                                                                    const fs::path& location) {
    const SideFilePolicy& policy = context.options.side_files;
    auto opened = open_found(location, context, policy);
    if (!opened) return make_error(opened.error());
    auto bytes = read_all(**opened, context.name);
    if (!bytes) return make_error(bytes.error());
    return platform::hold_in_memory(std::move(*bytes));
}

Expected<std::shared_ptr<const platform::MappedFile>> read_side_file(const Context& context,
                                                                     std::string_view name) {
    auto found = find(name, context.base, context.folder, context.name, context.options.side_files);
    if (!found) return make_error(found.error());
    auto bytes = read_all(*found->file, context.name);
    if (!bytes) return make_error(bytes.error());
    return platform::hold_in_memory(std::move(*bytes));
}

}  // namespace formats
}  // namespace castkit
