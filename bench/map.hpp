// Synthetic world maps for the map benchmarks and tests, written the way the rippers' shared
// writer writes a game's map: one world file of Instances beside a folder of model files, each
// model with a texture beside it.
#pragma once

#include <castkit/expected.hpp>
#include <cstdint>
#include <filesystem>
#include <string>

namespace castkit::bench {

struct MapShape {
    std::uint32_t instances = 10000;
    std::uint32_t models = 50;
    // Triangles of the smallest and the largest model; the others are spread evenly between.
    std::uint32_t min_triangles = 2000;
    std::uint32_t max_triangles = 20000;
    // Side of each model's square texture, in pixels.
    std::uint32_t texture_size = 128;
    std::uint32_t seed = 1;
};

// Writes into `folder`: map.cast (a Root with Metadata up "z", scene root "." and the author and
// software; one Instance per `shape.instances`, named after its model, at a random place on a
// 1 km square in centimetres, turned about Z, scaled uniformly, its File naming
// "models/model_NN.cast"), and models/model_NN.cast with models/model_NN.png (one unskinned Model
// of one textured Mesh whose diffuse File names the PNG beside it).
// O(instances + model triangles + texture pixels).
Expected<void> write_map(const std::filesystem::path& folder, const MapShape& shape);

// The file name of model `index` ("model_07"), as the map's Instances name it.
std::string model_name(std::uint32_t index);

}  // namespace castkit::bench
