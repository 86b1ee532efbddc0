// The context of a file (castkit/io/context.hpp): its name, and its folder opened before the file
// is read, which its side files are opened beneath.
#include <castkit/io/context.hpp>

#include "../platform/opened_file.hpp"
#include "../platform/platform.hpp"

namespace castkit::formats {

Context context_for(const std::filesystem::path& path, FormatOptions options) {
    Context context;
    context.options = std::move(options);
    if (path == "-") {
        context.name = "<stdin>";
    } else {
        context.name = platform::utf8_of(path);
        // A file named without a folder is in the working folder; an empty base means none.
        context.base = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
        // Held from now on, before the file is read: its side files are opened beneath it.
        auto folder = platform::open_folder(context.base);
        if (folder) context.folder = std::move(*folder);
    }
    return context;
}

}  // namespace castkit::formats
