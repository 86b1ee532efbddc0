// glTF import: hand-written files exercising every component type, byte strides, sparse
// accessors, strips, and malformed input reported with the file and JSON path.
#include <castkit/formats/gltf.hpp>
#include <fstream>
#include <functional>

#include "gltf_scene.hpp"

namespace castkit::test::import_test {
namespace {

// Little-endian bytes for a hand-written buffer.
struct Bin {
    std::vector<std::uint8_t> bytes;
    template <class T>
    std::size_t put(std::initializer_list<T> values) {
        while (bytes.size() % 4) bytes.push_back(0);
        const std::size_t offset = bytes.size();
        for (T v : values) {
            const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
            bytes.insert(bytes.end(), p, p + sizeof(T));
        }
        return offset;
    }
};

class GltfImport : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("gltf-import-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    // Writes `json` (with buffer 0 = `bin` in a .bin beside it) and reads it back.
    Expected<cast::Document> load(nlohmann::json json, const Bin& bin) {
        std::ofstream(dir / "scene.bin", std::ios::binary)
            .write(reinterpret_cast<const char*>(bin.bytes.data()),
                   static_cast<std::streamsize>(bin.bytes.size()));
        json["asset"] = {{"version", "2.0"}};
        json["buffers"] =
            nlohmann::json::array({{{"byteLength", bin.bytes.size()}, {"uri", "scene.bin"}}});
        std::ofstream(dir / "scene.gltf") << json.dump();
        return gltf::open(dir / "scene.gltf", warnings);
    }
    std::filesystem::path dir;
    Diagnostics warnings;
};

nlohmann::json view(std::size_t offset, std::size_t length, std::size_t stride = 0) {
    nlohmann::json v =
        nlohmann::json::object({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}});
    if (stride) v["byteStride"] = stride;
    return v;
}

nlohmann::json accessor(int view_index, int component, std::size_t count, const char* type,
                        bool normalized = false) {
    nlohmann::json a = nlohmann::json::object({{"bufferView", view_index},
                                               {"componentType", component},
                                               {"count", count},
                                               {"type", type}});
    if (normalized) a["normalized"] = true;
    return a;
}

TEST_F(GltfImport, EveryComponentTypeIsReadAndNormalised) {
    Bin bin;
    // POSITION as SHORT, stride 8 (two bytes of padding per vertex).
    const std::size_t positions = bin.put<std::int16_t>({0, 0, 0, -1, 2, 0, 0, -1, 0, 3, 0, -1});
    const std::size_t uv0 = bin.put<std::uint8_t>({0, 255, 255, 255, 0, 0});
    const std::size_t uv1 = bin.put<std::int8_t>({-127, 127, 0, -128, 64, 0});
    const std::size_t color =
        bin.put<std::uint16_t>({65535, 0, 0, 65535, 0, 65535, 0, 65535, 0, 0, 65535, 32768});
    const std::size_t packed =
        bin.put<std::uint8_t>({255, 128, 0, 255, 1, 2, 3, 4, 10, 20, 30, 40});
    const std::size_t indices = bin.put<std::uint32_t>({0, 1, 2});
    const std::size_t morph = bin.put<std::int8_t>({0, 0, 0, 127, 0, 0, 0, 0, -127});
    nlohmann::json json;
    json["bufferViews"] = {view(positions, 24, 8), view(uv0, 6),     view(uv1, 6),
                           view(color, 24),        view(packed, 12), view(indices, 12),
                           view(morph, 9)};
    json["accessors"] = {accessor(0, 5122, 3, "VEC3"),       accessor(1, 5121, 3, "VEC2", true),
                         accessor(2, 5120, 3, "VEC2", true), accessor(3, 5123, 3, "VEC4", true),
                         accessor(4, 5121, 3, "VEC4", true), accessor(5, 5125, 3, "SCALAR"),
                         accessor(6, 5120, 3, "VEC3", true)};
    json["meshes"] = nlohmann::json::parse(R"([{"name": "tri", "extras": {"targetNames": ["pull"]},
        "primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1, "TEXCOORD_1": 2, "COLOR_0": 3, "COLOR_1": 4},
                        "indices": 5, "targets": [{"POSITION": 6}]}]}])");
    json["nodes"] = nlohmann::json::parse(R"([{"mesh": 0}])");
    json["scenes"] = nlohmann::json::parse(R"([{"nodes": [0]}])");
    auto document = load(json, bin);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    cast::Mesh mesh = document->models()[0].meshes()[0];
    EXPECT_EQ(mesh.positions()[1], glm::vec3(2, 0, 0));
    EXPECT_EQ(mesh.positions()[2], glm::vec3(0, 3, 0));
    EXPECT_EQ(mesh.uv_layer(0)[0], glm::vec2(0, 1));
    EXPECT_EQ(mesh.uv_layer(1)[0], glm::vec2(-1, 1));
    EXPECT_EQ(mesh.uv_layer(1)[1].y, -1.0f);  // -128 clamps to -1
    EXPECT_NEAR(mesh.uv_layer(1)[2].x, 64.0f / 127.0f, 1e-6f);
    EXPECT_NEAR(mesh.color_layer(0)[2].w, 32768.0f / 65535.0f, 1e-6f);
    EXPECT_FALSE(mesh.color_layer_is_packed(0));
    EXPECT_TRUE(mesh.color_layer_is_packed(1));
    EXPECT_EQ(mesh.color_layer_property(1)->integer(0), 0xFF0080FFu);
    EXPECT_EQ(mesh.faces().to_vector(), (std::vector<std::uint32_t>{0, 1, 2}));
    cast::BlendShape pull = document->models()[0].blend_shapes()[0];
    EXPECT_EQ(*pull.name(), "pull");
    EXPECT_EQ(pull.vertex_indices().to_vector(), (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(pull.vertex_positions()[0], glm::vec3(3, 0, 0));
    EXPECT_EQ(pull.vertex_positions()[1], glm::vec3(0, 3, -1));
}

TEST_F(GltfImport, SparseAccessorsReplaceTheirElements) {
    Bin bin;
    const std::size_t base = bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0});
    const std::size_t sparse_indices = bin.put<std::uint16_t>({3, 1});
    const std::size_t sparse_values = bin.put<float>({5, 5, 5, 7, 0, 0});
    const std::size_t strip = bin.put<std::uint16_t>({0, 1, 2, 3});
    nlohmann::json json;
    json["bufferViews"] = {view(base, 48), view(sparse_indices, 4), view(sparse_values, 24),
                           view(strip, 8)};
    nlohmann::json positions = accessor(0, 5126, 4, "VEC3");
    const nlohmann::json sparse = nlohmann::json::parse(
        R"({"count": 2, "indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 2}})");
    positions["sparse"] = sparse;
    // Without a buffer view: zeros, then the sparse values.
    nlohmann::json zeros =
        nlohmann::json::parse(R"({"componentType": 5126, "count": 4, "type": "VEC3"})");
    zeros["sparse"] = sparse;
    json["accessors"] = {positions, accessor(3, 5123, 4, "SCALAR"), zeros};
    json["meshes"] = nlohmann::json::parse(
        R"([{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 2}, "indices": 1, "mode": 5}]}])");
    json["nodes"] = nlohmann::json::parse(R"([{"mesh": 0}])");
    auto document = load(json, bin);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    cast::Mesh mesh = document->models()[0].meshes()[0];
    EXPECT_EQ(mesh.positions()[0], glm::vec3(0, 0, 0));
    EXPECT_EQ(mesh.positions()[1], glm::vec3(7, 0, 0));
    EXPECT_EQ(mesh.positions()[3], glm::vec3(5, 5, 5));
    EXPECT_EQ(mesh.normals()[0], glm::vec3(0, 0, 0));
    EXPECT_EQ(mesh.normals()[1], glm::vec3(7, 0, 0));
    // A strip 0 1 2 3 is the triangles (0 1 2) and (2 1 3), both counter-clockwise.
    EXPECT_EQ(mesh.faces().to_vector(), (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3}));
}

TEST_F(GltfImport, NodeHierarchyFlattensIntoModelTransforms) {
    Bin bin;
    const std::size_t points = bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    nlohmann::json json;
    json["bufferViews"] = nlohmann::json::array({view(points, 36)});
    json["accessors"] = nlohmann::json::array({accessor(0, 5126, 3, "VEC3")});
    json["meshes"] =
        nlohmann::json::parse(R"([{"primitives": [{"attributes": {"POSITION": 0}}]}])");
    // group (translated) > holder (scaled) > mesh node (translated): the Model is the holder.
    json["nodes"] =
        nlohmann::json::parse(R"([{"name": "group", "translation": [10, 0, 0], "children": [1]},
        {"name": "holder", "scale": [2, 2, 2], "children": [2]},
        {"name": "part", "mesh": 0, "translation": [0, 1, 0]}])");
    auto document = load(json, bin);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    cast::Model model = document->models()[0];
    EXPECT_EQ(*model.name(), "holder");
    EXPECT_EQ(*model.position(), glm::vec3(10, 0, 0));
    EXPECT_EQ(*model.scale(), glm::vec3(2, 2, 2));
    EXPECT_EQ(model.meshes()[0].positions()[1], glm::vec3(1, 1, 0));
}

// An image inside the file travels with the document (a view of scene.bin, the buffer the
// view lies in), named by its File; an image named by URI keeps the URI, decoded.
TEST_F(GltfImport, EmbeddedImagesTravelInTheDocumentNamedByTheirFile) {
    Bin bin;
    const std::size_t points = bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    const std::size_t image = bin.put<std::uint8_t>({0x89, 'P', 'N', 'G'});
    nlohmann::json json;
    json["bufferViews"] = {view(points, 36), view(image, 4)};
    json["accessors"] = nlohmann::json::array({accessor(0, 5126, 3, "VEC3")});
    json["images"] = nlohmann::json::parse(
        R"([{"bufferView": 1, "mimeType": "image/png"}, {"uri": "maps/rough%20metal.png"}])");
    json["textures"] = nlohmann::json::parse(R"([{"source": 0}, {"source": 1}])");
    json["materials"] = nlohmann::json::parse(R"([{"name": "paint", "pbrMetallicRoughness":
        {"baseColorTexture": {"index": 0}, "metallicRoughnessTexture": {"index": 1}, "roughnessFactor": 0.5}}])");
    json["meshes"] = nlohmann::json::parse(
        R"([{"primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}])");
    json["nodes"] = nlohmann::json::parse(R"([{"mesh": 0}])");
    auto document = load(json, bin);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    cast::Material material = document->models()[0].meshes()[0].material();
    EXPECT_EQ(*material.name(), "paint");
    ASSERT_TRUE(material.slot_file("albedo"));
    EXPECT_EQ(*material.slot_file("albedo").path(), "scene_image0.bin");
    EXPECT_EQ(*material.slot_file("roughness").path(), "maps/rough metal.png");
    EXPECT_EQ(material.slot_hash("metal"), material.slot_hash("roughness"));
    ASSERT_EQ(document->embedded.size(), 1u);
    const cast::EmbeddedFile* kept = document->embedded.find("scene_image0.bin");
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ(
        std::vector<std::byte>(kept->bytes.begin(), kept->bytes.end()),
        (std::vector<std::byte>{std::byte{0x89}, std::byte{'P'}, std::byte{'N'}, std::byte{'G'}}));
    for (const Diagnostic& d : warnings) EXPECT_NE(d.path, "$.images[0]") << d.to_string();
    EXPECT_FALSE(std::filesystem::exists(dir / "scene_image0.bin"));
}

TEST_F(GltfImport, AnimationsKeepWholeFrameKeysAndResampleTheRest) {
    Bin bin;
    const std::size_t times = bin.put<float>({0.0f, 0.1f});
    const std::size_t moves = bin.put<float>({0, 0, 0, 1, 2, 3});
    // CUBICSPLINE: (in-tangent, value, out-tangent) per key; zero tangents ease in and out.
    const std::size_t eased =
        bin.put<float>({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0});
    nlohmann::json json;
    json["bufferViews"] = {view(times, 8), view(moves, 24), view(eased, 72)};
    json["accessors"] = {accessor(0, 5126, 2, "SCALAR"), accessor(1, 5126, 2, "VEC3"),
                         accessor(2, 5126, 6, "VEC3")};
    json["accessors"][0]["min"] = {0.0};
    json["accessors"][0]["max"] = {0.1};
    json["nodes"] = nlohmann::json::parse(R"([{"name": "a"}, {"name": "b"}, {"name": "c"}])");
    // Joints, so that the channels have bones to key (animated empties are dropped).
    json["skins"] = nlohmann::json::parse(R"([{"joints": [0, 1, 2]}])");
    json["animations"] = nlohmann::json::parse(R"([{"name": "clip",
        "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"},
                     {"input": 0, "output": 1, "interpolation": "STEP"},
                     {"input": 0, "output": 2, "interpolation": "CUBICSPLINE"}],
        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                     {"sampler": 1, "target": {"node": 1, "path": "translation"}},
                     {"sampler": 2, "target": {"node": 2, "path": "scale"}}]}])");
    auto document = load(json, bin);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    cast::Animation animation = document->animations()[0];
    EXPECT_EQ(*animation.framerate(), 30.0f);
    auto curve = [&](std::string_view node, std::string_view kp) {
        for (const cast::ConstCurve& c : animation.curves())
            if (c.node_name() == node && c.key_property() == kp) return c;
        return cast::ConstCurve();
    };
    // 0.1 s at 30 fps is frame 3: LINEAR keys on whole frames stay as they are.
    EXPECT_EQ(curve("a", "ty").key_frames().to_vector(), (std::vector<std::uint32_t>{0, 3}));
    EXPECT_EQ(curve("a", "ty").float_values().to_vector(), (std::vector<float>{0, 2}));
    // STEP holds the first key until the second: resampled at every frame.
    EXPECT_EQ(curve("b", "tz").key_frames().to_vector(), (std::vector<std::uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(curve("b", "tz").float_values().to_vector(), (std::vector<float>{0, 0, 0, 3}));
    // CUBICSPLINE with zero tangents: 4 · (3s² − 2s³) at s = 1/3 is 28/27.
    EXPECT_NEAR(curve("c", "sx").float_values()[1], 28.0f / 27.0f, 1e-5f);
    EXPECT_EQ(*curve("c", "sx").mode_name(), "absolute");
}

// glTF times are float32: a key meant for a frame can be stored a float step after it
// (gltfpack's last key of InterpolationTest at 201/120 s reads 1.67500007 s, after the frame's
// 1.67499995). Resampled at the frame's own time, a STEP channel never reached that key: the
// clip ended one value short.
TEST_F(GltfImport, AStepKeyAFloatStepAfterAFrameIsOnThatFrame) {
    Bin bin;
    const float late = std::nextafter(0.1f, 1.0f);
    const std::size_t times = bin.put<float>({0.0f, 0.05f, late});
    const std::size_t moves = bin.put<float>({0, 0, 0, 0, 0, 1, 0, 0, 3});
    nlohmann::json json;
    json["bufferViews"] = {view(times, 12), view(moves, 36)};
    json["accessors"] = {accessor(0, 5126, 3, "SCALAR"), accessor(1, 5126, 3, "VEC3")};
    json["accessors"][0]["min"] = {0.0};
    json["accessors"][0]["max"] = {late};
    json["nodes"] = nlohmann::json::parse(R"([{"name": "a"}])");
    json["skins"] = nlohmann::json::parse(R"([{"joints": [0]}])");
    json["animations"] = nlohmann::json::parse(R"([{"name": "clip",
        "samplers": [{"input": 0, "output": 1, "interpolation": "STEP"}],
        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}])");
    auto document = load(json, bin);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    cast::Animation animation = document->animations()[0];
    ASSERT_EQ(*animation.framerate(), 60.0f);
    for (const cast::ConstCurve& curve : animation.curves()) {
        if (curve.key_property() != "tz") continue;
        EXPECT_EQ(curve.key_frames().to_vector(),
                  (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6}));
        EXPECT_EQ(curve.float_values().to_vector(), (std::vector<float>{0, 0, 0, 1, 1, 1, 3}));
    }
}

struct Malformed {
    const char* name;
    std::function<void(nlohmann::json&)> damage;
    const char* path;
};

TEST_F(GltfImport, MalformedFilesNameTheJsonPath) {
    Bin bin;
    const std::size_t points = bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
    const std::size_t sparse_indices = bin.put<std::uint16_t>({9, 0});
    nlohmann::json good;
    good["bufferViews"] = {view(points, 36), view(sparse_indices, 2)};
    good["accessors"] = nlohmann::json::array({accessor(0, 5126, 3, "VEC3")});
    good["meshes"] =
        nlohmann::json::parse(R"([{"primitives": [{"attributes": {"POSITION": 0}}]}])");
    good["nodes"] = nlohmann::json::parse(R"([{"mesh": 0}])");
    ASSERT_TRUE(load(good, bin).has_value());
    const std::vector<Malformed> cases{
        {"accessor past its view", [](auto& j) { j["accessors"][0]["count"] = 4; },
         "$.accessors[0]"},
        {"view past its buffer", [](auto& j) { j["bufferViews"][0]["byteLength"] = 400; },
         "$.bufferViews[0]"},
        {"missing accessor",
         [](auto& j) { j["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 7; },
         "$.meshes[0].primitives[0].attributes.POSITION"},
        {"wrong type", [](auto& j) { j["accessors"][0]["type"] = "VEC2"; }, "$.accessors[0].type"},
        {"child out of range",
         [](auto& j) { j["nodes"][0]["children"] = nlohmann::json::array({5}); },
         "$.nodes[0].children[0]"},
        {"cycle",
         [](auto& j) {
             j["nodes"] =
                 nlohmann::json::parse(R"([{"mesh": 0, "children": [1]}, {"children": [0]}])");
         },
         "$.nodes[0]"},
        {"sparse index out of range",
         [](auto& j) {
             j["accessors"][0]["sparse"] = nlohmann::json::parse(
                 R"({"count": 1, "indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 0}})");
         },
         "$.accessors[0].sparse.indices"},
        {"index out of range",
         [](auto& j) {
             j["accessors"].push_back(accessor(1, 5123, 1, "SCALAR"));
             j["meshes"][0]["primitives"][0]["indices"] = 1;
         },
         "$.meshes[0].primitives[0].indices"},
    };
    for (const Malformed& c : cases) {
        nlohmann::json json = good;
        c.damage(json);
        warnings.clear();
        auto document = load(json, bin);
        ASSERT_FALSE(document.has_value()) << c.name;
        EXPECT_EQ(document.error().file, (dir / "scene.gltf").string()) << c.name;
        EXPECT_EQ(document.error().path, c.path) << c.name << ": " << document.error().to_string();
    }
}

TEST_F(GltfImport, BrokenJsonAndTruncatedGlbAreErrorsNotCrashes) {
    std::ofstream(dir / "broken.gltf") << "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [";
    auto broken = gltf::open(dir / "broken.gltf", warnings);
    ASSERT_FALSE(broken.has_value());
    EXPECT_EQ(broken.error().file, (dir / "broken.gltf").string());

    const std::uint32_t header[] = {0x46546C67u, 2, 1000, 500, 0x4E4F534Au};
    std::ofstream(dir / "short.glb", std::ios::binary)
        .write(reinterpret_cast<const char*>(header), sizeof header);
    auto truncated = gltf::open(dir / "short.glb", warnings);
    ASSERT_FALSE(truncated.has_value());
    EXPECT_EQ(truncated.error().offset, 8u) << truncated.error().to_string();

    const std::uint32_t lying[] = {0x46546C67u, 2, 20, 500, 0x4E4F534Au};
    std::ofstream(dir / "lying.glb", std::ios::binary)
        .write(reinterpret_cast<const char*>(lying), sizeof lying);
    auto chunk = gltf::open(dir / "lying.glb", warnings);
    ASSERT_FALSE(chunk.has_value());
    EXPECT_EQ(chunk.error().offset, 12u) << chunk.error().to_string();
}

}  // namespace
}  // namespace castkit::test::import_test

namespace castkit::test::import_test {
namespace {

// Every truncation of an exported GLB, and every byte of its JSON and chunk headers set to
// another value, reads as a document or an error: never a crash or a hang.
TEST(GltfImportDamage, TruncatedAndCorruptedGlbNeverCrash) {
    AnimScene scene;
    build_full_scene(scene);
    const std::filesystem::path dir = temp_dir("gltf-damage");
    Diagnostics warnings;
    ASSERT_TRUE(gltf::write(scene.document, dir / "hero.glb", {}, warnings).has_value());
    const std::vector<std::byte> good = read_bytes(dir / "hero.glb");
    std::uint32_t json_length = 0;
    std::memcpy(&json_length, good.data() + 12, 4);
    std::size_t errors = 0;
    auto attempt = [&](const std::vector<std::byte>& bytes) {
        write_bytes(dir / "damaged.glb", bytes);
        Diagnostics ignored;
        auto document = gltf::open(dir / "damaged.glb", ignored);
        if (!document) {
            ++errors;
            EXPECT_EQ(document.error().file, (dir / "damaged.glb").string());
            EXPECT_FALSE(document.error().message.empty());
        }
    };
    for (std::size_t length = 0; length < good.size(); length += 1 + good.size() / 97)
        attempt(std::vector<std::byte>(good.begin(),
                                       good.begin() + static_cast<std::ptrdiff_t>(length)));
    for (std::size_t at = 0; at < 20 + json_length + 8; at += 7) {
        std::vector<std::byte> bytes = good;
        bytes[at] = static_cast<std::byte>(static_cast<unsigned>(bytes[at]) ^ 0x5Au);
        attempt(bytes);
    }
    EXPECT_GT(errors, 0u);
}

}  // namespace
}  // namespace castkit::test::import_test
