// A small skinned character and its animations, written in any format castkit writes: the
// input of the merge and folder-conversion tests.
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "../anim/scene.hpp"

namespace castkit::test {

// Model "hero": bones root > spine > head, one skinned quad with normals, UVs and a material.
inline cast::Document character() {
    AnimScene scene;
    scene.document.roots()[0].take_children_if(
        [](const cast::Node& child) { return child.is(cast::NodeId::Animation); });
    scene.model.set_name("hero");
    scene.bone("root");
    scene.bone("spine", 0, {0, 1, 0});
    scene.bone("head", 1, {0, 1, 0}, axis_angle_xyzw({0, 0, 1}, 10));
    cast::Mesh mesh = scene.model.add_mesh();
    mesh.set_name("body");
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {1, 2, 0}});
    mesh.set_normals(std::vector<glm::vec3>(4, glm::vec3(0, 0, 1)));
    if (!mesh.set_uv_layer(0, std::vector<glm::vec2>{{0, 1}, {1, 1}, {0, 0}, {1, 0}}))
        throw std::logic_error("character: UV layer refused");
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3});
    if (!mesh.set_weights(1, std::vector<std::uint32_t>{0, 0, 2, 2},
                          std::vector<float>{1.0f, 1.0f, 1.0f, 1.0f}))
        throw std::logic_error("character: weights refused");
    cast::Material material = scene.model.add_material();
    material.set_name("skin");
    material.set_type("pbr");
    mesh.set_material(material);
    return std::move(scene.document);
}

// An animation-only document named `name` keying `bones` (translation and rotation each).
inline cast::Document character_animation(const std::string& name,
                                          const std::vector<std::string>& bones) {
    AnimScene scene;
    scene.document.roots()[0].take_children_if(
        [](const cast::Node& child) { return child.is(cast::NodeId::Model); });
    scene.animation.set_name(name);
    float angle = 10.0f;
    for (const std::string& bone : bones) {
        scene.curve(bone, "tx", {0, 5, 10}, {0.0f, 0.5f, 1.0f});
        scene.rotation(bone, {0, 10},
                       {axis_angle_xyzw({0, 1, 0}, 0), axis_angle_xyzw({0, 1, 0}, angle)});
        angle += 15.0f;
    }
    return std::move(scene.document);
}

// Writes `document` to `path` with the registry writer its extension names; throws on failure.
inline void write_as(cast::Document document, const std::filesystem::path& path) {
    const FormatInfo* format = format_for_path(path);
    if (format == nullptr) throw std::runtime_error("no format for " + path.string());
    Diagnostics warnings;
    auto written =
        formats::write_file(*format, document, path, formats::context_for(path), warnings);
    if (!written) throw std::runtime_error(written.error().to_string());
}

}  // namespace castkit::test
