#include "scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace castkit::bench {
namespace {

// Vertices lie on a wavy grid this many columns wide.
constexpr std::uint32_t kGridWidth = 1000;

void add_skeleton(cast::Model& model, std::uint32_t bones) {
    cast::Skeleton skeleton = model.add_skeleton();
    for (std::uint32_t i = 0; i < bones; ++i) {
        cast::Bone bone = skeleton.add_bone();
        bone.set_name(fmt::format("bone_{}", i));
        bone.set_parent_index(i == 0 ? -1 : static_cast<std::int32_t>((i - 1) / 2));
        bone.set_local_position({0.0f, 1.0f, 0.0f});
        bone.set_local_rotation({0.0f, 0.0f, 0.0f, 1.0f});
        bone.set_world_position({0.0f, float(i), 0.0f});
        bone.set_world_rotation({0.0f, 0.0f, 0.0f, 1.0f});
        bone.set_scale({1.0f, 1.0f, 1.0f});
    }
}

void add_mesh(cast::Model& model, std::uint32_t index, std::uint32_t bones,
              const MeshShape& shape) {
    const std::uint32_t n = shape.vertices;
    std::vector<glm::vec3> positions(n), normals(n);
    std::vector<glm::vec2> uvs(n);
    std::vector<std::uint32_t> colors(n);
    for (std::uint32_t v = 0; v < n; ++v) {
        const float x = float(v % kGridWidth), z = float(v / kGridWidth);
        const float y = std::sin(x * 0.05f) * std::cos(z * 0.05f);
        positions[v] = {x * 0.01f, y, z * 0.01f};
        normals[v] = glm::normalize(glm::vec3(-0.05f * y, 1.0f, 0.05f * y));
        uvs[v] = {x / kGridWidth, z / float(n / kGridWidth + 1)};
        colors[v] = 0xFF000000u | (v & 0xFFFFFFu);
    }
    cast::Mesh mesh = model.add_mesh();
    mesh.set_name(fmt::format("mesh_{}", index));
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    (void)mesh.set_uv_layer(0, uvs);               // layer 0 always fits
    (void)mesh.set_color_layer_packed(0, colors);  // layer 0 always fits
    std::vector<glm::vec3>().swap(positions);
    std::vector<glm::vec3>().swap(normals);
    std::vector<glm::vec2>().swap(uvs);
    std::vector<std::uint32_t>().swap(colors);

    const std::size_t weights = std::size_t{n} * shape.influences;
    std::vector<std::uint32_t> weight_bones(weights);
    std::vector<float> weight_values(weights, 1.0f / float(shape.influences));
    for (std::size_t w = 0; w < weights; ++w)
        weight_bones[w] =
            static_cast<std::uint32_t>((w / shape.influences * 7 + w % shape.influences) % bones);
    if (!mesh.set_weights(shape.influences, weight_bones, weight_values)) std::abort();
    std::vector<std::uint32_t>().swap(weight_bones);
    std::vector<float>().swap(weight_values);

    // Two triangles per grid quad, CCW; quads repeat when more triangles than quads are asked.
    const std::uint32_t rows = n / kGridWidth;
    const std::uint64_t quads = std::uint64_t{kGridWidth - 1} * (rows - 1);
    std::vector<std::uint32_t> faces(std::size_t{shape.triangles} * 3);
    for (std::uint64_t t = 0; t < shape.triangles; ++t) {
        const std::uint64_t q = (t / 2) % quads;
        const auto a =
            static_cast<std::uint32_t>(q / (kGridWidth - 1) * kGridWidth + q % (kGridWidth - 1));
        std::uint32_t* tri = &faces[t * 3];
        if (t % 2 == 0) {
            tri[0] = a, tri[1] = a + kGridWidth, tri[2] = a + 1;
        } else {
            tri[0] = a + 1, tri[1] = a + kGridWidth, tri[2] = a + kGridWidth + 1;
        }
    }
    mesh.set_faces(faces);
}

// Bytes per key of the four curves of one bone: kb in each, plus a v4 and three floats.
std::uint64_t key_bytes(std::uint32_t frames) {
    const std::uint64_t frame_size = frames > 0xFFFF ? 4 : 2;
    return 4 * frame_size + 16 + 3 * 4;
}

void touch_node(const cast::Node& node, Touched& touched) {
    ++touched.nodes;
    for (const cast::Property& property : node.properties) {
        ++touched.properties;
        const cast::Bytes bytes = property.bytes();
        touched.payload_bytes += bytes.size();
        // Four independent sums keep the loads, not the adds, the limit.
        std::uint64_t sums[4] = {};
        std::size_t i = 0;
        for (; i + 32 <= bytes.size(); i += 32)
            for (std::size_t lane = 0; lane < 4; ++lane)
                sums[lane] += cast::load<std::uint64_t>(bytes.data() + i + lane * 8);
        for (; i < bytes.size(); ++i) sums[0] += static_cast<std::uint8_t>(bytes[i]);
        touched.checksum += sums[0] ^ sums[1] ^ sums[2] ^ sums[3];
    }
    touched.payload_bytes += node.opaque().size();
    for (std::byte b : node.opaque()) touched.checksum += static_cast<std::uint8_t>(b);
    for (const cast::Node& child : node.children()) touch_node(child, touched);
}

}  // namespace

Touched touch_all(const cast::Document& document) {
    Touched touched;
    for (const cast::Node& root : document.roots()) touch_node(root, touched);
    return touched;
}

void add_skinned_model(cast::Root& root, std::uint32_t bones, std::span<const MeshShape> meshes) {
    cast::Model model = root.add_model();
    model.set_name("bench_model");
    add_skeleton(model, bones);
    for (std::size_t i = 0; i < meshes.size(); ++i)
        add_mesh(model, static_cast<std::uint32_t>(i), bones, meshes[i]);
}

void add_animation(cast::Root& root, std::uint32_t bones, std::uint32_t frames) {
    cast::Animation animation = root.add_animation();
    animation.set_name("bench_animation");
    animation.set_framerate(30.0f);
    animation.set_looping(true);
    std::vector<std::uint32_t> key_frames(frames);
    std::vector<glm::vec4> rotations(frames);
    std::vector<float> values(frames);
    for (std::uint32_t f = 0; f < frames; ++f) key_frames[f] = f;
    for (std::uint32_t b = 0; b < bones; ++b) {
        const std::string bone = fmt::format("bone_{}", b);
        for (std::uint32_t f = 0; f < frames; ++f) {
            const float half = 0.005f * float(f + b);
            rotations[f] = {0.0f, std::sin(half), 0.0f, std::cos(half)};
        }
        cast::Curve rotation = animation.add_curve();
        rotation.set_node_name(bone);
        rotation.set_key_property(cast::KeyProperty::Rotation);
        rotation.set_key_frames(key_frames);
        rotation.set_quaternion_values(rotations);
        rotation.set_mode(cast::CurveMode::Absolute);
        using enum cast::KeyProperty;
        for (cast::KeyProperty axis : {TranslationX, TranslationY, TranslationZ}) {
            for (std::uint32_t f = 0; f < frames; ++f)
                values[f] = std::sin(0.05f * float(f)) * float(b);
            cast::Curve translation = animation.add_curve();
            translation.set_node_name(bone);
            translation.set_key_property(axis);
            translation.set_key_frames(key_frames);
            translation.set_float_values(values);
            translation.set_mode(cast::CurveMode::Absolute);
        }
    }
}

cast::Document make_scene(std::uint64_t megabytes) {
    constexpr std::uint64_t kRootMegabytes = 2000;
    constexpr std::uint32_t kBones = 300, kAnimatedBones = 64, kMaxMeshVertices = 2'800'000;
    // vp 12 + vn 12 + u0 8 + c0 4 + wb 4×2 + wv 4×4 + two `i` triangles 24.
    constexpr std::uint64_t kVertexBytes = 84;
    cast::Document document;
    for (std::uint64_t left = megabytes; left > 0;) {
        const std::uint64_t part = std::min(left, kRootMegabytes) * 1'000'000;
        left -= std::min(left, kRootMegabytes);
        cast::Root root = document.add_root();

        const std::uint64_t vertices =
            std::max<std::uint64_t>(part * 85 / 100 / kVertexBytes, 2 * kGridWidth);
        const std::uint64_t mesh_count = (vertices + kMaxMeshVertices - 1) / kMaxMeshVertices;
        std::vector<MeshShape> meshes(mesh_count);
        for (MeshShape& shape : meshes) {
            shape.vertices = static_cast<std::uint32_t>(
                std::max<std::uint64_t>(vertices / mesh_count, 2 * kGridWidth));
            shape.triangles = shape.vertices * 2;
        }
        add_skinned_model(root, kBones, meshes);

        const std::uint64_t animation_bytes = part * 15 / 100;
        auto frames = static_cast<std::uint32_t>(animation_bytes / (kAnimatedBones * key_bytes(0)));
        frames = static_cast<std::uint32_t>(animation_bytes / (kAnimatedBones * key_bytes(frames)));
        add_animation(root, kAnimatedBones, std::max<std::uint32_t>(frames, 2));
    }
    return document;
}

cast::Document make_reference_scene() {
    cast::Document document;
    cast::Root root = document.add_root();
    const MeshShape mesh{.vertices = 500'000, .triangles = 1'000'000, .influences = 4};
    add_skinned_model(root, 300, std::span(&mesh, 1));
    return document;
}

cast::Document make_dmf_scene(std::uint32_t triangles) {
    constexpr std::uint32_t kBones = 64, kFrames = 120;
    cast::Document document;
    cast::Root root = document.add_root();
    // At least two grid rows, so that there is a quad to make triangles from.
    const MeshShape mesh{.vertices = std::max(triangles / 2, 2 * kGridWidth),
                         .triangles = triangles,
                         .influences = 4};
    add_skinned_model(root, kBones, std::span(&mesh, 1));
    add_animation(root, kBones, kFrames);
    return document;
}

}  // namespace castkit::bench
