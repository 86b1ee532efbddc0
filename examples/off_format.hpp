// A format of the user's own, added to castkit at run time (docs/library.md, "A format of your
// own"): OFF, the Object File Format of the Princeton Shape Benchmark, a text file of vertices
// and polygons. Once registered, every castkit function that finds formats by name or extension
// reads and writes it: formats::read_file, write_file, batch conversion of a folder. The tests
// (tests/formats/registered_format_test.cpp) and a fuzz harness (fuzz/off_fuzzer.cpp) use it.
//
//   OFF
//   3 1 0         vertices, faces, edges (ignored)
//   0 0 0         one vertex a line
//   1 0 0
//   0 1 0
//   3 0 1 2       a face: its corner count, then vertex indices
//
// It maps onto one Model holding one Mesh: positions and triangles (a polygon of more corners is
// cut into a fan, with an off.polygon warning). Writing keeps every Mesh of the first Model,
// merged into one, and names what OFF cannot hold (normals, UVs, colours, weights, materials,
// skeletons, other Models, animations) in an off.dropped warning.
#pragma once

#include <castkit/formats/format.hpp>

namespace off_format {

// The registry entry: name "off", extension ".off".
castkit::FormatInfo format_info();

}  // namespace off_format
