// The hand-assembled K3D golden file (the layout in docs/k3d.md), shared by the K3D tests and
// the test that validates every format's Cast output.
#pragma once

#include <gtest/gtest.h>

#include "hand_bytes.hpp"

namespace castkit::test {

inline std::vector<std::byte> golden_k3d() {
    HandBytes b;
    b.u32(0xDECAFBAD).u32(15).u32(1).u32(1).u8(1).zeros(3);
    b.floats({0, 0, 0, 1, 1, 0}).floats({0.5f, 0.5f, 0});
    b.translation(0, -1, 0);  // inverse global: inverse of the root's T(0,1,0)
    b.u16(1).u16(1).u16(2).u16(1);
    b.u32(0x321);  // string table offset, checked below
    // Submeshes
    b.u32(1).u16(0).u16(1).u32(3).u32(3).u8(1).floats({0.5f, 0.5f, 0}).floats({0, 0, 0, 1, 1, 0});
    b.floats({0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1})
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0)
        .floats({1, 0, 0, 0});
    b.floats({1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1})
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0)
        .floats({1, 0, 0, 0});
    b.floats({0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0.5f, 1, 0, 0, 1})
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0)
        .floats({1, 0, 0, 0});
    b.u32(0).u32(1).u32(2);
    // Bones: "child" bound at T(0,1.5,0)
    b.u32(2).u16(2).translation(0, -1.5f, 0);
    // Nodes: root T(0,1,0), child T(0,0.5,0)
    b.u32(3).u16(3).u16(4).u16(0xFFFF).u16(0).translation(0, 1, 0).translation(0, 0.5f, 0);
    // Animations: "walk", 10 ticks at 30 per second, one channel
    b.u32(4).u16(1).u16(5).f32(10).f32(30).u16(1);
    b.u32(5).u16(0).u16(6).u32(2).u32(0).u32(1).u32(32).u32(0).u32(52);
    b.floats({0, 0.5f, 0, 0}).floats({0, 1, 0, 10}).floats({0, 0, 0.6f, 0.8f, 5});
    b.u32(6);
    EXPECT_EQ(b.size(), 0x321u);
    b.u32(7).u32(0).u64(29);
    std::uint32_t offset = 0;
    for (std::uint32_t length : {3u, 3u, 5u, 4u, 5u, 4u, 5u}) {
        b.u32(offset).u32(length);
        offset += length;
    }
    b.text("trimatchildrootchildwalkchild");
    return b.bytes;
}

}  // namespace castkit::test
