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

#include <algorithm>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/jobs.hpp>
#include <map>
#include <set>
#include <vector>

#include "export_internal.hpp"

namespace castkit::gltf::detail {
namespace {

// The skeleton an animation is evaluated on when no exported Model has one: its own Skeleton,
// or one root bone per curve name.
ExportedModel animation_skeleton(Exporter& exporter, const cast::Animation& animation,
                                 const std::string& path) {
    ExportedModel exported;
    if (cast::Skeleton own = animation.skeleton()) {
        Diagnostics reports;
        if (auto built = anim::build_skeleton(own, reports))
            exported.skeleton = std::move(*built);
        else
            exporter.warn(path, built.error().message);
    }
    anim::Skeleton& skeleton = exported.skeleton;
    if (skeleton.bone_count() == 0) {
        std::set<std::string> seen;
        for (const cast::Curve& curve : animation.curves()) {
            const std::string_view kp = curve.key_property().value_or("");
            if (kp == "bs" || kp == "vb") continue;
            std::string name(curve.node_name().value_or(""));
            if (!seen.insert(name).second) continue;
            skeleton.names.push_back(name);
            skeleton.parents.push_back(-1);
            skeleton.segment_scale_compensate.push_back(1);
            skeleton.rest.emplace_back();
        }
        (void)skeleton.finalize();
    }
    tinygltf::Node root;
    root.name = std::string(animation.name().value_or("animation")) + " skeleton";
    exported.node = exporter.add_node(std::move(root), -1);
    exported.bone_nodes.assign(skeleton.bone_count(), -1);
    for (std::uint32_t bone : skeleton.order) {
        tinygltf::Node joint;
        joint.name = skeleton.names[bone];
        const anim::Transform t = gltf_local(skeleton, skeleton.rest, bone);
        joint.translation = {t.translation.x, t.translation.y, t.translation.z};
        joint.rotation = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
        joint.scale = {t.scale.x, t.scale.y, t.scale.z};
        const std::int32_t up = skeleton.parents[bone];
        exported.bone_nodes[bone] = exporter.add_node(
            std::move(joint),
            up < 0 ? exported.node : exported.bone_nodes[static_cast<std::size_t>(up)]);
    }
    return exported;
}

std::size_t bound_bones(const anim::Skeleton& skeleton, const cast::Animation& animation) {
    std::size_t count = 0;
    for (const cast::Curve& curve : animation.curves())
        if (skeleton.find_bone(curve.node_name().value_or("")) >= 0) ++count;
    return count;
}

// `vb` curves (ruling 22a) as the named mesh nodes' scale: STEP keys, (0, 0, 0) while hidden,
// the node's own scale while visible, keyed at the first frame and wherever visibility changes
// (sampled at whole frames like every channel). glTF core has no visibility; a scale of 0 hides
// a node everywhere, which a skinned mesh's node cannot do (glTF ignores its transform), so
// those and names that are no exported mesh are dropped with a warning. O(frames × vb names).
template <class AddScale>
void export_visibility(Exporter& exporter, const ExportedModel& target,
                       const anim::Animation& animation, const std::vector<float>& visibility,
                       std::uint32_t first, std::size_t frames, const std::string& path,
                       AddScale add_scale) {
    const std::size_t slots = animation.visibility_nodes.size();
    for (std::size_t slot = 0; slot < slots; ++slot) {
        const std::string& name = animation.visibility_nodes[slot];
        bool exported = false;
        for (const ExportedMesh& mesh : target.meshes) {
            const tinygltf::Node& node = exporter.model.nodes[static_cast<std::size_t>(mesh.node)];
            if (node.name != name) continue;
            if (node.skin >= 0) {
                exporter.warn(path, fmt::format("vb curve of skinned mesh '{}' dropped: glTF "
                                                "ignores a skinned mesh node's scale",
                                                name));
                exported = true;
                continue;
            }
            const glm::vec3 shown = node.scale.size() == 3
                                        ? glm::vec3(static_cast<float>(node.scale[0]),
                                                    static_cast<float>(node.scale[1]),
                                                    static_cast<float>(node.scale[2]))
                                        : glm::vec3(1.0f);
            std::vector<std::uint32_t> keys;
            std::vector<glm::vec3> values;
            bool was_visible = false, hidden = false;
            for (std::size_t f = 0; f < frames; ++f) {
                const bool visible = anim::is_visible(visibility[f * slots + slot]);
                hidden |= !visible;
                if (f > 0 && visible == was_visible) continue;
                keys.push_back(first + static_cast<std::uint32_t>(f));
                values.push_back(visible ? shown : glm::vec3(0.0f));
                was_visible = visible;
            }
            exported = true;
            if (hidden) add_scale(mesh.node, keys, std::move(values));
        }
        if (!exported)
            exporter.warn(path, fmt::format("vb curve of '{}' dropped: glTF can hide only an "
                                            "exported mesh by that name",
                                            name));
    }
}

}  // namespace

void Exporter::export_animation(const cast::Animation& cast_animation, const std::string& path) {
    ExportedModel* target = nullptr;
    std::size_t best = 0;
    for (ExportedModel& candidate : models)
        if (std::size_t bound = bound_bones(candidate.skeleton, cast_animation); bound > best) {
            best = bound;
            target = &candidate;
        }
    if (target == nullptr) {
        models.push_back(animation_skeleton(*this, cast_animation, path));
        target = &models.back();
    }
    const anim::Skeleton& skeleton = target->skeleton;
    Diagnostics reports;
    auto built = anim::build_animation(cast_animation, skeleton, {}, reports);
    for (Diagnostic& report : reports) warn(path, report.message);
    if (!built) {
        warn(path, fmt::format("animation not exported: {}", built.error().message));
        return;
    }
    const anim::Animation& animation = *built;

    // The pose (as glTF local TRS) and blend weights at every whole frame of the key range.
    const auto first =
        static_cast<std::uint32_t>(std::max(0.0f, std::floor(animation.start_frame)));
    const auto last = static_cast<std::uint32_t>(std::max(0.0f, std::ceil(animation.end_frame)));
    const std::size_t bones = skeleton.bone_count(), frames = last - first + 1;
    std::vector<anim::Transform> poses(frames * bones), locals(bones);
    std::vector<float> weights(frames * animation.blend_shapes.size());
    std::vector<float> visibility(frames * animation.visibility_nodes.size());
    anim::SamplingContext context(animation);
    bool sheared = false;
    for (std::size_t f = 0; f < frames; ++f) {
        anim::SamplingJob job{.animation = &animation,
                              .skeleton = &skeleton,
                              .frame = static_cast<float>(first + f),
                              .context = &context,
                              .locals = locals,
                              .blend_shape_weights = std::span(weights).subspan(
                                  f * animation.blend_shapes.size(), animation.blend_shapes.size()),
                              .visibility = std::span(visibility)
                                                .subspan(f * animation.visibility_nodes.size(),
                                                         animation.visibility_nodes.size())};
        if (auto ran = job.run(); !ran) {
            warn(path, fmt::format("animation not exported: {}", ran.error().message));
            return;
        }
        for (std::size_t bone = 0; bone < bones; ++bone) {
            poses[f * bones + bone] = gltf_local(skeleton, locals, bone);
            if (needs_compensation(skeleton, locals, bone)) {
                const glm::vec3 s = locals[static_cast<std::size_t>(skeleton.parents[bone])].scale;
                sheared |= !(s.x == s.y && s.y == s.z);
            }
        }
    }
    if (sheared)
        warn(path,
             "segment scale compensation under a non-uniform parent scale has no glTF equivalent; "
             "the nearest rotation and scale were baked");

    // Which curves touch each bone's channels.
    enum Kind { kTranslation, kRotation, kScale };
    struct Keys {
        std::vector<std::uint32_t> frames;  // sorted and made unique before use
        std::size_t curves = 0;
        bool additive = false;
    };
    std::map<std::pair<std::uint32_t, int>, Keys> channels;
    std::vector<std::uint8_t> scale_animated(bones, 0);
    std::vector<std::uint32_t> weight_frames;
    for (const anim::BoundCurve& curve : animation.curves) {
        const bool rotation = curve.channel == anim::Channel::Rotation;
        if (curve.channel == anim::Channel::Visibility) continue;
        const anim::TrackRange range = rotation ? animation.rotation_tracks[curve.track]
                                                : animation.scalar_tracks[curve.track];
        const float* key_frames =
            (rotation ? animation.rotation_frames.data() : animation.scalar_frames.data()) +
            range.first;
        if (curve.channel == anim::Channel::BlendShape) {
            for (std::uint32_t k = 0; k < range.count; ++k)
                weight_frames.push_back(static_cast<std::uint32_t>(key_frames[k]));
            continue;
        }
        const int kind = rotation                                       ? kRotation
                         : curve.channel <= anim::Channel::TranslationZ ? kTranslation
                                                                        : kScale;
        Keys& keys = channels[{curve.target, kind}];
        for (std::uint32_t k = 0; k < range.count; ++k)
            keys.frames.push_back(static_cast<std::uint32_t>(key_frames[k]));
        keys.curves += 1;
        keys.additive |= curve.mode == anim::CurveMode::Additive;
        if (kind == kScale) scale_animated[curve.target] = 1;
    }

    auto sort_unique = [](std::vector<std::uint32_t>& list) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    };
    for (auto& [channel, keys] : channels) sort_unique(keys.frames);
    sort_unique(weight_frames);
    std::vector<std::uint32_t> every(frames);
    for (std::size_t f = 0; f < frames; ++f) every[f] = first + static_cast<std::uint32_t>(f);
    std::map<std::vector<std::uint32_t>, int> time_accessors;
    auto times = [&](const std::vector<std::uint32_t>& keys) {
        if (auto it = time_accessors.find(keys); it != time_accessors.end()) return it->second;
        std::vector<float> seconds(keys.size());
        for (std::size_t k = 0; k < keys.size(); ++k)
            seconds[k] = static_cast<float>(keys[k] / static_cast<double>(animation.framerate));
        std::vector<double> low{seconds.front()}, high{seconds.back()};
        const int accessor = add_floats(std::move(seconds), TINYGLTF_TYPE_SCALAR, 0, std::move(low),
                                        std::move(high));
        time_accessors.emplace(keys, accessor);
        return accessor;
    };
    tinygltf::Animation out;
    out.name = animation.name;
    auto add_channel = [&](int node, const char* property, const std::vector<std::uint32_t>& keys,
                           int output, const char* interpolation = "LINEAR") {
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

    for (std::size_t bone = 0; bone < bones; ++bone) {
        const std::int32_t parent = skeleton.parents[bone];
        const bool parent_scale_varies = parent >= 0 && skeleton.segment_scale_compensate[bone] &&
                                         (scale_animated[static_cast<std::size_t>(parent)] != 0);
        for (int kind : {kTranslation, kRotation, kScale}) {
            auto found = channels.find({static_cast<std::uint32_t>(bone), kind});
            if (found == channels.end() && !parent_scale_varies) continue;
            std::vector<std::uint32_t> keys = every;
            if (!parent_scale_varies && !sheared) {
                const Keys& used = found->second;
                const bool exact = kind == kTranslation ||
                                   (kind == kRotation && used.curves == 1 && !used.additive) ||
                                   (kind == kScale && !used.additive);
                if (exact) keys = used.frames;
            }
            const int node = target->bone_nodes[bone];
            if (kind == kRotation) {
                std::vector<glm::vec4> values(keys.size());
                glm::quat previous(1.0f, 0.0f, 0.0f, 0.0f);
                for (std::size_t k = 0; k < keys.size(); ++k) {
                    glm::quat q = poses[(keys[k] - first) * bones + bone].rotation;
                    // Keep neighbours in one hemisphere so any slerp takes the short way.
                    if (k > 0 && glm::dot(previous, q) < 0.0f) q = -q;
                    values[k] = cast::xyzw_from_quat(previous = q);
                }
                add_channel(node, "rotation", keys,
                            add_floats(std::move(values), TINYGLTF_TYPE_VEC4));
            } else {
                std::vector<glm::vec3> values(keys.size());
                for (std::size_t k = 0; k < keys.size(); ++k) {
                    const anim::Transform& pose = poses[(keys[k] - first) * bones + bone];
                    values[k] = kind == kTranslation ? pose.translation : pose.scale;
                }
                add_channel(node, kind == kTranslation ? "translation" : "scale", keys,
                            add_floats(std::move(values), TINYGLTF_TYPE_VEC3));
            }
        }
    }

    if (!weight_frames.empty()) {
        const std::vector<std::uint32_t>& keys = weight_frames;
        for (const ExportedMesh& mesh : target->meshes) {
            std::vector<int> slots;
            bool any = false;
            for (const std::string& name : mesh.target_names) {
                auto it =
                    std::find(animation.blend_shapes.begin(), animation.blend_shapes.end(), name);
                slots.push_back(it == animation.blend_shapes.end()
                                    ? -1
                                    : static_cast<int>(it - animation.blend_shapes.begin()));
                any |= slots.back() >= 0;
            }
            if (!any) continue;
            std::vector<float> values;
            for (std::uint32_t key : keys)
                for (int slot : slots)
                    values.push_back(slot < 0
                                         ? 0.0f
                                         : weights[(key - first) * animation.blend_shapes.size() +
                                                   static_cast<std::size_t>(slot)]);
            add_channel(mesh.node, "weights", keys,
                        add_floats(std::move(values), TINYGLTF_TYPE_SCALAR));
        }
    }

    export_visibility(
        *this, *target, animation, visibility, first, frames, path,
        [&](int node, const std::vector<std::uint32_t>& keys, std::vector<glm::vec3> values) {
            add_channel(node, "scale", keys, add_floats(std::move(values), TINYGLTF_TYPE_VEC3),
                        "STEP");
        });

    tinygltf::Value::Object extras{
        {"castkit_framerate", tinygltf::Value(static_cast<double>(animation.framerate))},
        {"castkit_looping", tinygltf::Value(animation.looping)}};
    if (!animation.notification_tracks.empty()) {
        tinygltf::Value::Object tracks;
        for (const anim::NotificationTrackKeys& track : animation.notification_tracks) {
            tinygltf::Value::Array frames_array;
            for (float frame : track.frames) frames_array.emplace_back(static_cast<double>(frame));
            tracks[track.name] = tinygltf::Value(std::move(frames_array));
        }
        extras["castkit_notifications"] = tinygltf::Value(std::move(tracks));
    }
    out.extras = tinygltf::Value(std::move(extras));
    if (out.channels.empty()) {
        warn(path, "animation has no channel glTF can hold; only its extras were written");
        return;
    }
    model.animations.push_back(std::move(out));
}

}  // namespace castkit::gltf::detail
