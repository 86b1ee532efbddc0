// The notification (notetrack) keys a clip passes between two frames.
#pragma once

#include <castkit/anim/animation.hpp>
#include <vector>

namespace castkit::anim {

struct NotificationEvent {
    std::uint32_t track = 0;  // index into Animation::notification_tracks
    float frame = 0.0f;       // on the caller's timeline (unwrapped when looped)
};

// The notification keys with from <= frame < to, in time order (ties in track order), so that
// consecutive intervals [a, b), [b, c) report each key once. With `looped` on a looping
// animation the keys repeat every (end_frame - start_frame) frames, a key on end_frame
// coinciding with start_frame of the next cycle (one event when a track keys both). Clears and
// fills `out`.
// O(keys × cycles + events log events).
void collect_notifications(const Animation& animation, float from, float to, bool looped,
                           std::vector<NotificationEvent>& out);

}  // namespace castkit::anim
