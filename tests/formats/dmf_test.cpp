// DMF binary: the hand-assembled golden file, round trips through Cast, malformed input, CLI.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "../test_support.hpp"
#include "cli_command.hpp"
#include "dmf_golden.hpp"
#include "mutations.hpp"

namespace castkit::test::dmf_test {
namespace {

dmf::Model read_golden() {
    Diagnostics warnings;
    auto model = dmf::read(golden_dmf(), "golden.dmf", warnings);
    EXPECT_TRUE(model) << (model ? "" : model.error().to_string());
    EXPECT_TRUE(warnings.empty());
    return model ? *model : dmf::Model{};
}

TEST(Dmf, ReadsTexturesWithTheirEmbeddedPng) {
    dmf::Model model = read_golden();
    ASSERT_EQ(model.textures.size(), 1u);
    EXPECT_EQ(model.textures[0].name, "skin");
    EXPECT_EQ(model.textures[0].png, tiny_png());
    EXPECT_EQ(model.textures[0].width, 2);
    EXPECT_EQ(model.textures[0].wrap_t, dmf::kRepeat);
}

TEST(Dmf, ReadsMaterialsFieldByField) {
    dmf::Model model = read_golden();
    ASSERT_EQ(model.materials.size(), 1u);
    const dmf::Material& m = model.materials[0];
    EXPECT_EQ(m.name, "body");
    EXPECT_EQ(m.texture, 0);
    EXPECT_EQ(m.blend_src, dmf::kSrcAlpha);
    EXPECT_EQ(m.blend_dst, dmf::kOneMinusSrcAlpha);
    EXPECT_EQ(m.skinning, 1);
    EXPECT_EQ(m.shader_type, dmf::kLambert);
    EXPECT_EQ(m.diffuse, glm::vec4(1, 0.5f, 0.25f, 1));
    EXPECT_EQ(m.specular.w, 30.0f);
}

TEST(Dmf, ReadsVerticesFacesAndBones) {
    dmf::Model model = read_golden();
    ASSERT_EQ(model.vertices.size(), 3u);
    EXPECT_EQ(model.vertices[1].skin_index, (std::array<std::int16_t, 4>{0, 1, -1, -1}));
    EXPECT_EQ(model.vertices[1].skin_weight, glm::vec4(0.5f, 0.5f, 0, 0));
    ASSERT_EQ(model.faces.size(), 1u);
    EXPECT_EQ(model.faces[0].indices, (std::array<std::uint32_t, 3>{0, 1, 2}));
    EXPECT_EQ(model.faces[0].colors[2], glm::u8vec4(0, 255, 0, 128));
    EXPECT_EQ(model.faces[0].uvs[2], glm::vec2(0, 1));
    ASSERT_EQ(model.bones.size(), 2u);
    EXPECT_EQ(model.bones[1].name, "arm");
    EXPECT_EQ(model.bones[1].parent, 0);
    EXPECT_EQ(model.bones[1].matrix[3],
              glm::vec4(1, 0, 0, 1));  // column-major: translation in column 3
}

TEST(Dmf, ReadsAnimationTracksWithFlags) {
    dmf::Model model = read_golden();
    ASSERT_EQ(model.animations.size(), 1u);
    const dmf::Animation& a = model.animations[0];
    EXPECT_EQ(a.name, "wave");
    EXPECT_EQ(a.fps, 30);
    ASSERT_EQ(a.tracks.size(), 3u);
    EXPECT_EQ(a.tracks[0].flags, dmf::kScale);
    EXPECT_EQ(a.tracks[0].scale, glm::vec3(1, 2, 1));
    EXPECT_EQ(a.tracks[1].flags, dmf::kPosition | dmf::kRotation);
    EXPECT_EQ(a.tracks[2].rotation, glm::vec4(0, 0, 0.6f, 0.8f));
}

TEST(Dmf, UppercaseLabelsAreAccepted) {
    std::vector<std::byte> bytes = golden_dmf();
    for (std::size_t entry = 0; entry < 6; ++entry)
        for (std::size_t i = 0; i < 4; ++i) {
            auto& c = bytes[0x10 + entry * 16 + i];
            c = std::byte(std::toupper(std::to_integer<int>(c)));
        }
    Diagnostics warnings;
    auto model = dmf::read(bytes, "upper.dmf", warnings);
    ASSERT_TRUE(model) << model.error().to_string();
    EXPECT_EQ(*model, read_golden());
}

TEST(Dmf, WriterReproducesTheGoldenBytes) {
    auto bytes = dmf::write_to_buffer(read_golden());
    ASSERT_TRUE(bytes);
    EXPECT_EQ(*bytes, golden_dmf());
}

TEST(Dmf, ReservedTrackFieldsAreIgnoredAndWrittenAsZero) {
    std::vector<std::byte> bytes = golden_dmf();
    bytes[756 + 8] = std::byte{0x3F};  // track 0 has only S: its position is reserved
    Diagnostics warnings;
    auto model = dmf::read(bytes, "reserved.dmf", warnings);
    ASSERT_TRUE(model);
    EXPECT_EQ(model->animations[0].tracks[0].position, glm::vec3(0.0f));
    EXPECT_EQ(*dmf::write_to_buffer(*model), golden_dmf());
}

dmf::Model through_cast(const dmf::Model& model, const std::filesystem::path& dir,
                        Diagnostics& warnings) {
    dmf::ConvertOptions options;
    options.texture_directory = dir;
    auto document = dmf::to_cast(model, "in.dmf", warnings, options);
    EXPECT_TRUE(document) << (document ? "" : document.error().to_string());
    if (!document) return {};
    auto bytes = cast::write_to_buffer(*document);
    EXPECT_TRUE(bytes);
    write_bytes(dir / "mid.cast", *bytes);
    auto reread = open_cast(dir / "mid.cast");
    EXPECT_TRUE(reread);
    dmf::ConvertOptions back_options;
    back_options.base_directory = dir;  // the Cast file names its textures relative to its folder
    auto back = dmf::from_cast(*reread, warnings, back_options);
    EXPECT_TRUE(back) << (back ? "" : back.error().to_string());
    return back ? *back : dmf::Model{};
}

TEST(Dmf, RoundTripThroughCastKeepsEveryValue) {
    Diagnostics warnings;
    dmf::Model back = through_cast(read_golden(), temp_dir("dmf-roundtrip"), warnings);
    for (const auto& w : warnings) ADD_FAILURE() << w.to_string();
    EXPECT_EQ(back, read_golden());
    auto bytes = dmf::write_to_buffer(back);
    ASSERT_TRUE(bytes);
    EXPECT_EQ(*bytes, golden_dmf());
}

TEST(Dmf, ToCastSplitsCornersFlipsVAndConvertsSecondsToFrames) {
    Diagnostics warnings;
    auto document = dmf::to_cast(read_golden(), "in.dmf", warnings);
    ASSERT_TRUE(document);
    cast::Model model = document->models().at(0);
    cast::Mesh mesh = model.meshes().at(0);
    EXPECT_EQ(mesh.name(), "body");
    EXPECT_EQ(mesh.vertex_count(), 3u);
    EXPECT_EQ(mesh.uv_layer(0)[2], glm::vec2(0, 0));  // DMF (0,1) bottom-left → Cast (0,0)
    EXPECT_TRUE(mesh.color_layer_is_packed(0));
    EXPECT_EQ(mesh.color_layer(0)[1], glm::vec4(1, 0, 0, 1));
    EXPECT_EQ(mesh.weight_bones()[5], 1u);
    EXPECT_EQ(mesh.weight_values()[5], 0.5f);
    EXPECT_EQ(mesh.weight_values()[6], 0.0f);  // -1 → unused slot
    EXPECT_EQ(mesh.material().slot_file("albedo").path(), "skin.png");
    EXPECT_EQ(mesh.material().slot_color("specular").rgba(), glm::vec4(0.5f, 0.5f, 0.5f, 30));
    cast::Animation wave = document->animations().at(0);
    EXPECT_EQ(wave.framerate(), 30.0f);
    cast::Curve sx = wave.curves().at(0);  // bone 0 "root" comes first
    EXPECT_EQ(sx.node_name(), "root");
    EXPECT_EQ(sx.key_property(), "sx");
    EXPECT_EQ(sx.key_frames()[0], 1u);  // 1/30 s at 30 fps
    // Without a texture directory the PNG travels in the document, named by the File.
    EXPECT_TRUE(warnings.empty()) << warnings.begin()->to_string();
    ASSERT_EQ(document->embedded.size(), 1u);
    EXPECT_EQ(document->embedded.begin()->name, "skin.png");
    EXPECT_EQ(std::vector<std::byte>(document->embedded.begin()->bytes.begin(),
                                     document->embedded.begin()->bytes.end()),
              read_golden().textures[0].png);
}

TEST(Dmf, SharedVerticesWithDifferentCornersSplit) {
    dmf::Model model = read_golden();
    dmf::Face second = model.faces[0];
    second.indices = {2, 1, 0};
    second.uvs = {glm::vec2(0.5f), glm::vec2(1, 0), glm::vec2(0, 0)};  // corner 1 equals face 0's
    second.colors = {glm::u8vec4(0, 255, 0, 128), glm::u8vec4(255, 0, 0, 255), glm::u8vec4(255)};
    model.faces.push_back(second);
    Diagnostics warnings;
    auto document = dmf::to_cast(model, "in.dmf", warnings);
    ASSERT_TRUE(document);
    cast::Mesh mesh = document->models().at(0).meshes().at(0);
    EXPECT_EQ(mesh.vertex_count(), 4u);  // v2 splits (new UV), v1 and v0 are shared
    EXPECT_EQ(mesh.faces().to_vector(), (std::vector<std::uint32_t>{0, 1, 2, 3, 1, 0}));
}

TEST(Dmf, OffFrameKeysAreResampledWithAWarning) {
    dmf::Model model = read_golden();
    model.animations[0].tracks[0].time = 0.05f;  // frame 1.5
    Diagnostics warnings;
    auto document = dmf::to_cast(model, "in.dmf", warnings);
    ASSERT_TRUE(document);
    bool resampled = false;
    for (const auto& w : warnings) resampled |= w.message.find("resampled") != std::string::npos;
    EXPECT_TRUE(resampled);
    cast::Curve sy = document->animations().at(0).curves().at(1);
    EXPECT_EQ(sy.key_frames().to_vector(), (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(sy.float_values()[0], 2.0f);  // one key: held on both frames
}

TEST(Dmf, NonDefaultMaterialSettingsAreNamedInAWarning) {
    dmf::Model model = read_golden();
    model.materials[0].face_side = dmf::kDouble;
    model.materials[0].use_alpha = 1;
    Diagnostics warnings;
    ASSERT_TRUE(dmf::to_cast(model, "in.dmf", warnings));
    bool named = false;
    for (const auto& w : warnings)
        named |= w.message.find("face_side, use_alpha") != std::string::npos;
    EXPECT_TRUE(named);
}

TEST(Dmf, CastToDmfToCastKeepsWhatDmfHolds) {
    Diagnostics warnings;
    auto dir = temp_dir("dmf-cast-first");
    dmf::ConvertOptions options;
    options.texture_directory = dir;
    auto first = dmf::to_cast(read_golden(), (dir / "a.cast").string(), warnings, options);
    ASSERT_TRUE(first);
    auto model = dmf::from_cast(*first, warnings);
    ASSERT_TRUE(model) << model.error().to_string();
    auto second = dmf::to_cast(*model, (dir / "a.cast").string(), warnings, options);
    ASSERT_TRUE(second);
    auto a = cast::write_to_buffer(*first), b = cast::write_to_buffer(*second);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
}

TEST(Dmf, CurvesFindBonesCaseInsensitively) {
    Diagnostics warnings;
    auto document = dmf::to_cast(read_golden(), "in.dmf", warnings);
    ASSERT_TRUE(document);
    for (cast::Curve curve : document->animations().at(0).curves())
        if (curve.node_name() == "root") curve.set_node_name("ROOT");
    auto model = dmf::from_cast(*document, warnings);
    ASSERT_TRUE(model);
    ASSERT_EQ(model->animations[0].tracks.size(), 3u);
    EXPECT_EQ(model->animations[0].tracks[0].bone, 0);
    EXPECT_EQ(model->animations[0].tracks[0].scale, glm::vec3(1, 2, 1));
}

TEST(Dmf, EveryTruncationIsAnError) {
    for_each_truncation(golden_dmf(), [](std::span<const std::byte> cut, const std::string& what) {
        Diagnostics warnings;
        EXPECT_FALSE(dmf::read(cut, "cut.dmf", warnings)) << what;
    });
}

TEST(Dmf, BitFlipsNeverCrash) {
    std::size_t failures = 0;
    for_each_bit_flip(golden_dmf(), [&](std::span<const std::byte> flipped, const std::string&) {
        Diagnostics warnings;
        auto model = dmf::read(flipped, "flip.dmf", warnings);
        if (!model) {
            ++failures;
            return;
        }
        (void)dmf::to_cast(*model, "flip.dmf", warnings);
        (void)dmf::write_json_text(*model);
    });
    EXPECT_GT(failures, 0u);
}

TEST(Dmf, BadReferencesNameTheStructAndOffset) {
    std::vector<std::byte> bytes = golden_dmf();
    bytes[396 + 8] = std::byte{7};  // face 0, index b
    Diagnostics warnings;
    auto model = dmf::read(bytes, "bad.dmf", warnings);
    ASSERT_FALSE(model);
    EXPECT_EQ(model.error().path, "face[0]");
    EXPECT_EQ(model.error().offset, 396u + 4);
    EXPECT_NE(model.error().message.find("vertex index 7"), std::string::npos);
}

TEST(Dmf, CliConvertsAndReads) {
    auto dir = temp_dir("dmf-cli");
    write_bytes(dir / "in.dmf", golden_dmf());
    auto info = run_cli(in_dir(dir, "info {in.dmf}"));
    EXPECT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find("mesh 'body'"), std::string::npos) << info.out;
    auto dump = run_cli(in_dir(dir, "dump {in.dmf}"));
    EXPECT_EQ(dump.exit_code, 0) << dump.err;
    EXPECT_NE(dump.out.find("\"wave\""), std::string::npos);
    auto cast = run_cli(in_dir(dir, "convert {in.dmf} {mid.cast}"));
    ASSERT_EQ(cast.exit_code, 0) << cast.err;
    // Cast does not carry the PNG: the conversion writes it beside mid.cast, whose File names
    // it, so the way back to DMF embeds the same bytes again.
    EXPECT_EQ(cast.err.find("PNG is not carried by Cast"), std::string::npos) << cast.err;
    auto from_cast = run_cli(in_dir(dir, "convert {mid.cast} {from-cast.dmf}"));
    ASSERT_EQ(from_cast.exit_code, 0) << from_cast.err;
    EXPECT_EQ(from_cast.err.find("could not be read"), std::string::npos) << from_cast.err;
    Diagnostics warnings;
    const std::vector<std::byte> written = read_bytes(dir / "from-cast.dmf");
    auto round_tripped = dmf::read(written, "from-cast.dmf", warnings);
    ASSERT_TRUE(round_tripped) << round_tripped.error().to_string();
    ASSERT_FALSE(round_tripped->textures.empty());
    EXPECT_EQ(round_tripped->textures[0].png, read_golden().textures[0].png);
    // Standard output has no folder beside it: the PNG stays behind, said in a warning (from a
    // folder where no file holds it, as the conversion above wrote one beside in.dmf).
    std::filesystem::create_directories(dir / "piped");
    std::filesystem::copy_file(dir / "in.dmf", dir / "piped/in.dmf");
    auto piped = run_cli(in_dir(dir, "convert {piped/in.dmf} - --to cast"));
    EXPECT_NE(piped.err.find("[texture.embedded-not-kept]"), std::string::npos) << piped.err;
}

TEST(Dmf, CliConvertsBetweenBinaryAndJsonKeepingWhatCastCannotCarry) {
    auto dir = temp_dir("dmf-cli-json");
    dmf::Model model = read_golden();
    model.materials[0].face_side = dmf::kDouble;
    model.textures[0].wrap_s = dmf::kMirror;
    ASSERT_TRUE(dmf::write(model, dir / "in.dmf"));
    auto json = run_cli(in_dir(dir, "convert {in.dmf} {out.dmf.json}"));
    ASSERT_EQ(json.exit_code, 0) << json.err;
    auto forced = run_cli(in_dir(dir, "convert {in.dmf} {forced.txt} --to dmf-json"));
    ASSERT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_EQ(read_bytes(dir / "forced.txt"), read_bytes(dir / "out.dmf.json"));
    auto back = run_cli(in_dir(dir, "convert {out.dmf.json} {back.dmf}"));
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_EQ(read_bytes(dir / "back.dmf"), read_bytes(dir / "in.dmf"));
    auto info = run_cli(in_dir(dir, "info {out.dmf.json}"));
    EXPECT_EQ(info.exit_code, 0) << info.err;
}

}  // namespace
}  // namespace castkit::test::dmf_test
