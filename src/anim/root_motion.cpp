// Root motion stripped or extracted (castkit/anim/root_motion.hpp).
//
// Per whole frame the root's local transform (t, q) is split about the up axis u: the height
// h = (t·u)u, the ground part g = t − h, the yaw y (the twist of q about u) and the tilt
// s = y⁻¹ ⊗ q. With the rest split the same way (g₀, y₀) and the turn from the rest Δ = y ⊗ y₀⁻¹:
// - the root keeps t' = g₀ + h and q' = y₀ ⊗ s (strip stops there);
// - extract's new parent takes T(g − Δ·g₀) R(Δ), which puts the root back where it was:
//   g − Δ·g₀ + Δ·(g₀ + h) = g + h (Δ turns about u, so Δ·h = h) and Δ ⊗ y₀ ⊗ s = y ⊗ s = q.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/budget.hpp>
#include <castkit/anim/root_motion.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/anim/skeleton.hpp>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <numbers>

#include "problem.hpp"

namespace castkit::anim {
namespace {

// Resampled keys reduced within these (units, radians): far below the 1e-4 a pose is kept to.
constexpr float kLengthTolerance = 1e-6f;
constexpr float kAngleTolerance = 1e-6f;

glm::vec3 up_vector(cast::Axis up) {
    glm::vec3 v(0.0f);
    v[static_cast<glm::length_t>(up)] = 1.0f;
    return v;
}

// The twist of `q` about the unit `axis`; identity when `q` is a half turn about an axis of the
// plane, which has no twist to speak of.
glm::quat twist_about(const glm::quat& q, const glm::vec3& axis) {
    const float along = glm::dot(glm::vec3(q.x, q.y, q.z), axis);
    const glm::quat twist(q.w, along * axis.x, along * axis.y, along * axis.z);
    const float length = glm::length(twist);
    return length > 1e-6f ? twist / length : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

// A root transform split about the up axis (the file's comment names the parts).
struct GroundSplit {
    glm::vec3 ground, height;
    glm::quat yaw, tilt;
};

GroundSplit split(const Transform& local, const glm::vec3& up) {
    const glm::vec3 height = glm::dot(local.translation, up) * up;
    const glm::quat yaw = twist_about(local.rotation, up);
    return {local.translation - height, height, yaw, glm::conjugate(yaw) * local.rotation};
}

// The signed angle in radians, in (−π, π], of a twist about `up`.
double twist_angle(const glm::quat& twist, const glm::vec3& up) {
    const double along = glm::dot(glm::vec3(twist.x, twist.y, twist.z), up);
    double angle = 2.0 * std::atan2(along, static_cast<double>(twist.w));
    if (angle > std::numbers::pi) angle -= 2.0 * std::numbers::pi;
    if (angle <= -std::numbers::pi) angle += 2.0 * std::numbers::pi;
    return angle;
}

// One skeleton of the document: its runtime form as read (before extract changes it), its root
// bone, and the name extract gives the new bone.
struct SkeletonPlan {
    cast::Skeleton node;
    Skeleton runtime;
    std::int32_t root = -1;
    std::string motion_bone;
};

std::string top_bones(const Skeleton& skeleton) {
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < skeleton.bone_count(); ++i)
        if (skeleton.parents()[i] < 0) names.push_back(skeleton.names()[i]);
    return fmt::format("{}", fmt::join(names, ", "));
}

// The bone `wanted` names, else the first without a parent; -1 for a skeleton without bones.
Expected<std::int32_t> find_root(const Skeleton& skeleton, std::string_view wanted,
                                 std::string_view file) {
    if (!wanted.empty()) {
        if (const std::int32_t bone = skeleton.find_bone(wanted); bone >= 0) return bone;
        Diagnostic d = problem("anim.root-bone",
                               fmt::format("--root-bone '{}' names no bone of the skeleton; its "
                                           "top bones: {}",
                                           wanted, top_bones(skeleton)));
        d.file = file;
        return make_error(std::move(d));
    }
    for (std::size_t i = 0; i < skeleton.bone_count(); ++i)
        if (skeleton.parents()[i] < 0) return static_cast<std::int32_t>(i);
    return -1;
}

// `kRootMotionBone`, numbered past the names the skeleton has.
std::string unique_bone_name(const Skeleton& skeleton) {
    std::string name(kRootMotionBone);
    for (int n = 2; skeleton.find_bone(name) >= 0; ++n)
        name = fmt::format("{}_{}", kRootMotionBone, n);
    return name;
}

Expected<SkeletonPlan> plan_skeleton(cast::Skeleton node, const RootMotionJob& job) {
    Diagnostics ignored;  // the readers and writers report a skeleton's problems
    auto runtime = build_skeleton(node, ignored, job.document);
    if (!runtime) return make_error(runtime.error());
    auto root = find_root(*runtime, job.root_bone, job.name);
    if (!root) return make_error(root.error());
    std::string motion = unique_bone_name(*runtime);
    return SkeletonPlan{node, std::move(*runtime), *root, std::move(motion)};
}

// Every Skeleton of the document (Models' and Animations' own), by node.
Expected<std::map<const cast::Node*, SkeletonPlan>> plan_skeletons(const RootMotionJob& job) {
    std::vector<cast::Skeleton> skeletons;
    for (const cast::Model& model : job.document->models())
        if (cast::Skeleton skeleton = model.skeleton()) skeletons.push_back(skeleton);
    for (const cast::Animation& animation : job.document->animations())
        if (cast::Skeleton skeleton = animation.skeleton()) skeletons.push_back(skeleton);
    std::map<const cast::Node*, SkeletonPlan> plans;
    for (const cast::Skeleton& skeleton : skeletons) {
        auto plan = plan_skeleton(skeleton, job);
        if (!plan) return make_error(plan.error());
        plans.emplace(&skeleton.node(), std::move(*plan));
    }
    return plans;
}

// The skeleton a clip plays on: its own, else the document's first Model's.
const SkeletonPlan* skeleton_of(const cast::Animation& animation,
                                const std::map<const cast::Node*, SkeletonPlan>& plans,
                                const cast::Document& document) {
    const cast::Node* node = nullptr;
    if (cast::ConstSkeleton own = animation.skeleton()) node = &own.node();
    for (const cast::ConstModel& model : document.models())
        if (cast::ConstSkeleton skeleton = model.skeleton(); !node && skeleton)
            node = &skeleton.node();
    const auto plan = node ? plans.find(node) : plans.end();
    return plan != plans.end() ? &plan->second : nullptr;
}

bool is_root_channel(Channel channel) {
    return channel == Channel::TranslationX || channel == Channel::TranslationY ||
           channel == Channel::TranslationZ || channel == Channel::Rotation;
}

// The whole frames the root's translation and rotation curves span; nullopt when it has none.
struct FrameRange {
    std::uint32_t first = 0, last = 0;
    bool additive = false;
};

std::optional<FrameRange> root_range(const Animation& clip, std::int32_t root) {
    std::optional<FrameRange> range;
    for (const BoundCurve& curve : clip.curves()) {
        if (curve.target != static_cast<std::uint32_t>(root) || !is_root_channel(curve.channel))
            continue;
        const bool rotation = curve.channel == Channel::Rotation;
        const TrackRange keys =
            rotation ? clip.rotation_tracks()[curve.track] : clip.scalar_tracks()[curve.track];
        if (keys.count == 0) continue;
        const std::vector<float>& frames = rotation ? clip.rotation_frames() : clip.scalar_frames();
        const auto first = static_cast<std::uint32_t>(std::floor(frames[keys.first]));
        const auto last =
            static_cast<std::uint32_t>(std::ceil(frames[keys.first + keys.count - 1]));
        if (!range) range = FrameRange{first, last};
        range->first = std::min(range->first, first);
        range->last = std::max(range->last, last);
        range->additive = range->additive || curve.mode == CurveMode::Additive;
    }
    return range;
}

// Whether a CurveModeOverride that is not absolute covers the root's translation or rotation
// (names it or a bone above it): the resampled absolute keys would be read in its mode.
bool override_covers(const cast::Animation& animation, const Skeleton& skeleton,
                     std::int32_t root) {
    for (const cast::ConstCurveModeOverride& o : animation.curve_mode_overrides()) {
        const auto mode = o.mode();
        if (!mode || !*mode || **mode == CurveMode::Absolute) continue;
        if (!o.override_translation() && !o.override_rotation()) continue;
        const std::int32_t named = skeleton.find_bone(o.node_name().value_or(""));
        for (std::int32_t bone = root; bone >= 0; bone = skeleton.parents()[bone])
            if (bone == named) return true;
    }
    return false;
}

// The new keys of one clip, one per whole frame of its root range.
struct RootKeys {
    std::vector<float> frames;
    std::vector<glm::vec3> root_translations, motion_translations;
    std::vector<glm::quat> root_rotations, motion_rotations;
};

// The root's ground travel and its turn from the rest, frame after frame, into a report; the
// turn unwrapped, so a clip turning past 180° reports its whole range.
class MotionTally {
  public:
    void add(const glm::vec3& ground, double angle) {
        if (frames_++ == 0) {
            first_ = ground;
            yaw_ = min_ = max_ = angle;
        } else {
            distance_ += glm::length(ground - last_);
            yaw_ += wrapped(angle - last_angle_);
            min_ = std::min(min_, yaw_);
            max_ = std::max(max_, yaw_);
        }
        last_ = ground;
        last_angle_ = angle;
    }
    void fill(ClipRootMotion& report) const {
        constexpr double kDegrees = 180.0 / std::numbers::pi;
        report.ground_distance = distance_;
        report.ground_net = glm::length(last_ - first_);
        report.yaw_min_degrees = min_ * kDegrees;
        report.yaw_max_degrees = max_ * kDegrees;
    }

  private:
    static double wrapped(double step) {
        if (step > std::numbers::pi) return step - 2.0 * std::numbers::pi;
        if (step < -std::numbers::pi) return step + 2.0 * std::numbers::pi;
        return step;
    }
    std::size_t frames_ = 0;
    glm::vec3 first_{0.0f}, last_{0.0f};
    double distance_ = 0.0, yaw_ = 0.0, min_ = 0.0, max_ = 0.0, last_angle_ = 0.0;
};

// Sampling the range takes at most what a bake of the clip may (castkit/anim/budget.hpp): a few
// keys far apart cannot make millions of frames of work and keys.
Expected<void> check_budget(const Animation& clip, const Skeleton& skeleton, FrameRange range,
                            const RootMotionJob& job) {
    const double frames = double(range.last) - double(range.first) + 1.0;
    const std::uint64_t budget = sample_budget(key_count(clip), 0);
    const double kept = frames * 2.0 * (sizeof(float) + sizeof(glm::vec3) + sizeof(glm::quat));
    const std::uint64_t memory = memory_budget(key_bytes(clip));
    std::optional<Diagnostic> refused;
    if (sampling_work(frames, clip, skeleton, false, nullptr, 8) > double(budget))
        refused = problem("anim.sample-budget",
                          fmt::format("the root motion of clip '{}' spans {} frames, more "
                                      "samples than the limit of {} for its {} keys",
                                      clip.name(), frames, budget, key_count(clip)));
    else if (kept > double(memory))
        refused = problem(
            "anim.memory-budget",
            fmt::format("the root motion of clip '{}' spans {} frames, whose keys "
                        "take more than {}",
                        clip.name(), frames, describe_memory_budget(key_bytes(clip), job.name)));
    if (!refused) return {};
    refused->file = job.name;
    return make_error(std::move(*refused));
}

Expected<RootKeys> resample(const Animation& clip, const SkeletonPlan& plan, FrameRange range,
                            const glm::vec3& up, MotionTally& tally) {
    const Skeleton& skeleton = plan.runtime;
    std::vector<Transform> locals(skeleton.bone_count());
    std::vector<float> weights(clip.blend_shapes().size());
    std::vector<float> visibility(clip.visibility_nodes().size());
    SamplingContext context(clip);
    const auto root = static_cast<std::size_t>(plan.root);
    const GroundSplit rest = split(skeleton.rest()[root], up);
    RootKeys keys;
    for (std::uint64_t frame = range.first; frame <= range.last; ++frame) {
        const SamplingJob sampling{.animation = &clip,
                                   .skeleton = &skeleton,
                                   .frame = static_cast<float>(frame),
                                   .context = &context,
                                   .locals = locals,
                                   .blend_shape_weights = weights,
                                   .visibility = visibility,
                                   .solve_rig = false};
        if (auto ok = sampling.run(); !ok) return make_error(ok.error());
        const GroundSplit now = split(locals[root], up);
        const glm::quat turn = glm::normalize(now.yaw * glm::conjugate(rest.yaw));
        keys.frames.push_back(static_cast<float>(frame));
        keys.root_translations.push_back(rest.ground + now.height);
        keys.root_rotations.push_back(glm::normalize(rest.yaw * now.tilt));
        keys.motion_translations.push_back(now.ground - turn * rest.ground);
        keys.motion_rotations.push_back(turn);
        tally.add(now.ground, twist_angle(turn, up));
    }
    return keys;
}

// Takes out the curves of `animation` that key the root's translation or rotation.
void remove_root_curves(cast::Animation& animation, const Skeleton& skeleton, std::int32_t root) {
    animation.node().take_children_if([&](const cast::Node& node) {
        const cast::ConstCurve curve = cast::view_of<cast::ConstCurve>(node);
        if (!curve) return false;
        const auto channel = cast::key_property_from_name(curve.key_property().value_or(""));
        return channel && is_root_channel(*channel) &&
               skeleton.find_bone(curve.node_name().value_or("")) == root;
    });
}

// The keys every axis of `translations` needs within the tolerance, one set for the three (as
// SEAnim and glTF key a translation): the union of each axis's.
std::vector<std::uint32_t> translation_keys(const std::vector<float>& frames,
                                            const std::vector<glm::vec3>& translations) {
    std::vector<std::uint32_t> kept;
    for (glm::length_t axis = 0; axis < 3; ++axis) {
        std::vector<float> values;
        for (const glm::vec3& t : translations) values.push_back(t[axis]);
        const std::vector<std::uint32_t> own = reduce_linear_keys(frames, values, kLengthTolerance);
        kept.insert(kept.end(), own.begin(), own.end());
    }
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    return kept;
}

// Absolute tx, ty, tz and rq curves for `bone`, the keys reduced within the tolerances.
void add_curves(const cast::Animation& animation, std::string_view bone,
                const std::vector<float>& frames, const std::vector<glm::vec3>& translations,
                const std::vector<glm::quat>& rotations) {
    const std::vector<std::uint32_t> kept = translation_keys(frames, translations);
    std::vector<std::uint32_t> kept_frames;
    for (std::uint32_t i : kept) kept_frames.push_back(static_cast<std::uint32_t>(frames[i]));
    for (glm::length_t axis = 0; axis < 3; ++axis) {
        std::vector<float> values;
        for (std::uint32_t i : kept) values.push_back(translations[i][axis]);
        cast::Curve curve = animation.add_curve();
        curve.set_node_name(bone);
        curve.set_key_property(cast::kTranslationKeys[static_cast<std::size_t>(axis)]);
        curve.set_key_frames(kept_frames);
        curve.set_float_values(values);
    }
    std::vector<std::uint32_t> rotation_frames;
    std::vector<glm::vec4> rotation_values;
    for (std::uint32_t i : reduce_slerp_keys(frames, rotations, kAngleTolerance)) {
        rotation_frames.push_back(static_cast<std::uint32_t>(frames[i]));
        rotation_values.push_back(cast::xyzw_from_quat(rotations[i]));
    }
    cast::Curve curve = animation.add_curve();
    curve.set_node_name(bone);
    curve.set_key_property(cast::KeyProperty::Rotation);
    curve.set_key_frames(rotation_frames);
    curve.set_quaternion_values(rotation_values);
}

Diagnostic warning(const RootMotionJob& job, std::string rule, std::string message) {
    Diagnostic d = problem(std::move(rule), std::move(message));
    d.severity = Severity::Warning;
    d.file = job.name;
    return d;
}

// "'walk'", or "(unnamed)".
std::string clip_name(const cast::Animation& animation) {
    const auto name = animation.name();
    return name ? fmt::format("'{}'", *name) : std::string("(unnamed)");
}

void report_moved(const RootMotionJob& job, const ClipRootMotion& moved) {
    const bool extracted = job.mode == RootMotion::Extract;
    const std::string clip =
        moved.clip.empty() ? std::string("(unnamed)") : fmt::format("'{}'", moved.clip);
    const std::string what = fmt::format(
        "{:.4g} units of ground travel ({:.4g} from the first frame to the last) and "
        "a yaw from {:.1f}° to {:.1f}°",
        moved.ground_distance, moved.ground_net, moved.yaw_min_degrees, moved.yaw_max_degrees);
    job.warnings->push_back(
        extracted ? warning(job, "anim.root-motion-extracted",
                            fmt::format("clip {}: the root motion of bone '{}' moved onto the "
                                        "new top bone '{}': {}",
                                        clip, moved.bone, moved.motion_bone, what))
                  : warning(job, "anim.root-motion-stripped",
                            fmt::format("clip {}: the root motion of bone '{}' stripped: {} "
                                        "removed",
                                        clip, moved.bone, what)));
    if (job.moved != nullptr) job.moved->push_back(moved);
}

// Strips or extracts the root motion of one clip on `plan`'s skeleton.
Expected<void> move_clip(const RootMotionJob& job, cast::Animation& animation,
                         const SkeletonPlan& plan) {
    Diagnostics ignored;  // binding problems are the readers' and writers' to report
    auto clip = build_animation(animation, plan.runtime, {}, ignored, job.document);
    if (!clip) return make_error(clip.error());
    const std::optional<FrameRange> range = root_range(*clip, plan.root);
    if (!range) return {};
    const std::string& bone = plan.runtime.names()[static_cast<std::size_t>(plan.root)];
    if (range->additive || override_covers(animation, plan.runtime, plan.root)) {
        job.warnings->push_back(warning(
            job, "anim.root-motion-skipped",
            fmt::format("clip {}: the curves of root bone '{}' are additive or under a "
                        "CurveModeOverride, so its root motion is left as it is (bake the clip "
                        "first: castkit bake --base)",
                        clip_name(animation), bone)));
        return {};
    }
    if (auto affordable = check_budget(*clip, plan.runtime, *range, job); !affordable)
        return affordable;
    MotionTally tally;
    auto keys = resample(*clip, plan, *range, up_vector(job.up), tally);
    if (!keys) return make_error(keys.error());
    remove_root_curves(animation, plan.runtime, plan.root);
    add_curves(animation, bone, keys->frames, keys->root_translations, keys->root_rotations);
    ClipRootMotion report;
    report.clip = animation.name().value_or("");
    report.bone = bone;
    if (job.mode == RootMotion::Extract) {
        add_curves(animation, plan.motion_bone, keys->frames, keys->motion_translations,
                   keys->motion_rotations);
        report.motion_bone = plan.motion_bone;
    }
    tally.fill(report);
    report_moved(job, report);
    return {};
}

// Extract: the new bone appended as the root's parent, at the root parent's place.
void add_motion_bone(SkeletonPlan& plan) {
    const auto root = static_cast<std::size_t>(plan.root);
    std::vector<cast::Bone> bones = plan.node.bones();
    cast::Bone motion = plan.node.add_bone();
    motion.set_name(plan.motion_bone);
    motion.set_parent_index(plan.runtime.parents()[root]);
    motion.set_local_position(glm::vec3(0.0f));
    motion.set_local_rotation(glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    motion.set_scale(glm::vec3(1.0f));
    motion.set_segment_scale_compensate(bones[root].segment_scale_compensate());
    if (bones[root].world_position() || bones[root].world_rotation()) {
        const std::int32_t parent = plan.runtime.parents()[root];
        const Transform world =
            parent < 0 ? Transform{}
                       : decompose(plan.runtime.rest_worlds()[static_cast<std::size_t>(parent)]);
        motion.set_world_position(world.translation);
        motion.set_world_rotation(cast::xyzw_from_quat(world.rotation));
    }
    bones[root].set_parent_index(static_cast<std::int32_t>(bones.size()));
}

}  // namespace

std::optional<RootMotion> root_motion_from_name(std::string_view name) {
    if (name == "keep") return RootMotion::Keep;
    if (name == "strip") return RootMotion::Strip;
    if (name == "extract") return RootMotion::Extract;
    return std::nullopt;
}

std::string_view root_motion_name(RootMotion mode) {
    switch (mode) {
        case RootMotion::Strip:
            return "strip";
        case RootMotion::Extract:
            return "extract";
        case RootMotion::Keep:
            break;
    }
    return "keep";
}

bool RootMotionJob::validate() const { return document != nullptr && warnings != nullptr; }

Expected<void> RootMotionJob::run() const {
    if (!validate())
        return make_error(
            problem("anim.root-motion-job", "RootMotionJob: no document or no warnings sink"));
    if (mode == RootMotion::Keep) return {};
    auto plans = plan_skeletons(*this);
    if (!plans) return make_error(plans.error());
    for (cast::Animation& animation : document->animations()) {
        const SkeletonPlan* plan = skeleton_of(animation, *plans, *document);
        if (plan == nullptr || plan->root < 0) {
            warnings->push_back(
                warning(*this, "anim.root-motion-skipped",
                        fmt::format("clip {} has no skeleton to find its root bone in, so its root "
                                    "motion is left as it is (give the model: --model FILE)",
                                    clip_name(animation))));
            continue;
        }
        if (auto moved = move_clip(*this, animation, *plan); !moved) return moved;
    }
    if (mode == RootMotion::Extract)
        for (auto& [node, plan] : *plans)
            if (plan.root >= 0) add_motion_bone(plan);
    return {};
}

Expected<void> move_baked_root_motion(cast::Document& baked, const cast::ConstSkeleton& played_on,
                                      RootMotionJob job) {
    if (job.mode == RootMotion::Keep) return {};
    std::vector<cast::Animation> lent;
    for (cast::Animation& animation : baked.animations())
        if (!animation.skeleton() && played_on) {
            baked.adopt(played_on.node(), &animation.node());
            lent.push_back(animation);
        }
    job.document = &baked;
    auto moved = job.run();
    if (job.mode == RootMotion::Strip)
        for (cast::Animation& animation : lent)
            animation.node().take_children_if(
                [](const cast::Node& node) { return node.is(cast::NodeId::Skeleton); });
    return moved;
}

}  // namespace castkit::anim
