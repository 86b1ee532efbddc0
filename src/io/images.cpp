// Texture conversion for glTF: signature sniffing, stb_image for TGA/BMP/PSD, squish for the
// BC1–BC5 blocks of a DDS file, stb_image_write for the PNG result.
#include "images.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#if CASTKIT_IMAGE_CODECS
#include <squish.h>
#include <stb_image.h>
#include <stb_image_write.h>
#endif

namespace castkit::images {
namespace {

bool starts_with(std::span<const std::byte> file, std::string_view magic) {
    return file.size() >= magic.size() && std::memcmp(file.data(), magic.data(), magic.size()) == 0;
}

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

GltfImage failed(std::string message) {
    GltfImage image;
    image.message = std::move(message);
    return image;
}

GltfImage passed_through(std::span<const std::byte> file, std::string mime_type) {
    GltfImage image;
    image.outcome = Outcome::Ready;
    image.bytes.assign(file.begin(), file.end());
    image.mime_type = std::move(mime_type);
    return image;
}

#if CASTKIT_IMAGE_CODECS

// Images larger than this many pixels, or than 256 pixels per byte of file (beyond what any
// real RLE or block compression reaches), are refused before anything is allocated.
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 26;
bool plausible_size(std::uint64_t width, std::uint64_t height, std::size_t file_size) {
    const std::uint64_t pixels = width * height;
    return width > 0 && height > 0 && width <= 65536 && height <= 65536 && pixels <= kMaxPixels &&
           pixels <= std::max<std::uint64_t>(std::uint64_t{file_size} * 256, 4096);
}

std::uint32_t u32_at(std::span<const std::byte> file, std::size_t offset) {
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i)
        value =
            (value << 8) | static_cast<std::uint8_t>(file[offset + static_cast<std::size_t>(i)]);
    return value;
}

GltfImage png_from_rgba(const std::uint8_t* rgba, int width, int height) {
    GltfImage image;
    image.bytes =
        encode_png(std::span(rgba, static_cast<std::size_t>(width) * height * 4), width, height);
    if (image.bytes.empty()) return failed("the PNG encoder failed");
    image.outcome = Outcome::Ready;
    image.mime_type = "image/png";
    image.converted = true;
    return image;
}

// TGA, BMP, PSD (and anything else stb_image reads) to PNG.
GltfImage convert_with_stb(std::span<const std::byte> file, std::string_view kind) {
    const auto* data = reinterpret_cast<const stbi_uc*>(file.data());
    const int length = static_cast<int>(std::min<std::size_t>(file.size(), 0x7FFFFFFF));
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, length, &width, &height, &channels))
        return failed(fmt::format("not a readable {} image ({})", kind, stbi_failure_reason()));
    if (!plausible_size(static_cast<std::uint64_t>(width), static_cast<std::uint64_t>(height),
                        file.size()))
        return failed(fmt::format("{}x{} pixels is more than a {}-byte {} file can hold", width,
                                  height, file.size(), kind));
    stbi_uc* pixels = stbi_load_from_memory(data, length, &width, &height, &channels, 4);
    if (pixels == nullptr)
        return failed(fmt::format("damaged {} image ({})", kind, stbi_failure_reason()));
    GltfImage image = png_from_rgba(pixels, width, height);
    stbi_image_free(pixels);
    return image;
}

// The block compression a DDS file uses, from its FourCC or DX10 DXGI format.
enum class Block { Bc1, Bc2, Bc3, Bc4, Bc5, Bc6h, Bc7, Signed, Other };

Block dds_block(std::span<const std::byte> file) {
    const std::string fourcc(reinterpret_cast<const char*>(file.data()) + 84, 4);
    if (fourcc == "DXT1") return Block::Bc1;
    if (fourcc == "DXT2" || fourcc == "DXT3") return Block::Bc2;
    if (fourcc == "DXT4" || fourcc == "DXT5") return Block::Bc3;
    if (fourcc == "ATI1" || fourcc == "BC4U") return Block::Bc4;
    if (fourcc == "ATI2" || fourcc == "BC5U") return Block::Bc5;
    if (fourcc == "BC4S" || fourcc == "BC5S") return Block::Signed;
    if (fourcc != "DX10" || file.size() < 148) return Block::Other;
    switch (u32_at(file, 128)) {  // DXGI_FORMAT
        case 70:
        case 71:
        case 72:
            return Block::Bc1;
        case 73:
        case 74:
        case 75:
            return Block::Bc2;
        case 76:
        case 77:
        case 78:
            return Block::Bc3;
        case 79:
        case 80:
            return Block::Bc4;
        case 82:
        case 83:
            return Block::Bc5;
        case 81:
        case 84:
            return Block::Signed;
        case 94:
        case 95:
        case 96:
            return Block::Bc6h;
        case 97:
        case 98:
        case 99:
            return Block::Bc7;
        default:
            return Block::Other;
    }
}

// One BC4 block decoded through squish: a BC4 block is laid out exactly like the alpha half
// of a DXT5 block, so squish decodes it as one and the alpha channel is the value.
void decode_bc4_block(const std::byte* block, std::uint8_t values[16]) {
    std::byte dxt5[16] = {};
    std::memcpy(dxt5, block, 8);
    std::uint8_t rgba[64];
    squish::Decompress(rgba, dxt5, squish::kDxt5);
    for (int i = 0; i < 16; ++i) values[i] = rgba[4 * i + 3];
}

// BC4 (one channel, shown as grey) and BC5 (two channels: a tangent-space normal map's X and
// Y, so Z is rebuilt as sqrt(1 - x² - y²)) into RGBA8.
void decode_bc45(const std::byte* blocks, int width, int height, bool two_channels,
                 std::uint8_t* rgba) {
    const int across = (width + 3) / 4, down = (height + 3) / 4;
    const std::size_t block_size = two_channels ? 16 : 8;
    for (int by = 0; by < down; ++by)
        for (int bx = 0; bx < across; ++bx) {
            const std::byte* block =
                blocks + (static_cast<std::size_t>(by) * across + bx) * block_size;
            std::uint8_t red[16], green[16] = {};
            decode_bc4_block(block, red);
            if (two_channels) decode_bc4_block(block + 8, green);
            for (int i = 0; i < 16; ++i) {
                const int x = bx * 4 + i % 4, y = by * 4 + i / 4;
                if (x >= width || y >= height) continue;
                std::uint8_t* out = rgba + (static_cast<std::size_t>(y) * width + x) * 4;
                if (!two_channels) {
                    out[0] = out[1] = out[2] = red[i];
                } else {
                    const float nx = red[i] / 127.5f - 1.0f, ny = green[i] / 127.5f - 1.0f;
                    const float nz = std::sqrt(std::max(0.0f, 1.0f - nx * nx - ny * ny));
                    out[0] = red[i];
                    out[1] = green[i];
                    out[2] = static_cast<std::uint8_t>(std::lround((nz + 1.0f) * 127.5f));
                }
                out[3] = 255;
            }
        }
}

// The top mip level of a BC1–BC5 DDS file to PNG; BC6H and BC7 stay external.
GltfImage convert_dds(std::span<const std::byte> file) {
    if (file.size() < 128 || u32_at(file, 4) != 124)
        return failed("damaged DDS file (its header is cut short or not 124 bytes)");
    const std::uint32_t height = u32_at(file, 12), width = u32_at(file, 16);
    const Block block = dds_block(file);
    if (block == Block::Bc6h || block == Block::Bc7)
        return {Outcome::External,
                {},
                {},
                false,
                fmt::format("{} compression, which no library castkit uses decodes",
                            block == Block::Bc6h ? "BC6H" : "BC7")};
    if (block == Block::Signed) return failed("signed BC4/BC5 data is not supported");
    if (block == Block::Other) return failed("the DDS pixel format is not BC1-BC5 compressed");
    const std::size_t data_offset = u32_at(file, 84) == 0x30315844u ? 148 : 128;  // "DX10"
    const std::size_t block_size = block == Block::Bc1 || block == Block::Bc4 ? 8 : 16;
    const std::uint64_t blocks = (std::uint64_t{width} + 3) / 4 * ((std::uint64_t{height} + 3) / 4);
    if (!plausible_size(width, height, file.size()) || file.size() < data_offset ||
        (file.size() - data_offset) / block_size < blocks)
        return failed(fmt::format("a {}x{} DDS image needs more data than the file's {} bytes",
                                  width, height, file.size()));
    std::vector<std::uint8_t> rgba(std::size_t{width} * height * 4);
    const std::byte* data = file.data() + data_offset;
    const int w = static_cast<int>(width), h = static_cast<int>(height);
    if (block == Block::Bc4 || block == Block::Bc5) {
        decode_bc45(data, w, h, block == Block::Bc5, rgba.data());
    } else {
        const int flags = block == Block::Bc1   ? squish::kDxt1
                          : block == Block::Bc2 ? squish::kDxt3
                                                : squish::kDxt5;
        squish::DecompressImage(rgba.data(), w, h, data, flags);
    }
    return png_from_rgba(rgba.data(), w, h);
}

#endif

}  // namespace

bool can_convert() { return CASTKIT_IMAGE_CODECS != 0; }

std::vector<std::byte> encode_png([[maybe_unused]] std::span<const std::uint8_t> rgba,
                                  [[maybe_unused]] int width, [[maybe_unused]] int height) {
    std::vector<std::byte> out;
#if CASTKIT_IMAGE_CODECS
    auto append = [](void* context, void* data, int size) {
        auto* bytes = static_cast<std::vector<std::byte>*>(context);
        const auto* begin = static_cast<const std::byte*>(data);
        bytes->insert(bytes->end(), begin, begin + size);
    };
    if (!stbi_write_png_to_func(append, &out, width, height, 4, rgba.data(), width * 4))
        out.clear();
#endif
    return out;
}

std::string_view signature_mime_type(std::span<const std::byte> file) {
    if (starts_with(file, "\x89PNG\r\n\x1a\n")) return "image/png";
    if (starts_with(file, "\xFF\xD8\xFF")) return "image/jpeg";
    return "";
}

std::string_view image_kind(std::span<const std::byte> file, std::string_view name) {
    if (signature_mime_type(file) == "image/png") return "PNG";
    if (signature_mime_type(file) == "image/jpeg") return "JPEG";
    if (starts_with(file, "DDS ")) return "DDS";
    if (starts_with(file, "BM")) return "BMP";
    if (starts_with(file, "8BPS")) return "PSD";
    if (lower(name).ends_with(".tga")) return "TGA";
    return "";
}

GltfImage prepare_for_gltf(std::span<const std::byte> file, std::string_view name) {
    if (const std::string_view mime = signature_mime_type(file); !mime.empty())
        return passed_through(file, std::string(mime));
    const std::string_view kind = image_kind(file, name);
    if (kind.empty()) return failed("not a PNG, JPEG, TGA, BMP, PSD or DDS image");
#if CASTKIT_IMAGE_CODECS
    if (kind == "DDS") return convert_dds(file);
    return convert_with_stb(file, kind);
#else
    return failed("this castkit was built without stb and squish, so only PNG and JPEG travel");
#endif
}

}  // namespace castkit::images
