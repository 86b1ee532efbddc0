// DMF and K3D throughput on synthetic models: native read and write, JSON, and conversion to
// Cast. Sizes are per iteration; Google Benchmark reports bytes per second.
#include <benchmark/benchmark.h>

#include <castkit/formats/dmf.hpp>
#include <castkit/formats/k3d.hpp>

namespace {

using namespace castkit;

// A grid of n × n quads: (n+1)² vertices, 2n² triangles, two bones, one animation of 60 frames.
dmf::Model dmf_grid(int n) {
    dmf::Model model;
    model.materials.emplace_back().name = "grid";
    model.bones.emplace_back().name = "root";
    dmf::Bone& tip = model.bones.emplace_back();
    tip.name = "tip";
    tip.id = 1;
    tip.parent = 0;
    for (int y = 0; y <= n; ++y)
        for (int x = 0; x <= n; ++x)
            model.vertices.push_back(
                {glm::vec3(x, y, 0), {0, 1, -1, -1}, glm::vec4(0.5f, 0.5f, 0, 0)});
    auto at = [n](int x, int y) { return static_cast<std::uint32_t>(y * (n + 1) + x); };
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            glm::vec2 uv(float(x) / float(n), float(y) / float(n));
            dmf::Face f;
            f.colors = {glm::u8vec4(255), glm::u8vec4(255), glm::u8vec4(255)};
            f.normals = {glm::vec3(0, 0, 1), glm::vec3(0, 0, 1), glm::vec3(0, 0, 1)};
            f.indices = {at(x, y), at(x + 1, y), at(x + 1, y + 1)};
            f.uvs = {uv, uv, uv};
            model.faces.push_back(f);
            f.indices = {at(x, y), at(x + 1, y + 1), at(x, y + 1)};
            model.faces.push_back(f);
        }
    dmf::Animation anim;
    anim.name = "bend";
    for (int frame = 0; frame < 60; ++frame) {
        dmf::Track& track = anim.tracks.emplace_back();
        track.bone = 1;
        track.flags = dmf::kRotation;
        track.time = float(frame) / 30.0f;
        track.rotation = glm::vec4(0, 0, 0, 1);
    }
    model.animations.push_back(anim);
    return model;
}

k3d::Model k3d_grid(int n) {
    k3d::Model model;
    k3d::Submesh mesh;
    mesh.type = k3d::MeshType::Skinned;
    for (int y = 0; y <= n; ++y)
        for (int x = 0; x <= n; ++x) {
            k3d::Vertex& v = mesh.vertices.emplace_back();
            v.position = glm::vec3(x, y, 0);
            v.weights = glm::vec4(1, 0, 0, 0);
        }
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            auto at = [n](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
            for (std::uint32_t i : {at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y),
                                    at(x + 1, y + 1), at(x, y + 1)})
                mesh.indices.push_back(i);
        }
    model.submeshes.push_back(std::move(mesh));
    model.nodes.emplace_back().name_id = model.add_string("root");
    model.bones.emplace_back().name_id = model.add_string("root");
    return model;
}

void BM_K3dRead(benchmark::State& state) {
    auto bytes = *k3d::write_to_buffer(k3d_grid(static_cast<int>(state.range(0))));
    for (auto _ : state) {
        Diagnostics warnings;
        benchmark::DoNotOptimize(k3d::read(bytes, "bench.k3d", warnings));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_K3dRead)->Arg(300);

void BM_K3dWrite(benchmark::State& state) {
    k3d::Model model = k3d_grid(static_cast<int>(state.range(0)));
    std::size_t size = 0;
    for (auto _ : state) {
        auto bytes = k3d::write_to_buffer(model);
        size = bytes->size();
        benchmark::DoNotOptimize(bytes);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}
BENCHMARK(BM_K3dWrite)->Arg(300);

void BM_DmfRead(benchmark::State& state) {
    auto bytes = *dmf::write_to_buffer(dmf_grid(static_cast<int>(state.range(0))));
    for (auto _ : state) {
        Diagnostics warnings;
        benchmark::DoNotOptimize(dmf::read(bytes, "bench.dmf", warnings));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_DmfRead)->Arg(300);

void BM_DmfJsonRead(benchmark::State& state) {
    std::string text = *dmf::write_json_text(dmf_grid(static_cast<int>(state.range(0))));
    for (auto _ : state) {
        Diagnostics warnings;
        benchmark::DoNotOptimize(dmf::read_json(text, "bench.dmf.json", warnings));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_DmfJsonRead)->Arg(300);

void BM_DmfJsonWrite(benchmark::State& state) {
    dmf::Model model = dmf_grid(static_cast<int>(state.range(0)));
    std::size_t size = 0;
    for (auto _ : state) {
        auto text = dmf::write_json_text(model);
        size = text->size();
        benchmark::DoNotOptimize(text);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}
BENCHMARK(BM_DmfJsonWrite)->Arg(300);

void BM_DmfToCast(benchmark::State& state) {
    dmf::Model model = dmf_grid(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        Diagnostics warnings;
        benchmark::DoNotOptimize(dmf::to_cast(model, "bench.dmf", warnings));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * model.faces.size()));
}
BENCHMARK(BM_DmfToCast)->Arg(300);

}  // namespace
