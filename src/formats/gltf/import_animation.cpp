// glTF animations into Cast Animations with absolute curves. Each animation gets the frame rate
// at which all its key times are whole frames (the rate castkit's exporter recorded in extras,
// else the first common rate that fits), so LINEAR keys keep their own times; STEP and
// CUBICSPLINE channels, which Cast cannot interpolate, are resampled at every frame, with one
// warning per animation.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <castkit/anim/curve_sampling.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "import_internal.hpp"

namespace castkit::gltf::detail {

// One sampler's keys: `width` floats per key (3 per key per triplet for CUBICSPLINE). Outside
// the anonymous namespace, since Importer::DecodedChannel holds one.
struct Track {
    std::vector<float> times;
    std::vector<float> values;
    std::size_t width = 0;
    std::string interpolation;
    bool rotation = false;

    const float* key(std::size_t k) const {
        const std::size_t stride = interpolation == "CUBICSPLINE" ? 3 : 1;
        return values.data() + (k * stride + (stride == 3 ? 1 : 0)) * width;
    }
    // The value at `time` as glTF defines each interpolation; holds outside the keys.
    std::vector<float> sample(float time) const {
        const std::size_t n = times.size();
        std::vector<float> out(width);
        std::size_t k = 0;
        if (time <= times[0])
            k = 0;
        else if (time >= times[n - 1])
            k = n - 1;
        else
            while (k + 1 < n && times[k + 1] <= time) ++k;
        if (k + 1 >= n || time <= times[0] || interpolation == "STEP") {
            std::copy(key(k), key(k) + width, out.begin());
            return out;
        }
        const float span = times[k + 1] - times[k];
        const float s = (time - times[k]) / span;
        if (interpolation == "CUBICSPLINE") {
            const float* v0 = key(k);
            const float* v1 = key(k + 1);
            const float* out_tangent = v0 + width;  // b_k
            const float* in_tangent = v1 - width;   // a_{k+1}
            const float s2 = s * s, s3 = s2 * s;
            for (std::size_t c = 0; c < width; ++c)
                out[c] = (2 * s3 - 3 * s2 + 1) * v0[c] + (s3 - 2 * s2 + s) * span * out_tangent[c] +
                         (-2 * s3 + 3 * s2) * v1[c] + (s3 - s2) * span * in_tangent[c];
        } else if (rotation) {
            const glm::quat q = anim::shortest_slerp(
                glm::quat(key(k)[3], key(k)[0], key(k)[1], key(k)[2]),
                glm::quat(key(k + 1)[3], key(k + 1)[0], key(k + 1)[1], key(k + 1)[2]), s);
            return {q.x, q.y, q.z, q.w};
        } else {
            for (std::size_t c = 0; c < width; ++c)
                out[c] = key(k)[c] + (key(k + 1)[c] - key(k)[c]) * s;
        }
        if (rotation) {
            const glm::quat q = glm::normalize(glm::quat(out[3], out[0], out[1], out[2]));
            out = {q.x, q.y, q.z, q.w};
        }
        return out;
    }
};

// One channel, decoded and checked.
struct Importer::DecodedChannel {
    Track track;
    int node = -1;
    std::string property;
    std::string where;
};

namespace {

using DecodedChannel = Importer::DecodedChannel;

// The frame rate at which every key time of the animation lands on a whole frame (within
// float precision): the rate castkit's exporter recorded, then common rates. 0 when none fits.
// O(keys × rates).
double fitting_rate(const std::vector<DecodedChannel>& channels, double recorded) {
    const double candidates[] = {recorded, 30, 24, 25, 60, 50, 48, 120, 240, 1000};
    for (double rate : candidates) {
        if (!(rate > 0.0)) continue;
        bool fits = true;
        for (const DecodedChannel& channel : channels)
            for (float time : channel.track.times) {
                const double frame = static_cast<double>(time) * rate;
                // A float time carries about 24 bits: allow its rounding, scaled to frames.
                const double tolerance = 1e-3 + std::abs(frame) * 0x1p-22;
                if (std::abs(frame - std::round(frame)) > tolerance) {
                    fits = false;
                    break;
                }
            }
        if (fits) return rate;
    }
    return 0.0;
}

// A new absolute curve of `animation` keying `kp` of `node_name` at `frames`; the caller sets
// its values.
cast::Curve add_absolute_curve(cast::Animation& animation, const std::string& node_name,
                               cast::KeyProperty kp, const std::vector<std::uint32_t>& frames) {
    cast::Curve added = animation.add_curve();
    added.set_node_name(node_name);
    added.set_key_property(kp);
    added.set_key_frames(frames);
    added.set_mode(cast::CurveMode::Absolute);
    return added;
}

// The frame rate castkit's exporter recorded in the animation's extras; 0 when none.
double recorded_framerate(const tinygltf::Value& extras) {
    if (extras.IsObject() && extras.Has("castkit_framerate") &&
        extras.Get("castkit_framerate").IsNumber() &&
        extras.Get("castkit_framerate").GetNumberAsDouble() > 0.0)
        return extras.Get("castkit_framerate").GetNumberAsDouble();
    return 0.0;
}

// Whether castkit's exporter recorded the animation as looping in its extras.
bool recorded_looping(const tinygltf::Value& extras) {
    return extras.IsObject() && extras.Has("castkit_looping") &&
           extras.Get("castkit_looping").IsBool() && extras.Get("castkit_looping").Get<bool>();
}

// The index of the first key time that is not finite, negative or after its predecessor;
// nullopt when all are fine.
std::optional<std::size_t> bad_key_time(const std::vector<float>& times) {
    for (std::size_t k = 0; k < times.size(); ++k)
        if (!std::isfinite(times[k]) || times[k] < 0.0f || (k > 0 && !(times[k] > times[k - 1])))
            return k;
    return std::nullopt;
}

// A frame number at `framerate` for key time `time` (seconds), rounded to the nearest frame.
std::uint32_t frame_of(float time, double framerate) {
    return static_cast<std::uint32_t>(std::round(static_cast<double>(time) * framerate));
}

// A LINEAR track's own keys at their frames (`width` values per frame in `keys`).
void linear_keys(const Track& track, double framerate, std::vector<std::uint32_t>& frames,
                 std::vector<float>& keys) {
    frames.reserve(track.times.size());
    keys.reserve(track.times.size() * track.width);
    for (std::size_t k = 0; k < track.times.size(); ++k) {
        const std::uint32_t frame = frame_of(track.times[k], framerate);
        // Rounding at 1000 fps can merge keys less than a millisecond apart.
        if (!frames.empty() && frame <= frames.back()) continue;
        frames.push_back(frame);
        keys.insert(keys.end(), track.key(k), track.key(k) + track.width);
    }
}

// The time a track is sampled at for `frame`: the frame's own time, for STEP nudged past the few
// float steps by which a key meant for that frame can follow it. glTF stores times as float32,
// so a key on a frame may be stored just after it (gltfpack's key at 201/120 s reads
// 1.67500007, after the frame's 1.67499995); sampled at the frame's time, a STEP channel would
// show that key's value one frame late, or never when it is the last. A CUBICSPLINE channel is
// continuous there and is sampled where the frame is.
float frame_sample_time(const Track& track, std::uint32_t frame, double framerate) {
    const auto time = static_cast<float>(frame / framerate);
    if (track.interpolation != "STEP") return time;
    return time + std::max(1e-6f, std::abs(time) * 4 * std::numeric_limits<float>::epsilon());
}

// A track sampled at `count` whole frames from `first` (`width` values per frame in `keys`).
void every_frame_keys(const Track& track, double framerate, std::uint32_t first,
                      std::uint64_t count, std::vector<std::uint32_t>& frames,
                      std::vector<float>& keys) {
    frames.reserve(count);
    keys.reserve(count * track.width);
    for (std::uint64_t f = 0; f < count; ++f) {
        const auto frame = static_cast<std::uint32_t>(first + f);
        frames.push_back(frame);
        const std::vector<float> value = track.sample(frame_sample_time(track, frame, framerate));
        keys.insert(keys.end(), value.begin(), value.end());
    }
}

// Component `component` of every frame's `width` values.
std::vector<float> component_values(const std::vector<float>& keys, std::size_t frames,
                                    std::size_t width, std::size_t component) {
    std::vector<float> values(frames);
    for (std::size_t k = 0; k < frames; ++k) values[k] = keys[k * width + component];
    return values;
}

// A frame number of the extras as a Cast key frame; nullopt for anything else.
std::optional<std::uint32_t> key_frame_of(const tinygltf::Value& value) {
    if (!value.IsNumber()) return std::nullopt;
    const double frame = value.GetNumberAsDouble();
    if (!(frame >= 0.0 && frame <= double(std::numeric_limits<std::uint32_t>::max())))
        return std::nullopt;
    return static_cast<std::uint32_t>(std::lround(frame));
}

// The events list engines read (`castkit_events`: [{name, frame, time}], by time) as
// notification tracks, one per name in the order names first appear, each key in frame order.
void add_events(cast::Animation& out, const tinygltf::Value& events) {
    std::vector<std::pair<std::string, std::vector<std::uint32_t>>> tracks;
    for (std::size_t k = 0; k < events.ArrayLen(); ++k) {
        const tinygltf::Value& event = events.Get(static_cast<int>(k));
        if (!event.IsObject() || !event.Get("name").IsString()) continue;
        const std::optional<std::uint32_t> frame = key_frame_of(event.Get("frame"));
        if (!frame) continue;
        const std::string& name = event.Get("name").Get<std::string>();
        auto track = std::find_if(tracks.begin(), tracks.end(),
                                  [&](const auto& named) { return named.first == name; });
        if (track == tracks.end()) track = tracks.insert(tracks.end(), {name, {}});
        track->second.push_back(*frame);
    }
    for (auto& [name, frames] : tracks) {
        std::sort(frames.begin(), frames.end());
        cast::NotificationTrack notification = out.add_notification_track();
        notification.set_name(name);
        notification.set_key_frames(frames);
    }
}

// The notification tracks castkit's exporter recorded in the animation's extras: its own
// layout, else the events list (a file another tool wrote with only that).
void add_notifications(cast::Animation& out, const tinygltf::Value& extras) {
    if (!extras.IsObject()) return;
    if (!extras.Has("castkit_notifications") || !extras.Get("castkit_notifications").IsObject()) {
        if (extras.Has("castkit_events") && extras.Get("castkit_events").IsArray())
            add_events(out, extras.Get("castkit_events"));
        return;
    }
    const tinygltf::Value& tracks = extras.Get("castkit_notifications");
    for (const std::string& track_name : tracks.Keys()) {
        const tinygltf::Value& list = tracks.Get(track_name);
        if (!list.IsArray()) continue;
        std::vector<std::uint32_t> frames;
        for (std::size_t k = 0; k < list.ArrayLen(); ++k)
            if (list.Get(static_cast<int>(k)).IsNumber() &&
                list.Get(static_cast<int>(k)).GetNumberAsDouble() >= 0.0)
                frames.push_back(static_cast<std::uint32_t>(
                    std::lround(list.Get(static_cast<int>(k)).GetNumberAsDouble())));
        cast::NotificationTrack notification = out.add_notification_track();
        notification.set_name(track_name);
        if (!frames.empty()) notification.set_key_frames(frames);
    }
}

}  // namespace

void Importer::add_rest_curves(cast::Animation& out, const std::vector<AnimatedPart>& animated,
                               double framerate) {
    if (rest_curves.empty()) return;
    // At the animation's first key, so the clip's range stays what the file says.
    double first = 0.0;
    for (std::size_t k = 0; k < animated.size(); ++k)
        first = k == 0 ? animated[k].first_time : std::min(first, animated[k].first_time);
    const std::vector<std::uint32_t> frames{
        static_cast<std::uint32_t>(std::round(first * framerate))};
    std::set<std::pair<int, std::string>> moving;
    for (const AnimatedPart& part : animated) moving.emplace(part.node, part.property);
    auto moved = [&](int node, const char* property) { return moving.contains({node, property}); };
    auto curve = [&](int node, cast::KeyProperty kp, float value) {
        add_absolute_curve(out, bone_names.at(node), kp, frames)
            .set_float_values(std::vector<float>{value});
    };
    for (const auto& [node, rest] : rest_curves) {
        if (!bone_names.contains(node)) continue;
        if (rest.translation && !moved(node, "translation"))
            for (int axis = 0; axis < 3; ++axis)
                curve(node, cast::kTranslationKeys[static_cast<std::size_t>(axis)],
                      rest.rest.translation[axis]);
        if (rest.rotation && !moved(node, "rotation"))
            add_absolute_curve(out, bone_names.at(node), cast::KeyProperty::Rotation, frames)
                .set_quaternion_values(
                    std::vector<glm::vec4>{cast::xyzw_from_quat(rest.rest.rotation)});
        if (rest.scale && !moved(node, "scale"))
            for (int axis = 0; axis < 3; ++axis)
                curve(node, cast::kScaleKeys[static_cast<std::size_t>(axis)],
                      rest.rest.scale[axis]);
    }
}

Expected<void> Importer::import_animations(cast::Root& root) {
    std::uint64_t resampled_keys = 0;
    for (std::size_t a = 0; a < gltf.animations.size(); ++a)
        if (auto imported = import_animation(root, a, resampled_keys); !imported) return imported;
    return {};
}

Expected<void> Importer::import_animation(cast::Root& root, std::size_t a,
                                          std::uint64_t& resampled_keys) {
    const tinygltf::Animation& animation = gltf.animations[a];
    const std::string at = fmt::format("/animations/{}", a);
    cast::Animation out = root.add_animation();
    out.set_name(animation.name.empty() ? fmt::format("animation{}", a) : animation.name);
    const double recorded = recorded_framerate(animation.extras);
    out.set_looping(recorded_looping(animation.extras));

    auto decoded = decode_channels(animation, at);
    if (!decoded) return make_error(decoded.error());
    // One rate for the whole animation, so that every key keeps its own time.
    double framerate = fitting_rate(*decoded, recorded);
    const bool rounded = framerate == 0.0;
    if (rounded) framerate = 1000.0;
    out.set_framerate(static_cast<float>(framerate));
    std::size_t resampled = 0;
    for (const DecodedChannel& channel : *decoded)
        if (auto added = add_channel_curves(out, channel, framerate, resampled_keys, resampled);
            !added)
            return added;
    std::vector<AnimatedPart> parts;
    for (const DecodedChannel& channel : *decoded)
        parts.push_back({channel.node, channel.property, channel.track.times.front()});
    add_rest_curves(out, parts, framerate);
    if (rounded)
        warn(at,
             "key times fit no common frame rate; they were rounded to the nearest "
             "millisecond (1000 fps)");
    if (resampled > 0)
        warn(at, fmt::format("{} STEP or CUBICSPLINE channel{} resampled at every frame "
                             "({} fps): Cast interpolates keys linearly",
                             resampled, resampled == 1 ? "" : "s", framerate));
    add_notifications(out, animation.extras);
    return {};
}

Expected<std::vector<Importer::DecodedChannel>> Importer::decode_channels(
    const tinygltf::Animation& animation, const std::string& at) {
    std::vector<DecodedChannel> decoded;
    std::vector<std::string> unbound;  // animated nodes that are neither bones nor meshes
    for (std::size_t c = 0; c < animation.channels.size(); ++c)
        if (auto read = decode_channel(animation, c, at, decoded, unbound); !read)
            return make_error(read.error());
    if (!unbound.empty()) {
        std::sort(unbound.begin(), unbound.end());
        unbound.erase(std::unique(unbound.begin(), unbound.end()), unbound.end());
        warn(at, fmt::format("channels of nodes that are neither joints nor above a mesh have "
                             "no Cast equivalent and were dropped: {}",
                             fmt::join(unbound, ", ")));
    }
    return decoded;
}

Expected<void> Importer::decode_channel(const tinygltf::Animation& animation, std::size_t c,
                                        const std::string& at, std::vector<DecodedChannel>& decoded,
                                        std::vector<std::string>& unbound) {
    const tinygltf::AnimationChannel& channel = animation.channels[c];
    DecodedChannel out;
    out.where = fmt::format("{}/channels/{}", at, c);
    if (channel.sampler < 0 ||
        static_cast<std::size_t>(channel.sampler) >= animation.samplers.size())
        return fail(out.where + "/sampler",
                    fmt::format("sampler {} does not exist", channel.sampler));
    if (channel.target_node < 0 ||
        static_cast<std::size_t>(channel.target_node) >= gltf.nodes.size()) {
        warn(out.where + "/target/node", "channel without a target node was dropped");
        return {};
    }
    const tinygltf::AnimationSampler& sampler =
        animation.samplers[static_cast<std::size_t>(channel.sampler)];
    const std::string sampler_at = fmt::format("{}/samplers/{}", at, channel.sampler);
    if (auto read = read_key_times(sampler, sampler_at, out); !read) return read;
    out.property = channel.target_path;
    if (out.property != "translation" && out.property != "rotation" && out.property != "scale" &&
        out.property != "weights") {
        warn(out.where + "/target/path",
             fmt::format("'{}' channels have no Cast equivalent and were dropped", out.property));
        return {};
    }
    out.node = channel.target_node;
    // Nodes of scenes other than the imported one: select_scene's warning names them.
    if (!in_scene[static_cast<std::size_t>(out.node)]) return {};
    if (out.property != "weights" && !bone_names.count(out.node)) {
        const tinygltf::Node& target = gltf.nodes[static_cast<std::size_t>(out.node)];
        // A file without meshes is an animation on its own, as Cast animation files are: its
        // curves name their nodes and bind to whichever model they are played on.
        if (!gltf.meshes.empty()) {
            unbound.push_back(target.name.empty() ? fmt::format("node{}", out.node) : target.name);
            return {};
        }
        bone_name(out.node);
    }
    if (auto read = read_key_values(sampler, sampler_at, out); !read) return read;
    decoded.push_back(std::move(out));
    return {};
}

Expected<void> Importer::read_key_times(const tinygltf::AnimationSampler& sampler,
                                        const std::string& sampler_at, DecodedChannel& channel) {
    Track& track = channel.track;
    track.interpolation = sampler.interpolation.empty() ? "LINEAR" : sampler.interpolation;
    if (track.interpolation != "LINEAR" && track.interpolation != "STEP" &&
        track.interpolation != "CUBICSPLINE")
        return fail(sampler_at + "/interpolation",
                    fmt::format("unknown interpolation '{}'", track.interpolation));
    auto times = read_floats(sampler.input, 1, sampler_at + "/input");
    if (!times) return make_error(times.error());
    track.times = std::move(*times);
    if (track.times.empty()) return fail(sampler_at + "/input", "a sampler needs at least one key");
    if (const auto bad = bad_key_time(track.times))
        return fail(
            sampler_at + "/input",
            fmt::format("key times must be finite, non-negative and increasing (key {})", *bad));
    return {};
}

Expected<void> Importer::read_key_values(const tinygltf::AnimationSampler& sampler,
                                         const std::string& sampler_at, DecodedChannel& channel) {
    Track& track = channel.track;
    const std::string& property = channel.property;
    const std::size_t stride = track.interpolation == "CUBICSPLINE" ? 3 : 1;
    std::size_t width = property == "rotation" ? 4 : property == "weights" ? 0 : 3;
    if (width == 0) {
        // Weights: one value per morph target; the output length tells how many.
        if (sampler.output < 0 || static_cast<std::size_t>(sampler.output) >= gltf.accessors.size())
            return fail(sampler_at + "/output",
                        fmt::format("accessor {} does not exist", sampler.output));
        width = gltf.accessors[static_cast<std::size_t>(sampler.output)].count /
                (track.times.size() * stride);
        if (width == 0) return fail(sampler_at + "/output", "fewer weights than keys");
    }
    auto values = read_floats(sampler.output, property == "weights" ? 1 : static_cast<int>(width),
                              sampler_at + "/output");
    if (!values) return make_error(values.error());
    if (values->size() != track.times.size() * stride * width)
        return fail(sampler_at + "/output",
                    fmt::format("{} values where {} keys need {}", values->size(),
                                track.times.size(), track.times.size() * stride * width));
    track.values = std::move(*values);
    track.width = width;
    track.rotation = property == "rotation";
    return {};
}

Expected<void> Importer::add_channel_curves(cast::Animation& out, const DecodedChannel& channel,
                                            double framerate, std::uint64_t& resampled_keys,
                                            std::size_t& resampled) {
    const Track& track = channel.track;
    const double last_frame = std::round(static_cast<double>(track.times.back()) * framerate);
    if (last_frame >= 4294967295.0)
        return fail(channel.where,
                    fmt::format("a key at {} s is past the last Cast frame at {} fps",
                                track.times.back(), framerate));
    std::vector<std::uint32_t> frames;
    std::vector<float> keys;  // `width` values per frame
    if (track.interpolation == "LINEAR") {
        linear_keys(track, framerate, frames, keys);
    } else {
        // STEP and CUBICSPLINE: every frame from the first key to the last (the keys themselves
        // among them), checked against the limit before anything is made.
        const std::uint32_t first = frame_of(track.times.front(), framerate);
        const auto count = static_cast<std::uint64_t>(last_frame) - first + 1;
        resampled_keys += count;
        if (resampled_keys > options.max_keys)
            return fail(channel.where,
                        fmt::format("resampling would create {} keys, more than the limit of {} "
                                    "(gltf::ReadOptions::max_keys)",
                                    resampled_keys, options.max_keys));
        every_frame_keys(track, framerate, first, count, frames, keys);
        ++resampled;
    }
    add_curves(out, channel, frames, keys);
    return {};
}

void Importer::add_curves(cast::Animation& out, const DecodedChannel& channel,
                          const std::vector<std::uint32_t>& frames,
                          const std::vector<float>& keys) {
    const std::size_t width = channel.track.width;
    if (channel.property == "rotation") {
        std::vector<glm::vec4> quaternions(frames.size());
        for (std::size_t k = 0; k < frames.size(); ++k)
            quaternions[k] =
                glm::vec4(keys[k * 4], keys[k * 4 + 1], keys[k * 4 + 2], keys[k * 4 + 3]);
        add_absolute_curve(out, bone_names[channel.node], cast::KeyProperty::Rotation, frames)
            .set_quaternion_values(quaternions);
    } else if (channel.property == "weights") {
        const auto& names = mesh_target_names[channel.node];
        for (std::size_t t = 0; t < width; ++t)
            add_absolute_curve(out, t < names.size() ? names[t] : fmt::format("target{}", t),
                               cast::KeyProperty::BlendShape, frames)
                .set_float_values(component_values(keys, frames.size(), width, t));
    } else {
        const auto& axes = channel.property == "scale" ? cast::kScaleKeys : cast::kTranslationKeys;
        for (std::size_t axis = 0; axis < 3; ++axis)
            add_absolute_curve(out, bone_names[channel.node], axes[axis], frames)
                .set_float_values(component_values(keys, frames.size(), 3, axis));
    }
}

}  // namespace castkit::gltf::detail
