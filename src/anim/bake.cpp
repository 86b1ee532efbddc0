// bake: every output frame sampled through SamplingJob, written back as absolute curves.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/rest_pose.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <cmath>
#include <limits>

#include "../cast/node_access.hpp"
#include "problem.hpp"

namespace castkit::anim {
namespace {

constexpr std::int64_t kMaxBakedFrames = std::int64_t{1} << 24;

// One baked output curve: where its value comes from in the sampled pose.
struct BakedChannel {
    Channel channel;
    std::uint32_t target;
    std::vector<float> scalars;
    std::vector<glm::quat> rotations;
};

std::vector<BakedChannel> animated_channels(const Animation& animation, const Skeleton& skeleton,
                                            const BakeOptions& options) {
    // Per bone, which of tx ty tz rq sx sy sz any curve writes (the base's too) or the rig
    // sets; then every bs and vb slot.
    const Animation* base = options.base;
    std::vector<std::array<bool, 7>> animated(skeleton.bone_count(), std::array<bool, 7>{});
    for (const Animation* clip : {&animation, base})
        if (clip != nullptr)
            for (const BoundCurve& curve : clip->curves())
                if (curve.channel < Channel::BlendShape)
                    animated[curve.target][static_cast<std::size_t>(curve.channel)] = true;
    if (options.solve_rig) {
        // The rig's channels: tx ty tz, rq, or sx sy sz.
        const std::vector<std::array<bool, 3>> rig = rig_channels(skeleton);
        for (std::size_t bone = 0; bone < rig.size(); ++bone) {
            for (std::size_t axis = 0; axis < 3; ++axis) {
                animated[bone][axis] |= rig[bone][0];
                animated[bone][axis + 4] |= rig[bone][2];
            }
            animated[bone][static_cast<std::size_t>(Channel::Rotation)] |= rig[bone][1];
        }
    }
    std::vector<BakedChannel> channels;
    for (std::uint32_t bone = 0; bone < skeleton.bone_count(); ++bone)
        for (std::size_t c = 0; c < 7; ++c)
            if (animated[bone][c]) channels.push_back({static_cast<Channel>(c), bone, {}, {}});
    for (std::uint32_t slot = 0; slot < animation.blend_shapes().size(); ++slot)
        channels.push_back({Channel::BlendShape, slot, {}, {}});
    for (std::uint32_t slot = 0; slot < animation.visibility_nodes().size(); ++slot)
        channels.push_back({Channel::Visibility, slot, {}, {}});
    return channels;
}

float pose_value(const BakedChannel& channel, const std::vector<Transform>& locals,
                 const std::vector<float>& weights, const std::vector<float>& visibility) {
    switch (channel.channel) {
        case Channel::TranslationX:
            return locals[channel.target].translation.x;
        case Channel::TranslationY:
            return locals[channel.target].translation.y;
        case Channel::TranslationZ:
            return locals[channel.target].translation.z;
        case Channel::ScaleX:
            return locals[channel.target].scale.x;
        case Channel::ScaleY:
            return locals[channel.target].scale.y;
        case Channel::ScaleZ:
            return locals[channel.target].scale.z;
        case Channel::BlendShape:
            return weights[channel.target];
        default:
            return is_visible(visibility[channel.target]) ? 1.0f : 0.0f;
    }
}

// Each frame samples the animation (and the base under it) with the rig, and stores every
// channel: sampling_work against the keys' sample_budget.
Expected<void> check_work(double frames, const Animation& animation, const Skeleton& skeleton,
                          std::size_t channels, const BakeOptions& options) {
    const double work =
        sampling_work(frames, animation, skeleton, options.solve_rig, options.base, channels);
    const std::uint64_t keys = key_count(animation) + (options.base ? key_count(*options.base) : 0);
    const std::uint64_t budget = sample_budget(keys, options.max_samples);
    if (work <= double(budget)) return {};
    const std::string limit =
        options.max_samples == 0
            ? fmt::format(
                  "{} for the animation's {} keys ({} per key, plus {}, at most {}; "
                  "anim::BakeOptions::max_samples sets another)",
                  budget, keys, kSamplesPerKey, kSampleFloor, kSampleCeiling)
            : fmt::format("{} samples (anim::BakeOptions::max_samples)", options.max_samples);
    return make_error(problem(
        "anim.sample-budget",
        fmt::format("baking {} frames takes {} samples (bones, curves, the rig's work and {} "
                    "channels per frame), more than the limit of {}",
                    frames, work, channels, limit)));
}

// What a bake keeps: per frame its key frame and, per channel, the sampled value, then the
// output curve's key and value (each channel's samples are dropped once its curve is written).
Expected<void> check_memory(double frames, const Animation& animation,
                            const std::vector<BakedChannel>& channels, const BakeOptions& options) {
    double per_frame = sizeof(float);
    for (const BakedChannel& channel : channels)
        per_frame += sizeof(std::uint32_t) +
                     (channel.channel == Channel::Rotation ? sizeof(glm::vec4) : sizeof(float));
    const std::uint64_t input =
        options.input_bytes != 0
            ? options.input_bytes
            : key_bytes(animation) + (options.base ? key_bytes(*options.base) : 0);
    const double kept = frames * per_frame;
    if (kept <= double(memory_budget(input))) return {};
    return make_error(problem(
        "anim.memory-budget",
        fmt::format(
            "baking {} frames of {} channels keeps {} bytes, more than the budget of {}", frames,
            channels.size(), kept,
            describe_memory_budget(input, options.input_bytes == 0     ? "the animation's keys"
                                          : options.input_name.empty() ? "the input"
                                                                       : options.input_name))));
}

template <class T>
std::vector<T> pick(const std::vector<T>& values, const std::vector<std::uint32_t>& kept) {
    std::vector<T> out;
    out.reserve(kept.size());
    for (std::uint32_t i : kept) out.push_back(values[i]);
    return out;
}

}  // namespace

BasePose::BasePose(const Animation* clip, const Skeleton& skeleton, bool solve_rig)
    : clip_(clip),
      skeleton_(&skeleton),
      solve_rig_(solve_rig),
      locals_(clip ? skeleton.bone_count() : 0),
      weights_(clip ? clip->blend_shapes().size() : 0),
      visibility_(clip ? clip->visibility_nodes().size() : 0) {
    if (clip) context_.resize(*clip);
}

Expected<std::span<const Transform>> BasePose::at(std::optional<float> frame, double seconds) {
    if (clip_ == nullptr) return std::span<const Transform>();
    SamplingJob job{.animation = clip_,
                    .skeleton = skeleton_,
                    .frame = frame ? *frame : static_cast<float>(seconds * clip_->framerate()),
                    .looped = !frame,
                    .context = &context_,
                    .locals = locals_,
                    .blend_shape_weights = weights_,
                    .visibility = visibility_,
                    .solve_rig = solve_rig_};
    if (auto ok = job.run(); !ok) return make_error(ok.error());
    return std::span<const Transform>(locals_);
}

Expected<cast::Document> bake(const Animation& animation, const Skeleton& skeleton,
                              const BakeOptions& options) {
    if (animation.bone_count() != skeleton.bone_count())
        return make_error(problem("anim.bake", "the animation was built for another skeleton"));
    const float framerate = options.framerate > 0.0f ? options.framerate : animation.framerate();
    if (!std::isfinite(framerate) || !(framerate > 0.0f))
        return make_error(problem("anim.bake", fmt::format("cannot bake at {} fps", framerate)));
    // Output frame k is source frame k / ratio; frames stay absolute (a range starting at 40
    // still starts at 40 × ratio).
    const double ratio = double(framerate) / animation.framerate();
    const double first_frame = std::round(double(animation.start_frame()) * ratio);
    const double last_frame = std::round(double(animation.end_frame()) * ratio);
    // kb holds u32 frames; more frames than kMaxBakedFrames is a malformed range, not an
    // animation.
    if (!(last_frame <= double(std::numeric_limits<std::uint32_t>::max())))
        return make_error(problem("anim.bake", fmt::format("frame {} at {} fps does not fit a key "
                                                           "frame buffer",
                                                           last_frame, framerate)));
    if (last_frame - first_frame + 1 > double(kMaxBakedFrames))
        return make_error(
            problem("anim.bake", fmt::format("{} frames to bake is more than {}",
                                             last_frame - first_frame + 1, kMaxBakedFrames)));
    const auto first = static_cast<std::int64_t>(first_frame);
    const auto last = static_cast<std::int64_t>(last_frame);

    if (options.base != nullptr && options.base->bone_count() != skeleton.bone_count())
        return make_error(problem("anim.bake", "the base clip was built for another skeleton"));
    std::vector<BakedChannel> channels = animated_channels(animation, skeleton, options);
    const double frame_count = last_frame - first_frame + 1;
    if (auto fits = check_work(frame_count, animation, skeleton, channels.size(), options); !fits)
        return make_error(fits.error());
    if (auto fits = check_memory(frame_count, animation, channels, options); !fits)
        return make_error(fits.error());
    std::vector<Transform> locals(skeleton.bone_count());
    std::vector<float> weights(animation.blend_shapes().size());
    std::vector<float> visibility(animation.visibility_nodes().size());
    SamplingContext context(animation);
    BasePose base(options.base, skeleton, options.solve_rig);
    std::vector<float> frames;
    for (std::int64_t k = first; k <= last; ++k) {
        const double seconds = double(k) / framerate;
        auto under = base.at(options.base_frame, seconds);
        if (!under) return make_error(under.error());
        SamplingJob job{.animation = &animation,
                        .skeleton = &skeleton,
                        .frame = static_cast<float>(double(k) / ratio),
                        .context = &context,
                        .base = *under,
                        .locals = locals,
                        .blend_shape_weights = weights,
                        .visibility = visibility,
                        .solve_rig = options.solve_rig};
        if (auto ok = job.run(); !ok) return make_error(ok.error());
        frames.push_back(static_cast<float>(k));
        for (BakedChannel& channel : channels) {
            if (channel.channel == Channel::Rotation)
                channel.rotations.push_back(locals[channel.target].rotation);
            else
                channel.scalars.push_back(pose_value(channel, locals, weights, visibility));
        }
    }

    // The skeleton copy goes in before any hash is drawn, so new hashes avoid its bones'.
    cast::Document document;
    auto root_node = std::make_unique<cast::Node>(cast::NodeId::Root, 0);
    cast::Node& animation_node =
        root_node->add_child(std::make_unique<cast::Node>(cast::NodeId::Animation, 0));
    if (options.skeleton_node != nullptr) animation_node.add_child(options.skeleton_node->clone());
    cast::Node& root = cast::NodeAccess::append_root(document, std::move(root_node));
    root.set_hash(document.next_hash());
    animation_node.set_hash(document.next_hash());
    auto baked = cast::view_of<cast::Animation>(animation_node);
    if (cast::Skeleton copy = baked.skeleton()) complete_rest_transforms(copy);
    if (!animation.name().empty()) baked.set_name(animation.name());
    baked.set_framerate(framerate);
    baked.set_looping(animation.looping());

    for (BakedChannel& channel : channels) {
        std::vector<std::uint32_t> kept;
        if (options.tolerance) {
            if (channel.channel == Channel::Rotation)
                kept = reduce_slerp_keys(frames, channel.rotations, *options.tolerance);
            else if (channel.channel == Channel::Visibility)
                kept = reduce_linear_keys(frames, channel.scalars, 0.0f);
            else
                kept = reduce_linear_keys(frames, channel.scalars, *options.tolerance);
        } else {
            kept.resize(frames.size());
            for (std::uint32_t i = 0; i < kept.size(); ++i) kept[i] = i;
        }
        std::vector<std::uint32_t> key_frames;
        for (std::uint32_t i : kept) key_frames.push_back(static_cast<std::uint32_t>(frames[i]));

        cast::Curve curve = baked.add_curve();
        const bool bone_channel = channel.channel < Channel::BlendShape;
        curve.set_node_name(bone_channel ? skeleton.names()[channel.target]
                            : channel.channel == Channel::BlendShape
                                ? animation.blend_shapes()[channel.target]
                                : animation.visibility_nodes()[channel.target]);
        curve.set_key_property(channel.channel);
        curve.set_key_frames(key_frames);
        if (channel.channel == Channel::Rotation) {
            std::vector<glm::vec4> values;
            for (const glm::quat& q : pick(channel.rotations, kept))
                values.push_back(cast::xyzw_from_quat(q));
            curve.set_quaternion_values(values);
        } else if (channel.channel == Channel::Visibility) {
            std::vector<std::uint32_t> values;
            for (float v : pick(channel.scalars, kept)) values.push_back(v >= 0.5f ? 1u : 0u);
            curve.set_integer_values(values);
        } else {
            curve.set_float_values(pick(channel.scalars, kept));
        }
        curve.set_mode(cast::CurveMode::Absolute);
        channel.scalars = {};  // its curve holds them now
        channel.rotations = {};
    }

    for (const NotificationTrackKeys& track : animation.notification_tracks()) {
        cast::NotificationTrack notification = baked.add_notification_track();
        notification.set_name(track.name);
        std::vector<std::uint32_t> key_frames;
        for (float frame : track.frames)
            key_frames.push_back(
                static_cast<std::uint32_t>(std::max<std::int64_t>(0, std::llround(frame * ratio))));
        notification.set_key_frames(key_frames);
    }
    return document;
}

}  // namespace castkit::anim
