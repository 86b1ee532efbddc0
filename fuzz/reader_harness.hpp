// What every reader's harness does with an input: read it as one format into a Cast document,
// validate it, write it as Cast and read that back (which must succeed), then convert it back to
// the format it came from and write that. Any crash, sanitizer report, leak, hang or huge
// allocation is a finding; a clean error at any step is not.
#pragma once

#include <castkit/cast/validate.hpp>
#include <cstdint>
#include <cstdlib>

#include "read_shim.hpp"

namespace castkit::fuzz {

// The document back in `format`, serialised; errors are fine (Cast holds more than any format).
inline void convert_back(std::string_view format, cast::Document& document) {
    Diagnostics warnings;
    if (format == "seanim") {
        if (auto animation = seanim::from_cast(document, warnings))
            (void)seanim::write_to_buffer(*animation);
    } else if (format == "semodel") {
        if (auto model = semodel::from_cast(document, warnings))
            (void)semodel::write_to_buffer(*model);
    } else if (format == "dmf" || format == "dmf-json") {
        // No texture is read from the disk: the policy's folders are the fuzzer's, not a user's.
        dmf::ConvertOptions options;
        options.side_files.max_size = 0;
        if (auto model = dmf::from_cast(document, warnings, options)) {
            if (format == "dmf")
                (void)dmf::write_to_buffer(*model);
            else
                (void)dmf::write_json_text(*model);
        }
    } else if (format == "k3d") {
        if (auto model = k3d::from_cast(document, warnings)) (void)k3d::write_to_buffer(*model);
    }
}

inline int run_reader(std::string_view format, const std::uint8_t* data, std::size_t size) {
    Diagnostics warnings;
    auto document = read_as(format, cast::Bytes(reinterpret_cast<const std::byte*>(data), size),
                            std::string("fuzz.") + std::string(format), warnings);
    if (!document) return 0;
    (void)cast::validate(*document);
    auto written = cast::write_to_buffer(*document);
    if (written) {
        auto again = cast::read(cast::Bytes(*written));
        if (!again) std::abort();  // the writer produced a Cast file the reader refuses
    }
    convert_back(format, *document);
    return 0;
}

}  // namespace castkit::fuzz
