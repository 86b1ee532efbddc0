// Key reducers for baked curves: drop every key the interpolation of its neighbours already
// reproduces within a tolerance. Kept keys are original keys, so their values stay exact.
#include <algorithm>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/curve_sampling.hpp>
#include <castkit/anim/skeleton.hpp>
#include <cmath>
#include <limits>

namespace castkit::anim {

std::vector<std::uint32_t> reduce_linear_keys(std::span<const float> frames,
                                              std::span<const float> values, float tolerance) {
    const auto count = static_cast<std::uint32_t>(std::min(frames.size(), values.size()));
    std::vector<std::uint32_t> kept;
    if (count == 0) return kept;
    kept.push_back(0);
    // The segment from the anchor (a kept key) may end at key j when the slope to j lies in the
    // slopes every key in between allows (the line passes within `tolerance` of each): a cone
    // narrowed key by key, so the whole pass is O(keys).
    std::uint32_t anchor = 0;
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();
    auto restart = [&](std::uint32_t key) {
        if (kept.back() != key) kept.push_back(key);
        anchor = key;
        low = -std::numeric_limits<double>::infinity();
        high = std::numeric_limits<double>::infinity();
    };
    for (std::uint32_t j = 1; j < count; ++j) {
        double span = double(frames[j]) - frames[anchor];
        if (span > 0.0) {
            double slope = (double(values[j]) - values[anchor]) / span;
            if (slope < low || slope > high) {
                restart(j - 1);
                span = double(frames[j]) - frames[anchor];
            }
        }
        if (!(span > 0.0)) {  // two keys on one frame: a step, keep both sides
            restart(j - 1);
            restart(j);
            continue;
        }
        low = std::max(low, (double(values[j]) - tolerance - values[anchor]) / span);
        high = std::min(high, (double(values[j]) + tolerance - values[anchor]) / span);
    }
    if (kept.back() != count - 1) kept.push_back(count - 1);
    return kept;
}

std::vector<std::uint32_t> reduce_slerp_keys(std::span<const float> frames,
                                             std::span<const glm::quat> values, float tolerance) {
    const auto count = static_cast<std::uint32_t>(std::min(frames.size(), values.size()));
    std::vector<std::uint32_t> kept;
    if (count == 0) return kept;
    kept.push_back(0);
    std::uint32_t anchor = 0;
    // True when the slerp from the anchor to `end` passes within `tolerance` of every key in
    // between. O(end - anchor).
    auto fits = [&](std::uint32_t end) {
        if (end == anchor + 1) return true;
        const float span = frames[end] - frames[anchor];
        if (!(span > 0.0f)) return false;
        for (std::uint32_t k = anchor + 1; k < end; ++k) {
            glm::quat q =
                shortest_slerp(values[anchor], values[end], (frames[k] - frames[anchor]) / span);
            if (rotation_angle(q, values[k]) > tolerance) return false;
        }
        return true;
    };
    // Each segment ends at the farthest key found by doubling the span, then bisecting between
    // the last end that fits and the first that does not: O(span · log span) per segment
    // instead of O(span²) for a long still stretch.
    while (anchor + 1 < count) {
        std::uint32_t good = anchor + 1, bad = count;
        for (std::uint32_t step = 1; good + step < count; step *= 2) {
            if (!fits(good + step)) {
                bad = good + step;
                break;
            }
            good += step;
        }
        if (bad == count && good + 1 < count) {
            if (fits(count - 1))
                good = count - 1;
            else
                bad = count - 1;
        }
        while (bad < count && bad - good > 1) {
            std::uint32_t middle = good + (bad - good) / 2;
            if (fits(middle))
                good = middle;
            else
                bad = middle;
        }
        kept.push_back(good);
        anchor = good;
    }
    return kept;
}

}  // namespace castkit::anim
