// Issue 42 #3: nothing embedded is lost between formats. An image read from inside a glb, a
// glTF data: URI or a DMF travels with the document in memory (cast::Document::embedded): the
// CLI embeds it again, byte for byte, into a glb or DMF without --textures and without a
// warning, writes it beside a Cast output (never over another file), and `info` counts it.
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "../formats/cli_command.hpp"
#include "../gltf/gltf_scene.hpp"
#include "../test_support.hpp"
#include "io/base64.hpp"

namespace castkit::test::embedded_images_test {
namespace {

namespace fs = std::filesystem;

fs::path hero() { return fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero"; }

// The bytes of image `index` of a glb, from its binary chunk.
std::vector<std::byte> glb_image(const fs::path& glb, int index = 0) {
    const std::vector<std::byte> file = read_bytes(glb);
    const nlohmann::json json = gltf_json(glb);
    EXPECT_TRUE(json.contains("images")) << glb;
    if (!json.contains("images") || !json["images"][index].contains("bufferView")) return {};
    std::uint32_t json_length = 0;
    std::memcpy(&json_length, file.data() + 12, 4);
    const std::size_t binary = 20 + json_length + 8;
    const nlohmann::json& view =
        json["bufferViews"][json["images"][index]["bufferView"].get<int>()];
    const std::size_t offset = binary + view.value("byteOffset", 0u);
    const auto begin = file.begin() + static_cast<std::ptrdiff_t>(offset);
    return {begin, begin + view["byteLength"].get<std::ptrdiff_t>()};
}

// The image of the first texture of a binary or JSON DMF.
std::vector<std::byte> dmf_image(const fs::path& path) {
    Diagnostics warnings;
    auto model =
        path.extension() == ".json" ? dmf::open_json(path, warnings) : dmf::open(path, warnings);
    EXPECT_TRUE(model) << (model ? "" : model.error().to_string());
    if (!model || model->textures.empty()) return {};
    return model->textures[0].png;
}

// The paths the material Files of a Cast file name.
std::vector<std::string> file_paths(const fs::path& cast_file) {
    std::vector<std::string> out;
    auto document = open_cast(cast_file);
    EXPECT_TRUE(document) << cast_file;
    if (!document) return out;
    for (const cast::ConstModel& model : document->models())
        for (const cast::ConstMaterial& material : model.materials())
            for (const cast::ConstFile& file : material.files())
                out.emplace_back(file.path().value_or(""));
    return out;
}

// The names of the files in `folder`.
std::set<std::string> listing(const fs::path& folder) {
    std::set<std::string> out;
    for (const auto& entry : fs::directory_iterator(folder))
        out.insert(entry.path().filename().string());
    return out;
}

class EmbeddedImages : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("embedded-images-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(dir / "src");
        fs::create_directories(dir / "out");
        for (const char* name : {"hero.glb", "hero.dmf", "hero.dmf.json"})
            fs::copy_file(hero() / name, dir / "src" / name);
        albedo = read_bytes(hero() / "hero_albedo.png");
    }

    // Converts with the CLI, expecting success and no word of a lost image.
    CommandResult convert(const std::string& arguments) const {
        CommandResult result = run_cli(in_dir(dir, "convert " + arguments));
        EXPECT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(result.err.find("not kept"), std::string::npos) << result.err;
        EXPECT_EQ(result.err.find("not carried"), std::string::npos) << result.err;
        return result;
    }

    fs::path dir;
    std::vector<std::byte> albedo;  // the image every hero file embeds
};

TEST_F(EmbeddedImages, TheHeroFilesEmbedTheSameImage) {
    EXPECT_FALSE(albedo.empty());
    EXPECT_EQ(glb_image(dir / "src/hero.glb"), albedo);
    EXPECT_EQ(dmf_image(dir / "src/hero.dmf"), albedo);
    EXPECT_EQ(dmf_image(dir / "src/hero.dmf.json"), albedo);
}

TEST_F(EmbeddedImages, GlbToGlbKeepsTheImageByteForByte) {
    convert("{src/hero.glb} {out/hero.glb}");
    EXPECT_EQ(glb_image(dir / "out/hero.glb"), albedo);
    EXPECT_EQ(listing(dir / "out"), std::set<std::string>{"hero.glb"});
    EXPECT_EQ(listing(dir / "src").size(), 3u);
    expect_gltf_validator_passes(dir / "out/hero.glb");
}

TEST_F(EmbeddedImages, DmfToGlbEmbedsTheImageInsteadOfNamingAMissingFile) {
    convert("{src/hero.dmf} {out/hero.glb}");
    convert("{src/hero.dmf.json} {out/from-json.glb}");
    EXPECT_EQ(glb_image(dir / "out/hero.glb"), albedo);
    EXPECT_EQ(glb_image(dir / "out/from-json.glb"), albedo);
    EXPECT_EQ(listing(dir / "out"), (std::set<std::string>{"hero.glb", "from-json.glb"}));
    expect_gltf_validator_passes(dir / "out/hero.glb");
}

TEST_F(EmbeddedImages, GlbToDmfEmbedsTheImageAndWritesNothingBeside) {
    convert("{src/hero.glb} {out/hero.dmf}");
    convert("{src/hero.glb} {out/hero.dmf.json}");
    EXPECT_EQ(dmf_image(dir / "out/hero.dmf"), albedo);
    EXPECT_EQ(dmf_image(dir / "out/hero.dmf.json"), albedo);
    EXPECT_EQ(listing(dir / "out"), (std::set<std::string>{"hero.dmf", "hero.dmf.json"}));
}

TEST_F(EmbeddedImages, GltfDataUriToGlbKeepsTheImage) {
    const fs::path sample = fs::path(CASTKIT_FIXTURES) / "gltf/real/BoxTextured-glTF";
    fs::copy_file(sample / "BoxTextured0.bin", dir / "src/BoxTextured0.bin");
    nlohmann::json gltf = nlohmann::json::parse(std::ifstream(sample / "BoxTextured.gltf"));
    gltf["images"][0] = {{"uri", "data:image/png;base64," + formats::base64_encode(albedo)}};
    std::ofstream(dir / "src/box.gltf", std::ios::binary) << gltf.dump();
    convert("{src/box.gltf} {out/box.glb}");
    EXPECT_EQ(glb_image(dir / "out/box.glb"), albedo);
    EXPECT_EQ(listing(dir / "out"), std::set<std::string>{"box.glb"});
    expect_gltf_validator_passes(dir / "out/box.glb");
}

// Beside a Cast output, the image is written under the name the File gives it, and a file of
// that name with other bytes keeps them: the image then takes `-2`, which the .cast names.
TEST_F(EmbeddedImages, GlbToCastWritesTheImageBesideItNeverOverAnotherFile) {
    const std::vector<std::byte> users = read_bytes(hero() / "hero.k3d");
    write_bytes(dir / "out/hero_image0.png", users);
    const CommandResult result = convert("{src/hero.glb} {out/hero.cast}");
    EXPECT_NE(result.err.find("[texture.renamed]"), std::string::npos) << result.err;
    EXPECT_EQ(read_bytes(dir / "out/hero_image0.png"), users);
    EXPECT_EQ(read_bytes(dir / "out/hero_image0-2.png"), albedo);
    EXPECT_EQ(file_paths(dir / "out/hero.cast"), std::vector<std::string>{"hero_image0-2.png"});
    // Beside the input too, where nothing needs moving.
    convert("{src/hero.glb} {src/hero.cast}");
    EXPECT_EQ(read_bytes(dir / "src/hero_image0.png"), albedo);
    EXPECT_EQ(file_paths(dir / "src/hero.cast"), std::vector<std::string>{"hero_image0.png"});
}

// Standard input has no folder, which once lost the image; the document carries it now.
TEST_F(EmbeddedImages, GlbFromStandardInputToCastWritesTheImage) {
    CommandResult result =
        run_cli(in_dir(dir, "convert - {out/hero.cast} --from glb < {src/hero.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("not kept"), std::string::npos) << result.err;
    EXPECT_EQ(file_paths(dir / "out/hero.cast"), std::vector<std::string>{"gltf_image0.png"});
    EXPECT_EQ(read_bytes(dir / "out/gltf_image0.png"), albedo);
}

// Standard output has no folder: the one case where the image cannot be kept, and said so.
TEST_F(EmbeddedImages, CastOnStandardOutputNamesTheImageItCannotKeep) {
    CommandResult result = run_cli_in("", in_dir(dir, "convert {src/hero.glb} - --to cast"),
                                      in_dir(dir, ">{out/hero.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("hero_image0.png"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("[texture.embedded-not-kept]"), std::string::npos) << result.err;
    EXPECT_EQ(listing(dir / "out"), std::set<std::string>{"hero.cast"});
}

// --textures DIR still receives the images a glb or DMF holds, and the glb made then is the
// same.
TEST_F(EmbeddedImages, TheTexturesFolderStillReceivesTheImages) {
    convert("{src/hero.glb} {out/hero.glb} --textures {maps}");
    convert("{src/hero.dmf} {out/hero.cast} --textures {maps}");
    EXPECT_EQ(read_bytes(dir / "maps/hero_image0.png"), albedo);
    EXPECT_EQ(read_bytes(dir / "maps/hero_albedo.png"), albedo);
    EXPECT_EQ(glb_image(dir / "out/hero.glb"), albedo);
    EXPECT_EQ(read_bytes(dir / "out/hero_albedo.png"), albedo);
}

// `info` says what the viewer says: the image is the material's file, and the document's.
TEST_F(EmbeddedImages, InfoCountsTheEmbeddedImage) {
    for (const char* name : {"hero.glb", "hero.dmf", "hero.dmf.json"}) {
        const CommandResult result = run_cli(in_dir(dir, std::string("info {src/") + name + "}"));
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(result.err, "") << name;
        EXPECT_NE(result.out.find("1 file,"), std::string::npos) << result.out;
        EXPECT_NE(result.out.find("embedded file '"), std::string::npos) << result.out;
        EXPECT_NE(result.out.find("': 8.8 KiB"), std::string::npos) << result.out;
    }
    const CommandResult glb = run_cli(in_dir(dir, "info {src/hero.glb}"));
    EXPECT_NE(glb.out.find("3 slots, 1 file,"), std::string::npos) << glb.out;
    EXPECT_EQ(listing(dir / "src").size(), 3u);  // reading writes nothing
}

}  // namespace
}  // namespace castkit::test::embedded_images_test
