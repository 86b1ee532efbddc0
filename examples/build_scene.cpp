// Builds small Cast files with castkit's builder API and writes them to a directory (default:
// examples/data). The files are committed; a test checks that this program still produces them
// byte for byte.
//
//   character.cast  a skinned quad: positions, normals, two UV layers, a packed and a float
//                   colour layer, weights over a three-bone skeleton, a material with files
//   wave.cast       an animation for that skeleton: rotation, translation and visibility
//                   curves, a mode override and a notification track
//   scene.cast      two instances of character.cast placed in a scene, with metadata whose
//                   scene root (`sr`) is the file's own folder: the Blender add-on refuses
//                   Instances without one
//   hero/           the example character (hero_*.cpp): hero.cast, a skinned, textured humanoid
//                   of 3,029 vertices over 21 bones with blend shapes "breathe_in" and "bulge";
//                   hero_albedo.png, its texture; hero_walk.cast, a walk cycle with a
//                   "footstep" notification track; hero_idle.cast, a breathing idle that keys
//                   the "breathe_in" weight; hero_rig.cast, the model with an IK leg and an
//                   orient constraint, and hero_step.cast, a clip that moves its IK target;
//                   hero_lean.cast, an additive sway of the spine. scripts/make_example.sh
//                   converts the model and the walk and idle to every format castkit writes.
#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/platform.hpp>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "hero.hpp"

namespace cast = castkit::cast;

namespace {

using hero::add_example_metadata;

cast::Document character() {
    cast::Document document;
    cast::Root root = document.add_root();
    add_example_metadata(root);
    cast::Model model = root.add_model();
    model.set_name("character");

    // Skeleton: pelvis > spine > head, each one unit above its parent.
    cast::Skeleton skeleton = model.add_skeleton();
    const std::array<const char*, 3> names = {"pelvis", "spine", "head"};
    for (int i = 0; i < 3; ++i) {
        cast::Bone bone = skeleton.add_bone();
        bone.set_name(names[i]);
        bone.set_parent_index(i - 1);  // -1: the root bone has no parent
        bone.set_local_position({0, i == 0 ? 0 : 1, 0});
        bone.set_local_rotation({0, 0, 0, 1});  // XYZW
        bone.set_world_position({0, float(i), 0});
        bone.set_world_rotation({0, 0, 0, 1});
        bone.set_scale({1, 1, 1});
    }

    // Material: two texture files (64x64 PNGs kept in examples/data/textures), linked from the
    // albedo and normal slots.
    cast::Material material = model.add_material();
    material.set_name("skin");
    material.set_type("pbr");
    cast::File albedo = material.add_file("textures/skin_albedo.png");
    cast::File normal = material.add_file("textures/skin_normal.png");
    material.set_slot("albedo", albedo);
    material.set_slot("normal", normal);

    // A quad of two counter-clockwise triangles, two units tall, skinned to the bones.
    cast::Mesh mesh = model.add_mesh();
    mesh.set_name("body");
    const std::array<glm::vec3, 4> positions = {glm::vec3(-0.5f, 0, 0), glm::vec3(0.5f, 0, 0),
                                                glm::vec3(0.5f, 2, 0), glm::vec3(-0.5f, 2, 0)};
    const std::array<glm::vec3, 4> normals = {glm::vec3(0, 0, 1), glm::vec3(0, 0, 1),
                                              glm::vec3(0, 0, 1), glm::vec3(0, 0, 1)};
    const std::array<std::uint32_t, 6> faces = {0, 1, 2, 0, 2, 3};
    // UV origin is top-left (rule 16): V grows downwards.
    const std::array<glm::vec2, 4> uv0 = {glm::vec2(0, 1), glm::vec2(1, 1), glm::vec2(1, 0),
                                          glm::vec2(0, 0)};
    const std::array<glm::vec2, 4> uv1 = {glm::vec2(0, 0.5f), glm::vec2(0.5f, 0.5f),
                                          glm::vec2(0.5f, 0), glm::vec2(0, 0)};
    const std::array<std::uint32_t, 4> packed = {0xFF0000FF, 0xFF00FF00, 0xFFFF0000, 0xFFFFFFFF};
    const std::array<glm::vec4, 4> ambient = {
        glm::vec4(1), glm::vec4(1), glm::vec4(0.5f, 0.5f, 0.5f, 1), glm::vec4(0.5f, 0.5f, 0.5f, 1)};
    // Two influences per vertex: bottom vertices follow pelvis and spine, top ones spine and head.
    const std::array<std::uint32_t, 8> weight_bones = {0, 1, 0, 1, 1, 2, 1, 2};
    const std::array<float, 8> weight_values = {0.75f, 0.25f, 0.75f, 0.25f, 0.5f, 0.5f, 0.5f, 0.5f};
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    mesh.set_faces(faces);
    // Builders refuse what the file cannot hold (a 256th layer, 256 influences: the counts are
    // bytes) instead of truncating it.
    for (castkit::Expected<void> ok :
         {mesh.set_uv_layer(0, uv0), mesh.set_uv_layer(1, uv1),
          mesh.set_color_layer_packed(0, packed),  // RGBA8, R in the low byte
          mesh.set_color_layer(1, ambient),        // float RGBA
          mesh.set_weights(2, weight_bones, weight_values)})
        if (!ok) throw std::runtime_error(ok.error().to_string());
    mesh.set_material(material);
    return document;
}

cast::Document wave() {
    cast::Document document;
    cast::Root root = document.add_root();
    add_example_metadata(root);
    cast::Animation animation = root.add_animation();
    animation.set_name("wave");
    animation.set_framerate(30);
    animation.set_looping(true);

    const std::array<std::uint32_t, 3> frames = {0, 15, 30};
    cast::Curve nod = animation.add_curve();
    nod.set_node_name("head");
    nod.set_key_property(cast::KeyProperty::Rotation);
    nod.set_mode(cast::CurveMode::Absolute);
    nod.set_key_frames(frames);
    // 0°, 45° and 0° about X, as XYZW quaternions (sin and cos of 22.5° written out, so the
    // bytes do not depend on the platform's libm).
    const std::array<glm::vec4, 3> rotations = {
        glm::vec4(0, 0, 0, 1), glm::vec4(0.38268343f, 0, 0, 0.9238795f), glm::vec4(0, 0, 0, 1)};
    nod.set_quaternion_values(rotations);

    cast::Curve sway = animation.add_curve();
    sway.set_node_name("spine");
    sway.set_key_property(cast::KeyProperty::TranslationX);
    sway.set_mode(cast::CurveMode::Additive);
    sway.set_key_frames(frames);
    const std::array<float, 3> offsets = {0, 0.25f, 0};
    sway.set_float_values(offsets);
    sway.set_additive_blend_weight(0.5f);

    cast::Curve blink = animation.add_curve();
    blink.set_node_name("head");
    blink.set_key_property(cast::KeyProperty::Visibility);
    blink.set_mode(cast::CurveMode::Absolute);
    const std::array<std::uint32_t, 2> blink_frames = {0, 20};
    const std::array<std::uint32_t, 2> visible = {1, 0};
    blink.set_key_frames(blink_frames);
    blink.set_integer_values(visible);

    cast::CurveModeOverride relative = animation.add_curve_mode_override();
    relative.set_node_name("spine");
    relative.set_mode(cast::CurveMode::Relative);
    relative.set_override_translation(true);

    cast::NotificationTrack footsteps = animation.add_notification_track();
    footsteps.set_name("footstep");
    const std::array<std::uint32_t, 2> steps = {7, 22};
    footsteps.set_key_frames(steps);
    return document;
}

cast::Document scene() {
    cast::Document document;
    cast::Root root = document.add_root();
    // Instance paths are relative to the scene root, itself relative to this file.
    add_example_metadata(root).set_scene_root(".");
    for (int i = 0; i < 2; ++i) {
        cast::Instance instance = root.add_instance();
        instance.set_name(i == 0 ? "left" : "right");
        cast::File file = instance.add_file("character.cast");
        instance.set_reference_file(file);
        instance.set_position({i == 0 ? -2.0f : 2.0f, 0, 0});
        instance.set_rotation({0, 0, 0, 1});
        instance.set_scale({1, 1, 1});
    }
    return document;
}

// Writes `document` to `path` (atomically: the file appears complete or not at all).
bool save(const cast::Document& document, const std::filesystem::path& path) {
    if (auto written = cast::write(document, path); !written) {
        std::fprintf(stderr, "%s\n", written.error().to_string().c_str());
        return false;
    }
    std::printf("wrote %s\n", path.string().c_str());
    return true;
}

bool save(const std::vector<std::byte>& bytes, const std::filesystem::path& path) {
    if (bytes.empty()) {
        std::fprintf(stderr, "%s: the PNG encoder failed\n", path.string().c_str());
        return false;
    }
    auto file = castkit::platform::create_atomic_file(path, bytes.size());
    castkit::Expected<void> ok = file ? (*file)->write(bytes) : castkit::make_error(file.error());
    if (ok) ok = (*file)->commit();
    if (!ok) {
        std::fprintf(stderr, "%s\n", ok.error().to_string().c_str());
        return false;
    }
    std::printf("wrote %s\n", path.string().c_str());
    return true;
}

bool write_hero(const std::filesystem::path& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    // The material names its texture relative to the model file: both sit in hero/.
    if (CASTKIT_EXAMPLE_PNG == 0)
        std::printf("left out hero_albedo.png: built without stb_image_write\n");
    else if (!save(hero::albedo_png(), dir / "hero_albedo.png"))
        return false;
    return save(hero::model("hero_albedo.png"), dir / "hero.cast") &&
           save(hero::walk(), dir / "hero_walk.cast") &&
           save(hero::idle(), dir / "hero_idle.cast") &&
           save(hero::rigged("hero_albedo.png"), dir / "hero_rig.cast") &&
           save(hero::step(), dir / "hero_step.cast") && save(hero::lean(), dir / "hero_lean.cast");
}

}  // namespace

int main(int argc, char** argv) {
    const std::filesystem::path out = argc > 1 ? argv[1] : "examples/data";
    const std::array<std::pair<const char*, cast::Document (*)()>, 3> files = {
        {{"character.cast", character}, {"wave.cast", wave}, {"scene.cast", scene}}};
    for (const auto& [name, build] : files)
        if (!save(build(), out / name)) return 1;
    return write_hero(out / "hero") ? 0 : 1;
}
