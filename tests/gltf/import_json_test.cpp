// glTF import at binary speed: buffers stay views of the file (zero copy where the layout is
// Cast's), errors name the byte offset and the JSON path, data: URIs decode.
#include <fmt/format.h>

#include <castkit/formats/gltf.hpp>
#include <castkit/registry.hpp>
#include <cstring>
#include <fstream>

#include "gltf_scene.hpp"
#include "io/base64.hpp"

namespace castkit::test::import_json_test {
namespace {

// One triangle: POSITION and NORMAL (float VEC3) and TEXCOORD_0 (float VEC2), packed.
const float kTriangle[] = {0, 0, 0, 1, 0, 0, 0, 1, 0,  // positions
                           0, 0, 1, 0, 0, 1, 0, 0, 1,  // normals
                           0, 0, 1, 0, 0, 1};          // UVs

std::string triangle_json(const std::string& buffer) {
    return R"({"asset":{"version":"2.0"},"buffers":[)" + buffer +
           R"(],"bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},)"
           R"({"buffer":0,"byteOffset":36,"byteLength":36},{"buffer":0,"byteOffset":72,"byteLength":24}],)"
           R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},)"
           R"({"bufferView":1,"componentType":5126,"count":3,"type":"VEC3"},)"
           R"({"bufferView":2,"componentType":5126,"count":3,"type":"VEC2"}],)"
           R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1,"TEXCOORD_0":2}}]}],)"
           R"("nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]})";
}

std::vector<std::byte> triangle_glb() {
    const auto* data = reinterpret_cast<const std::byte*>(kTriangle);
    return glb(triangle_json(R"({"byteLength":96})"), {data, data + sizeof kTriangle});
}

bool inside(cast::Bytes part, cast::Bytes whole) {
    return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}

const cast::Property& mesh_property(const cast::Document& document, const char* name) {
    const cast::Property* property = document.models()[0].meshes()[0].node().find(name);
    EXPECT_NE(property, nullptr) << name;
    return *property;
}

TEST(GltfImportJson, GlbArraysViewTheFileWhenTheirLayoutIsCasts) {
    const std::filesystem::path path = temp_dir("gltf-zero-copy") / "triangle.glb";
    write_bytes(path, triangle_glb());
    auto input = formats::read_input(path);
    ASSERT_TRUE(input.has_value());
    Diagnostics warnings;
    auto document = gltf::read(*input, formats::context_for(path), warnings);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    for (const char* name : {"vp", "vn", "u0"})
        EXPECT_TRUE(inside(mesh_property(*document, name).bytes(), input->bytes)) << name;
    EXPECT_EQ(document->models()[0].meshes()[0].positions()[1], glm::vec3(1, 0, 0));
}

TEST(GltfImportJson, BorrowedBytesAreCopiedNotViewed) {
    const std::vector<std::byte> bytes = triangle_glb();
    Diagnostics warnings;
    auto document = gltf::read(cast::Bytes(bytes), ReadContext{.name = "triangle.glb"}, warnings);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    for (const char* name : {"vp", "vn", "u0"})
        EXPECT_FALSE(inside(mesh_property(*document, name).bytes(), bytes)) << name;
    EXPECT_EQ(document->models()[0].meshes()[0].positions()[2], glm::vec3(0, 1, 0));
}

TEST(GltfImportJson, DataUriBuffersDecode) {
    const auto* data = reinterpret_cast<const std::byte*>(kTriangle);
    const std::string uri =
        "data:application/octet-stream;base64," + formats::base64_encode({data, sizeof kTriangle});
    const std::string json = triangle_json(R"({"byteLength":96,"uri":")" + uri + "\"}");
    const auto* text = reinterpret_cast<const std::byte*>(json.data());
    Diagnostics warnings;
    auto document =
        gltf::read(cast::Bytes(text, json.size()), ReadContext{.name = "t.gltf"}, warnings);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    const cast::Mesh mesh = document->models()[0].meshes()[0];
    EXPECT_EQ(mesh.positions()[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(mesh.normals()[2], glm::vec3(0, 0, 1));
}

TEST(GltfImportJson, Base64DecodesWholeGroupsPaddingAndWhitespace) {
    auto text = [](std::optional<std::vector<std::byte>> bytes) {
        return bytes ? std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size())
                     : std::string("(refused)");
    };
    EXPECT_EQ(text(formats::base64_decode("Y2FzdGtpdCBnbFRG")), "castkit glTF");
    EXPECT_EQ(text(formats::base64_decode("Y2FzdGtpdA==")), "castkit");
    EXPECT_EQ(text(formats::base64_decode("Y2Fz\ndGtp dA")), "castkit");
    EXPECT_EQ(text(formats::base64_decode("Y2Fz*GtpdA==")), "(refused)");
    EXPECT_EQ(text(formats::base64_decode("Y2FzdGtpdA=x")), "(refused)");
}

// Each malformed file's whole error message: the file, the byte offset of the value at fault
// (in a GLB, the JSON starts at byte 20) and its JSON path.
TEST(GltfImportJson, ErrorsNameTheByteOffsetAndTheJsonPath) {
    const auto* data = reinterpret_cast<const std::byte*>(kTriangle);
    const std::vector<std::byte> bin(data, data + sizeof kTriangle);
    auto error = [&](std::string json) {
        Diagnostics warnings;
        auto document =
            gltf::read(glb(std::move(json), bin), ReadContext{.name = "bad.glb"}, warnings);
        return document ? std::string("(read)") : document.error().to_string();
    };
    auto damaged = [](std::string_view from, std::string_view to) {
        std::string json = triangle_json(R"({"byteLength":96})");
        json.replace(json.find(from), from.size(), to);
        return json;
    };
    EXPECT_EQ(error(damaged(R"("count":3,"type":"VEC2")", R"("count":-3,"type":"VEC2")")),
              "bad.glb: offset 0x199: $.accessors[2].count: expected an integer in "
              "0..9007199254740992, found -3 [gltf.parse]");
    EXPECT_EQ(error(damaged(R"("count":3,"type":"VEC2")", R"("count":30,"type":"VEC2")")),
              "bad.glb: offset 0x16c: $.accessors[2]: 30 elements of 8 bytes at offset 0 do not "
              "fit buffer view 2 (24 bytes) [gltf.import]");
    EXPECT_EQ(error(damaged(R"("type":"VEC2")", R"("type":"VEC5")")),
              "bad.glb: offset 0x1a2: $.accessors[2].type: \"VEC5\" is not an accessor type "
              "[gltf.parse]");
    EXPECT_EQ(error(damaged(R"("POSITION":0)", R"("POSITION":7)")),
              "bad.glb: offset 0x1de: $.meshes[0].primitives[0].attributes.POSITION: accessor 7 "
              "does not exist [gltf.import]");
    EXPECT_EQ(error(damaged(R"({"version":"2.0"})", R"({"version":2.0})")),
              "bad.glb: offset 0x28: $.asset.version: expected a string, found a number "
              "[gltf.parse]");
    EXPECT_EQ(error(damaged(R"("byteLength":96)", R"("byteLength":960)")),
              "bad.glb: offset 0x48: $.buffers[0].byteLength: 960 bytes declared, 96 present "
              "[gltf.parse]");
}

// A GLB of one mesh of `vertices` points at the origin on a node drawing it at `instances`
// EXT_mesh_gpu_instancing translations, instance k moved by k along x.
std::vector<std::byte> instanced_glb(std::size_t vertices, std::size_t instances) {
    std::vector<float> floats(vertices * 3, 0.0f);
    for (std::size_t k = 0; k < instances; ++k) floats.insert(floats.end(), {float(k), 0, 0});
    const auto* data = reinterpret_cast<const std::byte*>(floats.data());
    const std::size_t points = vertices * 12, moves = instances * 12;
    const std::string json = fmt::format(
        R"({{"asset":{{"version":"2.0"}},"extensionsUsed":["EXT_mesh_gpu_instancing"],)"
        R"("buffers":[{{"byteLength":{}}}],"bufferViews":[{{"buffer":0,"byteLength":{}}},)"
        R"({{"buffer":0,"byteOffset":{},"byteLength":{}}}],)"
        R"("accessors":[{{"bufferView":0,"componentType":5126,"count":{},"type":"VEC3"}},)"
        R"({{"bufferView":1,"componentType":5126,"count":{},"type":"VEC3"}}],)"
        R"("meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"mode":4}}]}}],)"
        R"("nodes":[{{"mesh":0,"extensions":{{"EXT_mesh_gpu_instancing":)"
        R"({{"attributes":{{"TRANSLATION":1}}}}}}}}],"scenes":[{{"nodes":[0]}}]}})",
        points + moves, points, points, moves, vertices, instances);
    return glb(json, {data, data + points + moves});
}

TEST(GltfImportJson, EachGpuInstanceBecomesACopyOfItsMeshWithinTheFilesBudget) {
    Diagnostics warnings;
    auto document = gltf::read(instanced_glb(3, 4), ReadContext{.name = "four.glb"}, warnings);
    ASSERT_TRUE(document.has_value()) << document.error().to_string();
    ASSERT_EQ(document->models()[0].meshes().size(), 4u);
    for (std::size_t k = 0; k < 4; ++k)
        EXPECT_EQ(document->models()[0].meshes()[k].positions()[2], glm::vec3(float(k), 0, 0));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rule, "gltf.instances-copied");
    EXPECT_NE(warnings[0].message.find("each of the 4 instances is a copy"), std::string::npos)
        << warnings[0].message;

    // 20,000 copies of 20,000 vertices from a 480 KB file: past its budget, refused, naming it
    // (read for a Cast world, the file is 20,000 Instances: map_readback_test.cpp).
    Diagnostics more;
    auto many = gltf::read(instanced_glb(20000, 20000), ReadContext{.name = "many.glb"}, more);
    ASSERT_FALSE(many.has_value());
    EXPECT_EQ(many.error().rule, "gltf.instances-budget");
    EXPECT_NE(many.error().message.find("this file allows"), std::string::npos)
        << many.error().message;
}

}  // namespace
}  // namespace castkit::test::import_json_test
