// Sampling one curve at any (fractional) frame: linear for tx ty tz sx sy sz bs vb, shortest-path
// slerp for rq (rule 21), the first key held before it and the last after it (rule 20). The
// flat-array functions are the runtime kernels; CurveKeys decodes any Cast Curve for them.
#pragma once

#include <algorithm>
#include <castkit/anim/animation.hpp>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <span>
#include <vector>

namespace castkit::anim {

// The key `i` with frames[i] <= frame < frames[i + 1], for frames[0] < frame < frames.back().
// `cursor` is where the last search ended: sampling forward in time finds the key in O(1);
// otherwise evenly spaced keys (every baked or exported curve) are found in O(1) by their
// proportional position, anything else in O(log keys).
inline std::uint32_t find_key(const float* frames, std::uint32_t count, float frame,
                              std::uint32_t& cursor) {
    std::uint32_t i = cursor;
    if (i + 1 < count && frames[i] <= frame) {
        if (frame < frames[i + 1]) return i;
        if (i + 2 < count && frame < frames[i + 2]) return cursor = i + 1;
    }
    const float position = (frame - frames[0]) / (frames[count - 1] - frames[0]) * float(count - 1);
    i = std::min(static_cast<std::uint32_t>(position), count - 2);
    if (frames[i] <= frame && frame < frames[i + 1]) return cursor = i;
    std::uint32_t low = 0, high = count - 1;  // invariant: frames[low] <= frame < frames[high]
    while (high - low > 1) {
        std::uint32_t middle = low + (high - low) / 2;
        if (frames[middle] <= frame)
            low = middle;
        else
            high = middle;
    }
    return cursor = low;
}

// Linear interpolation of scalar keys at `frame`, holding outside the keys. O(1) with a warm
// cursor, O(log keys) otherwise; `count` must be at least 1.
inline float sample_linear(const float* frames, const float* values, std::uint32_t count,
                           float frame, std::uint32_t& cursor) {
    if (!(frame > frames[0])) return values[0];
    if (frame >= frames[count - 1]) return values[count - 1];
    std::uint32_t i = find_key(frames, count, frame, cursor);
    float alpha = (frame - frames[i]) / (frames[i + 1] - frames[i]);
    return values[i] + (values[i + 1] - values[i]) * alpha;
}

// Slerp from `a` to `b` along the shorter arc (b is negated when a · b < 0), normalised.
// One acos, one sqrt, one sine and cosine.
glm::quat shortest_slerp(const glm::quat& a, const glm::quat& b, float alpha);

// Shortest-path slerp of quaternion keys at `frame`, holding outside the keys. Costs as
// sample_linear plus one slerp.
inline glm::quat sample_slerp(const float* frames, const glm::quat* values, std::uint32_t count,
                              float frame, std::uint32_t& cursor) {
    if (!(frame > frames[0])) return values[0];
    if (frame >= frames[count - 1]) return values[count - 1];
    std::uint32_t i = find_key(frames, count, frame, cursor);
    float alpha = (frame - frames[i]) / (frames[i + 1] - frames[i]);
    return shortest_slerp(values[i], values[i + 1], alpha);
}

// `frame` brought into [start, end] by whole periods of (end - start): looped sampling
// (rule 20). Frames already inside the range are returned unchanged; a zero-length range
// returns `frame`.
float wrap_frame(float frame, float start, float end);

// The keys of one Cast Curve, decoded: frames from `kb` (b/h/i), values from `kv` (b/h/i/f for
// scalar channels, v4 XYZW for rq, normalised), sorted by frame.
struct CurveKeys {
    Channel channel = Channel::TranslationX;
    std::vector<float> frames;
    std::vector<float> scalars;        // every channel but rq
    std::vector<glm::quat> rotations;  // rq

    std::size_t size() const { return frames.size(); }
    // The value at `frame` (rq: xyzw; others: x). O(log keys).
    float sample_scalar(float frame) const;
    glm::quat sample_rotation(float frame) const;
};

// Decodes a Curve's keys. Errors: unknown `kp`, missing or empty `kb`/`kv`, a value type the
// channel does not allow, `kb` and `kv` of different lengths, a zero quaternion. Keys out of
// order are sorted (stable) and reported in `warnings`. O(keys) (O(keys log keys) unsorted).
Expected<CurveKeys> read_curve_keys(const cast::ConstCurve& curve, Diagnostics& warnings);

}  // namespace castkit::anim
