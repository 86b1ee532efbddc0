// Draco (KHR_draco_mesh_compression) and meshopt (EXT_meshopt_compression) files, encoded here
// with the libraries' own encoders from a plain mesh, import to the same triangles.
#include <castkit/formats/gltf.hpp>
#include <fstream>

#include "gltf_scene.hpp"

#ifdef CASTKIT_TEST_DRACO
#include <draco/compression/encode.h>
#include <draco/mesh/triangle_soup_mesh_builder.h>
#endif
#ifdef CASTKIT_TEST_MESHOPT
#include <meshoptimizer.h>
#endif

namespace castkit::test::compression_test {
namespace {

// Builds without either encoder (the Windows cross-build has neither library) have no test here.
#if defined(CASTKIT_TEST_DRACO) || defined(CASTKIT_TEST_MESHOPT)
// A small closed-enough mesh: a 4×4 grid of quads on a bumpy surface.
struct PlainMesh {
    std::vector<glm::vec3> positions;
    std::vector<std::uint32_t> indices;
    PlainMesh() {
        for (int y = 0; y <= 4; ++y)
            for (int x = 0; x <= 4; ++x)
                positions.emplace_back(x * 0.25f, y * 0.25f,
                                       0.125f * static_cast<float>((x * y) % 3));
        for (std::uint32_t y = 0; y < 4; ++y)
            for (std::uint32_t x = 0; x < 4; ++x) {
                const std::uint32_t a = y * 5 + x;
                indices.insert(indices.end(), {a, a + 1, a + 6, a, a + 6, a + 5});
            }
    }
};

// Each triangle as its three corners, rotated so the smallest corner comes first (winding
// kept), sorted: equal for the same triangles in any vertex or face order.
std::vector<std::array<float, 9>> triangle_set(const std::vector<glm::vec3>& positions,
                                               const std::vector<std::uint32_t>& indices) {
    std::vector<std::array<float, 9>> out;
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
        std::array<glm::vec3, 3> corners{positions[indices[t]], positions[indices[t + 1]],
                                         positions[indices[t + 2]]};
        auto less = [](const glm::vec3& a, const glm::vec3& b) {
            return std::tie(a.x, a.y, a.z) < std::tie(b.x, b.y, b.z);
        };
        while (less(corners[1], corners[0]) || less(corners[2], corners[0]))
            std::rotate(corners.begin(), corners.begin() + 1, corners.end());
        out.push_back({corners[0].x, corners[0].y, corners[0].z, corners[1].x, corners[1].y,
                       corners[1].z, corners[2].x, corners[2].y, corners[2].z});
    }
    std::sort(out.begin(), out.end());
    return out;
}

void write_glb(const std::filesystem::path& path, const nlohmann::json& json,
               const std::vector<std::uint8_t>& bin) {
    std::string text = json.dump();
    while (text.size() % 4) text += ' ';
    std::vector<std::uint8_t> data(bin);
    while (data.size() % 4) data.push_back(0);
    std::ofstream out(path, std::ios::binary);
    auto u32 = [&](std::uint32_t v) { out.write(reinterpret_cast<const char*>(&v), 4); };
    u32(0x46546C67u);
    u32(2);
    u32(static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + data.size()));
    u32(static_cast<std::uint32_t>(text.size()));
    u32(0x4E4F534Au);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    u32(static_cast<std::uint32_t>(data.size()));
    u32(0x004E4942u);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
}

void expect_same_triangles(const std::filesystem::path& file, const PlainMesh& plain) {
    Diagnostics warnings;
    auto read = gltf::open(file, warnings);
    ASSERT_TRUE(read.has_value()) << read.error().to_string();
    cast::Mesh mesh = read->models()[0].meshes()[0];
    std::vector<glm::vec3> positions(mesh.vertex_count());
    for (std::size_t v = 0; v < positions.size(); ++v) positions[v] = mesh.positions()[v];
    EXPECT_EQ(triangle_set(positions, mesh.faces().to_vector()),
              triangle_set(plain.positions, plain.indices));
}
#endif

#ifdef CASTKIT_TEST_DRACO
TEST(GltfCompression, DracoMeshImports) {
    const PlainMesh plain;
    draco::TriangleSoupMeshBuilder builder;
    const int faces = static_cast<int>(plain.indices.size() / 3);
    builder.Start(faces);
    const int position =
        builder.AddAttribute(draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32);
    for (int f = 0; f < faces; ++f)
        builder.SetAttributeValuesForFace(
            position, draco::FaceIndex(static_cast<std::uint32_t>(f)),
            &plain.positions[plain.indices[static_cast<std::size_t>(f) * 3]],
            &plain.positions[plain.indices[static_cast<std::size_t>(f) * 3 + 1]],
            &plain.positions[plain.indices[static_cast<std::size_t>(f) * 3 + 2]]);
    std::unique_ptr<draco::Mesh> mesh = builder.Finalize();
    ASSERT_NE(mesh, nullptr);
    draco::Encoder encoder;
    encoder.SetEncodingMethod(draco::MESH_SEQUENTIAL_ENCODING);
    draco::EncoderBuffer encoded;
    ASSERT_TRUE(encoder.EncodeMeshToBuffer(*mesh, &encoded).ok());
    const std::vector<std::uint8_t> bin(encoded.data(), encoded.data() + encoded.size());

    nlohmann::json json;
    json["asset"] = {{"version", "2.0"}};
    json["extensionsUsed"] = {"KHR_draco_mesh_compression"};
    json["extensionsRequired"] = {"KHR_draco_mesh_compression"};
    json["buffers"] = {{{"byteLength", bin.size()}}};
    json["bufferViews"] = {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", bin.size()}}};
    json["accessors"] = {{{"componentType", 5126},
                          {"count", mesh->num_points()},
                          {"type", "VEC3"},
                          {"min", {0, 0, 0}},
                          {"max", {1, 1, 0.25}}},
                         {{"componentType", 5125}, {"count", faces * 3}, {"type", "SCALAR"}}};
    json["meshes"] = {
        {{"primitives",
          {{{"attributes", {{"POSITION", 0}}},
            {"indices", 1},
            {"extensions",
             {{"KHR_draco_mesh_compression",
               {{"bufferView", 0},
                {"attributes", {{"POSITION", mesh->attribute(position)->unique_id()}}}}}}}}}}}};
    json["nodes"] = {{{"mesh", 0}}};
    json["scenes"] = {{{"nodes", {0}}}};
    const std::filesystem::path dir = temp_dir("gltf-draco");
    write_glb(dir / "draco.glb", json, bin);
    expect_same_triangles(dir / "draco.glb", plain);
}
#endif

#ifdef CASTKIT_TEST_MESHOPT
TEST(GltfCompression, MeshoptMeshImports) {
    const PlainMesh plain;
    const std::size_t n = plain.positions.size(), m = plain.indices.size();
    std::vector<std::uint8_t> vertices(meshopt_encodeVertexBufferBound(n, 12));
    vertices.resize(meshopt_encodeVertexBuffer(vertices.data(), vertices.size(),
                                               plain.positions.data(), n, 12));
    std::vector<std::uint8_t> indices(meshopt_encodeIndexBufferBound(m, n));
    indices.resize(
        meshopt_encodeIndexBuffer(indices.data(), indices.size(), plain.indices.data(), m));
    std::vector<std::uint8_t> bin = vertices;
    while (bin.size() % 4) bin.push_back(0);
    const std::size_t index_offset = bin.size();
    bin.insert(bin.end(), indices.begin(), indices.end());

    nlohmann::json json;
    json["asset"] = {{"version", "2.0"}};
    json["extensionsUsed"] = {"EXT_meshopt_compression"};
    json["extensionsRequired"] = {"EXT_meshopt_compression"};
    json["buffers"] = {{{"byteLength", bin.size()}},
                       {{"byteLength", n * 12 + m * 4},
                        {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}}};
    json["bufferViews"] = {{{"buffer", 1},
                            {"byteOffset", 0},
                            {"byteLength", n * 12},
                            {"byteStride", 12},
                            {"extensions",
                             {{"EXT_meshopt_compression",
                               {{"buffer", 0},
                                {"byteOffset", 0},
                                {"byteLength", vertices.size()},
                                {"byteStride", 12},
                                {"count", n},
                                {"mode", "ATTRIBUTES"}}}}}},
                           {{"buffer", 1},
                            {"byteOffset", n * 12},
                            {"byteLength", m * 4},
                            {"extensions",
                             {{"EXT_meshopt_compression",
                               {{"buffer", 0},
                                {"byteOffset", index_offset},
                                {"byteLength", indices.size()},
                                {"byteStride", 4},
                                {"count", m},
                                {"mode", "TRIANGLES"}}}}}}};
    json["accessors"] = {
        {{"bufferView", 0},
         {"componentType", 5126},
         {"count", n},
         {"type", "VEC3"},
         {"min", {0, 0, 0}},
         {"max", {1, 1, 0.25}}},
        {{"bufferView", 1}, {"componentType", 5125}, {"count", m}, {"type", "SCALAR"}}};
    json["meshes"] = {{{"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}}}}}};
    json["nodes"] = {{{"mesh", 0}}};
    json["scenes"] = {{{"nodes", {0}}}};
    const std::filesystem::path dir = temp_dir("gltf-meshopt");
    write_glb(dir / "meshopt.glb", json, bin);
    expect_same_triangles(dir / "meshopt.glb", plain);

    // A .gltf holding the same: the fallback buffer without a uri no longer stops the read.
    json["buffers"][0]["uri"] = "meshopt.bin";
    std::ofstream(dir / "meshopt.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(bin.data()), static_cast<std::streamsize>(bin.size()));
    std::ofstream(dir / "meshopt.gltf") << json.dump();
    expect_same_triangles(dir / "meshopt.gltf", plain);
}
#endif

}  // namespace
}  // namespace castkit::test::compression_test
