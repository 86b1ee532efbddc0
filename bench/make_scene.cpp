// castkit_make_scene: writes the synthetic scenes the benchmarks read (scene.hpp).
//   castkit_make_scene OUT.cast [--megabytes N]   a scene of about N × 10^6 bytes
//   castkit_make_scene OUT.cast --reference       the 42 MB shape cast.py was timed on
//   castkit_make_scene OUT.cast --dmf-triangles N one DMF-shaped model of N triangles
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "scene.hpp"

int main(int argc, char** argv) {
    CLI::App app{"Write a synthetic Cast scene for the benchmarks", "castkit_make_scene"};
    std::string output;
    std::uint64_t megabytes = 1074;  // 1 GiB
    bool reference = false;
    std::uint32_t dmf_triangles = 0;
    app.add_option("output", output, "Cast file to write")->required();
    app.add_option("--megabytes", megabytes, "Approximate size in 10^6 bytes")
        ->check(CLI::Range(1, 100000));
    app.add_flag("--reference", reference, "The 42 MB file cast.py was timed on (see README.md)");
    app.add_option(
           "--dmf-triangles", dmf_triangles,
           "One mesh of this many triangles, a skeleton and an animation: the shape DMF holds")
        ->check(CLI::Range(1u, 100'000'000u));
    CLI11_PARSE(app, argc, argv);

    castkit::cast::Document document = reference ? castkit::bench::make_reference_scene()
                                       : dmf_triangles > 0
                                           ? castkit::bench::make_dmf_scene(dmf_triangles)
                                           : castkit::bench::make_scene(megabytes);
    if (auto ok = castkit::cast::write(document, output); !ok) {
        fmt::print(stderr, "{}\n", ok.error().to_string());
        return 1;
    }
    fmt::print("{}: {} bytes\n", output, castkit::cast::file_size(document));
    return 0;
}
