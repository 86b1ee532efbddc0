// Merging per-axis Cast curves into SEAnim vec3 keys.
#include "axis_tracks.hpp"

#include <algorithm>

namespace castkit::seanim::detail {
namespace {

void sort_by_frame(Track& t) {
    if (std::is_sorted(t.frames.begin(), t.frames.end())) return;
    std::vector<std::size_t> order(t.frames.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](auto a, auto b) { return t.frames[a] < t.frames[b]; });
    Track sorted;
    for (std::size_t i : order) {
        sorted.frames.push_back(t.frames[i]);
        sorted.values.push_back(t.values[i]);
    }
    t = std::move(sorted);
}

// Linear interpolation of a sorted single-value track at `frame`, holding the end keys (rule 20).
double sample(const Track& t, std::uint32_t frame) {
    auto it = std::lower_bound(t.frames.begin(), t.frames.end(), frame);
    if (it == t.frames.begin()) return t.values.front();
    if (it == t.frames.end()) return t.values.back();
    const auto i = static_cast<std::size_t>(it - t.frames.begin());
    if (*it == frame) return t.values[i];
    const double f0 = t.frames[i - 1], f1 = t.frames[i];
    return t.values[i - 1] + (t.values[i] - t.values[i - 1]) * ((frame - f0) / (f1 - f0));
}

}  // namespace

std::vector<Vec3Key> merge_axes(std::array<std::optional<Track>, 3>& tracks, double fallback,
                                bool& at_union) {
    const Track* reference = nullptr;
    for (const auto& t : tracks)
        if (t && reference == nullptr) reference = &*t;
    at_union = false;
    if (reference == nullptr) return {};
    bool same_frames = true;
    for (const auto& t : tracks)
        if (t && t->frames != reference->frames) same_frames = false;
    std::vector<Vec3Key> keys;
    if (same_frames) {
        keys.resize(reference->frames.size());
        for (std::size_t i = 0; i < keys.size(); ++i) {
            keys[i].frame = reference->frames[i];
            for (int axis = 0; axis < 3; ++axis)
                keys[i].value[axis] = tracks[axis] ? tracks[axis]->values[i] : fallback;
        }
        return keys;
    }
    at_union = true;
    std::vector<std::uint32_t> frames;
    for (auto& t : tracks)
        if (t) {
            sort_by_frame(*t);
            frames.insert(frames.end(), t->frames.begin(), t->frames.end());
        }
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    keys.resize(frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        keys[i].frame = frames[i];
        for (int axis = 0; axis < 3; ++axis) {
            const auto& t = tracks[axis];
            keys[i].value[axis] = t && !t->frames.empty() ? sample(*t, frames[i]) : fallback;
        }
    }
    return keys;
}

}  // namespace castkit::seanim::detail
