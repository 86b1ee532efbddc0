// One small DMF model written out twice by hand: as binary bytes following the struct tables of
// docs/dmf.md and as JSON following its JSON section. Both describe the same model.
#pragma once

#include <string>
#include <vector>

#include "hand_bytes.hpp"

namespace castkit::test {

// A 33-byte PNG signature and IHDR chunk (2 × 1 pixels): enough for castkit to read its size.
inline std::vector<std::byte> tiny_png() {
    HandBytes b;
    b.u8(0x89).text("PNG\r\n").u8(0x1A).text("\n");
    b.u8(0).u8(0).u8(0).u8(13).text("IHDR").u8(0).u8(0).u8(0).u8(2).u8(0).u8(0).u8(0).u8(1);
    b.u8(8).u8(6).u8(0).u8(0).u8(0).zeros(4);
    return b.bytes;
}

inline constexpr const char* kTinyPngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAAAAAAA";

inline std::vector<std::byte> golden_dmf() {
    HandBytes b;
    b.text("DASH").u16(1).u16(5).u32(0x10).u32(6);
    b.text("tex").u8(0).u32(0).u32(112).u32(1);
    b.text("mat").u8(0).u32(0).u32(176).u32(1);
    b.text("vert").u32(0).u32(288).u32(3);
    b.text("face").u32(0).u32(396).u32(1);
    b.text("bone").u32(0).u32(484).u32(2);
    b.text("anim").u32(0).u32(708).u32(1);
    // Texture "skin": id 0, flip_y 1, PNG at 900 (33 bytes), 2 × 1, wrap repeat/repeat.
    b.fixed("skin", 32).i16(0).u16(1).u32(900).u32(33).u16(2).u16(1).u16(2).u16(2).zeros(12);
    // Material "body": texture 0, Three.js blending defaults, skinning, Lambert.
    b.fixed("body", 32).i16(0).i16(0).u16(0).u16(0).u16(4).u16(5).u16(1).u16(1).u16(0).u16(0);
    b.u16(0)
        .u16(0)
        .u16(0)
        .u16(0)
        .f32(0)
        .floats({1, 0.5f, 0.25f, 1})
        .floats({0, 0, 0, 0})
        .floats({0.5f, 0.5f, 0.5f, 30});
    // Vertices
    b.floats({0, 0, 0}).i16(0).i16(-1).i16(-1).i16(-1).floats({1, 0, 0, 0});
    b.floats({1, 0, 0}).i16(0).i16(1).i16(-1).i16(-1).floats({0.5f, 0.5f, 0, 0});
    b.floats({0, 1, 0}).i16(1).i16(-1).i16(-1).i16(-1).floats({1, 0, 0, 0});
    // Face
    b.u16(0).u16(0).u32(0).u32(1).u32(2);
    b.u8(255).u8(255).u8(255).u8(255).u8(255).u8(0).u8(0).u8(255).u8(0).u8(255).u8(0).u8(128);
    b.floats({0, 0, 1, 0, 0, 1, 0, 0, 1}).floats({0, 0, 1, 0, 0, 1});
    // Bones: root at T(0,1,0), arm at T(1,0,0) under it.
    b.fixed("root", 32).i16(0).i16(-1).zeros(12).translation(0, 1, 0);
    b.fixed("arm", 32).i16(1).i16(0).zeros(12).translation(1, 0, 0);
    // Animation "wave": 30 fps, tracks at 756, 3 tracks, 2/30 s long.
    b.fixed("wave", 32).i16(0).u16(30).u32(756).u32(3).f32(2.0f / 30.0f);
    b.i16(0).i16(4).f32(1.0f / 30.0f).floats({0, 0, 0}).floats({0, 0, 0, 0}).floats({1, 2, 1});
    b.i16(1).i16(3).f32(0).floats({1, 0, 0}).floats({0, 0, 0, 1}).floats({0, 0, 0});
    b.i16(1)
        .i16(2)
        .f32(2.0f / 30.0f)
        .floats({0, 0, 0})
        .floats({0, 0, 0.6f, 0.8f})
        .floats({0, 0, 0});
    for (std::byte x : tiny_png()) b.u8(std::to_integer<std::uint8_t>(x));
    return b.bytes;
}

// The same model as JSON, written by hand (key order and spacing differ from castkit's writer).
inline std::string golden_dmf_json() {
    return std::string(R"json({
  "format": "DASH", "version": "1.5",
  "textures": [{"id": 0, "name": "skin", "flip_y": true, "img": "data:image/png;base64,)json") +
           kTinyPngBase64 + R"json(",
                "width": 2, "height": 1, "wrap_s": "repeat", "wrap_t": 2}],
  "materials": [{"id": 0, "name": "body", "texture": 0, "use_blending": false, "blend_equation": "norm",
                 "blend_src": "src_alpha", "blend_dst": "one_minus_src_alpha", "skinning": true,
                 "shader_type": "lambert", "face_side": "front", "shadow_side": 0, "ignore_lights": false,
                 "vertex_color": false, "use_alpha": false, "skip_render": 0, "alpha_test": 0,
                 "diffuse": [1, 0.5, 0.25, 1], "emissive": [0, 0, 0, 0], "specular": [0.5, 0.5, 0.5, 30]}],
  "verterices": [
    {"pos": [0, 0, 0], "skin_index": [0, -1, -1, -1], "skin_weight": [1, 0, 0, 0]},
    {"pos": [1, 0, 0], "skin_index": [0, 1, -1, -1], "skin_weight": [0.5, 0.5, 0, 0]},
    {"pos": [0, 1, 0], "skin_index": [1, -1, -1, -1], "skin_weight": [1, 0, 0, 0]}],
  "faces": [{"material": 0, "indices": [0, 1, 2],
             "verex_color": ["rgba(255, 255, 255, 1.0)", "rgba(255,0,0,1)", "rgba(0, 255, 0, 0.502)"],
             "normals": [[0, 0, 1], [0, 0, 1], [0, 0, 1]], "diffuse_uv": [[0, 0], [1, 0], [0, 1]]}],
  "skeleton": [
    {"name": "root", "id": 0, "parent_id": -1, "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,1]},
    {"name": "arm", "id": 1, "parent_id": 0, "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 1,0,0,1]}],
  "animations": [{"id": 0, "name": "wave", "fps": 30, "duration": 0.06666667,
    "tracks": [{"bone_id": 0, "time": 0.033333335, "scl": [1, 2, 1]},
               {"bone_id": 1, "time": 0, "pos": [1, 0, 0], "rot": [0, 0, 0, 1]},
               {"bone_id": 1, "time": 0.06666667, "rot": [0, 0, 0.6, 0.8]}]}]
})json";
}

}  // namespace castkit::test
