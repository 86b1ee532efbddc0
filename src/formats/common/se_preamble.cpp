#include "se_preamble.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstring>

#include "io/binary_io.hpp"

namespace castkit::formats {

Expected<SEPreamble> read_se_preamble(cast::Bytes bytes, std::string_view source_name,
                                      std::string_view magic, std::uint16_t defined_size,
                                      Diagnostics& warnings) {
    const std::size_t header_start = magic.size() + 2;
    std::string format(magic);  // "SEAnim" → "seanim", the prefix of the ids
    for (char& c : format) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto with_id = [&](Diagnostic d, std::string_view kind) {
        d.rule = fmt::format("{}.{}", format, kind);
        return d;
    };
    if (bytes.size() < header_start + 2 ||
        std::memcmp(bytes.data(), magic.data(), magic.size()) != 0)
        return make_error(
            with_id(diagnostic_at(source_name, 0, {},
                                  fmt::format("not an {0} file (no '{0}' magic)", magic)),
                    "bad-magic"));
    SEPreamble preamble;
    preamble.version = cast::load<std::uint16_t>(bytes.data() + magic.size());
    if (preamble.version != 1)
        warnings.push_back(with_id(
            diagnostic_at(
                source_name, magic.size(), {},
                fmt::format("{} version {} (castkit knows 1); read as 1", magic, preamble.version),
                Severity::Warning),
            "unknown-version"));
    preamble.header_size = cast::load<std::uint16_t>(bytes.data() + header_start);
    if (preamble.header_size < defined_size)
        return make_error(with_id(
            diagnostic_at(source_name, header_start, {},
                          fmt::format("headerSize {} is below the {} bytes version 1 defines",
                                      preamble.header_size, defined_size)),
            "header-size"));
    if (bytes.size() < header_start + preamble.header_size)
        return make_error(
            with_id(diagnostic_at(source_name, header_start, {},
                                  fmt::format("truncated header: {} bytes, the file has {}",
                                              preamble.header_size, bytes.size() - header_start)),
                    "truncated"));
    return preamble;
}

}  // namespace castkit::formats
