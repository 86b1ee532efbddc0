// The Cast format's registry entry: the hub reads and writes itself.
#include "registry_entries.hpp"

namespace castkit::formats {
namespace {

Expected<cast::Document> read_cast(const std::filesystem::path& path, Diagnostics& warnings) {
    auto document = path == "-" ? cast::read_stdin() : cast::open(path);
    if (document)
        warnings.insert(warnings.end(), document->warnings.begin(), document->warnings.end());
    return document;
}

Expected<void> write_cast(cast::Document& document, const std::filesystem::path& path,
                          const WriteOptions&, Diagnostics&) {
    return cast::write(document, path);
}

}  // namespace

FormatInfo cast_format() { return {"cast", {".cast"}, read_cast, write_cast}; }

}  // namespace castkit::formats
