// glTF export: a 1M-triangle skinned mesh (normals, tangents, UVs, 4 influences per vertex) on
// a 200-bone skeleton with a 300-frame animation (t and r keyed every frame on every bone),
// written as .glb, beside copying a file of the same size (std::filesystem::copy_file, and
// `cp` itself) in the same run. Reports bytes per second.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/gltf.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace {

using namespace castkit;

constexpr int kGrid = 709;  // 709 × 709 vertices: 2 × 708² = 1,002,528 triangles
constexpr int kBones = 200;
constexpr int kFrames = 300;

struct Fixture {
    cast::Document document;
    std::filesystem::path dir;
    std::uint64_t glb_size = 0;
};

Fixture& fixture() {
    static Fixture f = [] {
        Fixture out;
        out.dir = std::filesystem::temp_directory_path() / "castkit-gltf-bench";
        std::filesystem::create_directories(out.dir);
        cast::Root root = out.document.add_root();
        cast::Model model = root.add_model();
        cast::Skeleton skeleton = model.add_skeleton();
        for (int b = 0; b < kBones; ++b) {
            cast::Bone bone = skeleton.add_bone();
            bone.set_name(fmt::format("bone_{}", b));
            bone.set_parent_index(b == 0 ? -1 : (b - 1) / 2);
            bone.set_local_position({0.0f, 1.0f, 0.0f});
        }
        const std::size_t vertices = std::size_t{kGrid} * kGrid;
        std::vector<glm::vec3> positions(vertices), normals(vertices, glm::vec3(0, 0, 1)),
            tangents(vertices, glm::vec3(1, 0, 0));
        std::vector<glm::vec2> uvs(vertices);
        std::vector<std::uint32_t> bones(vertices * 4);
        std::vector<float> weights(vertices * 4);
        for (std::size_t v = 0; v < vertices; ++v) {
            const float x = static_cast<float>(v % kGrid), y = static_cast<float>(v / kGrid);
            positions[v] = {x, y, std::sin(x * 0.1f)};
            uvs[v] = {x / kGrid, y / kGrid};
            for (std::uint32_t i = 0; i < 4; ++i) {
                bones[v * 4 + i] = static_cast<std::uint32_t>((v / 64 + i * 7) % kBones);
                weights[v * 4 + i] = 0.1f * static_cast<float>(i + 1);
            }
        }
        std::vector<std::uint32_t> faces;
        faces.reserve(std::size_t{kGrid - 1} * (kGrid - 1) * 6);
        for (std::uint32_t y = 0; y + 1 < kGrid; ++y)
            for (std::uint32_t x = 0; x + 1 < kGrid; ++x) {
                const std::uint32_t a = y * kGrid + x, b = a + 1, c = a + kGrid, d = c + 1;
                faces.insert(faces.end(), {a, b, c, c, b, d});
            }
        cast::Mesh mesh = model.add_mesh();
        mesh.set_positions(positions);
        mesh.set_normals(normals);
        mesh.set_tangents(tangents);
        (void)mesh.set_uv_layer(0, uvs);  // layer 0 always fits
        mesh.set_faces(faces);
        if (!mesh.set_weights(4, bones, weights)) std::abort();

        cast::Animation animation = root.add_animation();
        animation.set_framerate(30.0f);
        std::vector<std::uint32_t> frames(kFrames);
        for (int f = 0; f < kFrames; ++f)
            frames[static_cast<std::size_t>(f)] = static_cast<std::uint32_t>(f);
        for (int b = 0; b < kBones; ++b) {
            std::vector<glm::vec4> rotations(kFrames);
            std::vector<float> translations(kFrames);
            for (int f = 0; f < kFrames; ++f) {
                const float angle = 0.01f * static_cast<float>(f + b);
                rotations[static_cast<std::size_t>(f)] = {std::sin(angle), 0.0f, 0.0f,
                                                          std::cos(angle)};
                translations[static_cast<std::size_t>(f)] = 0.001f * static_cast<float>(f);
            }
            cast::Curve rotation = animation.add_curve();
            rotation.set_node_name(fmt::format("bone_{}", b));
            rotation.set_key_property(cast::KeyProperty::Rotation);
            rotation.set_key_frames(frames);
            rotation.set_quaternion_values(rotations);
            rotation.set_mode(cast::CurveMode::Absolute);
            using enum cast::KeyProperty;
            for (cast::KeyProperty kp : {TranslationX, TranslationY, TranslationZ}) {
                cast::Curve curve = animation.add_curve();
                curve.set_node_name(fmt::format("bone_{}", b));
                curve.set_key_property(kp);
                curve.set_key_frames(frames);
                curve.set_float_values(translations);
                curve.set_mode(cast::CurveMode::Absolute);
            }
        }
        Diagnostics warnings;
        (void)gltf::write(out.document, out.dir / "hero.glb", {}, warnings);
        out.glb_size = std::filesystem::file_size(out.dir / "hero.glb");
        return out;
    }();
    return f;
}

void BM_GltfExportGlb(benchmark::State& state) {
    Fixture& f = fixture();
    for (auto _ : state) {
        Diagnostics warnings;
        auto written = gltf::write(f.document, f.dir / "export.glb", {}, warnings);
        if (!written) state.SkipWithError(written.error().to_string().c_str());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.glb_size));
    state.counters["bytes"] = static_cast<double>(f.glb_size);
}
BENCHMARK(BM_GltfExportGlb)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same number of bytes written by copying the exported file.
void BM_CopyFileSameBytes(benchmark::State& state) {
    Fixture& f = fixture();
    for (auto _ : state)
        std::filesystem::copy_file(f.dir / "hero.glb", f.dir / "copy.glb",
                                   std::filesystem::copy_options::overwrite_existing);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.glb_size));
}
BENCHMARK(BM_CopyFileSameBytes)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CpSameBytes(benchmark::State& state) {
    Fixture& f = fixture();
    const std::string command =
        fmt::format("cp '{}' '{}'", (f.dir / "hero.glb").string(), (f.dir / "cp.glb").string());
    for (auto _ : state)
        if (std::system(command.c_str()) != 0) state.SkipWithError("cp failed");
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.glb_size));
}
BENCHMARK(BM_CpSameBytes)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
