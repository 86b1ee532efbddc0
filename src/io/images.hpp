// Texture files made fit for glTF: PNG and JPEG pass through as they are; TGA, BMP and PSD are
// decoded with stb_image and DDS (BC1–BC5) with squish, then written as PNG with
// stb_image_write. Nothing here decodes pixels by hand. Without the two libraries (a build that
// found neither) only PNG and JPEG are accepted.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::images {

// What a texture file became.
enum class Outcome {
    Ready,     // `bytes` is a PNG or JPEG glTF can hold
    External,  // a format no library here decodes (BC6H, BC7): keep it as a file
    Failed,    // not an image, or damaged
};

struct GltfImage {
    Outcome outcome = Outcome::Failed;
    std::vector<std::byte> bytes;
    std::string mime_type;   // "image/png" or "image/jpeg" when Ready
    bool converted = false;  // true when `bytes` is a PNG made from another format
    std::string message;     // why the image is External or Failed
};

// "image/png" or "image/jpeg" when the bytes start with that format's signature, else "".
// O(1).
std::string_view signature_mime_type(std::span<const std::byte> file);

// "PNG", "JPEG", "DDS", "BMP", "PSD" from the bytes' signature, else "TGA" when `name` (the
// file name) ends in .tga, else "". O(1).
std::string_view image_kind(std::span<const std::byte> file, std::string_view name);

// Turns the bytes of a texture file into an image glTF can hold; `name` (the file name) picks
// TGA, which has no signature. O(pixels) for formats that are converted, O(1) otherwise.
GltfImage prepare_for_gltf(std::span<const std::byte> file, std::string_view name);

// True when this build can convert TGA, BMP, PSD and DDS (stb and squish were found).
bool can_convert();

// A tiny PNG of `width` x `height` RGBA8 pixels, for tests and tools. Empty when this build
// has no encoder. O(pixels).
std::vector<std::byte> encode_png(std::span<const std::uint8_t> rgba, int width, int height);

}  // namespace castkit::images
