// glTF export: every file written passes the Khronos glTF Validator with zero errors, and
// each Cast feature lands where glTF puts it.

#include <castkit/formats/gltf.hpp>
#include <cmath>
#include <limits>

#include "gltf_scene.hpp"

namespace castkit::test::export_test {
namespace {

bool mentions(const Diagnostics& warnings, std::string_view text) {
    for (const Diagnostic& d : warnings)
        if (d.message.find(text) != std::string::npos) return true;
    return false;
}

class GltfExport : public ::testing::Test {
  protected:
    void SetUp() override {
        build_full_scene(scene);
        dir =
            temp_dir("gltf-export-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    AnimScene scene;
    std::filesystem::path dir;
    Diagnostics warnings;
};

TEST_F(GltfExport, GlbAndGltfPassTheKhronosValidator) {
    ASSERT_TRUE(gltf::write(scene.document, dir / "hero.glb", {}, warnings).has_value());
    ASSERT_TRUE(
        gltf::write(scene.document, dir / "hero.gltf", {.binary = false}, warnings).has_value());
    EXPECT_TRUE(std::filesystem::exists(dir / "hero.bin"));
    if (const std::optional<ValidatorResult> result = run_gltf_validator(dir)) {
        EXPECT_EQ(result->exit_code, 0) << result->output;
        EXPECT_NE(result->output.find("hero.glb: 0 errors"), std::string::npos) << result->output;
        EXPECT_NE(result->output.find("hero.gltf: 0 errors"), std::string::npos) << result->output;
    }
}

// tinygltf writes an object with nothing to say as null: a Model without name, transform or
// children became "nodes": [null], which no glTF reader accepts (found by the export fuzzer).
TEST_F(GltfExport, AnEmptyModelIsAnObjectNode) {
    cast::Document document;
    cast::Root root = document.add_root();
    root.add_model();
    ASSERT_TRUE(gltf::write(document, dir / "empty.glb", {}, warnings).has_value());
    nlohmann::json json = gltf_json(dir / "empty.glb");
    ASSERT_EQ(json["nodes"].size(), 1u);
    EXPECT_TRUE(json["nodes"][0].is_object()) << json.dump();
    EXPECT_TRUE(gltf::open(dir / "empty.glb", warnings).has_value());
    expect_gltf_validator_passes(dir / "empty.glb");
}

// JSON has no NaN (tinygltf writes null, which no reader accepts): a non-finite Instance
// transform becomes glTF's default with a warning (found by the export fuzzer: an Instance
// position with a NaN), and non-finite vertex positions are refused before the export, as in
// every format (output.non-finite, docs/diagnostics.md).
TEST_F(GltfExport, NonFiniteNumbersAreNeverWritten) {
    const float nan = std::nanf("");
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Instance instance = root.add_instance();
    cast::File file = instance.add_file("a.cast");
    instance.set_reference_file(file);
    instance.set_position({0.0f, nan, 0.0f});
    instance.set_scale({2.0f, 2.0f, 2.0f});
    ASSERT_TRUE(gltf::write(document, dir / "nan.glb", {}, warnings).has_value());
    nlohmann::json json = gltf_json(dir / "nan.glb");
    ASSERT_EQ(json["nodes"].size(), 1u);
    EXPECT_FALSE(json["nodes"][0].contains("translation")) << json.dump();
    EXPECT_EQ(json["nodes"][0]["scale"], nlohmann::json::array({2.0, 2.0, 2.0}));
    EXPECT_TRUE(mentions(warnings, "translation is not a finite number"));
    EXPECT_TRUE(gltf::open(dir / "nan.glb", warnings).has_value());
    expect_gltf_validator_passes(dir / "nan.glb");

    cast::Mesh mesh = root.add_model().add_mesh();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<glm::vec3> positions = {{0, 0, 0}, {1, inf, 0}, {0, 1, 0}};
    mesh.set_positions(positions);
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    auto refused = gltf::write(document, dir / "nan-mesh.glb", {}, warnings);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().rule, "output.non-finite");
    EXPECT_EQ(refused.error().path, "root[0]/model[0]/mesh[0]");

    // A NaN position is refused as an infinite one is (it was written, bounds and all).
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, nan, 0}, {0, 1, 0}});
    auto nan_refused = gltf::write(document, dir / "nan-mesh.glb", {}, warnings);
    ASSERT_FALSE(nan_refused.has_value());
    EXPECT_EQ(nan_refused.error().rule, "output.non-finite");
    EXPECT_FALSE(std::filesystem::exists(dir / "nan-mesh.glb"));
}

// Colour layers are borrowed as stored: a layer of another type than i or v4 is dropped, not
// declared as more bytes than it has (found by the export fuzzer).
TEST_F(GltfExport, AColourLayerOfAnotherTypeIsDropped) {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    const std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.set_positions(positions);
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    EXPECT_TRUE(mesh.set_color_layer(0, std::vector<glm::vec4>(3, glm::vec4(1.0f))));
    EXPECT_TRUE(mesh.set_color_layer(1, std::vector<glm::vec4>(3, glm::vec4(1.0f))));
    mesh.node().set(cast::make_array<glm::vec2>("c0", std::vector<glm::vec2>(3, glm::vec2(1.0f))));
    ASSERT_TRUE(gltf::write(document, dir / "colours.glb", {}, warnings).has_value());
    EXPECT_TRUE(mentions(warnings, "colour layer 0 is of type v2"));
    const nlohmann::json attributes =
        gltf_json(dir / "colours.glb")["meshes"][0]["primitives"][0]["attributes"];
    EXPECT_FALSE(attributes.contains("COLOR_0"));
    EXPECT_TRUE(attributes.contains("COLOR_1"));
    EXPECT_TRUE(gltf::open(dir / "colours.glb", warnings).has_value());
}

// A tangent along its normal has no direction across it: what is left after taking the normal
// out is float rounding, and it was written as if it were a direction (the Khronos sample
// VertexColorTest stores such tangents; whether its round trip warned depended on the last bit
// of each normal). It is replaced, with the warning, whatever the rounding.
TEST_F(GltfExport, ATangentAlongItsNormalIsReplacedWithAWarning) {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    const glm::vec3 normal = glm::normalize(glm::vec3(0.6f, 0.0f, 0.8f));
    mesh.set_normals(std::vector<glm::vec3>(3, normal));
    // The normal again, once exact and twice a float step off.
    mesh.set_tangents(std::vector<glm::vec3>{normal, normal + glm::vec3(0, 0, 6e-8f),
                                             normal * 1.0000001f + glm::vec3(0, 3e-8f, 0)});
    ASSERT_TRUE(gltf::write(document, dir / "along.glb", {}, warnings).has_value());
    EXPECT_TRUE(mentions(warnings, "3 zero-length normals or tangents were replaced"));
    auto reread = gltf::open(dir / "along.glb", warnings);
    ASSERT_TRUE(reread.has_value());
    const std::vector<glm::vec3> tangents = reread->models()[0].meshes()[0].tangents().to_vector();
    ASSERT_EQ(tangents.size(), 3u);
    for (const glm::vec3& tangent : tangents) {
        EXPECT_NEAR(glm::dot(tangent, normal), 0.0f, 1e-6f);
        EXPECT_NEAR(glm::length(tangent), 1.0f, 1e-6f);
    }
}

// The exporter converts carried glTF settings recursively: settings nested deeper than glTF
// input may be are ignored, not followed until the stack overflows (a 60 KB Cast file crashed
// castkit convert; fuzz/regressions/export/deep-carried-gltf-json.cast).
TEST_F(GltfExport, DeeplyNestedCarriedSettingsAreIgnored) {
    cast::Document document;
    cast::Root root = document.add_root();
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    root.add_metadata().node().set(cast::make_string(
        "gltf", R"({"materials":{"m":{"extensions":{"KHR_materials_x":{"a":)" + deep + "}}}}}"));
    cast::Model model = root.add_model();
    cast::Material material = model.add_material();
    material.set_name("m");
    cast::Mesh mesh = model.add_mesh();
    const std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.set_positions(positions);
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    mesh.set_material(material);
    ASSERT_TRUE(gltf::write(document, dir / "deep.glb", {}, warnings).has_value());
    EXPECT_TRUE(mentions(warnings, "nest deeper than 512 levels"));
    EXPECT_FALSE(gltf_json(dir / "deep.glb").contains("extensionsUsed"));
}

TEST_F(GltfExport, MeshAttributesSkinAndMorphTargetsAreWritten) {
    ASSERT_TRUE(gltf::write(scene.document, dir / "hero.glb", {}, warnings).has_value());
    nlohmann::json json = gltf_json(dir / "hero.glb");
    const nlohmann::json& primitive = json["meshes"][0]["primitives"][0];
    for (const char* attribute : {"POSITION", "NORMAL", "TANGENT", "TEXCOORD_0", "TEXCOORD_1",
                                  "COLOR_0", "COLOR_1", "JOINTS_0", "WEIGHTS_0"})
        EXPECT_TRUE(primitive["attributes"].contains(attribute)) << attribute;
    // Five influences, one bone repeated: four distinct bones fit in one set.
    EXPECT_FALSE(primitive["attributes"].contains("JOINTS_1"));
    EXPECT_EQ(json["accessors"][primitive["attributes"]["COLOR_0"].get<int>()]["componentType"],
              5121);
    EXPECT_TRUE(
        json["accessors"][primitive["attributes"]["COLOR_0"].get<int>()]["normalized"].get<bool>());
    EXPECT_EQ(primitive["targets"].size(), 1u);
    EXPECT_EQ(json["meshes"][0]["extras"]["targetNames"][0], "smile");
    EXPECT_EQ(json["skins"][0]["joints"].size(), 4u);
    EXPECT_EQ(json["animations"][0]["extras"]["castkit_notifications"]["footstep"],
              nlohmann::json::array({3, 7}));
}

TEST_F(GltfExport, ManyInfluencesBecomeSeveralJointSets) {
    cast::Mesh mesh = scene.model.meshes()[0];
    scene.bone("extra0", 0);
    scene.bone("extra1", 0);
    // Six distinct bones per vertex need two JOINTS/WEIGHTS sets.
    std::vector<std::uint32_t> bones;
    std::vector<float> values;
    for (std::uint32_t v = 0; v < 6; ++v)
        for (std::uint32_t i = 0; i < 6; ++i) {
            bones.push_back(i);
            values.push_back(1.0f);
        }
    EXPECT_TRUE(mesh.set_weights(6, bones, values));
    ASSERT_TRUE(gltf::write(scene.document, dir / "wide.glb", {}, warnings).has_value());
    nlohmann::json json = gltf_json(dir / "wide.glb");
    const nlohmann::json& attributes = json["meshes"][0]["primitives"][0]["attributes"];
    EXPECT_TRUE(attributes.contains("JOINTS_1"));
    EXPECT_TRUE(attributes.contains("WEIGHTS_1"));
    expect_gltf_validator_passes(dir / "wide.glb");
}

TEST_F(GltfExport, MaterialSlotsMapToPbrAndTheRestIsNamed) {
    // The scene's texture files do not exist: referenced, they keep their paths as URIs.
    ASSERT_TRUE(gltf::write(scene.document, dir / "hero.glb", {.textures = TextureMode::Reference},
                            warnings)
                    .has_value());
    nlohmann::json json = gltf_json(dir / "hero.glb");
    const nlohmann::json& material = json["materials"][0];
    auto image_of = [&](const nlohmann::json& info) {
        return json["images"][json["textures"][info["index"].get<int>()]["source"].get<int>()]
                   ["uri"]
                       .get<std::string>();
    };
    EXPECT_EQ(image_of(material["pbrMetallicRoughness"]["baseColorTexture"]),
              "textures/body%20albedo.png");
    EXPECT_EQ(image_of(material["normalTexture"]), "textures/body_n.png");
    EXPECT_EQ(image_of(material["occlusionTexture"]), "textures/body_ao.png");
    EXPECT_EQ(image_of(material["pbrMetallicRoughness"]["metallicRoughnessTexture"]),
              "textures/body_rm.png");
    // sRGB (1, 0.5, 0) is linear (1, 0.21404, 0).
    EXPECT_NEAR(material["emissiveFactor"][1].get<double>(), 0.21404, 1e-4);
    EXPECT_EQ(material["extras"]["castkit_slots"]["gloss"], "textures/body_gloss.png");
    EXPECT_TRUE(mentions(warnings, "gloss"));
}

TEST_F(GltfExport, ZUpBecomesAYUpRootNode) {
    ASSERT_TRUE(gltf::write(scene.document, dir / "hero.glb", {}, warnings).has_value());
    nlohmann::json json = gltf_json(dir / "hero.glb");
    const nlohmann::json& up = json["nodes"][json["scenes"][0]["nodes"][0].get<int>()];
    EXPECT_EQ(up["extras"]["castkit_up_axis"], "z");
    // -90° about X: (sin(-45°), 0, 0, cos(45°)).
    EXPECT_NEAR(up["rotation"][0].get<double>(), -std::sqrt(0.5), 1e-6);
    EXPECT_NEAR(up["rotation"][3].get<double>(), std::sqrt(0.5), 1e-6);
}

TEST_F(GltfExport, WhatGltfCannotHoldIsNamedAndTheFileStaysValid) {
    // A non-uniform parent scale under segment scale compensation, hair and an IK handle.
    scene.curve("spine", "sy", {0, 10}, {1.0f, 4.0f});
    scene.model.add_hair().set_name("fur");
    scene.skeleton.add_ik_handle().set_name("leg");
    ASSERT_TRUE(gltf::write(scene.document, dir / "lossy.glb", {}, warnings).has_value());
    EXPECT_TRUE(mentions(warnings, "non-uniform parent scale"));
    EXPECT_TRUE(mentions(warnings, "hair"));
    EXPECT_TRUE(mentions(warnings, "IK handles"));
    expect_gltf_validator_passes(dir / "lossy.glb");
}

TEST_F(GltfExport, InstancesAreReferencedOrMerged) {
    {
        cast::Document prop;
        cast::Mesh mesh = prop.add_root().add_model().add_mesh();
        mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
        mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
        ASSERT_TRUE(cast::write(prop, dir / "prop.cast").has_value());
    }
    scene.document.source_name = (dir / "hero.cast").string();
    ASSERT_TRUE(gltf::write(scene.document, dir / "referenced.glb", {}, warnings).has_value());
    ASSERT_TRUE(
        gltf::write(scene.document, dir / "merged.glb", {.inline_instances = true}, warnings)
            .has_value());
    nlohmann::json referenced = gltf_json(dir / "referenced.glb");
    nlohmann::json merged = gltf_json(dir / "merged.glb");
    EXPECT_EQ(referenced["meshes"].size(), 1u);
    EXPECT_EQ(merged["meshes"].size(), 2u);
    bool found = false;
    for (const nlohmann::json& node : referenced["nodes"])
        found |= node.contains("extras") && node["extras"].contains("castkit_instance") &&
                 node["extras"]["castkit_instance"]["file"] == "prop.cast";
    EXPECT_TRUE(found);
    expect_gltf_validator_passes(dir);
}

}  // namespace
}  // namespace castkit::test::export_test
