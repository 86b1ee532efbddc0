#include <algorithm>
#include <castkit/formats.hpp>
#include <cctype>

#include "../platform/platform.hpp"
#include "registry_entries.hpp"

namespace castkit {

const std::vector<FormatInfo>& all_formats() {
    static const std::vector<FormatInfo> all = formats::registered_formats();
    return all;
}

const FormatInfo* format_for_path(const std::filesystem::path& path) {
    std::string name = platform::utf8_of(path.filename());
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const FormatInfo* best = nullptr;
    std::size_t best_length = 0;
    for (const FormatInfo& format : all_formats())
        for (std::string_view ext : format.extensions)
            if (name.size() > ext.size() && name.ends_with(ext) && ext.size() > best_length) {
                best = &format;
                best_length = ext.size();
            }
    return best;
}

const FormatInfo* format_by_name(std::string_view name) {
    for (const FormatInfo& format : all_formats())
        if (format.name == name) return &format;
    return nullptr;
}

}  // namespace castkit
