// Textures travel with the glTF export: every image type castkit converts is embedded in a .glb
// (PNG and JPEG as they are, TGA/BMP/PSD/DDS BC1-BC5 as PNG) or copied beside a .gltf; BC7
// stays external; a missing or damaged texture is a warning and the file still validates.
// The test images are made here with stb_image_write and squish's compressor.
#include <gtest/gtest.h>
#include <squish.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <castkit/formats/gltf.hpp>
#include <set>

#include "../cli/character.hpp"
#include "../formats/cli_command.hpp"
#include "gltf_scene.hpp"

namespace castkit::test::export_textures_test {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 8;

// An 8x8 RGBA gradient: red across, green down, blue constant, opaque.
std::vector<std::uint8_t> gradient() {
    std::vector<std::uint8_t> rgba(kSize * kSize * 4);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            std::uint8_t* p = &rgba[(y * kSize + x) * 4];
            p[0] = static_cast<std::uint8_t>(x * 32);
            p[1] = static_cast<std::uint8_t>(y * 32);
            p[2] = 96;
            p[3] = 255;
        }
    return rgba;
}

using Writer = int (*)(stbi_write_func*, void*, int, int, int, const void*);

std::vector<std::byte> stb_written(const std::vector<std::uint8_t>& rgba, const char* type) {
    std::vector<std::byte> out;
    auto append = [](void* context, void* data, int size) {
        auto* bytes = static_cast<std::vector<std::byte>*>(context);
        bytes->insert(bytes->end(), static_cast<std::byte*>(data),
                      static_cast<std::byte*>(data) + size);
    };
    const std::string kind = type;
    if (kind == "png")
        stbi_write_png_to_func(append, &out, kSize, kSize, 4, rgba.data(), kSize * 4);
    if (kind == "jpg") stbi_write_jpg_to_func(append, &out, kSize, kSize, 4, rgba.data(), 95);
    if (kind == "tga") stbi_write_tga_to_func(append, &out, kSize, kSize, 4, rgba.data());
    if (kind == "bmp") stbi_write_bmp_to_func(append, &out, kSize, kSize, 4, rgba.data());
    return out;
}

void put_u32(std::vector<std::byte>& out, std::uint32_t value, bool big_endian = false) {
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<std::byte>(value >> (big_endian ? 24 - 8 * i : 8 * i)));
}
void put_u16_be(std::vector<std::byte>& out, std::uint16_t value) {
    out.push_back(static_cast<std::byte>(value >> 8));
    out.push_back(static_cast<std::byte>(value));
}

// A raw (uncompressed) 8-bit RGB Photoshop file: header, empty sections, planar channels.
std::vector<std::byte> psd(const std::vector<std::uint8_t>& rgba) {
    std::vector<std::byte> out;
    for (char c : std::string("8BPS")) out.push_back(static_cast<std::byte>(c));
    put_u16_be(out, 1);
    out.insert(out.end(), 6, std::byte{0});
    put_u16_be(out, 3);
    put_u32(out, kSize, true);
    put_u32(out, kSize, true);
    put_u16_be(out, 8);
    put_u16_be(out, 3);  // RGB
    for (int section = 0; section < 3; ++section) put_u32(out, 0, true);
    put_u16_be(out, 0);  // raw data
    for (int channel = 0; channel < 3; ++channel)
        for (int i = 0; i < kSize * kSize; ++i)
            out.push_back(static_cast<std::byte>(rgba[i * 4 + channel]));
    return out;
}

// A DDS file around `blocks`: FourCC, or "DX10" with a DXGI format.
std::vector<std::byte> dds(const std::string& fourcc, std::uint32_t dxgi,
                           const std::vector<std::byte>& blocks) {
    std::vector<std::byte> out;
    for (char c : std::string("DDS ")) out.push_back(static_cast<std::byte>(c));
    put_u32(out, 124);
    put_u32(out, 0x1007);  // caps, height, width, pixel format
    put_u32(out, kSize);
    put_u32(out, kSize);
    for (int i = 0; i < 2 + 1 + 11; ++i) put_u32(out, 0);  // pitch, depth, mips, reserved
    put_u32(out, 32);
    put_u32(out, 4);  // DDPF_FOURCC
    for (char c : fourcc) out.push_back(static_cast<std::byte>(c));
    for (int i = 0; i < 5 + 5; ++i) put_u32(out, 0);  // bit count, masks, caps
    if (fourcc == "DX10") {
        put_u32(out, dxgi);
        put_u32(out, 3);  // 2D
        put_u32(out, 0);
        put_u32(out, 1);
        put_u32(out, 0);
    }
    out.insert(out.end(), blocks.begin(), blocks.end());
    return out;
}

std::vector<std::byte> squish_blocks(const std::vector<std::uint8_t>& rgba, int flags) {
    std::vector<std::byte> out(
        static_cast<std::size_t>(squish::GetStorageRequirements(kSize, kSize, flags)));
    squish::CompressImage(rgba.data(), kSize, kSize, out.data(), flags);
    return out;
}

// BC4 blocks of one channel: squish's DXT5 alpha blocks, which BC4 shares bit for bit.
std::vector<std::byte> bc4_blocks(const std::vector<std::uint8_t>& rgba, int channel) {
    std::vector<std::uint8_t> alpha = rgba;
    for (int i = 0; i < kSize * kSize; ++i) alpha[i * 4 + 3] = rgba[i * 4 + channel];
    std::vector<std::byte> dxt5 = squish_blocks(alpha, squish::kDxt5), out;
    for (std::size_t b = 0; b < dxt5.size(); b += 16) out.insert(out.end(), &dxt5[b], &dxt5[b + 8]);
    return out;
}

std::vector<std::byte> bc5_blocks(const std::vector<std::uint8_t>& rgba) {
    std::vector<std::byte> red = bc4_blocks(rgba, 0), green = bc4_blocks(rgba, 1), out;
    for (std::size_t b = 0; b < red.size(); b += 8) {
        out.insert(out.end(), &red[b], &red[b + 8]);
        out.insert(out.end(), &green[b], &green[b + 8]);
    }
    return out;
}

// Decodes an embedded or copied image back to RGBA.
std::vector<std::uint8_t> decoded(const std::vector<std::byte>& bytes) {
    int w = 0, h = 0, n = 0;
    stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                            static_cast<int>(bytes.size()), &w, &h, &n, 4);
    if (pixels == nullptr || w != kSize || h != kSize) return {};
    std::vector<std::uint8_t> out(pixels, pixels + kSize * kSize * 4);
    stbi_image_free(pixels);
    return out;
}

// Largest difference of the chosen channels between two RGBA images.
int max_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                   std::initializer_list<int> channels) {
    if (a.size() != b.size()) return 256;
    int worst = 0;
    for (std::size_t i = 0; i < a.size(); i += 4)
        for (int c : channels) worst = std::max(worst, std::abs(a[i + c] - b[i + c]));
    return worst;
}

// The bytes of image `index` of a .glb: its buffer view in the binary chunk.
std::vector<std::byte> embedded(const fs::path& glb, const nlohmann::json& json, int index) {
    const std::vector<std::byte> file = read_bytes(glb);
    std::uint32_t json_length = 0;
    std::memcpy(&json_length, file.data() + 12, 4);
    const std::size_t binary = 20 + json_length + 8;
    const nlohmann::json& view =
        json["bufferViews"][json["images"][index]["bufferView"].get<int>()];
    const std::size_t offset = binary + view.value("byteOffset", 0u);
    return {
        file.begin() + static_cast<std::ptrdiff_t>(offset),
        file.begin() + static_cast<std::ptrdiff_t>(offset + view["byteLength"].get<std::size_t>())};
}

// The character with one mesh and material per texture file, each file as the albedo.
cast::Document textured(const std::vector<std::string>& files) {
    cast::Document document = character();
    cast::Model model = document.models()[0];
    cast::Mesh first = model.meshes()[0];
    for (const std::string& name : files) {
        cast::Mesh mesh = model.add_mesh();
        mesh.set_name(name);
        mesh.set_positions(first.positions().to_vector());
        mesh.set_normals(first.normals().to_vector());
        EXPECT_TRUE(mesh.set_uv_layer(0, first.uv_layer(0).to_vector()));
        mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
        cast::Material material = model.add_material();
        material.set_name(name);
        cast::File file = material.add_file("textures/" + name);
        material.set_slot("albedo", file);
        mesh.set_material(material);
    }
    return document;
}

class ExportTextures : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("export-textures-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(dir / "textures");
        fs::create_directories(dir / "out");
        source = gradient();
    }
    void image(const std::string& name, const std::vector<std::byte>& bytes) {
        write_bytes(dir / "textures" / name, bytes);
    }
    // Writes `files` as a textured scene through the CLI (so the source folder is real).
    CommandResult convert(const std::vector<std::string>& files, const std::string& output,
                          const std::string& flags = "") {
        write_as(textured(files), dir / "hero.cast");
        return run_cli(in_dir(dir, "convert {hero.cast} {" + output + "} " + flags));
    }
    // The image the albedo of material `name` shows.
    static const nlohmann::json* albedo_image(const nlohmann::json& json, const std::string& name) {
        for (const nlohmann::json& material : json["materials"])
            if (material["name"] == name) {
                // A material left with glTF's defaults has no pbrMetallicRoughness at all.
                const nlohmann::json pbr =
                    material.value("pbrMetallicRoughness", nlohmann::json::object());
                if (!pbr.contains("baseColorTexture")) return nullptr;
                const int texture = pbr["baseColorTexture"]["index"];
                return &json["images"][json["textures"][texture]["source"].get<int>()];
            }
        return nullptr;
    }
    fs::path dir;
    std::vector<std::uint8_t> source;
};

TEST_F(ExportTextures, GlbEmbedsEveryImageTypeAsPngOrJpeg) {
    image("a.png", stb_written(source, "png"));
    image("b.jpg", stb_written(source, "jpg"));
    image("c.tga", stb_written(source, "tga"));
    image("d.bmp", stb_written(source, "bmp"));
    image("e.psd", psd(source));
    image("bc1.dds", dds("DXT1", 0, squish_blocks(source, squish::kDxt1)));
    image("bc2.dds", dds("DXT3", 0, squish_blocks(source, squish::kDxt3)));
    image("bc3.dds", dds("DX10", 77, squish_blocks(source, squish::kDxt5)));
    image("bc4.dds", dds("ATI1", 0, bc4_blocks(source, 0)));
    image("bc5.dds", dds("DX10", 83, bc5_blocks(source)));
    const std::vector<std::string> files{"a.png",   "b.jpg",   "c.tga",   "d.bmp",   "e.psd",
                                         "bc1.dds", "bc2.dds", "bc3.dds", "bc4.dds", "bc5.dds"};
    CommandResult result = convert(files, "hero.glb");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("/images/"), std::string::npos) << result.err;

    const nlohmann::json json = gltf_json(dir / "hero.glb");
    for (const std::string& name : files) {
        SCOPED_TRACE(name);
        const nlohmann::json* image = albedo_image(json, name);
        ASSERT_NE(image, nullptr);
        EXPECT_FALSE(image->contains("uri"));
        EXPECT_EQ((*image)["mimeType"], name == "b.jpg" ? "image/jpeg" : "image/png");
        const int index = static_cast<int>(image - &json["images"][0]);
        const std::vector<std::byte> bytes = embedded(dir / "hero.glb", json, index);
        // PNG and JPEG travel byte for byte.
        if (name == "a.png" || name == "b.jpg") {
            EXPECT_EQ(bytes, read_bytes(dir / "textures" / name));
            continue;
        }
        const std::vector<std::uint8_t> pixels = decoded(bytes);
        ASSERT_FALSE(pixels.empty());
        if (name == "bc4.dds") {  // one channel, shown as grey
            EXPECT_LE(max_difference(pixels, source, {0}), 8);
            EXPECT_EQ(pixels[4 * 9 + 1], pixels[4 * 9 + 0]);
        } else if (name == "bc5.dds") {  // X and Y of a normal map
            EXPECT_LE(max_difference(pixels, source, {0, 1}), 8);
        } else if (name.ends_with(".dds")) {  // exactly what squish decodes from the blocks
            const int flags = name == "bc1.dds"   ? squish::kDxt1
                              : name == "bc2.dds" ? squish::kDxt3
                                                  : squish::kDxt5;
            std::vector<std::uint8_t> expected(source.size());
            squish::DecompressImage(expected.data(), kSize, kSize,
                                    squish_blocks(source, flags).data(), flags);
            EXPECT_EQ(max_difference(pixels, expected, {0, 1, 2, 3}), 0);
        } else {  // lossless sources
            EXPECT_EQ(pixels, source);
        }
    }
    if (const std::optional<ValidatorResult> validation = run_gltf_validator(dir / "hero.glb")) {
        EXPECT_EQ(validation->exit_code, 0) << validation->output;
        EXPECT_NE(validation->output.find("hero.glb: 0 errors"), std::string::npos)
            << validation->output;
    }
}

TEST_F(ExportTextures, Bc7StaysAnExternalFileWithAWarning) {
    image("a.png", stb_written(source, "png"));
    image("bc7.dds", dds("DX10", 98, std::vector<std::byte>(kSize * kSize, std::byte{0})));
    CommandResult result = convert({"a.png", "bc7.dds"}, "out/hero.glb");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("texture 'textures/bc7.dds' uses BC7 compression"), std::string::npos)
        << result.err;
    const nlohmann::json json = gltf_json(dir / "out" / "hero.glb");
    const nlohmann::json* image = albedo_image(json, "bc7.dds");
    ASSERT_NE(image, nullptr);
    // Referenced where it is, relative to the output.
    EXPECT_EQ((*image)["uri"], "../textures/bc7.dds");
    EXPECT_FALSE(albedo_image(json, "a.png")->contains("uri"));
}

TEST_F(ExportTextures, AMissingOrDamagedTextureIsAWarningAndTheOtherMapsStay) {
    image("a.png", stb_written(source, "png"));
    image("broken.tga", std::vector<std::byte>(40, std::byte{0x7F}));
    cast::Document document = textured({"a.png", "broken.tga"});
    cast::Material material = document.models()[0].materials()[1];
    // The a.png material also names a normal map that is not there.
    for (const char* slot : {"normal", "emissive"}) {
        cast::File missing = material.add_file(std::string("textures/") + slot + "_missing.png");
        material.set_slot(slot, missing);
    }
    write_as(std::move(document), dir / "hero.cast");
    CommandResult result = run_cli(in_dir(dir, "convert {hero.cast} {hero.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("texture 'textures/normal_missing.png' was not found"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("texture 'textures/broken.tga' could not be decoded"),
              std::string::npos)
        << result.err;
    const nlohmann::json json = gltf_json(dir / "hero.glb");
    const nlohmann::json& kept = json["materials"][1];
    EXPECT_EQ(kept["name"], "a.png");
    EXPECT_TRUE(kept["pbrMetallicRoughness"].contains("baseColorTexture"));
    // Missing files stay references to the path the document names; undecodable ones go.
    EXPECT_TRUE(kept.contains("normalTexture"));
    EXPECT_TRUE(kept.contains("emissiveTexture"));
    EXPECT_EQ(albedo_image(json, "broken.tga"), nullptr);
    EXPECT_EQ(json["images"].size(), 3u);
    expect_gltf_validator_passes(dir / "hero.glb");
}

TEST_F(ExportTextures, GltfCopiesImagesBesideTheFile) {
    image("a.png", stb_written(source, "png"));
    image("c.tga", stb_written(source, "tga"));
    CommandResult result = convert({"a.png", "c.tga"}, "out/hero.gltf");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json json = gltf_json(dir / "out" / "hero.gltf");
    EXPECT_EQ((*albedo_image(json, "a.png"))["uri"], "a.png");
    EXPECT_EQ((*albedo_image(json, "c.tga"))["uri"], "c.png");
    EXPECT_EQ(read_bytes(dir / "out" / "a.png"), read_bytes(dir / "textures" / "a.png"));
    EXPECT_EQ(decoded(read_bytes(dir / "out" / "c.png")), source);
    // The validator reads the copied images beside the file.
    if (const std::optional<ValidatorResult> validation =
            run_gltf_validator(dir / "out" / "hero.gltf")) {
        EXPECT_EQ(validation->exit_code, 0) << validation->output;
        EXPECT_NE(validation->output.find("0 textures not loaded"), std::string::npos)
            << validation->output;
    }
}

TEST_F(ExportTextures, ReferenceModeKeepsThePathsAndReadsNothing) {
    CommandResult result = convert({"nowhere.tga"}, "hero.glb", "--texture-mode reference");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("not found"), std::string::npos) << result.err;
    const nlohmann::json json = gltf_json(dir / "hero.glb");
    EXPECT_EQ((*albedo_image(json, "nowhere.tga"))["uri"], "textures/nowhere.tga");
}

TEST_F(ExportTextures, TheTexturesFolderIsSearchedAfterTheSourceFolder) {
    fs::create_directories(dir / "library");
    write_bytes(dir / "library" / "a.png", stb_written(source, "png"));
    CommandResult missing = convert({"a.png"}, "first.glb");
    EXPECT_NE(missing.err.find("give --textures DIR"), std::string::npos) << missing.err;
    CommandResult found = convert({"a.png"}, "second.glb", in_dir(dir, "--textures {library}"));
    ASSERT_EQ(found.exit_code, 0) << found.err;
    EXPECT_EQ(found.err.find("not found"), std::string::npos) << found.err;
    const nlohmann::json json = gltf_json(dir / "second.glb");
    EXPECT_EQ((*albedo_image(json, "a.png"))["mimeType"], "image/png");
}

// The side-file policy (castkit/io/side_files.hpp): a path out of the source folder is read only
// with --allow-any-path; without it the image stays a reference and the warning names the option.
TEST_F(ExportTextures, PathsThatClimbOutAreReadOnlyWithAllowAnyPath) {
    fs::create_directories(dir / "inner");
    write_bytes(dir / "secret.png", stb_written(source, "png"));
    cast::Document document = textured({"x"});
    document.models()[0].materials()[1].slot_file("albedo").set_path("../secret.png");
    write_as(std::move(document), dir / "inner" / "hero.cast");
    CommandResult refused = run_cli(in_dir(dir, "convert {inner/hero.cast} {inner/hero.glb}"));
    ASSERT_EQ(refused.exit_code, 0) << refused.err;
    EXPECT_NE(refused.err.find("texture '../secret.png' leads outside"), std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("--allow-any-path"), std::string::npos) << refused.err;
    const nlohmann::json referenced = gltf_json(dir / "inner" / "hero.glb");
    const nlohmann::json* image = albedo_image(referenced, "x");
    ASSERT_NE(image, nullptr);
    EXPECT_TRUE(image->contains("uri"));

    CommandResult allowed =
        run_cli(in_dir(dir, "convert {inner/hero.cast} {inner/any.glb} --allow-any-path"));
    ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
    EXPECT_EQ(allowed.err.find("secret.png"), std::string::npos) << allowed.err;
    const nlohmann::json embedded = gltf_json(dir / "inner" / "any.glb");
    image = albedo_image(embedded, "x");
    ASSERT_NE(image, nullptr);
    EXPECT_EQ(image->value("mimeType", ""), "image/png");
}

// Issue 13: images embedded in a glTF come out beside a Cast output, named after the source,
// byte for byte, and go back into a glb from there; a data: URI image too.
TEST_F(ExportTextures, GltfImportWritesEmbeddedImagesBesideTheOutput) {
    image("a.png", stb_written(source, "png"));
    image("b.jpg", stb_written(source, "jpg"));
    ASSERT_EQ(convert({"a.png", "b.jpg"}, "hero.glb").exit_code, 0);
    CommandResult result = run_cli(in_dir(dir, "convert {hero.glb} {out/hero.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("not kept"), std::string::npos) << result.err;
    EXPECT_EQ(read_bytes(dir / "out" / "hero_image0.png"), read_bytes(dir / "textures" / "a.png"));
    EXPECT_EQ(read_bytes(dir / "out" / "hero_image1.jpg"), read_bytes(dir / "textures" / "b.jpg"));
    auto document = open_cast(dir / "out" / "hero.cast");
    ASSERT_TRUE(document) << document.error().to_string();
    std::set<std::string> paths;
    for (cast::Model model : document->models())
        for (cast::Material material : model.materials())
            for (cast::File file : material.files()) paths.insert(std::string(*file.path()));
    EXPECT_EQ(paths, (std::set<std::string>{"hero_image0.png", "hero_image1.jpg"}));

    ASSERT_EQ(run_cli(in_dir(dir, "convert {out/hero.cast} {again.glb}")).exit_code, 0);
    const nlohmann::json json = gltf_json(dir / "again.glb");
    EXPECT_EQ(embedded(dir / "again.glb", json, 0), read_bytes(dir / "textures" / "a.png"));
    expect_gltf_validator_passes(dir / "again.glb");

    // A .gltf whose image is a data: URI, converted with an explicit texture folder.
    ASSERT_EQ(convert({"a.png"}, "inline.gltf", "--texture-mode embed").exit_code, 0);
    CommandResult inline_result =
        run_cli(in_dir(dir, "convert {inline.gltf} {out/inline.semodel} --textures {maps}"));
    ASSERT_EQ(inline_result.exit_code, 0) << inline_result.err;
    EXPECT_EQ(read_bytes(dir / "maps" / "inline_image0.png"),
              read_bytes(dir / "textures" / "a.png"));
}

// Reading alone (castkit info, the library without a texture folder) writes nothing and loses
// nothing: the image travels with the document, which info lists.
TEST_F(ExportTextures, ReadingWithoutATextureFolderWritesNothing) {
    image("a.png", stb_written(source, "png"));
    ASSERT_EQ(convert({"a.png"}, "hero.glb").exit_code, 0);
    CommandResult result = run_cli(in_dir(dir, "info {hero.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("not kept"), std::string::npos) << result.err;
    EXPECT_NE(result.out.find("embedded file 'hero_image0.png'"), std::string::npos) << result.out;
    EXPECT_FALSE(fs::exists(dir / "hero_image0.png"));
}

}  // namespace
}  // namespace castkit::test::export_textures_test
