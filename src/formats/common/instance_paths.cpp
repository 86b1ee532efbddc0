#include "instance_paths.hpp"

#include <castkit/cast/nodes.hpp>
#include <vector>

#include "io/side_files.hpp"

namespace castkit::formats {
namespace {

namespace fs = std::filesystem;

// `path` below `folder` or `folder` itself (both absolute and normal). O(path length).
bool within(const fs::path& path, const fs::path& folder) {
    const fs::path relative = path.lexically_relative(folder);
    return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

fs::path relative_to_allowed(const fs::path& folder, const Context& top) {
    std::error_code error;
    std::vector<fs::path> roots;
    if (!top.base.empty()) roots.push_back(fs::absolute(top.base, error).lexically_normal());
    for (const fs::path& extra : top.options.side_files.folders)
        roots.push_back(fs::absolute(extra, error).lexically_normal());
    const fs::path normal = fs::absolute(folder, error).lexically_normal();
    for (const fs::path& root : roots)
        if (within(normal, root)) {
            const fs::path relative = normal.lexically_relative(root);
            return relative == "." ? fs::path() : relative;
        }
    return normal;
}

fs::path instance_reference(const std::string& file, const fs::path& found_at,
                            const std::optional<std::string>& scene_root, const Context& top) {
    fs::path folder;
    if (!found_at.empty()) folder = relative_to_allowed(found_at.parent_path(), top);
    if (scene_root) folder /= portable_path(*scene_root);
    return folder / portable_path(file);
}

std::optional<std::string> scene_root_of(const cast::Document& document) {
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata())
            if (auto sr = metadata.scene_root()) return std::string(*sr);
    return std::nullopt;
}

}  // namespace castkit::formats
