// Cast Animations into glTF animations. castkit's evaluator samples the pose at every whole
// frame of the key range (Cast keys are whole frames); each glTF channel then keeps only the
// frames its keys need where linear interpolation (slerp for rotations) of those frames is
// exactly what the evaluator computes, and every frame where it is not:
// - translation, blend weights: any mode, at the union of the keys (sums of linear pieces);
// - rotation: one absolute or relative curve at its keys (rest ⊗ slerp = slerp of rest ⊗ keys);
//   additive or several curves: every frame;
// - scale: no additive curve, at the union of the keys; otherwise every frame;
// - a bone whose parent's scale is animated or non-uniform under segment scale compensation:
//   every channel at every frame (glTF has no compensation, so it is baked into the TRS).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/jobs.hpp>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "export_internal.hpp"

namespace castkit::gltf::detail {
namespace {

// The skeleton an animation is evaluated on when no exported Model has one: its own Skeleton,
// or one root bone per curve name.
ExportedModel animation_skeleton(Exporter& exporter, const cast::ConstAnimation& animation,
                                 const std::string& path) {
    ExportedModel exported;
    if (cast::ConstSkeleton own = animation.skeleton()) {
        Diagnostics reports;
        if (auto built = anim::build_skeleton(own, reports))
            exported.skeleton = std::move(*built);
        else
            exporter.warn(path, built.error().message);
    }
    anim::Skeleton& skeleton = exported.skeleton;
    if (skeleton.bone_count() == 0) {
        std::set<std::string> seen;
        std::vector<std::string> names;
        for (const cast::ConstCurve& curve : animation.curves()) {
            const std::string_view kp = curve.key_property().value_or("");
            if (kp == "bs" || kp == "vb") continue;
            std::string name(curve.node_name().value_or(""));
            if (seen.insert(name).second) names.push_back(std::move(name));
        }
        // Every bone a root: no parent can be out of range or form a cycle.
        const std::vector<std::int32_t> roots(names.size(), -1);
        skeleton = std::move(anim::Skeleton::from_arrays(std::move(names), roots).value());
    }
    tinygltf::Node root;
    root.name = std::string(animation.name().value_or("animation")) + " skeleton";
    exported.node = exporter.add_node(std::move(root), -1);
    exported.bone_nodes.assign(skeleton.bone_count(), -1);
    for (std::uint32_t bone : skeleton.order()) {
        tinygltf::Node joint;
        joint.name = skeleton.names()[bone];
        const anim::Transform t = gltf_local(skeleton, skeleton.rest(), bone);
        joint.translation = {t.translation.x, t.translation.y, t.translation.z};
        joint.rotation = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
        joint.scale = {t.scale.x, t.scale.y, t.scale.z};
        const std::int32_t up = skeleton.parents()[bone];
        exported.bone_nodes[bone] = exporter.add_node(
            std::move(joint),
            up < 0 ? exported.node : exported.bone_nodes[static_cast<std::size_t>(up)]);
    }
    return exported;
}

std::size_t bound_bones(const anim::Skeleton& skeleton, const cast::ConstAnimation& animation) {
    std::size_t count = 0;
    for (const cast::ConstCurve& curve : animation.curves())
        if (skeleton.find_bone(curve.node_name().value_or("")) >= 0) ++count;
    return count;
}

bool is_transform(const cast::ConstCurve& curve) {
    const std::string_view kp = curve.key_property().value_or("");
    return kp != "bs" && kp != "vb";
}

// What sampling one frame costs: a SamplingJob resets every bone and applies every curve.
std::size_t work_per_frame(const anim::Animation& animation, const anim::Skeleton& skeleton) {
    return std::max<std::size_t>(1, skeleton.bone_count() + animation.curves().size());
}

void sort_unique(std::vector<double>& list) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
}

}  // namespace

// One animation's channels for one Model's bones, added to `out` through `add_channel`. The
// pose is sampled at the key frames, and at every whole frame of the key range only when a
// channel needs it; `samples` counts frames × (bones + curves) against the limit. False (with
// `failure` set) when the limit is passed.
bool Exporter::export_bone_channels(const anim::Animation& animation, const ExportedModel& target,
                                    const ChannelSink& add_channel, const std::string& path) {
    const anim::Skeleton& skeleton = target.skeleton;
    const std::size_t bones = skeleton.bone_count();
    const std::size_t per_frame = work_per_frame(animation, skeleton);
    enum Kind { kTranslation, kRotation, kScale };
    struct Keys {
        std::vector<double> frames;  // sorted and made unique before use
        std::size_t curves = 0;
        bool additive = false;
    };
    std::map<std::pair<std::uint32_t, int>, Keys> channels;
    std::vector<std::uint8_t> scale_animated(bones, 0);
    std::vector<double> key_frames;
    for (const anim::BoundCurve& curve : animation.curves()) {
        if (curve.channel == anim::Channel::Visibility ||
            curve.channel == anim::Channel::BlendShape)
            continue;
        const bool rotation = curve.channel == anim::Channel::Rotation;
        const anim::TrackRange range = rotation ? animation.rotation_tracks()[curve.track]
                                                : animation.scalar_tracks()[curve.track];
        const float* frames =
            (rotation ? animation.rotation_frames().data() : animation.scalar_frames().data()) +
            range.first;
        const int kind = rotation                                       ? kRotation
                         : curve.channel <= anim::Channel::TranslationZ ? kTranslation
                                                                        : kScale;
        Keys& keys = channels[{curve.target, kind}];
        keys.frames.insert(keys.frames.end(), frames, frames + range.count);
        key_frames.insert(key_frames.end(), frames, frames + range.count);
        keys.curves += 1;
        keys.additive |= curve.mode == anim::CurveMode::Additive;
        if (kind == kScale) scale_animated[curve.target] = 1;
    }
    if (channels.empty()) return true;
    for (auto& [channel, keys] : channels) sort_unique(keys.frames);
    sort_unique(key_frames);

    // Poses (as glTF local TRS) at `frames`; sheared tells whether compensation under a
    // non-uniform scale was baked at any of them.
    std::vector<double> frames = key_frames;
    std::vector<anim::Transform> poses, locals(bones);
    bool sheared = false;
    anim::SamplingContext context(animation);
    auto sample = [&]() {
        samples += static_cast<std::uint64_t>(frames.size()) * per_frame;
        if (samples > options.max_samples) {
            failure = Diagnostic{
                .severity = Severity::Error,
                .file = file,
                .path = path,
                .rule = "gltf.export",
                .message = fmt::format("sampling the animations needs {} samples (frames x (bones "
                                       "+ curves)), more than the limit of {} "
                                       "(gltf::ExportOptions::max_samples)",
                                       samples, options.max_samples)};
            return false;
        }
        poses.assign(frames.size() * bones, anim::Transform{});
        sheared = false;
        std::vector<float> no_weights(animation.blend_shapes().size());
        std::vector<float> visibility(animation.visibility_nodes().size());
        for (std::size_t f = 0; f < frames.size(); ++f) {
            anim::SamplingJob job{.animation = &animation,
                                  .skeleton = &skeleton,
                                  .frame = static_cast<float>(frames[f]),
                                  .context = &context,
                                  .locals = locals,
                                  .blend_shape_weights = no_weights,
                                  .visibility = visibility};
            if (auto ran = job.run(); !ran) {
                warn(path, fmt::format("animation not exported: {}", ran.error().message));
                return false;
            }
            for (std::size_t bone = 0; bone < bones; ++bone) {
                poses[f * bones + bone] = gltf_local(skeleton, locals, bone);
                if (needs_compensation(skeleton, locals, bone)) {
                    const glm::vec3 s =
                        locals[static_cast<std::size_t>(skeleton.parents()[bone])].scale;
                    sheared |= !(s.x == s.y && s.y == s.z);
                }
            }
        }
        return true;
    };
    if (!sample()) return false;

    // Which channels glTF's linear interpolation of the key frames reproduces exactly.
    auto parent_scale_varies = [&](std::size_t bone) {
        const std::int32_t parent = skeleton.parents()[bone];
        return parent >= 0 && skeleton.segment_scale_compensate()[bone] &&
               scale_animated[static_cast<std::size_t>(parent)] != 0;
    };
    auto baked = [&](std::size_t bone, int kind, const Keys* used) {
        if (parent_scale_varies(bone) || sheared) return true;
        return used != nullptr && !(kind == kTranslation ||
                                    (kind == kRotation && used->curves == 1 && !used->additive) ||
                                    (kind == kScale && !used->additive));
    };
    bool every_frame = false;
    for (std::size_t bone = 0; bone < bones; ++bone)
        for (int kind : {kTranslation, kRotation, kScale}) {
            auto found = channels.find({static_cast<std::uint32_t>(bone), kind});
            const Keys* used = found == channels.end() ? nullptr : &found->second;
            every_frame |=
                (used != nullptr || parent_scale_varies(bone)) && baked(bone, kind, used);
        }
    std::vector<double> every;
    if (every_frame) {
        const double first = std::floor(key_frames.front()), last = std::ceil(key_frames.back());
        const double count = last - first + 1.0;
        const double needed = count * static_cast<double>(per_frame);
        if (needed + static_cast<double>(samples) > static_cast<double>(options.max_samples)) {
            samples += static_cast<std::uint64_t>(std::min(needed, 1e18));
            failure = Diagnostic{
                .severity = Severity::Error,
                .file = file,
                .path = path,
                .rule = "gltf.export",
                .message = fmt::format("baking the animation at every frame needs {} samples "
                                       "(frames x (bones + curves)), more than the limit of {} "
                                       "(gltf::ExportOptions::max_samples)",
                                       needed, options.max_samples)};
            return false;
        }
        for (double frame = first; frame <= last; frame += 1.0) every.push_back(frame);
        frames.insert(frames.end(), every.begin(), every.end());
        sort_unique(frames);
        if (!sample()) return false;
    }
    auto index_of = [&](double frame) {
        return static_cast<std::size_t>(std::lower_bound(frames.begin(), frames.end(), frame) -
                                        frames.begin());
    };

    for (std::size_t bone = 0; bone < bones; ++bone) {
        for (int kind : {kTranslation, kRotation, kScale}) {
            auto found = channels.find({static_cast<std::uint32_t>(bone), kind});
            const Keys* used = found == channels.end() ? nullptr : &found->second;
            const bool bake = baked(bone, kind, used);
            if (used == nullptr && !parent_scale_varies(bone)) continue;
            const std::vector<double>& keys = bake ? every : used->frames;
            if (keys.empty()) continue;
            const int node = target.bone_nodes[bone];
            if (kind == kRotation) {
                std::vector<glm::vec4> values(keys.size());
                glm::quat previous(1.0f, 0.0f, 0.0f, 0.0f);
                for (std::size_t k = 0; k < keys.size(); ++k) {
                    glm::quat q = poses[index_of(keys[k]) * bones + bone].rotation;
                    // Keep neighbours in one hemisphere so any slerp takes the short way.
                    if (k > 0 && glm::dot(previous, q) < 0.0f) q = -q;
                    values[k] = cast::xyzw_from_quat(previous = q);
                }
                add_channel(node, "rotation", keys,
                            add_floats(std::move(values), TINYGLTF_TYPE_VEC4), "LINEAR");
            } else {
                std::vector<glm::vec3> values(keys.size());
                for (std::size_t k = 0; k < keys.size(); ++k) {
                    const anim::Transform& pose = poses[index_of(keys[k]) * bones + bone];
                    values[k] = kind == kTranslation ? pose.translation : pose.scale;
                }
                add_channel(node, kind == kTranslation ? "translation" : "scale", keys,
                            add_floats(std::move(values), TINYGLTF_TYPE_VEC3), "LINEAR");
            }
        }
    }
    if (sheared)
        warn(path,
             "segment scale compensation under a non-uniform parent scale has no glTF equivalent; "
             "the nearest rotation and scale were baked");
    return true;
}

// `vb` curves (ruling 22a) as the named mesh nodes' scale: STEP keys, (0, 0, 0) while hidden,
// the node's own scale while visible, keyed at the first whole frame of the vb keys and wherever
// visibility changes (sampled at every whole frame between the first and last vb key). glTF core
// has no visibility; a scale of 0 hides a node everywhere, which a skinned mesh's node cannot do
// (glTF ignores its transform), so those and names that are no exported mesh are dropped with a
// warning. False (with `failure` set) past the sample limit. O(frames × vb names × meshes).
bool Exporter::export_visibility(const anim::Animation& animation, const anim::Skeleton& skeleton,
                                 const ChannelSink& add_channel, const std::string& path) {
    const std::size_t slots = animation.visibility_nodes().size();
    if (slots == 0) return true;
    std::vector<double> key_frames;
    for (const anim::BoundCurve& curve : animation.curves())
        if (curve.channel == anim::Channel::Visibility) {
            const anim::TrackRange range = animation.scalar_tracks()[curve.track];
            key_frames.insert(key_frames.end(), animation.scalar_frames().begin() + range.first,
                              animation.scalar_frames().begin() + range.first + range.count);
        }
    if (key_frames.empty()) return true;
    sort_unique(key_frames);
    const double first = std::floor(key_frames.front()), last = std::ceil(key_frames.back());
    const double count = last - first + 1.0;
    // Each frame runs a SamplingJob and keeps one value per vb name.
    const double needed = count * static_cast<double>(work_per_frame(animation, skeleton) + slots);
    if (needed + static_cast<double>(samples) > static_cast<double>(options.max_samples)) {
        failure = Diagnostic{
            .severity = Severity::Error,
            .file = file,
            .path = path,
            .rule = "gltf.export",
            .message = fmt::format("sampling visibility at every frame needs {} samples (frames x "
                                   "(bones + curves + vb names)), more than the limit of {} "
                                   "(gltf::ExportOptions::max_samples)",
                                   needed, options.max_samples)};
        return false;
    }
    samples += static_cast<std::uint64_t>(needed);
    std::vector<double> frames;
    for (double frame = first; frame <= last; frame += 1.0) frames.push_back(frame);
    std::vector<float> visibility(frames.size() * slots);
    std::vector<anim::Transform> locals(skeleton.bone_count());
    std::vector<float> weights(animation.blend_shapes().size());
    for (std::size_t f = 0; f < frames.size(); ++f) {
        anim::SamplingJob job{.animation = &animation,
                              .skeleton = &skeleton,
                              .frame = static_cast<float>(frames[f]),
                              .locals = locals,
                              .blend_shape_weights = weights,
                              .visibility = std::span(visibility).subspan(f * slots, slots)};
        if (auto ran = job.run(); !ran) {
            warn(path, fmt::format("visibility not exported: {}", ran.error().message));
            return true;
        }
    }
    for (std::size_t slot = 0; slot < slots; ++slot) {
        const std::string& name = animation.visibility_nodes()[slot];
        bool exported = false;
        for (const ExportedModel& target : models)
            for (const ExportedMesh& mesh : target.meshes) {
                const tinygltf::Node& node = model.nodes[static_cast<std::size_t>(mesh.node)];
                if (node.name != name) continue;
                exported = true;
                if (node.skin >= 0) {
                    warn(path, fmt::format("vb curve of skinned mesh '{}' dropped: glTF ignores "
                                           "a skinned mesh node's scale",
                                           name));
                    continue;
                }
                const glm::vec3 shown = node.scale.size() == 3
                                            ? glm::vec3(static_cast<float>(node.scale[0]),
                                                        static_cast<float>(node.scale[1]),
                                                        static_cast<float>(node.scale[2]))
                                            : glm::vec3(1.0f);
                std::vector<double> keys;
                std::vector<glm::vec3> values;
                bool was_visible = false, hidden = false;
                for (std::size_t f = 0; f < frames.size(); ++f) {
                    const bool visible = anim::is_visible(visibility[f * slots + slot]);
                    hidden |= !visible;
                    if (f > 0 && visible == was_visible) continue;
                    keys.push_back(frames[f]);
                    values.push_back(visible ? shown : glm::vec3(0.0f));
                    was_visible = visible;
                }
                if (hidden)
                    add_channel(mesh.node, "scale", keys,
                                add_floats(std::move(values), TINYGLTF_TYPE_VEC3), "STEP");
            }
        if (!exported)
            warn(path, fmt::format("vb curve of '{}' dropped: glTF can hide only an exported "
                                   "mesh by that name",
                                   name));
    }
    return true;
}

void Exporter::export_animation(const cast::ConstAnimation& cast_animation,
                                const std::string& path) {
    // Every Model whose bones the curves name; a skeleton of its own when none does.
    std::vector<std::size_t> targets;
    for (std::size_t m = 0; m < models.size(); ++m)
        if (bound_bones(models[m].skeleton, cast_animation) > 0) targets.push_back(m);
    bool transforms = false;
    for (const cast::ConstCurve& curve : cast_animation.curves()) transforms |= is_transform(curve);
    if (targets.empty() && transforms) {
        models.push_back(animation_skeleton(*this, cast_animation, path));
        targets.push_back(models.size() - 1);
    }

    std::map<std::vector<double>, int> time_accessors;
    tinygltf::Animation out;
    float framerate = 30.0f;
    auto times = [&](const std::vector<double>& keys) {
        if (auto it = time_accessors.find(keys); it != time_accessors.end()) return it->second;
        std::vector<float> seconds(keys.size());
        for (std::size_t k = 0; k < keys.size(); ++k)
            seconds[k] = static_cast<float>(keys[k] / static_cast<double>(framerate));
        std::vector<double> low{seconds.front()}, high{seconds.back()};
        const int accessor = add_floats(std::move(seconds), TINYGLTF_TYPE_SCALAR, 0, std::move(low),
                                        std::move(high));
        time_accessors.emplace(keys, accessor);
        return accessor;
    };
    const ChannelSink add_channel = [&](int node, const char* property,
                                        const std::vector<double>& keys, int output,
                                        const char* interpolation) {
        tinygltf::AnimationSampler sampler;
        sampler.input = times(keys);
        sampler.output = output;
        sampler.interpolation = interpolation;
        out.samplers.push_back(sampler);
        tinygltf::AnimationChannel channel;
        channel.sampler = static_cast<int>(out.samplers.size() - 1);
        channel.target_node = node;
        channel.target_path = property;
        out.channels.push_back(channel);
    };

    // Compiled once per target skeleton (bone indices differ); the first also gives the blend
    // weights, notifications and the reports not about names (each target would repeat them).
    std::optional<anim::Animation> first;
    const anim::Skeleton empty;
    const anim::Skeleton* first_skeleton = &empty;
    for (std::size_t t = 0; t < std::max<std::size_t>(targets.size(), 1); ++t) {
        const anim::Skeleton& skeleton = targets.empty() ? empty : models[targets[t]].skeleton;
        Diagnostics reports;
        auto built = anim::build_animation(cast_animation, skeleton, {}, reports);
        if (t == 0)
            for (const Diagnostic& r : reports)
                if (r.rule != "anim.unknown-node") warn(path, r.message);
        if (!built) {
            warn(path, fmt::format("animation not exported: {}", built.error().message));
            return;
        }
        // glTF times are float seconds: past 2^23 frames their rounding moves a key by half a
        // frame or more, so the keys would neither keep their frames nor stay in order.
        constexpr float kLastExactFrame = 0x1p23f;
        const float furthest =
            std::max(std::abs(built->start_frame()), std::abs(built->end_frame()));
        if (furthest > kLastExactFrame) {
            warn(path, fmt::format("animation not exported: its keys reach frame {}, and glTF's "
                                   "float seconds keep whole frames only up to frame {}",
                                   furthest, kLastExactFrame));
            return;
        }
        framerate = built->framerate();
        if (!targets.empty() &&
            !export_bone_channels(*built, models[targets[t]], add_channel, path))
            return;
        if (!first) {
            first = std::move(*built);
            first_skeleton = &skeleton;
        }
    }
    const anim::Animation& animation = *first;
    framerate = animation.framerate();

    // Blend weights, at the union of the bs keys (sums of linear pieces), for every mesh of
    // every Model whose morph targets the curves name.
    std::vector<double> weight_frames;
    for (const anim::BoundCurve& curve : animation.curves())
        if (curve.channel == anim::Channel::BlendShape) {
            const anim::TrackRange range = animation.scalar_tracks()[curve.track];
            weight_frames.insert(weight_frames.end(),
                                 animation.scalar_frames().begin() + range.first,
                                 animation.scalar_frames().begin() + range.first + range.count);
        }
    sort_unique(weight_frames);
    std::set<std::string> used_shapes;
    if (!weight_frames.empty()) {
        const std::size_t slots = animation.blend_shapes().size();
        std::vector<float> weights(weight_frames.size() * slots);
        std::vector<anim::Transform> locals(first_skeleton->bone_count());
        std::vector<float> visibility(animation.visibility_nodes().size());
        for (std::size_t f = 0; f < weight_frames.size(); ++f) {
            anim::SamplingJob job{
                .animation = &animation,
                .skeleton = first_skeleton,
                .frame = static_cast<float>(weight_frames[f]),
                .locals = locals,
                .blend_shape_weights = std::span(weights).subspan(f * slots, slots),
                .visibility = visibility};
            if (auto ran = job.run(); !ran) {
                warn(path, fmt::format("animation not exported: {}", ran.error().message));
                return;
            }
        }
        for (const ExportedModel& model_out : models)
            for (const ExportedMesh& mesh : model_out.meshes) {
                std::vector<int> slot_of;
                bool any = false;
                for (const std::string& name : mesh.target_names) {
                    auto it = std::find(animation.blend_shapes().begin(),
                                        animation.blend_shapes().end(), name);
                    slot_of.push_back(
                        it == animation.blend_shapes().end()
                            ? -1
                            : static_cast<int>(it - animation.blend_shapes().begin()));
                    if (slot_of.back() >= 0) used_shapes.insert(name);
                    any |= slot_of.back() >= 0;
                }
                if (!any) continue;
                std::vector<float> values;
                values.reserve(weight_frames.size() * slot_of.size());
                for (std::size_t f = 0; f < weight_frames.size(); ++f)
                    for (std::size_t k = 0; k < slot_of.size(); ++k)
                        values.push_back(
                            slot_of[k] < 0
                                ? mesh.default_weights[k]
                                : weights[f * slots + static_cast<std::size_t>(slot_of[k])]);
                add_channel(mesh.node, "weights", weight_frames,
                            add_floats(std::move(values), TINYGLTF_TYPE_SCALAR), "LINEAR");
            }
    }

    if (!export_visibility(animation, *first_skeleton, add_channel, path)) return;

    // One warning for every curve nothing exported can carry.
    std::set<std::string> unbound;
    for (const cast::ConstCurve& curve : cast_animation.curves()) {
        const std::string name(curve.node_name().value_or(""));
        if (curve.key_property().value_or("") == "vb") continue;
        if (!is_transform(curve)) {
            if (!used_shapes.count(name)) unbound.insert(name);
            continue;
        }
        bool found = false;
        for (std::size_t t : targets) found |= models[t].skeleton.find_bone(name) >= 0;
        if (!found) unbound.insert(name);
    }
    if (!unbound.empty())
        warn(path, fmt::format("curves naming no exported bone or morph target were dropped: {}",
                               fmt::join(unbound, ", ")));

    tinygltf::Value::Object extras{
        {"castkit_framerate", tinygltf::Value(static_cast<double>(animation.framerate()))},
        {"castkit_looping", tinygltf::Value(animation.looping())}};
    if (!animation.notification_tracks().empty()) {
        tinygltf::Value::Object tracks;
        for (const anim::NotificationTrackKeys& track : animation.notification_tracks()) {
            tinygltf::Value::Array frames_array;
            for (float frame : track.frames) frames_array.emplace_back(static_cast<double>(frame));
            tracks[track.name] = tinygltf::Value(std::move(frames_array));
        }
        extras["castkit_notifications"] = tinygltf::Value(std::move(tracks));
    }
    out.name = animation.name();
    out.extras = tinygltf::Value(std::move(extras));
    if (out.channels.empty()) {
        warn(path, "animation has no channel glTF can hold; only its extras were written");
        return;
    }
    model.animations.push_back(std::move(out));
}

}  // namespace castkit::gltf::detail
