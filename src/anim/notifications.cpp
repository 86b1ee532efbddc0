#include <algorithm>
#include <castkit/anim/notifications.hpp>
#include <cmath>

namespace castkit::anim {

void collect_notifications(const Animation& animation, float from, float to, bool looped,
                           std::vector<NotificationEvent>& out) {
    out.clear();
    if (!(from < to)) return;
    const float start = animation.start_frame();
    const float period = animation.end_frame() - start;
    const bool wrap = looped && animation.looping() && period > 0.0f;
    if (wrap && !(std::isfinite(from) && std::isfinite(to))) return;
    for (std::uint32_t track = 0; track < animation.notification_tracks().size(); ++track) {
        for (float frame : animation.notification_tracks()[track].frames) {
            if (!wrap) {
                if (from <= frame && frame < to) out.push_back({track, frame});
                continue;
            }
            // The key's place in the first cycle (a key on end_frame is the next cycle's start),
            // then every cycle that falls in [from, to).
            const float first = start + std::fmod(frame - start, period);
            for (double cycle = std::ceil((from - first) / period);; ++cycle) {
                const float time = first + static_cast<float>(cycle * period);
                if (time >= to) break;
                if (time >= from) out.push_back({track, time});
            }
        }
    }
    std::stable_sort(
        out.begin(), out.end(),
        [](const NotificationEvent& a, const NotificationEvent& b) { return a.frame < b.frame; });
    // Keys on both start_frame and end_frame of a track meet at the seam: one event, not two.
    if (wrap)
        out.erase(std::unique(out.begin(), out.end(),
                              [](const NotificationEvent& a, const NotificationEvent& b) {
                                  return a.track == b.track && a.frame == b.frame;
                              }),
                  out.end());
}

}  // namespace castkit::anim
