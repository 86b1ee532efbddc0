// Scenes and helpers for the glTF tests: a builder-made Cast scene using every feature the
// export maps, the GLB JSON chunk as nlohmann::json, and the Khronos validator run on files.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "../anim/scene.hpp"
#include "../test_support.hpp"

namespace castkit::test {

// Root > Metadata (up z), Model (4-bone skeleton with scale and segment scale compensation, a
// mesh with normals, tangents, 2 UV layers, packed and float colours, 5 influences per vertex,
// faces, a blend shape, a PBR material with an unmappable slot), an Instance, and an Animation
// with absolute, relative and additive curves, an override, blend weights and notifications.
inline void build_full_scene(AnimScene& scene) {
    cast::Root root = scene.document.root_nodes()[0];
    root.add_metadata().set_up_axis(cast::Axis::Z);
    scene.model.set_name("hero");
    scene.model.set_position({1, 2, 3});
    scene.bone("root");
    scene.bone("spine", 0, {0, 1, 0}, axis_angle_xyzw({0, 0, 1}, 30), {2, 2, 2});
    scene.bone("head", 1, {0, 1, 0});
    scene.bone("arm", 1, {1, 0, 0}, axis_angle_xyzw({1, 0, 0}, 10))
        .set_segment_scale_compensate(false);

    cast::Mesh mesh = scene.model.add_mesh();
    mesh.set_name("body");
    const std::vector<glm::vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                           {1, 1, 0}, {0, 2, 0}, {1, 2, 0}};
    mesh.set_positions(positions);
    mesh.set_normals(std::vector<glm::vec3>(6, glm::vec3(0, 0, 2)));
    mesh.set_tangents(std::vector<glm::vec3>(6, glm::vec3(1, 0, 0)));
    const std::vector<glm::vec2> uvs{{0, 1}, {1, 1}, {0, 0.5f}, {1, 0.5f}, {0, 0}, {1, 0}};
    EXPECT_TRUE(mesh.set_uv_layer(0, uvs));
    EXPECT_TRUE(mesh.set_uv_layer(1, std::vector<glm::vec2>(6, glm::vec2(0.25f, 0.75f))));
    EXPECT_TRUE(mesh.set_color_layer_packed(0, std::vector<std::uint32_t>(6, 0xFF8040C0u)));
    EXPECT_TRUE(
        mesh.set_color_layer(1, std::vector<glm::vec4>(6, glm::vec4(0.5f, 0.25f, 1.0f, 1.0f))));
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5});
    std::vector<std::uint32_t> bones;
    std::vector<float> values;
    for (std::uint32_t v = 0; v < 6; ++v) {
        // Five influences: a repeated bone, a zero weight, and sums other than 1.
        const std::vector<std::uint32_t> b{v % 4, (v + 1) % 4, v % 4, 3, (v + 2) % 4};
        const std::vector<float> w{0.5f, 0.25f, 0.25f, 0.0f, 0.5f};
        bones.insert(bones.end(), b.begin(), b.end());
        values.insert(values.end(), w.begin(), w.end());
    }
    EXPECT_TRUE(mesh.set_weights(5, bones, values));

    cast::BlendShape smile = scene.model.add_blend_shape();
    smile.set_name("smile");
    smile.set_base_shape(mesh);
    smile.set_targets(std::vector<std::uint32_t>{1, 4},
                      std::vector<glm::vec3>{{1, 0, 0.5f}, {0, 2, -0.5f}});

    cast::Material material = scene.model.add_material();
    material.set_name("skin");
    material.set_type("pbr");
    auto file = [&](std::string slot, std::string_view path) {
        cast::File f = material.add_file(path);
        material.set_slot(std::move(slot), f);
    };
    file("albedo", "textures/body albedo.png");
    file("normal", "textures/body_n.png");
    file("roughness", "textures/body_rm.png");
    file("metal", "textures/body_rm.png");
    file("ao", "textures/body_ao.png");
    file("gloss", "textures/body_gloss.png");
    cast::Color glow = material.add_color();
    glow.set_rgba({1.0f, 0.5f, 0.0f, 1.0f});
    material.set_slot("emissive", glow);
    mesh.set_material(material);

    cast::Instance instance = root.add_instance();
    instance.set_name("crate");
    instance.set_position({5, 0, 0});
    cast::File reference = instance.add_file("prop.cast");
    instance.set_reference_file(reference);

    scene.animation.set_name("wave");
    scene.curve("root", "tx", {0, 5, 10}, {0.0f, 1.0f, 3.0f});
    scene.rotation("spine", {0, 10},
                   {axis_angle_xyzw({0, 1, 0}, 0), axis_angle_xyzw({0, 1, 0}, 90)}, "relative");
    // A uniform scale under segment scale compensation: glTF holds it as a baked TRS.
    for (const char* axis : {"sx", "sy", "sz"}) scene.curve("spine", axis, {0, 10}, {2.0f, 3.0f});
    scene.curve("head", "sy", {2, 8}, {1.0f, 1.5f}, "additive");
    scene.rotation("arm", {0, 4, 10},
                   {axis_angle_xyzw({1, 0, 0}, 0), axis_angle_xyzw({1, 0, 0}, 45),
                    axis_angle_xyzw({0, 0, 1}, 90)});
    scene.rotation("arm", {0, 10}, {axis_angle_xyzw({0, 1, 0}, 0), axis_angle_xyzw({0, 1, 0}, 20)},
                   "additive");
    scene.curve("head", "ty", {0, 10}, {0.0f, 0.5f}, "relative");
    scene.override_mode("head", "absolute", false, false, true);
    scene.curve("smile", "bs", {0, 3, 6}, {0.0f, 1.0f, 0.25f});
    cast::NotificationTrack footstep = scene.animation.add_notification_track();
    footstep.set_name("footstep");
    footstep.set_key_frames(std::vector<std::uint32_t>{3, 7});
}

// The JSON of a .glb (its first chunk) or .gltf file.
inline nlohmann::json gltf_json(const std::filesystem::path& path) {
    std::vector<std::byte> bytes = read_bytes(path);
    std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (path.extension() == ".glb") {
        std::uint32_t length = 0;
        std::memcpy(&length, bytes.data() + 12, 4);
        text = text.substr(20, length);
    }
    return nlohmann::json::parse(text);
}

struct ValidatorResult {
    int exit_code = -1;
    std::string output;
};

// Runs the Khronos glTF Validator (tools/gltf-validator, a Node.js program) on a file or
// directory; its exit code (1 on any error or warning) and report. Nothing in the Windows build
// (std::nullopt): its tests run under Wine, where a Windows program cannot start the Linux Node.js,
// and the Linux build runs the validator on the same files. Starts a Node.js process: about a
// second.
inline std::optional<ValidatorResult> run_gltf_validator(const std::filesystem::path& target) {
#ifndef CASTKIT_HAVE_GLTF_VALIDATOR
    (void)target;
    return std::nullopt;
#else
    ValidatorResult result;
    const std::string command =
        "node '" + std::string(paths::gltf_validator) + "' --strict '" + target.string() + "' 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return result;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        result.output.append(buffer, n);
    const int status = pclose(pipe);
    result.exit_code = exit_code_of(status);
    return result;
#endif
}

// Expects the validator to pass `target` where run_gltf_validator runs it.
inline void expect_gltf_validator_passes(const std::filesystem::path& target) {
    if (const std::optional<ValidatorResult> result = run_gltf_validator(target)) {
        EXPECT_EQ(result->exit_code, 0) << result->output;
    }
}

}  // namespace castkit::test
