// An input (castkit/io/input.hpp): the bytes of a file or standard input, which every reader (the
// registry's and the glTF bridge's own) starts from.
#include <castkit/io/input.hpp>

#include "../platform/platform.hpp"

namespace castkit::formats {

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
