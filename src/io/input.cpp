// A format's input (castkit/formats/input.hpp): the context for a path and the bytes of a file
// or standard input, which every reader (the registry's and the glTF bridge's own) starts from.
#include <castkit/formats/input.hpp>

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

Expected<Input> read_input(const std::filesystem::path& path, InputMode mode) {
    if (path == "-") {
        auto input = platform::read_stdin();
        if (!input) return make_error(input.error());
        auto buffer = std::make_shared<const std::vector<std::byte>>(std::move(*input));
        const cast::Bytes bytes(*buffer);
        return Input{bytes, std::move(buffer)};
    }
    auto mapped = mode == InputMode::Copy ? platform::load_file(path) : platform::map_file(path);
    if (!mapped) return make_error(mapped.error());
    const cast::Bytes bytes = (*mapped)->bytes();
    return Input{bytes, std::move(*mapped)};
}

}  // namespace castkit::formats
