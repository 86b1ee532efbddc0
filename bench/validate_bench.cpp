// Validation throughput on a large generated document (~330 MB: one 4M-vertex skinned mesh
// with normals, UVs, colours, 4 weights per vertex and 8M triangles, plus a 64-bone skeleton and
// rotation curves), beside a memcpy of the same bytes in the same run. The document is written
// and read back, so payloads are unaligned views into one buffer, as from a mapped file.
#include <benchmark/benchmark.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

using namespace castkit::cast;

constexpr std::uint32_t kVertices = 4u << 20;
constexpr std::uint32_t kBones = 64;
constexpr std::uint32_t kCurves = 64;
constexpr std::uint32_t kKeys = 16384;

std::vector<std::byte> build_file() {
    Document document;
    Root root = document.add_root();
    Model model = root.add_model();
    model.set_name("large");
    Skeleton skeleton = model.add_skeleton();
    for (std::uint32_t b = 0; b < kBones; ++b) {
        Bone bone = skeleton.add_bone();
        bone.set_name("bone_" + std::to_string(b));
        bone.set_parent_index(static_cast<std::int32_t>(b) - 1);
        bone.set_local_rotation({0, 0, 0, 1});
    }
    Mesh mesh = model.add_mesh();
    {
        std::vector<glm::vec3> v3(kVertices);
        for (std::uint32_t i = 0; i < kVertices; ++i)
            v3[i] = glm::vec3(float(i % 1024), float(i / 1024), 0.5f);
        mesh.set_positions(v3);
        for (auto& n : v3) n = glm::vec3(0, 0, 1);
        mesh.set_normals(v3);
    }
    {
        std::vector<glm::vec2> uvs(kVertices, glm::vec2(0.25f, 0.75f));
        (void)mesh.set_uv_layer(0, uvs);  // layer 0 always fits
        std::vector<std::uint32_t> colors(kVertices, 0xFF8040FFu);
        (void)mesh.set_color_layer_packed(0, colors);  // layer 0 always fits
    }
    {
        std::vector<std::uint32_t> bones(kVertices * 4);
        std::vector<float> weights(kVertices * 4);
        for (std::uint32_t i = 0; i < kVertices * 4; ++i) {
            bones[i] = (i / 4 + i % 4) % kBones;
            weights[i] = 0.4f - 0.1f * float(i % 4);
        }
        if (!mesh.set_weights(4, bones, weights)) std::abort();
    }
    {
        std::vector<std::uint32_t> faces(std::size_t{kVertices} * 2 * 3);
        for (std::size_t t = 0; t < std::size_t{kVertices} * 2; ++t)
            for (std::size_t k = 0; k < 3; ++k)
                faces[t * 3 + k] = static_cast<std::uint32_t>((t / 2 + k + (t % 2)) % kVertices);
        mesh.set_faces(faces);
    }
    Animation animation = root.add_animation();
    animation.set_framerate(30.0f);
    std::vector<std::uint32_t> frames(kKeys);
    for (std::uint32_t k = 0; k < kKeys; ++k) frames[k] = k;
    std::vector<glm::vec4> rotations(kKeys, glm::vec4(0, 0.6f, 0, 0.8f));
    for (std::uint32_t c = 0; c < kCurves; ++c) {
        Curve curve = animation.add_curve();
        curve.set_node_name("bone_" + std::to_string(c % kBones));
        curve.set_key_property(KeyProperty::Rotation);
        curve.set_key_frames(frames);
        curve.set_quaternion_values(rotations);
        curve.set_mode(CurveMode::Absolute);
    }
    return std::move(write_to_buffer(document).value());
}

struct LargeFile {
    std::vector<std::byte> bytes = build_file();
    castkit::Diagnostics read_warnings;
    Document document = std::move(read(Bytes(bytes), "large.cast", read_warnings).value());
};

const LargeFile& large_file() {
    static const auto file = std::make_unique<LargeFile>();
    return *file;
}

void BM_ValidateLargeDocument(benchmark::State& state) {
    const LargeFile& file = large_file();
    castkit::Diagnostics first;
    validate(file.document, first);
    if (!first.empty()) state.SkipWithError("the generated document is not clean");
    for (auto _ : state) {
        castkit::Diagnostics findings;
        validate(file.document, findings);
        benchmark::DoNotOptimize(findings);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.bytes.size()));
    state.counters["file_MB"] = double(file.bytes.size()) / 1e6;
}
BENCHMARK(BM_ValidateLargeDocument)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MemcpySameBytes(benchmark::State& state) {
    const LargeFile& file = large_file();
    std::vector<std::byte> target(file.bytes.size());
    std::memset(target.data(), 1, target.size());  // fault the pages in before timing
    for (auto _ : state) {
        std::memcpy(target.data(), file.bytes.data(), file.bytes.size());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.bytes.size()));
    state.counters["file_MB"] = double(file.bytes.size()) / 1e6;
}
BENCHMARK(BM_MemcpySameBytes)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
