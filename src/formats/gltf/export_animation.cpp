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
#include <array>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/scene/events.hpp>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "export_internal.hpp"

namespace castkit::gltf::detail {
namespace {

// Whether `curve` moves a node (tx … sz, rq, or a key property castkit does not know), not a
// blend shape weight or a visibility.
bool is_transform(const cast::ConstCurve& curve) {
    const auto kp = cast::key_property_from_name(curve.key_property().value_or(""));
    return kp != cast::KeyProperty::BlendShape && kp != cast::KeyProperty::Visibility;
}

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
            if (!is_transform(curve)) continue;
            std::string name(curve.node_name().value_or(""));
            if (seen.insert(name).second) names.push_back(std::move(name));
        }
        // Every bone a root: no parent can be out of range or form a cycle.
        const std::vector<std::int32_t> roots(names.size(), -1);
        skeleton = anim::Skeleton::from_arrays(std::move(names), roots).value();
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

void sort_unique(std::vector<double>& list) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
}

// The sorted, unique key frames of every curve of `channel` (a scalar channel).
std::vector<double> channel_key_frames(const anim::Animation& animation, anim::Channel channel) {
    std::vector<double> frames;
    for (const anim::BoundCurve& curve : animation.curves())
        if (curve.channel == channel) {
            const anim::TrackRange range = animation.scalar_tracks()[curve.track];
            frames.insert(frames.end(), animation.scalar_frames().begin() + range.first,
                          animation.scalar_frames().begin() + range.first + range.count);
        }
    sort_unique(frames);
    return frames;
}

// Every whole frame from `first` to `last`.
std::vector<double> whole_frames(double first, double last) {
    std::vector<double> frames;
    for (double frame = first; frame <= last; frame += 1.0) frames.push_back(frame);
    return frames;
}

enum ChannelKind { kTranslation, kRotation, kScale };

// The keys of one bone's translation, rotation or scale curves.
struct ChannelKeys {
    std::vector<double> frames;  // sorted and unique
    std::size_t curves = 0;
    bool additive = false;
};

// An animation's transform curves by (bone, kind), and which of them glTF's linear
// interpolation of the key frames reproduces exactly; the others are baked at every frame.
struct BoneChannels {
    std::map<std::pair<std::uint32_t, int>, ChannelKeys> channels;
    std::vector<std::uint8_t> scale_animated;  // per bone
    // Per bone and kind: made by the rig (an IK chain's rotations, a constraint owner's channel).
    std::vector<std::array<bool, 3>> rig_made;
    std::vector<double> key_frames;  // of every channel, sorted and unique

    const ChannelKeys* find(std::size_t bone, int kind) const {
        auto found = channels.find({static_cast<std::uint32_t>(bone), kind});
        return found == channels.end() ? nullptr : &found->second;
    }
    // The bone's parent scale is animated and the bone compensates it.
    bool parent_scale_varies(const anim::Skeleton& skeleton, std::size_t bone) const {
        const std::int32_t parent = skeleton.parents()[bone];
        return parent >= 0 && skeleton.segment_scale_compensate()[bone] &&
               scale_animated[static_cast<std::size_t>(parent)] != 0;
    }
    bool baked(const anim::Skeleton& skeleton, std::size_t bone, int kind, const ChannelKeys* used,
               bool sheared) const {
        if (parent_scale_varies(skeleton, bone) || sheared) return true;
        if (rig_made[bone][static_cast<std::size_t>(kind)]) return true;  // the rig is not linear
        return used != nullptr && !(kind == kTranslation ||
                                    (kind == kRotation && used->curves == 1 && !used->additive) ||
                                    (kind == kScale && !used->additive));
    }
    // Whether the bone has a channel of `kind` to export (its own, or a compensated one).
    bool exported(const anim::Skeleton& skeleton, std::size_t bone, int kind) const {
        return find(bone, kind) != nullptr || parent_scale_varies(skeleton, bone) ||
               rig_made[bone][static_cast<std::size_t>(kind)];
    }
    // Whether any exported channel is baked, so that every frame must be sampled.
    bool any_baked(const anim::Skeleton& skeleton, bool sheared) const {
        bool every_frame = false;
        for (std::size_t bone = 0; bone < skeleton.bone_count(); ++bone)
            for (int kind : {kTranslation, kRotation, kScale})
                every_frame |= exported(skeleton, bone, kind) &&
                               baked(skeleton, bone, kind, find(bone, kind), sheared);
        return every_frame;
    }
};

// The transform curves of `animation` (on `skeleton`) grouped by bone and kind; the channels the
// skeleton's rig sets are baked too, when anything is animated.
BoneChannels bone_channels(const anim::Animation& animation, const anim::Skeleton& skeleton,
                           bool solve_rig) {
    const std::size_t bones = skeleton.bone_count();
    BoneChannels out;
    out.scale_animated.assign(bones, 0);
    out.rig_made.assign(bones, std::array<bool, 3>{});
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
        ChannelKeys& keys = out.channels[{curve.target, kind}];
        keys.frames.insert(keys.frames.end(), frames, frames + range.count);
        out.key_frames.insert(out.key_frames.end(), frames, frames + range.count);
        keys.curves += 1;
        keys.additive |= curve.mode == anim::CurveMode::Additive;
        if (kind == kScale) out.scale_animated[curve.target] = 1;
    }
    for (auto& [channel, keys] : out.channels) sort_unique(keys.frames);
    sort_unique(out.key_frames);
    if (solve_rig && !out.channels.empty()) out.rig_made = anim::rig_channels(skeleton);
    return out;
}

// One exported channel of one bone: the frames it keys and its values there (xyz, or xyzw for
// a rotation, each in the hemisphere of the one before so that any slerp takes the short way),
// taken frame by frame as the pose is sampled. What the export keeps is these values alone, not
// every bone's pose at every frame (255 bones at the 262,000 keys of one curve took 2.6 GB).
struct PoseChannel {
    std::size_t bone = 0;
    int kind = kTranslation;
    const std::vector<double>* keys = nullptr;  // sorted, unique
    std::vector<float> values;
    std::size_t next = 0;  // the index in `keys` of the next value to take

    std::size_t components() const { return kind == kRotation ? 4 : 3; }
    std::uint64_t bytes() const { return keys->size() * components() * sizeof(float); }
    // Starts again on `frames`, dropping what was taken.
    void reset(const std::vector<double>& frames) {
        keys = &frames;
        values.clear();
        next = 0;
    }
    // The bone's glTF local pose `pose` at `frame`, kept when `frame` is its next key.
    void take(double frame, const anim::Transform& pose) {
        if (next >= keys->size() || (*keys)[next] != frame) return;
        ++next;
        if (kind != kRotation) {
            const glm::vec3& v = kind == kTranslation ? pose.translation : pose.scale;
            values.insert(values.end(), {v.x, v.y, v.z});
            return;
        }
        glm::quat q = pose.rotation;
        const std::size_t n = values.size();
        if (n > 0 && glm::dot(glm::quat(values[n - 1], values[n - 4], values[n - 3], values[n - 2]),
                              q) < 0.0f)
            q = -q;
        values.insert(values.end(), {q.x, q.y, q.z, q.w});
    }
};

// Blend shape weights sampled at `frames`: one per blend shape slot per frame.
Expected<std::vector<float>> sample_weights(const anim::Animation& animation,
                                            const anim::Skeleton& skeleton,
                                            const std::vector<double>& frames) {
    const std::size_t slots = animation.blend_shapes().size();
    std::vector<float> weights(frames.size() * slots);
    std::vector<anim::Transform> locals(skeleton.bone_count());
    std::vector<float> visibility(animation.visibility_nodes().size());
    for (std::size_t f = 0; f < frames.size(); ++f) {
        anim::SamplingJob job{.animation = &animation,
                              .skeleton = &skeleton,
                              .frame = static_cast<float>(frames[f]),
                              .locals = locals,
                              .blend_shape_weights = std::span(weights).subspan(f * slots, slots),
                              .visibility = visibility,
                              .solve_rig = false};  // the rig moves no blend weight
        if (auto ran = job.run(); !ran) return make_error(ran.error());
    }
    return weights;
}

// Per morph target of `mesh`, the animation's blend shape slot of that name (-1: none); the
// names found are added to `used_shapes`.
std::vector<int> target_slots(const ExportedMesh& mesh, const std::vector<std::string>& shapes,
                              std::set<std::string>& used_shapes) {
    std::vector<int> slot_of;
    for (const std::string& name : mesh.target_names) {
        auto it = std::find(shapes.begin(), shapes.end(), name);
        slot_of.push_back(it == shapes.end() ? -1 : static_cast<int>(it - shapes.begin()));
        if (slot_of.back() >= 0) used_shapes.insert(name);
    }
    return slot_of;
}

// Every notification key as an engine script reads it without knowing castkit's tracks: its
// track's name, its frame and its time in seconds (the samplers' clock), sorted by time.
tinygltf::Value events_extras(const anim::Animation& animation) {
    std::vector<scene::ClipEvent> events;
    for (const anim::NotificationTrackKeys& track : animation.notification_tracks())
        for (float frame : track.frames)
            events.push_back({track.name, static_cast<double>(frame),
                              static_cast<double>(frame) / animation.framerate()});
    scene::sort_by_time(events);
    tinygltf::Value::Array array;
    for (const scene::ClipEvent& event : events)
        array.emplace_back(tinygltf::Value::Object{{"name", tinygltf::Value(event.name)},
                                                   {"frame", tinygltf::Value(event.frame)},
                                                   {"time", tinygltf::Value(event.time)}});
    return tinygltf::Value(std::move(array));
}

// The extras castkit's importer reads back: the frame rate, looping and notification tracks
// (castkit's own layout, and the events engines read).
tinygltf::Value animation_extras(const anim::Animation& animation) {
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
        // Not written without events: tinygltf writes an empty array as null.
        extras["castkit_events"] = events_extras(animation);
    }
    return tinygltf::Value(std::move(extras));
}

// The channels and samplers of one glTF animation being written; key times are shared between
// samplers with the same keys. Times are frames / `framerate` in seconds.
struct ChannelWriter {
    ChannelWriter(Exporter& exporter_, tinygltf::Animation& out_)
        : exporter(exporter_), out(out_) {}

    Exporter& exporter;
    tinygltf::Animation& out;
    float framerate = 30.0f;
    std::map<std::vector<double>, int> time_accessors;

    int times(const std::vector<double>& keys) {
        if (auto it = time_accessors.find(keys); it != time_accessors.end()) return it->second;
        std::vector<float> seconds(keys.size());
        for (std::size_t k = 0; k < keys.size(); ++k)
            seconds[k] = static_cast<float>(keys[k] / static_cast<double>(framerate));
        std::vector<double> low{seconds.front()}, high{seconds.back()};
        const int accessor = exporter.add_floats(std::move(seconds), TINYGLTF_TYPE_SCALAR, 0,
                                                 std::move(low), std::move(high));
        time_accessors.emplace(keys, accessor);
        return accessor;
    }
    void add(int node, const char* property, const std::vector<double>& keys, int output,
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
    }
};

}  // namespace

void Exporter::fail_sample_limit(const std::string& path, const std::string& need) {
    const std::string limit =
        options.max_samples == 0
            ? fmt::format(
                  "{} for the file's {} keys ({} per key, plus {}, at most {}; "
                  "gltf::ExportOptions::max_samples sets another)",
                  sample_limit(), input_keys, anim::kSamplesPerKey, anim::kSampleFloor,
                  anim::kSampleCeiling)
            : fmt::format("{} (gltf::ExportOptions::max_samples)", options.max_samples);
    failure = Diagnostic{.severity = Severity::Error,
                         .file = file,
                         .path = path,
                         .rule = "gltf.sample-limit",
                         .message = fmt::format("{}, more than the limit of {}", need, limit)};
}

namespace {

// Samples the pose at `frames` (sorted, unique), each of `fill` taking its values at its keys,
// against the exporter's sample and memory budgets (a refusal names the step as `what`); `sheared`
// is set when compensation under a non-uniform parent scale was baked at any of the frames. False
// past a budget (`failure` set) or when sampling fails (a warning).
bool sample_poses(Exporter& exporter, const anim::Animation& animation,
                  const anim::Skeleton& skeleton, anim::SamplingContext& context,
                  const std::vector<double>& frames, const std::vector<PoseChannel*>& fill,
                  bool& sheared, const std::string& path, std::string_view what) {
    const double work = anim::sampling_work(static_cast<double>(frames.size()), animation, skeleton,
                                            exporter.options.solve_rig);
    if (!exporter.count_samples(work, path, what)) return false;
    std::uint64_t bytes = 0;
    for (const PoseChannel* channel : fill) bytes += channel->bytes();
    if (!exporter.keep_bytes(bytes, path, "the sampled channels")) return false;
    for (PoseChannel* channel : fill) channel->values.reserve(channel->bytes() / sizeof(float));
    const std::size_t bones = skeleton.bone_count();
    std::vector<anim::Transform> locals(bones);
    std::vector<float> no_weights(animation.blend_shapes().size());
    std::vector<float> visibility(animation.visibility_nodes().size());
    for (const double frame : frames) {
        anim::SamplingJob job{.animation = &animation,
                              .skeleton = &skeleton,
                              .frame = static_cast<float>(frame),
                              .context = &context,
                              .locals = locals,
                              .blend_shape_weights = no_weights,
                              .visibility = visibility,
                              .solve_rig = exporter.options.solve_rig};
        if (auto ran = job.run(); !ran) {
            exporter.warn(path, fmt::format("animation not exported: {}", ran.error().message));
            return false;
        }
        for (std::size_t bone = 0; bone < bones; ++bone)
            if (needs_compensation(skeleton, locals, bone)) {
                const glm::vec3 s =
                    locals[static_cast<std::size_t>(skeleton.parents()[bone])].scale;
                sheared |= !(s.x == s.y && s.y == s.z);
            }
        for (PoseChannel* channel : fill)
            channel->take(frame, gltf_local(skeleton, locals, channel->bone));
    }
    return true;
}

// The channels glTF gets for `skeleton`'s bones, in bone and kind order, each on the keys it
// needs when nothing is sheared (every frame when baked: `every`, filled in later).
std::vector<PoseChannel> pose_channels(const BoneChannels& channels, const anim::Skeleton& skeleton,
                                       const std::vector<double>& every) {
    std::vector<PoseChannel> out;
    for (std::size_t bone = 0; bone < skeleton.bone_count(); ++bone)
        for (int kind : {kTranslation, kRotation, kScale}) {
            if (!channels.exported(skeleton, bone, kind)) continue;
            const ChannelKeys* used = channels.find(bone, kind);
            const bool baked = channels.baked(skeleton, bone, kind, used, false);
            PoseChannel& channel = out.emplace_back();
            channel.bone = bone;
            channel.kind = kind;
            channel.keys = baked ? &every : &used->frames;
        }
    return out;
}

}  // namespace

bool Exporter::count_samples(double work, const std::string& path, std::string_view what) {
    if (work + static_cast<double>(samples) > static_cast<double>(sample_limit())) {
        fail_sample_limit(path, fmt::format("{} needs {} samples (frames x (bones + curves + the "
                                            "rig's work))",
                                            what, work + static_cast<double>(samples)));
        samples += static_cast<std::uint64_t>(std::min(work, 1e18));
        return false;
    }
    samples += static_cast<std::uint64_t>(work);
    return true;
}

bool Exporter::keep_bytes(std::uint64_t bytes, const std::string& path, std::string_view what) {
    kept_bytes += bytes;
    if (kept_bytes <= anim::memory_budget(input_bytes)) return true;
    failure =
        Diagnostic{.severity = Severity::Error,
                   .file = file,
                   .path = path,
                   .rule = "gltf.memory-budget",
                   .message = fmt::format(
                       "the glTF export would keep {} bytes with {}, more than the budget of {}",
                       kept_bytes, what, anim::describe_memory_budget(input_bytes, input_name))};
    return false;
}

// One animation's channels for one Model's bones, added to `out` through `add_channel`. The
// pose is sampled at the key frames, and at every whole frame of the key range only when a
// channel needs it, each channel keeping only its own keys' values; the work and the bytes kept
// are counted against the budgets. False (with `failure` set) when a budget is passed.
bool Exporter::export_bone_channels(const anim::Animation& animation, const ExportedModel& target,
                                    const ChannelSink& add_channel, const std::string& path) {
    const anim::Skeleton& skeleton = target.skeleton;
    const BoneChannels channels = bone_channels(animation, skeleton, options.solve_rig);
    if (channels.channels.empty()) return true;

    // First at the key frames, for the channels glTF interpolates exactly; sheared tells
    // whether compensation under a non-uniform scale was baked at any of them.
    std::vector<double> every;
    std::vector<PoseChannel> kept = pose_channels(channels, skeleton, every);
    const auto fill_where = [&kept](auto wanted) {
        std::vector<PoseChannel*> fill;
        for (PoseChannel& channel : kept)
            if (wanted(channel)) fill.push_back(&channel);
        return fill;
    };
    const auto is_baked = [&](const PoseChannel& channel, bool sheared) {
        return channels.baked(skeleton, channel.bone, channel.kind,
                              channels.find(channel.bone, channel.kind), sheared);
    };
    bool sheared = false;
    anim::SamplingContext context(animation);
    if (!sample_poses(*this, animation, skeleton, context, channels.key_frames,
                      fill_where([&](const PoseChannel& c) { return !is_baked(c, false); }),
                      sheared, path, "sampling the animation at its keys"))
        return false;
    if (channels.any_baked(skeleton, sheared)) {
        // Then at every whole frame, for the channels baked there: all of them when a shear
        // shows (at a key frame, or only between them, which takes a second pass).
        every = whole_frames(std::floor(channels.key_frames.front()),
                             std::ceil(channels.key_frames.back()));
        std::vector<double> frames = channels.key_frames;
        frames.insert(frames.end(), every.begin(), every.end());
        sort_unique(frames);
        for (const bool shear_seen : {sheared, true}) {
            std::vector<PoseChannel*> fill = fill_where([&](const PoseChannel& c) {
                return is_baked(c, shear_seen) && (c.keys != &every || c.next == 0);
            });
            if (fill.empty()) break;
            for (PoseChannel* channel : fill) {
                if (channel->next > 0) kept_bytes -= channel->bytes();  // taken again
                channel->reset(every);
            }
            bool shear_here = false;
            if (!sample_poses(*this, animation, skeleton, context, frames, fill, shear_here, path,
                              "baking the animation at every frame"))
                return false;
            if (!shear_here || shear_seen) break;
            sheared = true;
        }
    }

    for (PoseChannel& channel : kept) {
        if (channel.keys->empty()) continue;
        const int node = target.bone_nodes[channel.bone];
        const bool rotation = channel.kind == kRotation;
        add_channel(node,
                    rotation                       ? "rotation"
                    : channel.kind == kTranslation ? "translation"
                                                   : "scale",
                    *channel.keys,
                    add_floats(std::move(channel.values),
                               rotation ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3),
                    "LINEAR");
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
    const std::vector<double> key_frames = channel_key_frames(animation, anim::Channel::Visibility);
    if (key_frames.empty()) return true;
    const double first = std::floor(key_frames.front()), last = std::ceil(key_frames.back());
    const double count = last - first + 1.0;
    // Each frame runs a SamplingJob and keeps one value per vb name.
    const double work = anim::sampling_work(count, animation, skeleton, false, nullptr, slots);
    if (!count_samples(work, path, "sampling visibility at every frame")) return false;
    if (!keep_bytes(static_cast<std::uint64_t>(count) * slots * sizeof(float), path,
                    "visibility at every frame"))
        return false;
    const std::vector<double> frames = whole_frames(first, last);
    std::vector<float> visibility(frames.size() * slots);
    std::vector<anim::Transform> locals(skeleton.bone_count());
    std::vector<float> weights(animation.blend_shapes().size());
    for (std::size_t f = 0; f < frames.size(); ++f) {
        anim::SamplingJob job{.animation = &animation,
                              .skeleton = &skeleton,
                              .frame = static_cast<float>(frames[f]),
                              .locals = locals,
                              .blend_shape_weights = weights,
                              .visibility = std::span(visibility).subspan(f * slots, slots),
                              .solve_rig = false};  // the rig moves no visibility
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
    for (const cast::ConstCurve& curve : cast_animation.curves())
        input_keys += curve.key_frames().size();
    const std::vector<std::size_t> targets = animation_targets(cast_animation, path);
    tinygltf::Animation out;
    ChannelWriter writer(*this, out);
    const ChannelSink add_channel = std::bind_front(&ChannelWriter::add, &writer);
    const anim::Skeleton empty;
    const anim::Skeleton* first_skeleton = &empty;
    const std::optional<anim::Animation> first = export_target_channels(
        cast_animation, targets, empty, first_skeleton, writer.framerate, add_channel, path);
    if (!first) return;
    const anim::Animation& animation = *first;
    writer.framerate = animation.framerate();

    std::set<std::string> used_shapes;
    if (!export_weights(animation, *first_skeleton, add_channel, used_shapes, path)) return;
    if (!export_visibility(animation, *first_skeleton, add_channel, path)) return;
    warn_unbound_curves(cast_animation, targets, used_shapes, path);
    out.name = animation.name();
    out.extras = animation_extras(animation);
    if (out.channels.empty()) {
        warn(path, "animation has no channel glTF can hold; only its extras were written");
        return;
    }
    model.animations.push_back(std::move(out));
}

std::vector<std::size_t> Exporter::animation_targets(const cast::ConstAnimation& cast_animation,
                                                     const std::string& path) {
    std::vector<std::size_t> targets;
    for (std::size_t m = 0; m < models.size(); ++m)
        if (bound_bones(models[m].skeleton, cast_animation) > 0) targets.push_back(m);
    bool transforms = false;
    for (const cast::ConstCurve& curve : cast_animation.curves()) transforms |= is_transform(curve);
    if (targets.empty() && transforms) {
        models.push_back(animation_skeleton(*this, cast_animation, path));
        targets.push_back(models.size() - 1);
    }
    return targets;
}

std::optional<anim::Animation> Exporter::export_target_channels(
    const cast::ConstAnimation& cast_animation, const std::vector<std::size_t>& targets,
    const anim::Skeleton& empty, const anim::Skeleton*& first_skeleton, float& framerate,
    const ChannelSink& add_channel, const std::string& path) {
    std::optional<anim::Animation> first;
    for (std::size_t t = 0; t < std::max<std::size_t>(targets.size(), 1); ++t) {
        const anim::Skeleton& skeleton = targets.empty() ? empty : models[targets[t]].skeleton;
        Diagnostics reports;
        auto built = anim::build_animation(cast_animation, skeleton, {}, reports);
        if (t == 0)
            for (const Diagnostic& r : reports)
                if (r.rule != "anim.unknown-node") warn(path, r.message);
        if (!built) {
            warn(path, fmt::format("animation not exported: {}", built.error().message));
            return std::nullopt;
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
            return std::nullopt;
        }
        framerate = built->framerate();
        if (!targets.empty() &&
            !export_bone_channels(*built, models[targets[t]], add_channel, path))
            return std::nullopt;
        if (!first) {
            first = std::move(*built);
            first_skeleton = &skeleton;
        }
    }
    return first;
}

bool Exporter::export_weights(const anim::Animation& animation, const anim::Skeleton& skeleton,
                              const ChannelSink& add_channel, std::set<std::string>& used_shapes,
                              const std::string& path) {
    const std::vector<double> frames = channel_key_frames(animation, anim::Channel::BlendShape);
    if (frames.empty()) return true;
    const std::size_t slots = animation.blend_shapes().size();
    const auto count = static_cast<double>(frames.size());
    if (!count_samples(anim::sampling_work(count, animation, skeleton, false, nullptr, slots), path,
                       "sampling the blend weights"))
        return false;
    std::uint64_t targets = 0;
    for (const ExportedModel& model_out : models)
        for (const ExportedMesh& mesh : model_out.meshes) targets += mesh.target_names.size();
    if (!keep_bytes(frames.size() * (slots + targets) * sizeof(float), path, "the blend weights"))
        return false;
    auto weights = sample_weights(animation, skeleton, frames);
    if (!weights) {
        warn(path, fmt::format("animation not exported: {}", weights.error().message));
        return false;
    }
    for (const ExportedModel& model_out : models)
        for (const ExportedMesh& mesh : model_out.meshes) {
            const std::vector<int> slot_of =
                target_slots(mesh, animation.blend_shapes(), used_shapes);
            if (std::none_of(slot_of.begin(), slot_of.end(), [](int slot) { return slot >= 0; }))
                continue;
            std::vector<float> values;
            values.reserve(frames.size() * slot_of.size());
            for (std::size_t f = 0; f < frames.size(); ++f)
                for (std::size_t k = 0; k < slot_of.size(); ++k)
                    values.push_back(
                        slot_of[k] < 0
                            ? mesh.default_weights[k]
                            : (*weights)[f * slots + static_cast<std::size_t>(slot_of[k])]);
            add_channel(mesh.node, "weights", frames,
                        add_floats(std::move(values), TINYGLTF_TYPE_SCALAR), "LINEAR");
        }
    return true;
}

void Exporter::warn_unbound_curves(const cast::ConstAnimation& cast_animation,
                                   const std::vector<std::size_t>& targets,
                                   const std::set<std::string>& used_shapes,
                                   const std::string& path) {
    std::set<std::string> unbound;
    for (const cast::ConstCurve& curve : cast_animation.curves()) {
        const std::string name(curve.node_name().value_or(""));
        if (cast::key_property_from_name(curve.key_property().value_or("")) ==
            cast::KeyProperty::Visibility)
            continue;
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
}

}  // namespace castkit::gltf::detail
