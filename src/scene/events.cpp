#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/json.hpp>
#include <castkit/platform.hpp>
#include <castkit/scene/events.hpp>
#include <cmath>
#include <limits>
#include <span>

namespace castkit::scene {
namespace {

// The key range over every curve and notification track, as anim::Animation keeps it.
struct FrameRange {
    double first = std::numeric_limits<double>::infinity();
    double last = -std::numeric_limits<double>::infinity();

    void add(const cast::IndexView& frames) {
        for (std::size_t k = 0; k < frames.size(); ++k) {
            first = std::min(first, static_cast<double>(frames[k]));
            last = std::max(last, static_cast<double>(frames[k]));
        }
    }
};

ClipEvents events_of(const cast::ConstAnimation& animation) {
    ClipEvents clip;
    clip.name = std::string(animation.name().value_or(""));
    // The rate the animation jobs use: 30 when `fr` is missing or unusable.
    if (auto rate = animation.framerate(); rate && std::isfinite(*rate) && *rate > 0.0f)
        clip.framerate = *rate;
    clip.looping = animation.looping();
    FrameRange range;
    for (const cast::ConstCurve& curve : animation.curves()) range.add(curve.key_frames());
    for (const cast::ConstNotificationTrack& track : animation.notification_tracks()) {
        const cast::IndexView frames = track.key_frames();
        range.add(frames);
        for (std::size_t k = 0; k < frames.size(); ++k) {
            const double frame = frames[k];
            clip.events.push_back(
                {std::string(track.name().value_or("")), frame, frame / clip.framerate});
        }
    }
    if (range.first <= range.last) {
        clip.start_frame = range.first;
        clip.end_frame = range.last;
    }
    sort_by_time(clip.events);
    return clip;
}

}  // namespace

void sort_by_time(std::vector<ClipEvent>& events) {
    std::stable_sort(events.begin(), events.end(),
                     [](const ClipEvent& a, const ClipEvent& b) { return a.frame < b.frame; });
}

std::vector<ClipEvents> clip_events(const cast::Document& document) {
    std::vector<ClipEvents> clips;
    for (const cast::ConstAnimation& animation : document.animations())
        clips.push_back(events_of(animation));
    return clips;
}

std::string events_json(const std::vector<ClipEvents>& clips) {
    std::string text;
    json::Writer out(text, 2);
    out.begin_object();
    out.key("castkit_events");
    out.integer(1);  // the layout's version (docs/events.md)
    out.key("clips");
    out.begin_array();
    for (const ClipEvents& clip : clips) {
        out.begin_object();
        out.key("name");
        out.string(clip.name);
        out.key("framerate");
        out.number(clip.framerate);
        out.key("looping");
        out.boolean(clip.looping);
        out.key("start_frame");
        out.number(clip.start_frame);
        out.key("end_frame");
        out.number(clip.end_frame);
        out.key("start_time");
        out.number(clip.start_frame / clip.framerate);
        out.key("end_time");
        out.number(clip.end_frame / clip.framerate);
        out.key("duration");
        out.number((clip.end_frame - clip.start_frame) / clip.framerate);
        out.key("events");
        out.begin_array();
        for (const ClipEvent& event : clip.events) {
            out.begin_object();
            out.key("name");
            out.string(event.name);
            out.key("frame");
            out.number(event.frame);
            out.key("time");
            out.number(event.time);
            out.end_object();
        }
        out.end_array();
        out.end_object();
    }
    out.end_array();
    out.end_object();
    text += '\n';
    return text;
}

std::filesystem::path events_beside(const std::filesystem::path& output) {
    return std::filesystem::path(output).replace_extension(".events.json");
}

Expected<std::filesystem::path> write_events(const cast::Document& document,
                                             const std::filesystem::path& path,
                                             SideOutputs& outputs, Diagnostics& diagnostics) {
    const std::string text = events_json(clip_events(document));
    auto written =
        outputs.write(path, std::as_bytes(std::span<const char>(text.data(), text.size())));
    if (!written) return make_error(written.error());
    if (written->renamed)
        diagnostics.push_back(
            {.severity = Severity::Warning,
             .file = platform::utf8_of(path),
             .path = "",
             .rule = "events.renamed",
             .message = fmt::format("the events were written as '{}': '{}' is a file this run did "
                                    "not write (castkit never replaces one)",
                                    platform::utf8_of(written->path), platform::utf8_of(path))});
    return written->path;
}

}  // namespace castkit::scene
