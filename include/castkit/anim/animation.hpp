// The runtime animation: a Cast Animation compiled against one Skeleton (ozz's offline step).
// Curve names are bound to bones once, modes and CurveModeOverrides are resolved once, and the
// keys of every curve sit in flat arrays, so sampling (jobs.hpp) does no lookups and no
// allocation. Curves that name no bone are reported, never silently dropped.
#pragma once

#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace castkit::anim {

// What a curve keys (its `kp`).
using Channel = cast::KeyProperty;
using cast::key_property_from_name;
using cast::key_property_name;

// How a curve's keys combine with the rest and base values (rule 22): the Cast `m` values.
using cast::CurveMode;

// Where a track's keys are in the Animation's flat key arrays.
struct TrackRange {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
};

// One curve after binding, in file order (rule 22: curves apply in file order).
struct BoundCurve {
    Channel channel = Channel::TranslationX;
    CurveMode mode = CurveMode::Absolute;  // after CurveModeOverride resolution
    // Bone index for transform channels; blend shape / visibility slot for bs / vb.
    std::uint32_t target = 0;
    // Index into scalar_tracks (every channel but rq) or rotation_tracks (rq).
    std::uint32_t track = 0;
    float blend_weight = 1.0f;  // `ab`, used by additive curves
};

struct NotificationTrackKeys {
    std::string name;
    std::vector<float> frames;  // ascending
};

namespace detail {
class AnimationBuilder;
}

// Read-only once built: only build_animation (the offline step) fills one, so its tracks, curves
// and ranges always agree. The default one has no curves.
class Animation {
  public:
    const std::string& name() const { return name_; }
    float framerate() const { return framerate_; }  // frames per second (`fr`)
    bool looping() const { return looping_; }       // `lo`
    // The key range over every curve and notification track (both plugins' scene range).
    float start_frame() const { return start_frame_; }
    float end_frame() const { return end_frame_; }
    // Bones of the skeleton this animation was built for.
    std::size_t bone_count() const { return bone_count_; }

    // Curves in file order; each names its track in the scalar or the rotation key arrays.
    const std::vector<BoundCurve>& curves() const { return curves_; }
    const std::vector<TrackRange>& scalar_tracks() const { return scalar_tracks_; }
    const std::vector<float>& scalar_frames() const { return scalar_frames_; }
    const std::vector<float>& scalar_values() const { return scalar_values_; }
    const std::vector<TrackRange>& rotation_tracks() const { return rotation_tracks_; }
    const std::vector<float>& rotation_frames() const { return rotation_frames_; }
    const std::vector<glm::quat>& rotation_values() const {
        return rotation_values_;
    }  // normalised

    // Names `bs` and `vb` curves key, one slot each (exact `nn`).
    const std::vector<std::string>& blend_shapes() const { return blend_shapes_; }
    const std::vector<std::string>& visibility_nodes() const { return visibility_nodes_; }
    const std::vector<NotificationTrackKeys>& notification_tracks() const {
        return notification_tracks_;
    }

    // Seconds to frames (rule 20).
    float frames_from_seconds(double seconds) const {
        return static_cast<float>(seconds * framerate_);
    }

  private:
    friend class detail::AnimationBuilder;
    std::string name_;
    float framerate_ = 30.0f;
    bool looping_ = false;
    float start_frame_ = 0.0f;
    float end_frame_ = 0.0f;
    std::size_t bone_count_ = 0;
    std::vector<BoundCurve> curves_;
    std::vector<TrackRange> scalar_tracks_;
    std::vector<float> scalar_frames_;
    std::vector<float> scalar_values_;
    std::vector<TrackRange> rotation_tracks_;
    std::vector<float> rotation_frames_;
    std::vector<glm::quat> rotation_values_;
    std::vector<std::string> blend_shapes_;
    std::vector<std::string> visibility_nodes_;
    std::vector<NotificationTrackKeys> notification_tracks_;
};

// What else a Model names, so `bs` and `vb` curves can be checked against it.
struct BindingTargets {
    // Names of BlendShape nodes. When empty, `bs` curves are not checked.
    std::vector<std::string> blend_shapes;
    // Names of meshes, hairs and models that `vb` curves may name besides bones. When empty
    // (and no bone matches) `vb` curves are not checked.
    std::vector<std::string> nodes;
};

// The names a Model's BlendShape, Mesh and Hair nodes (and the Model) carry. O(children).
BindingTargets binding_targets(const cast::ConstModel& model);

// The skeleton an animation plays on, and what its curves may name besides the bones.
struct SkeletonChoice {
    cast::ConstSkeleton skeleton;
    const cast::Document* document = nullptr;  // the document `skeleton` is in
    BindingTargets targets;                    // of the Model chosen; empty for the animation's own
};

// The one rule `castkit pose`, `bake` and the Python module choose a skeleton by: the first
// Model with a Skeleton in `model_document` when one is given (the user named the model);
// without it, the animation's own Skeleton, else the first Model with one in
// `animation_document`. nullopt when there is none. O(models).
std::optional<SkeletonChoice> choose_skeleton(const cast::ConstAnimation& animation,
                                              const cast::Document& animation_document,
                                              const cast::Document* model_document);

// Compiles `animation` against `skeleton`. Everything it cannot apply is reported in `reports`
// as a warning naming the curve: unknown node names, unknown `kp` or `m`, key and value buffers
// of the wrong type or different lengths, keys out of order (they are sorted), overrides on
// unknown nodes. Fails only when `fr` is not a positive number. O(curves × keys + bones ×
// depth). `document`, when given, is the one `animation` is in: reports then name its file and
// the node path from its root.
Expected<Animation> build_animation(const cast::ConstAnimation& animation, const Skeleton& skeleton,
                                    const BindingTargets& targets, Diagnostics& reports,
                                    const cast::Document* document = nullptr);

}  // namespace castkit::anim
