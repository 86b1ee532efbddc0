// The SEAnim registry entry: `.seanim` files read into and write from the Cast document.
#include <castkit/formats/seanim.hpp>

#include "../../platform/platform.hpp"
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_seanim(const std::filesystem::path& path, Diagnostics& warnings) {
    Expected<seanim::Animation> animation = seanim::Animation{};
    if (path == "-") {
        auto bytes = platform::read_stdin();
        if (!bytes) return make_error(bytes.error());
        animation = seanim::parse(*bytes, "<stdin>", warnings);
    } else {
        animation = seanim::open(path, warnings);
    }
    if (!animation) return make_error(animation.error());
    cast::Document document = seanim::to_cast(*animation, warnings);
    document.source_name = path == "-" ? "<stdin>" : path.string();
    return document;
}

Expected<void> write_seanim(cast::Document& document, const std::filesystem::path& path,
                            Diagnostics& warnings) {
    auto animation = seanim::from_cast(document, warnings);
    if (!animation) return make_error(animation.error());
    if (path != "-") return seanim::write(*animation, path);
    auto bytes = seanim::write_to_buffer(*animation);
    if (!bytes) return make_error(bytes.error());
    return platform::write_stdout(*bytes);
}

}  // namespace

FormatInfo seanim_format() { return {"seanim", {".seanim"}, read_seanim, write_seanim}; }

}  // namespace castkit::formats
