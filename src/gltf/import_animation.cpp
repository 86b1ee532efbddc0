// glTF animations into Cast Animations with absolute curves. LINEAR channels whose key times
// fall on whole frames (at the rate castkit's exporter recorded in extras, else 30 fps) keep
// their keys; STEP, CUBICSPLINE and off-frame keys are resampled at every whole frame, with a
// warning, since Cast keys are whole frames interpolated linearly (slerp for rotations).
#include <fmt/format.h>

#include <castkit/anim/curve_sampling.hpp>
#include <cmath>

#include "import_internal.hpp"

namespace castkit::gltf::detail {
namespace {

// One sampler's keys: `width` floats per key (3 per key per triplet for CUBICSPLINE).
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

}  // namespace

Expected<void> Importer::import_animations(cast::Root& root) {
    for (std::size_t a = 0; a < gltf.animations.size(); ++a) {
        const tinygltf::Animation& animation = gltf.animations[a];
        const std::string at = fmt::format("/animations/{}", a);
        float framerate = 30.0f;
        cast::Animation out = root.add_animation();
        out.set_name(animation.name.empty() ? fmt::format("animation{}", a) : animation.name);
        const tinygltf::Value& extras = animation.extras;
        if (extras.IsObject() && extras.Has("castkit_framerate") &&
            extras.Get("castkit_framerate").IsNumber() &&
            extras.Get("castkit_framerate").GetNumberAsDouble() > 0.0)
            framerate = static_cast<float>(extras.Get("castkit_framerate").GetNumberAsDouble());
        out.set_framerate(framerate);
        out.set_looping(extras.IsObject() && extras.Has("castkit_looping") &&
                        extras.Get("castkit_looping").IsBool() &&
                        extras.Get("castkit_looping").Get<bool>());

        for (std::size_t c = 0; c < animation.channels.size(); ++c) {
            const tinygltf::AnimationChannel& channel = animation.channels[c];
            const std::string where = fmt::format("{}/channels/{}", at, c);
            if (channel.sampler < 0 ||
                static_cast<std::size_t>(channel.sampler) >= animation.samplers.size())
                return fail(where + "/sampler",
                            fmt::format("sampler {} does not exist", channel.sampler));
            if (channel.target_node < 0 ||
                static_cast<std::size_t>(channel.target_node) >= gltf.nodes.size()) {
                warn(where + "/target/node", "channel without a target node was dropped");
                continue;
            }
            const tinygltf::AnimationSampler& sampler =
                animation.samplers[static_cast<std::size_t>(channel.sampler)];
            const std::string sampler_at = fmt::format("{}/samplers/{}", at, channel.sampler);
            Track track;
            track.interpolation = sampler.interpolation.empty() ? "LINEAR" : sampler.interpolation;
            if (track.interpolation != "LINEAR" && track.interpolation != "STEP" &&
                track.interpolation != "CUBICSPLINE")
                return fail(sampler_at + "/interpolation",
                            fmt::format("unknown interpolation '{}'", track.interpolation));
            auto times = read_floats(sampler.input, 1, sampler_at + "/input");
            if (!times) return make_error(times.error());
            track.times = std::move(*times);
            if (track.times.empty())
                return fail(sampler_at + "/input", "a sampler needs at least one key");
            for (std::size_t k = 0; k < track.times.size(); ++k)
                if (!std::isfinite(track.times[k]) || track.times[k] < 0.0f ||
                    (k > 0 && !(track.times[k] > track.times[k - 1])))
                    return fail(
                        sampler_at + "/input",
                        fmt::format(
                            "key times must be finite, non-negative and increasing (key {})", k));
            const std::string& property = channel.target_path;
            const std::size_t stride = track.interpolation == "CUBICSPLINE" ? 3 : 1;
            std::size_t width = property == "rotation" ? 4 : property == "weights" ? 0 : 3;
            if (property != "translation" && property != "rotation" && property != "scale" &&
                property != "weights") {
                warn(where + "/target/path",
                     fmt::format("'{}' channels have no Cast equivalent and were dropped",
                                 property));
                continue;
            }
            if (width == 0) {
                // Weights: one value per morph target; the output length tells how many.
                if (sampler.output < 0 ||
                    static_cast<std::size_t>(sampler.output) >= gltf.accessors.size())
                    return fail(sampler_at + "/output",
                                fmt::format("accessor {} does not exist", sampler.output));
                width = gltf.accessors[static_cast<std::size_t>(sampler.output)].count /
                        (track.times.size() * stride);
                if (width == 0) return fail(sampler_at + "/output", "fewer weights than keys");
            }
            auto values =
                read_floats(sampler.output, property == "weights" ? 1 : static_cast<int>(width),
                            sampler_at + "/output");
            if (!values) return make_error(values.error());
            if (values->size() != track.times.size() * stride * width)
                return fail(sampler_at + "/output",
                            fmt::format("{} values where {} keys need {}", values->size(),
                                        track.times.size(), track.times.size() * stride * width));
            track.values = std::move(*values);
            track.width = width;
            track.rotation = property == "rotation";

            // Keys on whole frames stay; anything else is resampled at every whole frame.
            std::vector<std::uint32_t> frames;
            std::vector<std::vector<float>> keys;
            bool exact = track.interpolation == "LINEAR";
            for (std::size_t k = 0; k < track.times.size() && exact; ++k) {
                const double frame = static_cast<double>(track.times[k]) * framerate;
                const double whole = std::round(frame);
                exact = std::abs(frame - whole) < 1e-3 && whole < 4294967295.0 &&
                        (frames.empty() || whole > frames.back());
                if (exact) {
                    frames.push_back(static_cast<std::uint32_t>(whole));
                    keys.emplace_back(track.key(k), track.key(k) + width);
                }
            }
            if (!exact) {
                frames.clear();
                keys.clear();
                const double first =
                    std::ceil(static_cast<double>(track.times.front()) * framerate - 1e-3);
                const double last = std::max(
                    first, std::floor(static_cast<double>(track.times.back()) * framerate + 1e-3));
                if (last - first > 1e7)
                    return fail(sampler_at + "/input",
                                "the key range spans more than ten million frames");
                for (double frame = first; frame <= last; frame += 1.0) {
                    frames.push_back(static_cast<std::uint32_t>(frame));
                    keys.push_back(track.sample(static_cast<float>(frame / framerate)));
                }
                warn(where, fmt::format("{} keys resampled at every whole frame ({} fps)",
                                        track.interpolation, framerate));
            }

            const int node = channel.target_node;
            auto bone = bone_names.find(node);
            const tinygltf::Node& target = gltf.nodes[static_cast<std::size_t>(node)];
            const std::string name = bone != bone_names.end() ? bone->second
                                     : target.name.empty()    ? fmt::format("node{}", node)
                                                              : target.name;
            auto curve = [&](const std::string& node_name, const char* kp) {
                cast::Curve added = out.add_curve();
                added.set_node_name(node_name);
                added.set_key_property(kp);
                added.set_key_frames(frames);
                added.set_mode("absolute");
                return added;
            };
            if (property == "rotation") {
                std::vector<glm::vec4> quaternions(keys.size());
                for (std::size_t k = 0; k < keys.size(); ++k)
                    quaternions[k] = glm::vec4(keys[k][0], keys[k][1], keys[k][2], keys[k][3]);
                curve(name, "rq").set_quaternion_values(quaternions);
            } else if (property == "weights") {
                const auto& names = mesh_target_names[node];
                for (std::size_t t = 0; t < width; ++t) {
                    std::vector<float> weights(keys.size());
                    for (std::size_t k = 0; k < keys.size(); ++k) weights[k] = keys[k][t];
                    curve(t < names.size() ? names[t] : fmt::format("target{}", t), "bs")
                        .set_float_values(weights);
                }
            } else {
                const char* const axes[2][3] = {{"tx", "ty", "tz"}, {"sx", "sy", "sz"}};
                for (std::size_t axis = 0; axis < 3; ++axis) {
                    std::vector<float> component(keys.size());
                    for (std::size_t k = 0; k < keys.size(); ++k) component[k] = keys[k][axis];
                    curve(name, axes[property == "scale"][axis]).set_float_values(component);
                }
            }
        }

        if (extras.IsObject() && extras.Has("castkit_notifications") &&
            extras.Get("castkit_notifications").IsObject()) {
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
    }
    return {};
}

}  // namespace castkit::gltf::detail
