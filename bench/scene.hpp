// Synthetic Cast scenes for the benchmarks, built with the typed builder API (nodes.hpp): skinned
// meshes with millions of vertices, a skeleton, and animations with long curves.
#pragma once

#include <castkit/cast/nodes.hpp>
#include <cstdint>
#include <span>

namespace castkit::bench {

// The shape of one skinned mesh: vp, vn, u0, packed c0, `mi` weights per vertex, triangles `f`.
struct MeshShape {
    std::uint32_t vertices = 0;
    std::uint32_t triangles = 0;
    std::uint32_t influences = 4;
};

// Adds to `root` a Model with a `bones`-bone Skeleton and one Mesh per entry of `meshes`, every
// vertex weighted to `influences` bones. O(total vertices + triangles).
void add_skinned_model(cast::Root& root, std::uint32_t bones, std::span<const MeshShape> meshes);

// Adds to `root` an Animation with, for each of `bones` bones, an `rq` quaternion curve and
// tx/ty/tz float curves of `frames` keys each. O(bones × frames).
void add_animation(cast::Root& root, std::uint32_t bones, std::uint32_t frames);

// A scene of about `megabytes` × 10^6 bytes: 85% skinned meshes of ~2.8M vertices each, 15% an
// animation of 64 bones with long curves. Roots are split every ~2 GB so that no NodeSize
// overflows. Memory: the payloads it builds (about the file size) plus one mesh's arrays.
cast::Document make_scene(std::uint64_t megabytes);

// The file castkit's research timed cast.py on (README.md): 500k vertices with vp, vn, u0, c0 and
// mi=4 weights, 1M triangles stored as `i`, 300 bones; about 42 MB.
cast::Document make_reference_scene();

// A model of the shape a DMF file holds: one skinned mesh of `triangles` triangles (half as many
// vertices, with vp, vn, u0, c0 and 4 weights), a 64-bone skeleton and a 120-frame animation of
// every bone. 400,000 triangles make about 11 MB of Cast and 170 MB of DMF JSON.
cast::Document make_dmf_scene(std::uint32_t triangles);

// What touch_all saw: node, property and payload byte counts, and a checksum of the payloads.
struct Touched {
    std::uint64_t nodes = 0;
    std::uint64_t properties = 0;
    std::uint64_t payload_bytes = 0;
    std::uint64_t checksum = 0;
};

// Walks every node of `document` and reads every payload byte (8-byte loads folded into a
// checksum, so nothing can be optimised away). O(nodes + payload bytes).
Touched touch_all(const cast::Document& document);

}  // namespace castkit::bench
