// The events (notification tracks, the rippers' notetracks) of every clip in a document, in the
// form an engine keys by: each event's name, frame and time in seconds, sorted by time. What
// `castkit convert --events` and `castkit bake --events` write beside their output, and what the
// glTF export writes as `extras.castkit_events` (docs/events.md).
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/io/side_outputs.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace castkit::scene {

struct ClipEvent {
    std::string name;  // the notification track's `n`
    double frame = 0;  // on the clip's timeline
    double time = 0;   // frame / the clip's frame rate, in seconds
};

struct ClipEvents {
    std::string name;        // the Animation's `n` (empty when it has none)
    double framerate = 30;   // `fr` (30 when missing or not a positive number, as the jobs)
    bool looping = false;    // `lo`
    double start_frame = 0;  // the key range over every curve and notification track
    double end_frame = 0;
    std::vector<ClipEvent> events;  // by time, ties in track order
};

// One entry per Animation of `document`, in file order. O(keys + events log events).
std::vector<ClipEvents> clip_events(const cast::Document& document);

// `events` as the sidecar's JSON document (docs/events.md, "The sidecar"). O(events).
std::string events_json(const std::vector<ClipEvents>& clips);

// Writes events_json(clip_events(document)) as `path`, a side output of `outputs`
// (docs/security.md, "What castkit writes"): a file there that this run did not write keeps its
// name and bytes (one holding the same bytes is reused), and the events take the first free
// name, `events-2.json`, with an `events.renamed` warning in `diagnostics`. Returns the file
// that holds them. O(events + size of a file already there).
Expected<std::filesystem::path> write_events(const cast::Document& document,
                                             const std::filesystem::path& path,
                                             SideOutputs& outputs, Diagnostics& diagnostics);

// Where `--events-beside` puts the events of `output`: beside it, its extension replaced by
// `.events.json` (out/hero.glb: out/hero.events.json). O(length).
std::filesystem::path events_beside(const std::filesystem::path& output);

// `events` sorted by time, ties kept in the order given (track order). O(n log n).
void sort_by_time(std::vector<ClipEvent>& events);

}  // namespace castkit::scene
