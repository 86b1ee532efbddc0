// The files a glTF names by URI (its buffers' and images' uri that are not data: URIs),
// percent-decoded as the import reads them: what a reader of it opens besides the file itself
// (castkit/batch.hpp, side_files).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace castkit::gltf::detail {

// The names the buffers and images of the glTF or GLB `bytes` give in `uri`, data: URIs left
// out, in document order (buffers first); none for bytes that are not a glTF the reader would
// parse (no JSON, a GLB whose JSON chunk does not fit). O(JSON size).
std::vector<std::string> referenced_files(std::span<const std::byte> bytes);

}  // namespace castkit::gltf::detail
