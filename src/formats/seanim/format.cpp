// The SEAnim registry entry: `.seanim` files read into and write from the Cast document.
#include <castkit/formats/seanim.hpp>

#include "../../platform/platform.hpp"
#include "../common/binary_io.hpp"
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_seanim(const std::filesystem::path& path, Diagnostics& warnings) {
    auto animation = parse_input(path, [&](cast::Bytes bytes, const std::string& name) {
        return seanim::parse(bytes, name, warnings);
    });
    if (!animation) return make_error(animation.error());
    cast::Document document = seanim::to_cast(*animation, warnings);
    document.source_name = path == "-" ? "<stdin>" : platform::utf8_of(path);
    return document;
}

Expected<void> write_seanim(cast::Document& document, const std::filesystem::path& path,
                            const WriteOptions&, Diagnostics& warnings) {
    auto animation = seanim::from_cast(document, warnings);
    if (!animation) return make_error(animation.error());
    return seanim::write(*animation, path);
}

}  // namespace

FormatInfo seanim_format() { return {"seanim", {".seanim"}, read_seanim, write_seanim}; }

}  // namespace castkit::formats
