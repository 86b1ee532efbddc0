#include "side_files.hpp"

#include "binary_io.hpp"

namespace castkit::formats {

std::filesystem::path side_file_path(const Context& context, const std::filesystem::path& name) {
    if (name.is_absolute() || context.base.empty()) return name;
    return context.base / name;
}

Expected<std::shared_ptr<const platform::MappedFile>> read_side_file(
    const Context& context, const std::filesystem::path& name) {
    return platform::map_file(side_file_path(context, name));
}

Expected<void> write_side_file(const Context& context, const std::filesystem::path& name,
                               cast::Bytes data) {
    return write_file(side_file_path(context, name), data);
}

}  // namespace castkit::formats
