// SEModel: a hand-assembled golden vector, hand-assembled layouts, the Cast mapping
// (winding reversed, materials as File children) and exact round trips SEModel → Cast → SEModel.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/semodel.hpp>

#include "se_golden.hpp"

namespace castkit::test::semodel_test {
namespace {

using semodel::Model;

Model parse_ok(const std::vector<std::byte>& bytes, Diagnostics* warnings = nullptr) {
    Diagnostics local;
    auto model = semodel::read(bytes, "test.semodel", warnings ? *warnings : local);
    EXPECT_TRUE(model) << (model ? "" : model.error().to_string());
    return model ? std::move(*model) : Model{};
}

std::vector<std::byte> write_ok(const Model& model) {
    auto bytes = semodel::write_to_buffer(model);
    EXPECT_TRUE(bytes) << (bytes ? "" : bytes.error().to_string());
    return bytes ? std::move(*bytes) : std::vector<std::byte>{};
}

std::vector<std::byte> through_cast(const std::vector<std::byte>& bytes, Diagnostics& warnings) {
    Model model = parse_ok(bytes, &warnings);
    cast::Document document = semodel::to_cast(model, warnings).value();
    auto cast_bytes = cast::write_to_buffer(document);
    EXPECT_TRUE(cast_bytes);
    auto reread = cast::read(std::move(*cast_bytes), "through.cast", warnings);
    EXPECT_TRUE(reread);
    auto back = semodel::from_cast(*reread, warnings);
    EXPECT_TRUE(back) << (back ? "" : back.error().to_string());
    return back ? write_ok(*back) : std::vector<std::byte>{};
}

// What SEModel cannot hold is named where every Cast finding names it: the file and the node
// path of the mesh, material or Model (the message used to say "mesh 0: …", with no file).
TEST(SEModel, FromCastWarningsNameTheFileAndTheNodePath) {
    cast::Document document;
    document.source_name = "props.cast";
    document.add_root();  // the model is in the second root
    cast::Model model = document.add_root().add_model();
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_tangents(std::vector<glm::vec3>(3, glm::vec3(1, 0, 0)));
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    model.add_hair();
    Diagnostics warnings;
    ASSERT_TRUE(semodel::from_cast(document, warnings));
    std::vector<std::pair<std::string, std::string>> places;
    for (const Diagnostic& d : warnings) places.emplace_back(d.file, d.path);
    EXPECT_EQ(places,
              (std::vector<std::pair<std::string, std::string>>{
                  {"props.cast", "root[1]/model[0]/mesh[0]"}, {"props.cast", "root[1]/model[0]"}}));
    EXPECT_EQ(warnings[0].message, "SEModel has no tangents; dropped");
}

TEST(SEModel, GoldenVectorReads) {
    auto bytes = semodel_golden_vector();
    EXPECT_EQ(bytes.size(), 0xC4u + 14);
    Model m = parse_ok(bytes);
    ASSERT_EQ(m.bones.size(), 1u);
    EXPECT_EQ(m.bones[0].name, "root");
    EXPECT_EQ(m.bones[0].parent, -1);
    EXPECT_EQ(m.bones[0].local_position, glm::vec3(0, 0, 1));
    ASSERT_EQ(m.meshes.size(), 1u);
    const semodel::Mesh& mesh = m.meshes[0];
    EXPECT_EQ(mesh.positions[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(mesh.uvs[2], glm::vec2(0, 1));
    EXPECT_EQ(mesh.normals[0], glm::vec3(0, 0, 1));
    EXPECT_EQ(mesh.weights[2].value, 1.0f);
    EXPECT_EQ(mesh.faces, (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(mesh.material_indices, (std::vector<std::int32_t>{0}));
    ASSERT_EQ(m.materials.size(), 1u);
    EXPECT_EQ(m.materials[0].diffuse, "d.png");
    EXPECT_EQ(m.materials[0].normal, "");
    EXPECT_TRUE(m.trailing.empty());
}

Model golden_model() {
    Model m;
    m.header.bone_presence = semodel::kLocalMatrices;
    m.header.mesh_presence = semodel::kUVs | semodel::kNormals | semodel::kWeights;
    semodel::Bone& bone = m.bones.emplace_back();
    bone.name = "root";
    bone.local_position = {0, 0, 1};
    semodel::Mesh& mesh = m.meshes.emplace_back();
    mesh.uv_layer_count = 1;
    mesh.max_influence = 1;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.weights = {{0, 1.0f}, {0, 1.0f}, {0, 1.0f}};
    mesh.faces = {0, 1, 2};
    mesh.material_indices = {0};
    m.materials.push_back({"mat0", 1, "d.png", "", ""});
    semodel::canonicalize(m);
    return m;
}

TEST(SEModel, GoldenVectorIsWhatTheWriterMakesFromTheSameData) {
    EXPECT_EQ(write_ok(golden_model()), semodel_golden_vector());
}

TEST(SEModel, GoldenVectorMapsToCast) {
    Diagnostics warnings;
    cast::Document document = semodel::to_cast(parse_ok(semodel_golden_vector()), warnings).value();
    EXPECT_TRUE(warnings.empty());
    auto models = document.models();
    ASSERT_EQ(models.size(), 1u);
    // The only SE fact: the file has the local block alone (the global one is derived).
    ASSERT_EQ(models[0].node().properties.size(), 1u);
    EXPECT_EQ(models[0].node().properties[0].name(), "se.boneBlocks");
    EXPECT_EQ(models[0].node().properties[0].integer(0), semodel::kLocalMatrices);
    auto bones = models[0].skeleton().bones();
    ASSERT_EQ(bones.size(), 1u);
    EXPECT_EQ(*bones[0].name(), "root");
    EXPECT_EQ(bones[0].parent_index(), -1);
    EXPECT_EQ(*bones[0].local_position(), glm::vec3(0, 0, 1));
    EXPECT_EQ(*bones[0].world_position(), glm::vec3(0, 0, 1));  // a root: world = local
    EXPECT_EQ(*bones[0].world_rotation(), glm::vec4(0, 0, 0, 1));
    cast::Mesh mesh = models[0].meshes()[0];
    EXPECT_EQ(mesh.faces().to_vector(), (std::vector<std::uint32_t>{2, 1, 0}));  // CW → CCW
    EXPECT_EQ(mesh.uv_layer_count(), 1u);
    EXPECT_EQ(mesh.uv_layer(0)[1], glm::vec2(1, 0));  // no V flip
    EXPECT_EQ(mesh.normals().size(), 3u);
    EXPECT_EQ(mesh.max_weight_influence(), 1u);
    EXPECT_EQ(mesh.weight_values()[0], 1.0f);
    EXPECT_EQ(mesh.color_layer_count(), 0u);
    cast::Material material = mesh.material();
    ASSERT_TRUE(material);
    EXPECT_EQ(*material.name(), "mat0");
    EXPECT_EQ(*material.slot_file("diffuse").path(), "d.png");
    EXPECT_FALSE(material.slot_file("normal"));
    EXPECT_EQ(material.files().size(), 1u);
}

TEST(SEModel, GoldenVectorRoundTripsThroughCastByteForByte) {
    Diagnostics warnings;
    EXPECT_EQ(through_cast(semodel_golden_vector(), warnings), semodel_golden_vector());
    EXPECT_TRUE(warnings.empty());
}

// Everything else: all bone blocks, 300-vertex meshes (u16 faces), two UV layers with their own
// materials, colours, four influences over 300 bones (u16 bone_t), a non-simple material.
Model rich_model() {
    Model m;
    m.header.bone_presence = semodel::kGlobalMatrices | semodel::kLocalMatrices | semodel::kScales;
    m.header.mesh_presence =
        semodel::kUVs | semodel::kNormals | semodel::kColors | semodel::kWeights;
    for (int b = 0; b < 300; ++b) {
        semodel::Bone& bone = m.bones.emplace_back();
        bone.name = fmt::format("b{}", b);
        bone.parent = b - 1;
        bone.global_position = {float(b), 0, 0};
        bone.local_position = {1, 0, 0};
        bone.scale = {1, 1, 0.5f};
    }
    m.bones[7].flags = 3;
    for (int k = 0; k < 2; ++k) {
        semodel::Mesh& mesh = m.meshes.emplace_back();
        mesh.uv_layer_count = 2;
        mesh.max_influence = 4;
        for (std::uint32_t v = 0; v < 300; ++v) {
            mesh.positions.push_back({float(v), float(k), 0.25f});
            mesh.uvs.push_back({v / 300.0f, 0});
            mesh.uvs.push_back({0, v / 300.0f});
            mesh.normals.push_back({0, 1, 0});
            mesh.colors.push_back({std::uint8_t(v), 2, 3, 255});
            for (std::uint32_t i = 0; i < 4; ++i)
                mesh.weights.push_back({(v + i) % 300, i == 0 ? 1.0f : 0.0f});
        }
        for (std::uint32_t f = 0; f + 2 < 300; ++f)
            mesh.faces.insert(mesh.faces.end(), {f, f + 1, f + 2});
        mesh.material_indices =
            k == 0 ? std::vector<std::int32_t>{1, 0} : std::vector<std::int32_t>{-1, -1};
    }
    m.materials.push_back({"skin", 1, "skin_c.png", "skin_n.png", "skin_s.png"});
    m.materials.push_back({"odd", 0, "", "", ""});
    semodel::canonicalize(m);
    return m;
}

TEST(SEModel, WriterAndReaderAgreeOnEveryFeature) {
    auto bytes = write_ok(rich_model());
    Model m = parse_ok(bytes);
    EXPECT_EQ(m.bones[299].parent, 298);
    EXPECT_EQ(m.meshes[1].weights[4 * 299 + 3].bone, 2u);  // (299 + 3) % 300, stored as u16
    EXPECT_EQ(m.meshes[0].faces.back(), 299u);
    EXPECT_EQ(m.materials[1].simple, 0);
    EXPECT_EQ(write_ok(m), bytes);
}

TEST(SEModel, EveryFeatureRoundTripsThroughCastByteForByte) {
    auto bytes = write_ok(rich_model());
    Diagnostics warnings;
    EXPECT_EQ(through_cast(bytes, warnings), bytes);
}

TEST(SEModel, PerLayerMaterialsAndColoursMapToCast) {
    Diagnostics warnings;
    cast::Document document = semodel::to_cast(rich_model(), warnings).value();
    cast::Model model = document.models()[0];
    cast::Mesh first = model.meshes()[0];
    EXPECT_EQ(*first.material().name(), "odd");             // the first layer's material
    EXPECT_NE(first.node().find("se.materials"), nullptr);  // layer 1 names another one
    EXPECT_FALSE(model.meshes()[1].material());
    EXPECT_TRUE(first.color_layer_is_packed(0));
    EXPECT_EQ(first.color_layer(0)[5], glm::vec4(5, 2, 3, 255) / 255.0f);
    EXPECT_EQ(first.uv_layer(1)[150], glm::vec2(0, 0.5f));
    EXPECT_EQ(first.weight_bones().stored_type(), cast::PropertyType::Short);
    EXPECT_EQ(*model.skeleton().bones()[3].world_position(), glm::vec3(3, 0, 0));
    // isSimpleMaterial travels on the Model: readers take every Material property but n and t
    // for a slot hash.
    const cast::Property* simple = model.node().find("se.simple");
    ASSERT_NE(simple, nullptr);
    EXPECT_EQ(cast::IndexView::of(simple).to_vector(), (std::vector<std::uint32_t>{1, 0}));
    for (const cast::Material& material : model.materials())
        for (const cast::Property& p : material.node().properties)
            EXPECT_FALSE(p.name().starts_with("se.")) << p.name();
}

TEST(SEModel, GreyhoundFlagsTrailerAndOddHeaderRoundTrip) {
    HandBytes b;
    // MATERIALS set with no materials (as Greyhound does), all stream flags, 4 extra header
    // bytes, a reserved byte, and an SEBlend trailer kept opaque.
    b.text("SEModel").u16(1).u16(24).u8(0x06).u8(0x03).u8(0x0F).u32(0).u32(1).u32(0).hex({0, 9, 0});
    b.hex({1, 2, 3, 4});
    b.u8(0).u8(0).u8(0).u32(1).u32(0).floats({1, 2, 3}).floats({0, 0, 1}).hex({10, 20, 30, 40});
    b.text("SEBlend\n").u64(0);
    Diagnostics warnings;
    Model m = parse_ok(b.bytes, &warnings);
    EXPECT_EQ(m.header_extra.size(), 4u);
    EXPECT_EQ(m.trailing.size(), 16u);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].message.find("SEBlend"), std::string::npos);
    EXPECT_EQ(through_cast(b.bytes, warnings), b.bytes);
}

TEST(SEModel, CastWithoutSeExtrasBecomesACanonicalFile) {
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Material material = model.add_material();
    material.set_name("m");
    cast::File albedo = material.add_file("a.png");
    material.set_slot("albedo", albedo);
    cast::Mesh a = model.add_mesh();
    const glm::vec3 positions[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const std::uint32_t faces[3] = {0, 1, 2};
    a.set_positions(positions);
    a.set_faces(faces);
    a.set_normals(std::vector<glm::vec3>(3, glm::vec3(0, 0, 1)));
    const glm::vec2 uvs[3] = {{0, 0}, {1, 0}, {0, 1}};
    EXPECT_TRUE(a.set_uv_layer(0, uvs));
    a.set_material(material);
    const glm::vec4 colours[3] = {{1, 0, 0, 1}, {0, 0.5f, 0, 1}, {0, 0, 2, -1}};
    EXPECT_TRUE(a.set_color_layer(0, colours));
    cast::Mesh b = model.add_mesh();  // no normals: SEModel's flag is per file
    b.set_positions(positions);
    b.set_faces(faces);
    Diagnostics warnings;
    auto m = semodel::from_cast(document, warnings);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->header.mesh_presence, semodel::kUVs | semodel::kNormals | semodel::kColors);
    EXPECT_EQ(m->meshes[0].faces, (std::vector<std::uint32_t>{2, 1, 0}));
    EXPECT_EQ(m->meshes[0].colors[1], (std::array<std::uint8_t, 4>{0, 128, 0, 255}));
    EXPECT_EQ(m->meshes[0].colors[2], (std::array<std::uint8_t, 4>{0, 0, 255, 0}));
    EXPECT_EQ(m->meshes[1].normals.size(), 3u);
    EXPECT_EQ(m->meshes[1].colors[0], (std::array<std::uint8_t, 4>{255, 255, 255, 255}));
    EXPECT_EQ(m->materials[0].diffuse, "a.png");
    EXPECT_EQ(m->meshes[0].material_indices, (std::vector<std::int32_t>{0}));
    EXPECT_GE(warnings.size(), 2u);  // b's normals and colours were filled in
    auto bytes = write_ok(*m);
    EXPECT_EQ(parse_ok(bytes).meshes.size(), 2u);
}

}  // namespace
}  // namespace castkit::test::semodel_test

namespace castkit::test::semodel_test {
namespace {

TEST(SEModel, TakingTheModelViewsItsStreamsAndWritesTheSameCast) {
    Diagnostics warnings;
    Model model = rich_model();
    auto copied = cast::write_to_buffer(semodel::to_cast(model, warnings).value());
    cast::Document viewing = semodel::to_cast(std::move(model), warnings).value();
    const cast::Property* positions = viewing.models()[0].meshes()[0].node().find("vp");
    ASSERT_NE(positions, nullptr);
    cast::Property copy = *positions;  // a view copies as a view, an owned payload as a new buffer
    EXPECT_EQ(copy.bytes().data(), positions->bytes().data());
    EXPECT_EQ(*cast::write_to_buffer(viewing), *copied);
}

}  // namespace
}  // namespace castkit::test::semodel_test

#include <random>

namespace castkit::test::semodel_test {
namespace {

// Seeded random models over every flag combination: each must come back byte for byte.
TEST(SEModel, RandomModelsRoundTripThroughCastByteForByte) {
    std::mt19937 rng(20261122);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    for (int round = 0; round < 200; ++round) {
        Model m;
        m.header.bone_presence = static_cast<std::uint8_t>(pick(8));
        m.header.mesh_presence = static_cast<std::uint8_t>(pick(16));
        for (int b = pick(3); b > 0; --b)
            m.bones.push_back({fmt::format("b{}", b),
                               static_cast<std::uint8_t>(pick(2)),
                               b - 2,
                               {1, 2, 3},
                               {0, 0, 0, 1},
                               {4, 5, 6},
                               {0, 1, 0, 0},
                               {1, 1, 2}});
        const int materials = pick(3);
        for (int k = pick(3); k > 0; --k) {
            semodel::Mesh& mesh = m.meshes.emplace_back();
            mesh.flags = static_cast<std::uint8_t>(pick(4) == 0);
            mesh.uv_layer_count = static_cast<std::uint8_t>(pick(3));
            // Weights name bones of the skeleton: the check before every write leaves out any
            // other (PreWrite.*), so a file with them does not come back byte for byte.
            const int bones = static_cast<int>(m.bones.size());
            mesh.max_influence = static_cast<std::uint8_t>(bones > 0 ? pick(3) : 0);
            const std::size_t vertices = static_cast<std::size_t>(pick(2) ? 3 : 260);
            const std::size_t layers = m.layer_count(mesh), influences = m.influence_count(mesh);
            for (std::size_t v = 0; v < vertices; ++v) {
                mesh.positions.push_back({float(v), 0, 1});
                for (std::size_t l = 0; l < layers; ++l) mesh.uvs.push_back({float(l), 0.5f});
                if (m.header.mesh_presence & semodel::kNormals) mesh.normals.push_back({0, 0, 1});
                if (m.header.mesh_presence & semodel::kColors) mesh.colors.push_back({1, 2, 3, 4});
                for (std::size_t i = 0; i < influences; ++i)
                    mesh.weights.push_back({static_cast<std::uint32_t>(pick(bones)), 0.5f});
            }
            mesh.faces = {0, 1, 2};
            for (std::size_t l = 0; l < layers; ++l)
                mesh.material_indices.push_back(pick(materials + 2) - 1);
        }
        for (int k = 0; k < materials; ++k)
            m.materials.push_back({fmt::format("m{}", k), static_cast<std::uint8_t>(pick(3) != 0),
                                   pick(2) ? "d.png" : "", "", pick(2) ? "s.png" : ""});
        for (semodel::Material& material : m.materials)
            if (material.simple == 0) material.diffuse = material.specular = "";
        semodel::canonicalize(m);
        if (pick(4) == 0) m.header.presence |= semodel::kMaterials;  // Greyhound style
        if (pick(5) == 0) m.trailing = {std::byte{7}};
        auto bytes = write_ok(m);
        Diagnostics warnings;
        EXPECT_EQ(through_cast(bytes, warnings), bytes) << "round " << round;
    }
}

}  // namespace
}  // namespace castkit::test::semodel_test
