// Issue 28, the material side: what a glTF material holds beyond Cast's slots (samplers,
// extension factors and textures, specular-glossiness, KTX2 textures) survives
// glTF → Cast file → glTF, each material keeps its own settings whatever its name, embedded
// images of one name land in files of their own, and what is dropped is named with its own id.
#include <castkit/formats/gltf.hpp>
#include <castkit/registry.hpp>
#include <fstream>

#include "gltf_scene.hpp"

namespace castkit::test::material_carry_test {
namespace {

// One triangle (positions and UVs in a data URI), drawn once with each of `materials`.
nlohmann::json triangle_scene(nlohmann::json materials) {
    nlohmann::json json;
    json["asset"] = {{"version", "2.0"}};
    json["buffers"] = nlohmann::json::array(
        {{{"byteLength", 60},
          {"uri",
           "data:application/"
           "octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/"
           "AAAAAAAAAAAAAIA/"}}});
    json["bufferViews"] =
        nlohmann::json::array({{{"buffer", 0}, {"byteLength", 36}},
                               {{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 24}}});
    json["accessors"] = nlohmann::json::array(
        {{{"bufferView", 0},
          {"componentType", 5126},
          {"count", 3},
          {"type", "VEC3"},
          {"min", {0, 0, 0}},
          {"max", {1, 1, 0}}},
         {{"bufferView", 1}, {"componentType", 5126}, {"count", 3}, {"type", "VEC2"}}});
    json["materials"] = std::move(materials);
    nlohmann::json primitives = nlohmann::json::array();
    for (std::size_t m = 0; m < json["materials"].size(); ++m)
        primitives.push_back(
            {{"attributes", {{"POSITION", 0}, {"TEXCOORD_0", 1}}}, {"material", m}});
    json["meshes"] = nlohmann::json::array({{{"primitives", primitives}}});
    json["nodes"] = nlohmann::json::array({{{"mesh", 0}}});
    return json;
}

class GltfMaterialCarry : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("gltf-material-carry-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    // `json` as scene.gltf, read (embedded images into dir/textures), written as a Cast file,
    // read back and written as out.glb (textures referenced); the output's JSON.
    nlohmann::json round_trip(const nlohmann::json& json) {
        std::ofstream(dir / "scene.gltf") << json.dump();
        FormatOptions options;
        options.side_files.folders = {dir / "textures"};
        const Context read_context = formats::context_for(dir / "scene.gltf", options);
        import_warnings.clear();
        auto document = formats::read_file(*format_by_name("gltf"), dir / "scene.gltf",
                                           read_context, import_warnings);
        EXPECT_TRUE(document.has_value()) << document.error().to_string();
        if (!document) return {};
        const Context cast_context = formats::context_for(dir / "scene.cast");
        Diagnostics cast_warnings;
        auto written = formats::write_file(*format_by_name("cast"), *document, dir / "scene.cast",
                                           cast_context, cast_warnings);
        EXPECT_TRUE(written.has_value()) << written.error().to_string();
        auto cast = formats::read_file(*format_by_name("cast"), dir / "scene.cast", cast_context,
                                       cast_warnings);
        EXPECT_TRUE(cast.has_value()) << cast.error().to_string();
        if (!cast) return {};
        gltf::ExportOptions export_options;
        export_options.textures = TextureMode::Reference;
        auto exported = gltf::write(*cast, dir / "out.glb", export_options, export_warnings);
        EXPECT_TRUE(exported.has_value()) << exported.error().to_string();
        return gltf_json(dir / "out.glb");
    }
    std::size_t count_rule(const Diagnostics& diagnostics, std::string_view rule) const {
        std::size_t n = 0;
        for (const Diagnostic& d : diagnostics) n += d.rule == rule;
        return n;
    }
    std::filesystem::path dir;
    Diagnostics import_warnings;
    Diagnostics export_warnings;
};

// The sampler of the texture a textureInfo names, less the default wrap modes that tinygltf
// writes out (null for no sampler).
nlohmann::json sampler_of(const nlohmann::json& gltf, const nlohmann::json& info) {
    const nlohmann::json& texture = gltf.at("textures").at(info.at("index").get<std::size_t>());
    if (!texture.contains("sampler")) return nullptr;
    nlohmann::json sampler = gltf.at("samplers").at(texture["sampler"].get<std::size_t>());
    for (const char* wrap : {"wrapS", "wrapT"})
        if (sampler.value(wrap, 0) == 10497) sampler.erase(wrap);
    return sampler;
}

TEST_F(GltfMaterialCarry, SamplersSurviveAndAreShared) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(R"([
        {"name": "a", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}},
         "normalTexture": {"index": 1}},
        {"name": "b", "pbrMetallicRoughness": {"baseColorTexture": {"index": 2}}}])"));
    json["images"] =
        nlohmann::json::parse(R"([{"uri": "a.png"}, {"uri": "n.png"}, {"uri": "b.png"}])");
    json["samplers"] = nlohmann::json::parse(R"([
        {"wrapS": 33071, "wrapT": 33648, "magFilter": 9728, "minFilter": 9986}, {}])");
    json["textures"] = nlohmann::json::parse(R"([{"source": 0, "sampler": 0},
        {"source": 1, "sampler": 1}, {"source": 2, "sampler": 0}])");
    nlohmann::json out = round_trip(json);
    ASSERT_TRUE(out.contains("samplers"));
    ASSERT_EQ(out["samplers"].size(), 1u) << out.dump();  // one clamped sampler, shared
    const nlohmann::json expected = nlohmann::json::parse(
        R"({"wrapS": 33071, "wrapT": 33648, "magFilter": 9728, "minFilter": 9986})");
    nlohmann::json& a = out["materials"][0];
    nlohmann::json& b = out["materials"][1];
    EXPECT_EQ(sampler_of(out, a["pbrMetallicRoughness"]["baseColorTexture"]), expected);
    EXPECT_EQ(sampler_of(out, b["pbrMetallicRoughness"]["baseColorTexture"]), expected);
    EXPECT_EQ(sampler_of(out, a["normalTexture"]), nullptr);
    expect_gltf_validator_passes(dir / "out.glb");
}

// A normal map's scale and an occlusion map's strength were parsed and then lost.
TEST_F(GltfMaterialCarry, NormalScaleAndOcclusionStrengthSurvive) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(R"([{"name": "rock",
        "normalTexture": {"index": 0, "scale": 0.4},
        "occlusionTexture": {"index": 1, "strength": 0.7}}])"));
    json["images"] = nlohmann::json::parse(R"([{"uri": "n.png"}, {"uri": "ao.png"}])");
    json["textures"] = nlohmann::json::parse(R"([{"source": 0}, {"source": 1}])");
    nlohmann::json out = round_trip(json);
    const nlohmann::json& rock = out.at("materials").at(0);
    EXPECT_NEAR(rock.at("normalTexture").at("scale").get<double>(), 0.4, 1e-6);
    EXPECT_NEAR(rock.at("occlusionTexture").at("strength").get<double>(), 0.7, 1e-6);
}

TEST_F(GltfMaterialCarry, ExtensionFactorsAndTexturesSurvive) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(R"([{"name": "glass",
        "extensions": {
          "KHR_materials_transmission": {"transmissionFactor": 0.9,
                                         "transmissionTexture": {"index": 0, "texCoord": 0}},
          "KHR_materials_clearcoat": {"clearcoatFactor": 0.7, "clearcoatRoughnessFactor": 0.2,
                                      "clearcoatTexture": {"index": 1}},
          "KHR_materials_volume": {"thicknessFactor": 0.3, "attenuationDistance": 2.5,
                                   "attenuationColor": [0.5, 0.8, 1.0],
                                   "thicknessTexture": {"index": 0}},
          "KHR_materials_specular": {"specularFactor": 0.4, "specularColorFactor": [1, 0.5, 0.5],
                                     "specularTexture": {"index": 1}},
          "KHR_materials_ior": {"ior": 1.8},
          "KHR_materials_sheen": {"sheenColorFactor": [0.2, 0.3, 0.4], "sheenRoughnessFactor": 0.6,
                                  "sheenColorTexture": {"index": 0}},
          "KHR_materials_iridescence": {"iridescenceFactor": 0.75, "iridescenceIor": 1.4,
                                        "iridescenceTexture": {"index": 1}}}}])"));
    json["extensionsUsed"] = {"KHR_materials_transmission", "KHR_materials_clearcoat",
                              "KHR_materials_volume",       "KHR_materials_specular",
                              "KHR_materials_ior",          "KHR_materials_sheen",
                              "KHR_materials_iridescence"};
    json["images"] = nlohmann::json::parse(R"([{"uri": "t.png"}, {"uri": "c.png"}])");
    json["samplers"] = nlohmann::json::parse(R"([{"wrapS": 33071}])");
    json["textures"] = nlohmann::json::parse(R"([{"source": 0, "sampler": 0}, {"source": 1}])");
    nlohmann::json out = round_trip(json);
    nlohmann::json& ext = out["materials"][0]["extensions"];
    EXPECT_DOUBLE_EQ(ext["KHR_materials_transmission"]["transmissionFactor"].get<double>(), 0.9);
    EXPECT_DOUBLE_EQ(ext["KHR_materials_clearcoat"]["clearcoatFactor"].get<double>(), 0.7);
    EXPECT_DOUBLE_EQ(ext["KHR_materials_volume"]["attenuationDistance"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(ext["KHR_materials_specular"]["specularFactor"].get<double>(), 0.4);
    EXPECT_DOUBLE_EQ(ext["KHR_materials_ior"]["ior"].get<double>(), 1.8);
    EXPECT_DOUBLE_EQ(ext["KHR_materials_sheen"]["sheenRoughnessFactor"].get<double>(), 0.6);
    EXPECT_DOUBLE_EQ(ext["KHR_materials_iridescence"]["iridescenceFactor"].get<double>(), 0.75);
    // The textures come back, on the same images, the transmission one with its sampler.
    auto image_uri = [&](const nlohmann::json& info) {
        const nlohmann::json& texture = out.at("textures").at(info.at("index").get<std::size_t>());
        return out.at("images")
            .at(texture.at("source").get<std::size_t>())
            .at("uri")
            .get<std::string>();
    };
    EXPECT_EQ(image_uri(ext["KHR_materials_transmission"]["transmissionTexture"]), "t.png");
    EXPECT_EQ(image_uri(ext["KHR_materials_clearcoat"]["clearcoatTexture"]), "c.png");
    EXPECT_EQ(image_uri(ext["KHR_materials_iridescence"]["iridescenceTexture"]), "c.png");
    EXPECT_EQ(sampler_of(out, ext["KHR_materials_transmission"]["transmissionTexture"]),
              nlohmann::json::parse(R"({"wrapS": 33071})"));
    EXPECT_EQ(ext["KHR_materials_transmission"]["transmissionTexture"]["texCoord"], 0);
    EXPECT_EQ(count_rule(import_warnings, "gltf.extension-texture-dropped"), 0u);
    // None of the carried slots is reported as a slot glTF cannot hold.
    for (const Diagnostic& d : export_warnings)
        EXPECT_EQ(d.message.find("castkit_slots"), std::string::npos) << d.message;
    EXPECT_FALSE(out["materials"][0].contains("extras")) << out["materials"][0].dump();
    expect_gltf_validator_passes(dir / "out.glb");
}

TEST_F(GltfMaterialCarry, DroppedExtensionTextureIsNamedExactly) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(R"([{"name": "glass",
        "extensions": {"KHR_materials_transmission": {"transmissionFactor": 1.0,
                                                      "transmissionTexture": {"index": 0}}}}])"));
    json["extensionsUsed"] = {"KHR_materials_transmission"};
    json["textures"] = nlohmann::json::parse(R"([{}])");  // a texture without an image
    nlohmann::json out = round_trip(json);
    std::size_t named = 0;
    for (const Diagnostic& d : import_warnings)
        if (d.rule == "gltf.extension-texture-dropped") {
            ++named;
            EXPECT_NE(d.message.find("KHR_materials_transmission.transmissionTexture"),
                      std::string::npos)
                << d.message;
        }
    EXPECT_EQ(named, 1u);
    nlohmann::json& transmission = out["materials"][0]["extensions"]["KHR_materials_transmission"];
    EXPECT_DOUBLE_EQ(transmission["transmissionFactor"].get<double>(), 1.0);
    EXPECT_FALSE(transmission.contains("transmissionTexture"));
}

TEST_F(GltfMaterialCarry, SpecularGlossinessKeepsItsDiffuse) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(R"([
        {"name": "plain", "extensions": {"KHR_materials_pbrSpecularGlossiness":
            {"diffuseFactor": [0.5, 0.25, 0.125, 1.0], "glossinessFactor": 0.3}}},
        {"name": "mapped", "extensions": {"KHR_materials_pbrSpecularGlossiness":
            {"diffuseFactor": [0.5, 0.5, 0.5, 1.0], "diffuseTexture": {"index": 0},
             "specularGlossinessTexture": {"index": 1}, "specularFactor": [0.1, 0.2, 0.3]}}}])"));
    json["extensionsUsed"] = {"KHR_materials_pbrSpecularGlossiness"};
    json["images"] = nlohmann::json::parse(R"([{"uri": "diffuse.png"}, {"uri": "sg.png"}])");
    json["textures"] = nlohmann::json::parse(R"([{"source": 0}, {"source": 1}])");
    nlohmann::json out = round_trip(json);
    nlohmann::json& plain = out["materials"][0];
    nlohmann::json& mapped = out["materials"][1];
    nlohmann::json& gloss = plain["extensions"]["KHR_materials_pbrSpecularGlossiness"];
    EXPECT_EQ(gloss["diffuseFactor"], nlohmann::json::parse("[0.5, 0.25, 0.125, 1.0]"));
    EXPECT_DOUBLE_EQ(gloss["glossinessFactor"].get<double>(), 0.3);
    // The diffuse colour is the metallic-roughness fallback too.
    EXPECT_NEAR(plain["pbrMetallicRoughness"]["baseColorFactor"][1].get<double>(), 0.25, 1e-6);
    nlohmann::json& sg = mapped["extensions"]["KHR_materials_pbrSpecularGlossiness"];
    EXPECT_EQ(sg["diffuseFactor"], nlohmann::json::parse("[0.5, 0.5, 0.5, 1.0]"));
    EXPECT_EQ(sg["specularFactor"], nlohmann::json::parse("[0.1, 0.2, 0.3]"));
    ASSERT_TRUE(sg.contains("diffuseTexture"));
    ASSERT_TRUE(sg.contains("specularGlossinessTexture"));
    EXPECT_EQ(mapped["pbrMetallicRoughness"]["baseColorTexture"]["index"],
              sg["diffuseTexture"]["index"]);
}

TEST_F(GltfMaterialCarry, MaterialsOfOneNameKeepTheirOwnSettings) {
    nlohmann::json out = round_trip(triangle_scene(nlohmann::json::parse(R"([
        {"name": "Suzanne", "extensions": {"KHR_materials_ior": {"ior": 2.0},
                                           "KHR_materials_transmission": {"transmissionFactor": 0}}},
        {"name": "Suzanne", "alphaMode": "BLEND",
         "extensions": {"KHR_materials_transmission": {"transmissionFactor": 1}}}])")));
    ASSERT_EQ(out["materials"].size(), 2u);
    nlohmann::json& first = out["materials"][0];
    nlohmann::json& second = out["materials"][1];
    EXPECT_DOUBLE_EQ(first["extensions"]["KHR_materials_ior"]["ior"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(
        first["extensions"]["KHR_materials_transmission"]["transmissionFactor"].get<double>(), 0.0);
    EXPECT_FALSE(first.contains("alphaMode") && first["alphaMode"] == "BLEND");
    EXPECT_FALSE(second["extensions"].contains("KHR_materials_ior"));
    EXPECT_DOUBLE_EQ(
        second["extensions"]["KHR_materials_transmission"]["transmissionFactor"].get<double>(),
        1.0);
    EXPECT_EQ(second["alphaMode"], "BLEND");
}

TEST_F(GltfMaterialCarry, EmbeddedImagesOfOneNameLandInTwoFiles) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(R"([
        {"name": "a", "pbrMetallicRoughness": {"metallicRoughnessTexture": {"index": 0}}},
        {"name": "b", "pbrMetallicRoughness": {"metallicRoughnessTexture": {"index": 1}}}])"));
    json["images"] = nlohmann::json::parse(R"([
        {"name": "roughness", "uri": "data:image/png;base64,iVBORw0KGgpB"},
        {"name": "roughness", "uri": "data:image/png;base64,iVBORw0KGgpC"}])");
    json["textures"] = nlohmann::json::parse(R"([{"source": 0}, {"source": 1}])");
    nlohmann::json out = round_trip(json);
    ASSERT_EQ(out["images"].size(), 2u);
    EXPECT_EQ(out["images"][0]["uri"], "scene_roughness.png");
    EXPECT_EQ(out["images"][1]["uri"], "scene_roughness-2.png");
    EXPECT_EQ(read_bytes(dir / "textures" / "scene_roughness.png").back(), std::byte{'A'});
    EXPECT_EQ(read_bytes(dir / "textures" / "scene_roughness-2.png").back(), std::byte{'B'});
}

TEST_F(GltfMaterialCarry, BasisuTextureIsKeptAndWrittenWithItsExtension) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(
        R"([{"name": "k", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}])"));
    json["extensionsUsed"] = {"KHR_texture_basisu"};
    json["extensionsRequired"] = {"KHR_texture_basisu"};
    json["images"] = nlohmann::json::parse(R"([{"uri": "color.ktx2"}])");
    json["textures"] =
        nlohmann::json::parse(R"([{"extensions": {"KHR_texture_basisu": {"source": 0}}}])");
    nlohmann::json out = round_trip(json);
    for (const Diagnostic& d : import_warnings)
        EXPECT_EQ(d.message.find("without an image"), std::string::npos) << d.message;
    ASSERT_EQ(out["textures"].size(), 1u) << out.dump();
    nlohmann::json& texture = out["textures"][0];
    EXPECT_FALSE(texture.contains("source"));
    const std::size_t image = texture["extensions"]["KHR_texture_basisu"]["source"];
    EXPECT_EQ(out["images"][image]["uri"], "color.ktx2");
    EXPECT_EQ(out["extensionsUsed"], nlohmann::json::array({"KHR_texture_basisu"}));
    EXPECT_EQ(out["extensionsRequired"], nlohmann::json::array({"KHR_texture_basisu"}));
    EXPECT_EQ(out["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"], 0);
    expect_gltf_validator_passes(dir / "out.glb");
}

TEST_F(GltfMaterialCarry, UnknownOptionalExtensionIsNamedOnce) {
    nlohmann::json json = triangle_scene(nlohmann::json::parse(R"([{"name": "m"}])"));
    json["extensionsUsed"] = {"EXT_lights_image_based", "KHR_xmp_json_ld", "EXT_lights_image_based",
                              "KHR_materials_ior"};
    (void)round_trip(json);
    EXPECT_EQ(count_rule(import_warnings, "gltf.extension-unknown"), 2u);
    std::size_t image_based = 0;
    for (const Diagnostic& d : import_warnings)
        image_based += d.rule == "gltf.extension-unknown" &&
                       d.message.find("EXT_lights_image_based") != std::string::npos;
    EXPECT_EQ(image_based, 1u);
}

}  // namespace
}  // namespace castkit::test::material_carry_test
