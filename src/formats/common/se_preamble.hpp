// The start both SE formats share (docs/seanim.md, docs/semodel.md): the magic ("SEAnim",
// "SEModel"), a u16 version, then a u16 headerSize that counts itself and the fields after it.
#pragma once

#include <castkit/cast/node.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <string_view>

namespace castkit::formats {

struct SEPreamble {
    std::uint16_t version = 0;
    std::uint16_t header_size = 0;  // the headerSize field, at offset magic.size() + 2
};

// Checks `magic`, reads the version (a warning when it is not 1) and headerSize (an error when
// it is below `defined_size`, the bytes version 1 defines, or runs past the data). O(1).
Expected<SEPreamble> read_se_preamble(cast::Bytes bytes, std::string_view source_name,
                                      std::string_view magic, std::uint16_t defined_size,
                                      Diagnostics& warnings);

}  // namespace castkit::formats
