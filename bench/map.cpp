#include "map.hpp"

#include <fmt/format.h>
#include <stb_image_write.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <cmath>
#include <fstream>
#include <random>
#include <vector>

namespace castkit::bench {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kColumns = 32;  // grid vertices along a model's width

// A rock-like grid of about `triangles` triangles (kColumns wide), lifted by a few waves so that
// its normals vary: positions, normals, UVs and faces for one Mesh.
void add_grid_mesh(cast::Mesh mesh, std::uint32_t triangles, std::uint32_t index) {
    const std::uint32_t rows = std::max<std::uint32_t>(2, triangles / (2 * (kColumns - 1)) + 1);
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::vec2> uvs;
    const float size = 200.0f + 20.0f * static_cast<float>(index % 10);  // centimetres
    for (std::uint32_t r = 0; r < rows; ++r)
        for (std::uint32_t c = 0; c < kColumns; ++c) {
            const float u = static_cast<float>(c) / (kColumns - 1);
            const float v = static_cast<float>(r) / static_cast<float>(rows - 1);
            const float height =
                30.0f * std::sin(6.0f * u + static_cast<float>(index)) * std::cos(4.0f * v);
            positions.push_back({(u - 0.5f) * size, (v - 0.5f) * size, height});
            normals.push_back(
                glm::normalize(glm::vec3(-std::cos(6.0f * u), std::sin(4.0f * v), 4.0f)));
            uvs.push_back({u, v});
        }
    std::vector<std::uint32_t> faces;
    for (std::uint32_t r = 0; r + 1 < rows; ++r)
        for (std::uint32_t c = 0; c + 1 < kColumns; ++c) {
            const std::uint32_t a = r * kColumns + c, b = a + 1, d = a + kColumns, e = d + 1;
            faces.insert(faces.end(), {a, b, e, a, e, d});
        }
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    (void)mesh.set_uv_layer(0, uvs);
    mesh.set_faces(faces);
}

// A square RGBA texture of a tint per model with a little noise, as PNG.
Expected<void> write_texture(const fs::path& path, std::uint32_t size, std::uint32_t index) {
    std::minstd_rand noise(index + 1);
    std::vector<std::uint8_t> rgba(std::size_t{size} * size * 4);
    for (std::size_t p = 0; p < std::size_t{size} * size; ++p) {
        const auto grain = static_cast<std::uint8_t>(noise() % 48);
        rgba[p * 4 + 0] = static_cast<std::uint8_t>(80 + (index * 37) % 128 + grain);
        rgba[p * 4 + 1] = static_cast<std::uint8_t>(80 + (index * 71) % 128 + grain);
        rgba[p * 4 + 2] = static_cast<std::uint8_t>(60 + (index * 13) % 128 + grain);
        rgba[p * 4 + 3] = 255;
    }
    const int side = static_cast<int>(size);
    if (!stbi_write_png(path.string().c_str(), side, side, 4, rgba.data(), side * 4))
        return make_error(Diagnostic{.severity = Severity::Error,
                                     .file = path.string(),
                                     .path = "",
                                     .rule = "bench.map",
                                     .message = "could not write the texture"});
    return {};
}

Expected<void> write_model(const fs::path& folder, const MapShape& shape, std::uint32_t index) {
    const std::string name = model_name(index);
    const std::uint32_t span = shape.max_triangles - shape.min_triangles;
    const std::uint32_t triangles = shape.models < 2
                                        ? shape.min_triangles
                                        : shape.min_triangles + span * index / (shape.models - 1);
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    model.set_name(name);
    cast::Material material = model.add_material();
    material.set_name(name);
    material.set_type("pbr");
    material.set_slot("albedo", material.add_file(name + ".png"));
    cast::Mesh mesh = model.add_mesh();
    mesh.set_name(name);
    add_grid_mesh(mesh, triangles, index);
    mesh.set_material(material);
    if (auto written = cast::write(document, folder / (name + ".cast")); !written) return written;
    return write_texture(folder / (name + ".png"), shape.texture_size, index);
}

}  // namespace

std::string model_name(std::uint32_t index) { return fmt::format("model_{:02}", index); }

Expected<void> write_map(const fs::path& folder, const MapShape& shape) {
    std::error_code error;
    fs::create_directories(folder / "models", error);
    for (std::uint32_t m = 0; m < shape.models; ++m)
        if (auto written = write_model(folder / "models", shape, m); !written) return written;
    cast::Document world;
    cast::Root root = world.add_root();
    cast::Metadata metadata = root.add_metadata();
    metadata.set_author("castkit bench");
    metadata.set_software("castkit_make_map");
    metadata.set_up_axis(cast::Axis::Z);
    metadata.set_scene_root(".");
    std::mt19937 random(shape.seed);
    std::uniform_real_distribution<float> across(-50000.0f, 50000.0f), up(0.0f, 500.0f),
        turn(0.0f, 6.2831853f), grow(0.5f, 2.0f);
    std::uniform_int_distribution<std::uint32_t> which(0, std::max(shape.models, 1u) - 1);
    for (std::uint32_t i = 0; i < shape.instances; ++i) {
        const std::uint32_t model = which(random);
        cast::Instance instance = root.add_instance();
        instance.set_name(model_name(model));
        const float x = across(random), y = across(random), z = up(random);
        instance.set_position({x, y, z});
        const float yaw = turn(random);
        instance.set_rotation({0.0f, 0.0f, std::sin(yaw / 2), std::cos(yaw / 2)});
        const float scale = grow(random);
        instance.set_scale({scale, scale, scale});
        instance.set_reference_file(
            instance.add_file(fmt::format("models/{}.cast", model_name(model))));
    }
    return cast::write(world, folder / "map.cast");
}

}  // namespace castkit::bench
