// The scans that touch array payloads: branch-free loops over unaligned little-endian bytes
// (rule 1), one pass each, that count what is wrong and find the first offender only when
// something is. These carry validation's cost on large files.
#pragma once

#include <castkit/cast/node.hpp>
#include <cstddef>
#include <cstdint>

namespace castkit::cast::validation {

// How many elements break a check, and the index of the first one (meaningless when none).
struct Scan {
    std::size_t count = 0;
    std::size_t first = 0;
};

// Float components (f, v2, v3, v4) or doubles (d) that are NaN or infinite; `first` is the
// element (not component) index. Any other type scans as clean.
Scan non_finite(const Property& property);

// Elements of an integer array (b, h, i, l) that are >= `limit`.
Scan at_least(const Property& property, std::uint64_t limit);
// Sum over the elements of an integer array of (element + 1), as segment counts add up to
// particles.
std::uint64_t sum_plus_one(const Property& property);
// Index of the first element of an integer array that is not greater than the one before it
// (`strict`) or smaller than it (not `strict`); `count` is 0 when the array is in order.
Scan out_of_order(const Property& property, bool strict);

// Triangle faces of an index buffer (b, h, i) and vertex count.
struct FaceScan {
    Scan out_of_range;  // indices >= the vertex count (element indices)
    Scan degenerate;    // triangles with two equal indices (triangle indices)
};
FaceScan scan_faces(const Property& faces, std::uint64_t vertex_count);

// Vertices whose `influences` weights in `values` (f) sum farther than `tolerance` from 1;
// `sum` is the first such vertex's sum.
struct WeightScan {
    Scan vertices;
    float sum = 0.0f;
};
WeightScan scan_weight_sums(const Property& values, std::uint32_t influences, float tolerance);

// v4 elements whose length is farther than `tolerance` from 1 (NaN and infinite ones are
// left to non_finite()).
Scan unnormalised_quaternions(const Property& property, float tolerance);

}  // namespace castkit::cast::validation
