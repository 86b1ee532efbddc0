// The policy for files a document names (include/castkit/side_files.hpp), and the side files of
// the formats (side_files.hpp) read through it. Every file-system query takes an error_code: a
// missing or unreadable folder is a refusal, never an exception.
#include "side_files.hpp"

#include <fmt/format.h>

#include <castkit/side_files.hpp>
#include <cctype>
#include <string>
#include <system_error>

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

// `\` as `/`, so Windows paths written into files resolve the same on every OS. O(n).
fs::path portable(std::string_view reference) {
    std::string text(reference);
    for (char& c : text)
        if (c == '\\') c = '/';
    return platform::path_from_utf8(text);
}

// Absolute on any OS: a root directory, a root name, or a drive letter such as `C:`. O(1).
bool absolute_anywhere(std::string_view reference, const fs::path& path) {
    bool drive = reference.size() >= 2 && std::isalpha(static_cast<unsigned char>(reference[0])) &&
                 reference[1] == ':';
    return drive || path.has_root_directory() || path.has_root_name();
}

// True when `path` lies strictly inside `folder` (both absolute and normal). O(path length).
bool inside(const fs::path& path, const fs::path& folder) {
    fs::path relative = path.lexically_relative(folder);
    return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

// Why `candidate` may not be read from `folder`, or an empty string when it may. Only called
// for candidates that exist. O(path length) plus two file-system queries.
std::string refusal(const fs::path& candidate, const fs::path& folder, bool allow_any_path) {
    std::error_code error;
    fs::path real = fs::canonical(candidate, error);
    if (error)
        return fmt::format("'{}' cannot be resolved: {}", candidate.string(), error.message());
    if (!allow_any_path) {
        fs::path real_folder = fs::canonical(folder, error);
        if (error || !inside(real, real_folder))
            return fmt::format("'{}' leads outside '{}' through a link", candidate.string(),
                               folder.string());
    }
    if (!fs::is_regular_file(fs::status(real, error)) || error)
        return fmt::format("'{}' is not a regular file", candidate.string());
    return {};
}

// The folders searched after the source file's own, for a "not found" message. O(folders).
std::string where_else(const SideFilePolicy& policy) {
    if (policy.folders.empty()) return " (give --textures DIR)";
    std::string folders;
    for (const fs::path& folder : policy.folders)
        folders += (folders.empty() ? "" : ", ") + platform::utf8_of(folder);
    return " or in " + folders;
}

// resolve_side_file for a source named `source_name` in `source_folder` (empty: the working
// folder).
Expected<fs::path> resolve_in(std::string_view reference, const fs::path& source_folder,
                              const std::string& source_name, const SideFilePolicy& policy) {
    if (reference.empty()) return refuse(source_name, "a referenced file has an empty path");
    fs::path path = portable(reference);
    bool absolute = absolute_anywhere(reference, path);
    std::error_code error;
    std::vector<fs::path> folders;
    folders.push_back(fs::absolute(source_folder.empty() ? fs::path(".") : source_folder, error));
    for (const fs::path& folder : policy.folders) folders.push_back(fs::absolute(folder, error));

    // (candidate, folder it must stay in) in the order they are tried.
    std::vector<std::pair<fs::path, fs::path>> candidates;
    if (absolute && policy.allow_any_path) candidates.emplace_back(path, path.parent_path());
    for (const fs::path& named_folder : folders) {
        fs::path folder = named_folder.lexically_normal();
        if (!absolute) candidates.emplace_back((folder / path).lexically_normal(), folder);
        if (path.has_filename()) candidates.emplace_back(folder / path.filename(), folder);
    }

    std::string why;
    for (const auto& [candidate, folder] : candidates) {
        if (!policy.allow_any_path && !inside(candidate, folder)) {
            if (why.empty())
                why =
                    fmt::format("'{}' leads outside '{}'", std::string(reference), folder.string());
            continue;
        }
        if (!fs::exists(candidate, error)) continue;
        std::string refused = refusal(candidate, folder, policy.allow_any_path);
        if (refused.empty()) return candidate;
        if (why.empty()) why = std::move(refused);
    }
    if (absolute && !policy.allow_any_path && why.empty())
        why = fmt::format("'{}' is an absolute path", std::string(reference));
    if (why.empty())
        return refuse(source_name, fmt::format("'{}' was not found beside the source file{}",
                                               std::string(reference), where_else(policy)));
    return refuse(source_name, why +
                                   "; only files inside the source file's folder (or one named "
                                   "with --textures) are read unless --allow-any-path is given");
}

}  // namespace

Expected<fs::path> resolve_side_file(std::string_view reference, const fs::path& source_file,
                                     const SideFilePolicy& policy) {
    return resolve_in(reference, source_file.parent_path(), source_file.string(), policy);
}

Expected<std::vector<std::byte>> read_side_file(std::string_view reference,
                                                const fs::path& source_file,
                                                const SideFilePolicy& policy) {
    const Context context{.name = source_file.string(),
                          .base = source_file.parent_path(),
                          .options = {.side_files = policy}};
    auto mapped = formats::read_side_file(context, reference);
    if (!mapped) return make_error(mapped.error());
    const std::span<const std::byte> bytes = (*mapped)->bytes();
    return std::vector<std::byte>(bytes.begin(), bytes.end());
}

namespace formats {

Expected<fs::path> resolve_side_file(const Context& context, std::string_view name) {
    return resolve_in(name, context.base, context.name, context.options.side_files);
}

Expected<std::shared_ptr<const platform::MappedFile>> map_side_file(const Context& context,
                                                                    const fs::path& location) {
    const std::uint64_t max_size = context.options.side_files.max_size;
    std::error_code error;
    std::uintmax_t size = fs::file_size(location, error);
    if (error || size > max_size)
        return refuse(context.name, fmt::format("'{}' is larger than the {} bytes allowed",
                                                location.string(), max_size));
    auto mapped = platform::map_file(location);
    if (!mapped) return make_error(mapped.error());
    if ((*mapped)->bytes().size() > max_size)
        return refuse(context.name, fmt::format("'{}' grew past the {} bytes allowed while read",
                                                location.string(), max_size));
    return mapped;
}

Expected<std::shared_ptr<const platform::MappedFile>> read_side_file(const Context& context,
                                                                     std::string_view name) {
    auto location = resolve_side_file(context, name);
    if (!location) return make_error(location.error());
    return map_side_file(context, *location);
}

Expected<void> write_side_file(const Context& context, const fs::path& name, cast::Bytes data) {
    return write_file(name.is_absolute() || context.base.empty() ? name : context.base / name,
                      data);
}

}  // namespace formats
}  // namespace castkit
