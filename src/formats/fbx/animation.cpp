// Cast Animations as FBX: an AnimationStack with one AnimationLayer each, an AnimationCurveNode
// per animated bone channel (T, R, S) with an AnimationCurve per axis, and one per animated
// blend shape channel (DeformPercent). The pose comes from castkit's evaluator
// (anim::SamplingJob, the rig solved) at every whole frame of the key range; each curve then keeps
// the keys linear interpolation of the others does not reproduce (anim::reduce_linear_keys), as
// FBX curves written here are linear. Rotations are Euler XYZ degrees, each frame's the
// decomposition nearest the one before, so that no curve jumps a turn.
#include <fmt/format.h>

#include <array>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/budget.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <cmath>

#include "scene.hpp"

namespace castkit::fbx::detail {
namespace {

// How far a dropped key may be from the linear interpolation of those kept: lengths (in the
// file's units) and scales, degrees for rotations, percent for blend weights. Below what a float
// curve value resolves for values of a few hundred units.
constexpr float kLengthTolerance = 1e-5f;
constexpr float kDegreeTolerance = 1e-4f;
constexpr float kPercentTolerance = 1e-4f;

// FBX key attribute flags: linear interpolation (eInterpolationLinear).
constexpr std::int32_t kLinear = 0x00000004;

enum Kind { kTranslation = 0, kRotation = 1, kScale = 2 };

const std::array<const char*, 3> kCurveNodeNames = {"T", "R", "S"};
const std::array<const char*, 3> kModelProperties = {"Lcl Translation", "Lcl Rotation",
                                                     "Lcl Scaling"};
const std::array<const char*, 3> kAxes = {"d|X", "d|Y", "d|Z"};

// One sampled bone channel: its bone, kind and three values a frame.
struct SampledChannel {
    std::size_t bone = 0;
    Kind kind = kTranslation;
    std::array<std::vector<float>, 3> values;
};

// Per bone, which of its channels the animation moves: its curves, and what the rig sets.
std::vector<std::array<bool, 3>> animated_channels(const anim::Animation& animation,
                                                   const anim::Skeleton& skeleton, bool solve_rig) {
    std::vector<std::array<bool, 3>> out(skeleton.bone_count(), std::array<bool, 3>{});
    bool any = false;
    for (const anim::BoundCurve& curve : animation.curves()) {
        if (curve.channel == anim::Channel::BlendShape ||
            curve.channel == anim::Channel::Visibility)
            continue;
        const Kind kind = curve.channel == anim::Channel::Rotation       ? kRotation
                          : curve.channel <= anim::Channel::TranslationZ ? kTranslation
                                                                         : kScale;
        out[curve.target][kind] = true;
        any = true;
    }
    if (solve_rig && any) {
        const std::vector<std::array<bool, 3>> rig = anim::rig_channels(skeleton);
        for (std::size_t bone = 0; bone < out.size(); ++bone)
            for (int kind = 0; kind < 3; ++kind) out[bone][kind] |= rig[bone][kind];
    }
    // A moved bone gets all three channels, its still ones holding the rest, as Blender's
    // exporter writes them: Blender's importer starts a stack's missing channels from the values
    // the stack before it left (a walk's last pelvis turn held through the idle).
    for (std::array<bool, 3>& channels : out)
        if (channels[0] || channels[1] || channels[2]) channels = {true, true, true};
    return out;
}

// One AnimationCurve of `frames` (whole frames, from the stack's start) and `values`, reduced.
void add_curve(Scene& scene, std::int64_t curve_node, const char* axis,
               const std::vector<double>& frames, const std::vector<float>& values, float framerate,
               float tolerance) {
    std::vector<float> frame_floats(frames.begin(), frames.end());
    const std::vector<std::uint32_t> kept =
        anim::reduce_linear_keys(frame_floats, values, tolerance);
    std::vector<std::int64_t> times;
    std::vector<float> kept_values;
    for (std::uint32_t k : kept) {
        times.push_back(std::llround(frames[k] / framerate * static_cast<double>(kTicksPerSecond)));
        kept_values.push_back(values[k]);
    }
    const std::int64_t id = scene.add_object("AnimationCurve", "", "AnimCurve", "");
    Record& curve = scene.object();
    curve.add("Default", {static_cast<double>(values.front())});
    curve.add("KeyVer", {std::int32_t{4009}});
    curve.add("KeyTime", {std::move(times)});
    curve.add("KeyValueFloat", {std::move(kept_values)});
    curve.add("KeyAttrFlags", {std::vector<std::int32_t>{kLinear}});
    curve.add("KeyAttrDataFloat", {std::vector<float>{0.0f, 0.0f, 0.0f, 0.0f}});
    curve.add("KeyAttrRefCount",
              {std::vector<std::int32_t>{static_cast<std::int32_t>(kept.size())}});
    scene.connect(id, curve_node, axis);
}

// A curve node of `name` ("T", "DeformPercent") on `target`'s property `property` in `layer`,
// with one curve per entry of `values`.
void add_curve_node(Scene& scene, std::int64_t layer, std::int64_t target, const char* name,
                    const char* property, std::span<const std::vector<float>> values,
                    std::span<const char* const> axes, const std::vector<double>& frames,
                    float framerate, float tolerance) {
    const std::int64_t id = scene.add_object("AnimationCurveNode", name, "AnimCurveNode", "");
    Properties p;
    for (std::size_t axis = 0; axis < values.size(); ++axis)
        p.number(axes[axis], values[axis].front(), "A");
    scene.object().children.push_back(p.take());
    scene.connect(id, layer);
    scene.connect(id, target, property);
    for (std::size_t axis = 0; axis < values.size(); ++axis)
        add_curve(scene, id, axes[axis], frames, values[axis], framerate, tolerance);
}

}  // namespace

void Scene::write_animation(const cast::ConstAnimation& cast_animation,
                            const cast::Document& document, const std::string& path) {
    if (failure) return;
    const std::string name(cast_animation.name().value_or("animation"));
    bool written_any = false;
    std::int64_t layer = 0;
    bool first_target = true;
    for (const WrittenModel& target : models) {
        if (target.bones.empty()) continue;
        Diagnostics reports;
        auto built = anim::build_animation(cast_animation, target.skeleton,
                                           anim::binding_targets(target.model), reports, &document);
        if (!built) {
            warn(path, fmt::format("animation '{}' not written: {}", name, built.error().message),
                 "fbx.animation");
            return;
        }
        const anim::Animation& animation = *built;
        const std::vector<std::array<bool, 3>> animated =
            animated_channels(animation, target.skeleton, options.solve_rig);
        std::vector<SampledChannel> channels;
        for (std::size_t bone = 0; bone < animated.size(); ++bone)
            for (int kind = 0; kind < 3; ++kind)
                if (animated[bone][kind]) channels.push_back({bone, static_cast<Kind>(kind), {}});
        // Blend shape slots that name a channel this model wrote.
        std::vector<std::pair<std::size_t, const std::vector<std::int64_t>*>> shapes;
        for (std::size_t slot = 0; slot < animation.blend_shapes().size(); ++slot)
            if (auto found = target.shape_channels.find(animation.blend_shapes()[slot]);
                found != target.shape_channels.end())
                shapes.emplace_back(slot, &found->second);
        if (channels.empty() && shapes.empty()) continue;
        if (first_target) {
            for (const Diagnostic& report : reports) warnings.push_back(report);
            first_target = false;
        }

        std::vector<double> frames;
        const double first = std::floor(animation.start_frame());
        for (double frame = first; frame <= std::ceil(animation.end_frame()); frame += 1.0)
            frames.push_back(frame);
        samples += anim::sampling_work(static_cast<double>(frames.size()), animation,
                                       target.skeleton, options.solve_rig);
        input_keys += anim::key_count(animation);
        const std::uint64_t limit = anim::sample_budget(input_keys, options.max_samples);
        if (samples > static_cast<double>(limit)) {
            failure = Diagnostic{
                .severity = Severity::Error,
                .file = file,
                .path = path,
                .rule = "fbx.sample-limit",
                .message = fmt::format("animation '{}' needs {:.0f} samples over its {} frames, "
                                       "more than the limit of {} for the file's {} keys "
                                       "(fbx::ExportOptions::max_samples sets another)",
                                       name, samples, frames.size(), limit, input_keys)};
            return;
        }
        if (!keep_bytes((channels.size() * 3 + shapes.size()) * frames.size() * 24, path,
                        fmt::format("the curves of animation '{}'", name)))
            return;

        std::vector<anim::Transform> locals(target.skeleton.bone_count());
        std::vector<float> weights(animation.blend_shapes().size());
        std::vector<float> visibility(animation.visibility_nodes().size());
        std::vector<std::vector<float>> shape_values(shapes.size());
        anim::SamplingContext context(animation);
        for (const double frame : frames) {
            anim::SamplingJob job{.animation = &animation,
                                  .skeleton = &target.skeleton,
                                  .frame = static_cast<float>(frame),
                                  .context = &context,
                                  .locals = locals,
                                  .blend_shape_weights = weights,
                                  .visibility = visibility,
                                  .solve_rig = options.solve_rig};
            if (auto ran = job.run(); !ran) {
                warn(path, fmt::format("animation '{}' not written: {}", name, ran.error().message),
                     "fbx.animation");
                return;
            }
            for (SampledChannel& channel : channels) {
                const anim::Transform& local = locals[channel.bone];
                glm::dvec3 v;
                if (channel.kind == kRotation) {
                    const glm::dvec3 previous =
                        channel.values[0].empty()
                            ? glm::dvec3(0.0)
                            : glm::dvec3(channel.values[0].back(), channel.values[1].back(),
                                         channel.values[2].back());
                    v = euler_degrees(local.rotation, &previous);
                } else {
                    v = glm::dvec3(channel.kind == kTranslation ? local.translation : local.scale);
                }
                for (int axis = 0; axis < 3; ++axis)
                    channel.values[axis].push_back(static_cast<float>(v[axis]));
            }
            for (std::size_t s = 0; s < shapes.size(); ++s)
                shape_values[s].push_back(weights[shapes[s].first] * 100.0f);
        }

        if (!written_any) {
            const std::int64_t stack = add_object("AnimationStack", name, "AnimStack", "");
            const std::int64_t start = std::llround(frames.front() / animation.framerate() *
                                                    static_cast<double>(kTicksPerSecond));
            const std::int64_t stop = std::llround(frames.back() / animation.framerate() *
                                                   static_cast<double>(kTicksPerSecond));
            Properties p;
            p.time("LocalStart", start)
                .time("LocalStop", stop)
                .time("ReferenceStart", start)
                .time("ReferenceStop", stop);
            object().children.push_back(p.take());
            layer = add_object("AnimationLayer", "BaseLayer", "AnimLayer", "");
            object().children.push_back(Properties().take());
            connect(layer, stack);
            takes.push_back({name, start, stop});
            if (framerate <= 0.0f) framerate = animation.framerate();
            written_any = true;
        }
        for (const SampledChannel& channel : channels) {
            const float tolerance = channel.kind == kRotation ? kDegreeTolerance : kLengthTolerance;
            add_curve_node(*this, layer, target.bones[channel.bone], kCurveNodeNames[channel.kind],
                           kModelProperties[channel.kind], channel.values, kAxes, frames,
                           animation.framerate(), tolerance);
        }
        static const std::array<const char*, 1> kDeformPercent = {"DeformPercent"};
        for (std::size_t s = 0; s < shapes.size(); ++s)
            for (std::int64_t shape_channel : *shapes[s].second)
                add_curve_node(*this, layer, shape_channel, "DeformPercent", "DeformPercent",
                               std::span(&shape_values[s], 1), kDeformPercent, frames,
                               animation.framerate(), kPercentTolerance);
        if (!animation.notification_tracks().empty())
            warn(path,
                 fmt::format("animation '{}': its {} notification tracks are not FBX markers, "
                             "which Blender's importer does not keep; write them with --events",
                             name, animation.notification_tracks().size()),
                 "fbx.notetracks");
    }
    if (!written_any && !failure && write_animation_skeleton(cast_animation, path)) {
        write_animation(cast_animation, document, path);
        return;
    }
    if (!written_any && !failure)
        warn(path,
             fmt::format("animation '{}' moves no bone or blend shape of the written models and "
                         "was dropped",
                         name),
             "fbx.animation");
}

}  // namespace castkit::fbx::detail
