// The K3D registry entry: `.k3d` files read into and write from the Cast document.
#include <castkit/formats/k3d.hpp>

#include "../../platform/platform.hpp"
#include "../registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_k3d(const std::filesystem::path& path, Diagnostics& warnings) {
    auto model = k3d::open(path, warnings);
    if (!model) return make_error(model.error());
    return k3d::to_cast(*model, platform::utf8_of(path), warnings);
}

Expected<void> write_k3d(cast::Document& document, const std::filesystem::path& path,
                         const WriteOptions&, Diagnostics& warnings) {
    auto model = k3d::from_cast(document, warnings);
    if (!model) return make_error(model.error());
    return k3d::write(*model, path);
}

}  // namespace

FormatInfo k3d_format() { return {"k3d", {".k3d"}, read_k3d, write_k3d}; }

}  // namespace castkit::formats
