// Micro benchmarks of the Cast core on in-memory documents (no file system): parsing a buffer,
// parsing and touching every payload byte, and serialising to a buffer.
#include <benchmark/benchmark.h>

#include <vector>

#include "scene.hpp"

namespace {

using castkit::bench::MeshShape;

// The encoded bytes of a one-mesh skinned scene with `vertices` vertices and 2× triangles.
std::vector<std::byte> encoded_scene(std::uint32_t vertices) {
    castkit::cast::Document document;
    castkit::cast::Root root = document.add_root();
    const MeshShape mesh{.vertices = vertices, .triangles = vertices * 2, .influences = 4};
    castkit::bench::add_skinned_model(root, 64, std::span(&mesh, 1));
    castkit::bench::add_animation(root, 16, vertices / 100);
    return castkit::cast::write_to_buffer(document).value();
}

// read(): the node tree only; payloads stay views, so the cost is per node and property.
void BM_CastParseBuffer(benchmark::State& state) {
    const std::vector<std::byte> bytes = encoded_scene(static_cast<std::uint32_t>(state.range(0)));
    castkit::Diagnostics warnings;
    for (auto _ : state) {
        auto document = castkit::cast::read(castkit::cast::Bytes(bytes), "scene.cast", warnings);
        benchmark::DoNotOptimize(document.value().roots().size());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
}
BENCHMARK(BM_CastParseBuffer)->Arg(10'000)->Arg(200'000);

// read() plus a walk reading every payload byte.
void BM_CastReadAndTouch(benchmark::State& state) {
    const std::vector<std::byte> bytes = encoded_scene(static_cast<std::uint32_t>(state.range(0)));
    castkit::Diagnostics warnings;
    for (auto _ : state) {
        auto document = castkit::cast::read(castkit::cast::Bytes(bytes), "scene.cast", warnings);
        benchmark::DoNotOptimize(castkit::bench::touch_all(document.value()).checksum);
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
}
BENCHMARK(BM_CastReadAndTouch)->Arg(10'000)->Arg(200'000);

// write_to_buffer() of a document read from a buffer (payloads are views, as after open()).
void BM_CastWriteToBuffer(benchmark::State& state) {
    const std::vector<std::byte> bytes = encoded_scene(static_cast<std::uint32_t>(state.range(0)));
    castkit::Diagnostics warnings;
    const castkit::cast::Document document =
        castkit::cast::read(castkit::cast::Bytes(bytes), "scene.cast", warnings).value();
    for (auto _ : state) {
        auto written = castkit::cast::write_to_buffer(document);
        benchmark::DoNotOptimize(written.value().data());
    }
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
}
BENCHMARK(BM_CastWriteToBuffer)->Arg(10'000)->Arg(200'000);

}  // namespace
