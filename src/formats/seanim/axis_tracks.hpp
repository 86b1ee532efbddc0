// Cast keys each translation or scale axis in its own curve; SEAnim keys the three together.
// These helpers turn up to three axis curves into vec3 keys (docs/seanim.md, "Per-axis keys").
#pragma once

#include <array>
#include <castkit/formats/seanim.hpp>
#include <cstdint>
#include <optional>
#include <vector>

namespace castkit::seanim::detail {

// One curve's keys, values widened to double (1 or 4 per key).
struct Track {
    std::vector<std::uint32_t> frames;
    std::vector<double> values;
};

// Vec3 keys from the axis tracks present (a missing axis is `fallback`). Tracks with identical
// frame lists zip key by key, order kept; otherwise the keys go at the sorted union of frames,
// each axis interpolated linearly between its own keys, and `at_union` is set.
// O(keys) when zipped, O(keys log keys) at the union.
std::vector<Vec3Key> merge_axes(std::array<std::optional<Track>, 3>& tracks, double fallback,
                                bool& at_union);

}  // namespace castkit::seanim::detail
