// SEAnim → Cast and SEModel → Cast throughput, in bytes of input per second, beside memcpy of
// the same number of bytes in the same binary. The inputs are large generated files, read
// memory-mapped from the page cache (the first iteration warms it).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <castkit/formats/seanim.hpp>
#include <castkit/formats/semodel.hpp>
#include <cstring>
#include <filesystem>
#include <vector>

namespace {

using namespace castkit;

std::filesystem::path bench_dir() {
    auto dir = std::filesystem::temp_directory_path() / "castkit-bench-seformats";
    std::filesystem::create_directories(dir);
    return dir;
}

// 256 bones × 5,000 frames of translation, rotation and scale keys: ~59 MB with u16 frame_t.
const std::filesystem::path& seanim_file() {
    static const std::filesystem::path path = [] {
        seanim::Animation a;
        a.header.type = static_cast<std::uint8_t>(seanim::AnimType::Relative);
        for (int b = 0; b < 256; ++b) {
            seanim::Bone& bone = a.bones.emplace_back();
            bone.name = fmt::format("bone_{}", b);
            for (std::uint32_t f = 0; f < 5000; ++f) {
                const float t = static_cast<float>(f) * 0.01f + static_cast<float>(b);
                bone.locations.push_back({f, {t, -t, 0.5f * t}});
                bone.rotations.push_back({f, {0.0f, 0.6f, 0.0f, 0.8f}});
                bone.scales.push_back({f, {1.0f, 1.0f + t * 1e-3f, 1.0f}});
            }
        }
        seanim::canonicalize(a);
        auto out = bench_dir() / "large.seanim";
        if (!seanim::write(a, out)) std::abort();
        return out;
    }();
    return path;
}

// 4 meshes × 500,000 vertices with every stream and 4 influences: ~256 MB.
const std::filesystem::path& semodel_file() {
    static const std::filesystem::path path = [] {
        semodel::Model m;
        m.header.bone_presence = semodel::kLocalMatrices | semodel::kGlobalMatrices;
        m.header.mesh_presence =
            semodel::kUVs | semodel::kNormals | semodel::kColors | semodel::kWeights;
        for (int b = 0; b < 300; ++b) m.bones.push_back({fmt::format("b{}", b), 0, b - 1});
        for (int k = 0; k < 4; ++k) {
            semodel::Mesh& mesh = m.meshes.emplace_back();
            mesh.uv_layer_count = 1;
            mesh.max_influence = 4;
            const std::uint32_t vertices = 500000;
            for (std::uint32_t v = 0; v < vertices; ++v) {
                const float x = static_cast<float>(v);
                mesh.positions.push_back({x, x * 0.5f, 1.0f});
                mesh.uvs.push_back({x * 1e-6f, 0.5f});
                mesh.normals.push_back({0.0f, 0.0f, 1.0f});
                mesh.colors.push_back({255, 128, 0, 255});
                for (std::uint32_t i = 0; i < 4; ++i)
                    mesh.weights.push_back({(v + i) % 300, 0.25f});
            }
            for (std::uint32_t f = 0; f + 2 < vertices; ++f)
                mesh.faces.insert(mesh.faces.end(), {f, f + 1, f + 2});
            mesh.material_indices = {0};
        }
        m.materials.push_back({"mat", 1, "c.png", "n.png", "s.png"});
        semodel::canonicalize(m);
        auto out = bench_dir() / "large.semodel";
        if (!semodel::write(m, out)) std::abort();
        return out;
    }();
    return path;
}

void memcpy_of(benchmark::State& state, std::size_t size) {
    std::vector<char> from(size, 1), to(size);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), size);
        benchmark::DoNotOptimize(to.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

void BM_MemcpySEAnimSize(benchmark::State& state) {
    memcpy_of(state, std::filesystem::file_size(seanim_file()));
}
void BM_MemcpySEModelSize(benchmark::State& state) {
    memcpy_of(state, std::filesystem::file_size(semodel_file()));
}

void BM_SEAnimToCast(benchmark::State& state) {
    const auto& path = seanim_file();
    for (auto _ : state) {
        Diagnostics warnings;
        auto animation = seanim::open(path, warnings);
        if (!animation) state.SkipWithError("read failed");
        cast::Document document = seanim::to_cast(*animation, warnings).value();
        benchmark::DoNotOptimize(document);
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
}

void BM_SEModelToCast(benchmark::State& state) {
    const auto& path = semodel_file();
    for (auto _ : state) {
        Diagnostics warnings;
        auto model = semodel::open(path, warnings);
        if (!model) state.SkipWithError("read failed");
        cast::Document document = semodel::to_cast(std::move(*model), warnings).value();
        benchmark::DoNotOptimize(document);
    }
    state.SetBytesProcessed(
        static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
}

BENCHMARK(BM_MemcpySEAnimSize)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SEAnimToCast)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemcpySEModelSize)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SEModelToCast)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
