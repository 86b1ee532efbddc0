// castkit_make_map: writes a synthetic world map (map.hpp) for the map benchmark and tests.
//   castkit_make_map OUT_DIR [--instances N] [--models M] [--seed S] [--texture-size PX]
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "map.hpp"

int main(int argc, char** argv) {
    CLI::App app{"Write a synthetic world map: OUT_DIR/map.cast and OUT_DIR/models/",
                 "castkit_make_map"};
    std::string folder;
    castkit::bench::MapShape shape;
    app.add_option("folder", folder, "Folder to write the map into")->required();
    app.add_option("--instances", shape.instances, "Instances in map.cast")
        ->check(CLI::Range(0u, 10'000'000u));
    app.add_option("--models", shape.models, "Model files the instances name")
        ->check(CLI::Range(1u, 10'000u));
    app.add_option("--min-triangles", shape.min_triangles, "Triangles of the smallest model")
        ->check(CLI::Range(62u, 10'000'000u));
    app.add_option("--max-triangles", shape.max_triangles, "Triangles of the largest model")
        ->check(CLI::Range(62u, 10'000'000u));
    app.add_option("--texture-size", shape.texture_size, "Side of each texture in pixels")
        ->check(CLI::Range(1u, 8192u));
    app.add_option("--seed", shape.seed, "Seed of the instances' places");
    CLI11_PARSE(app, argc, argv);
    if (shape.max_triangles < shape.min_triangles) shape.max_triangles = shape.min_triangles;
    if (auto written = castkit::bench::write_map(folder, shape); !written) {
        fmt::print(stderr, "{}\n", written.error().to_string());
        return 1;
    }
    fmt::print("{}/map.cast: {} instances of {} models\n", folder, shape.instances, shape.models);
    return 0;
}
