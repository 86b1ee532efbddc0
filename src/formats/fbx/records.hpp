// FBX binary records (FBX 7.4): a tree of named records, each with a list of typed properties
// and child records, encoded as the binary file Blender, Assimp and the FBX SDK read. Only the
// writer's side: castkit reads no FBX.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace castkit::fbx {

// The version written in the header and the footer: 7.4, whose record offsets are 32-bit.
inline constexpr std::uint32_t kVersion = 7400;

// Bytes of a `R` property (raw data: an embedded image, the file id).
struct Raw {
    std::vector<std::byte> bytes;
};

// One typed property: C (bool), I (int32), L (int64), F (float), D (double), S (string), R
// (raw), and arrays i, l, f, d (written uncompressed, encoding 0).
using Property = std::variant<bool, std::int32_t, std::int64_t, float, double, std::string, Raw,
                              std::vector<std::int32_t>, std::vector<std::int64_t>,
                              std::vector<float>, std::vector<double>>;

struct Record {
    std::string name;
    std::vector<Property> properties;
    std::vector<Record> children;

    // Appends a child record of `name` with `properties`; returns it (valid until the next
    // child is added).
    Record& add(std::string name, std::vector<Property> properties = {});
};

// The whole file: the header, `top` records (FBXHeaderExtension, GlobalSettings, …, Takes),
// the null record that closes them and the footer. Fails (an empty vector) only when the file
// passes the 4 GiB that FBX 7.4's 32-bit offsets reach. O(total bytes).
std::vector<std::byte> encode(std::span<const Record> top);

// What encode() would write for `top`, in bytes, without writing it. O(records + properties).
std::uint64_t encoded_size(std::span<const Record> top);

}  // namespace castkit::fbx
