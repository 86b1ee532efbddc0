// Golden vectors for SEAnim and SEModel, assembled by hand from the formats' published byte
// layouts (docs/seanim.md, docs/semodel.md), shared by the format and CLI tests.
#pragma once

#include "hand_bytes.hpp"

namespace castkit::test {

// The SEAnim vector, byte for byte as io_anim_seanim's seanim.py writes it.
inline std::vector<std::byte> seanim_golden_vector() {
    HandBytes b;
    b.text("SEAnim").hex({0x01, 0x00, 0x1C, 0x00, 0x02, 0x00, 0x43, 0x00, 0x00, 0x00});
    b.hex({0x00, 0x00, 0xF0, 0x41, 0x03, 0x00, 0x00, 0x00, 0x02, 0x00,
           0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00});
    b.cstr("tag_origin").cstr("j_gun");
    b.hex({0x01, 0x00});        // modifier: bone 1, ABSOLUTE
    b.hex({0x00, 0x01, 0x00});  // bone 0: flags, 1 loc key at frame 0
    b.hex({0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40});
    b.hex({0x01, 0x02});  // 1 rot key at frame 2
    b.hex({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x80, 0x3F});
    b.hex({0x00, 0x01, 0x01});  // bone 1: flags, 1 loc key at frame 1
    b.hex({0x00, 0x00, 0x00, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0});
    b.hex({0x00});               // 0 rot keys
    b.hex({0x02}).cstr("fire");  // note at frame 2
    return b.bytes;
}

// The SEModel vector, as io_model_semodel's semodel.py writes it, with the stream values spelled
// out.
inline std::vector<std::byte> semodel_golden_vector() {
    HandBytes b;
    b.text("SEModel").hex({0x01, 0x00, 0x14, 0x00, 0x07, 0x02, 0x0B});
    b.hex({0x01, 0, 0, 0, 0x01, 0, 0, 0, 0x01, 0, 0, 0, 0x00, 0x00, 0x00});
    b.cstr("root").hex({0x00, 0xFF, 0xFF, 0xFF, 0xFF}).floats({0, 0, 1}).floats({0, 0, 0, 1});
    b.hex(
        {0x00, 0x01, 0x01, 0x03, 0, 0, 0, 0x01, 0, 0, 0});  // flags, 1 layer, 1 influence, 3 v, 1 f
    b.floats({0, 0, 0, 1, 0, 0, 0, 1, 0});                  // positions
    b.floats({0, 0, 1, 0, 0, 1});                           // uvs
    b.floats({0, 0, 1, 0, 0, 1, 0, 0, 1});                  // normals
    for (int v = 0; v < 3; ++v) b.u8(0).f32(1.0f);          // weights: bone_t u8, weight
    b.hex({0x00, 0x01, 0x02});                              // face (u8: 3 vertices)
    b.hex({0x00, 0x00, 0x00, 0x00});                        // material index of layer 0
    b.cstr("mat0").u8(1).cstr("d.png").cstr("").cstr("");
    return b.bytes;
}

}  // namespace castkit::test
