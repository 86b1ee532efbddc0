// SamplingJob: the hot path. One pass over the bound curves in file order; every curve is one
// key lookup (O(1) with a warm context), one lerp or slerp, and one mode application.
#include <algorithm>
#include <castkit/anim/curve_sampling.hpp>
#include <castkit/anim/sampling_job.hpp>

#include "ik.hpp"
#include "problem.hpp"

namespace castkit::anim {

SamplingContext::SamplingContext(const Animation& animation) { resize(animation); }

void SamplingContext::resize(const Animation& animation) {
    scalar_cursors.assign(animation.scalar_tracks().size(), 0);
    rotation_cursors.assign(animation.rotation_tracks().size(), 0);
}

bool SamplingJob::validate() const {
    if (animation == nullptr || skeleton == nullptr) return false;
    if (animation->bone_count() != skeleton->bone_count()) return false;
    if (locals.size() < skeleton->bone_count()) return false;
    if (!base.empty() && base.size() != skeleton->bone_count()) return false;
    if (blend_shape_weights.size() < animation->blend_shapes().size()) return false;
    if (visibility.size() < animation->visibility_nodes().size()) return false;
    if (context != nullptr &&
        (context->scalar_cursors.size() < animation->scalar_tracks().size() ||
         context->rotation_cursors.size() < animation->rotation_tracks().size()))
        return false;
    return true;
}

namespace {

// Rule 22 for one component of translation, blend weight or visibility (additive arithmetic).
inline float apply_sum(CurveMode mode, float rest, float base, float key, float weight) {
    switch (mode) {
        case CurveMode::Relative:
            return rest + key;
        case CurveMode::Additive:
            return base + key * weight;  // lerp(base, base + key, ab)
        default:
            return key;
    }
}

// Rule 22 for one scale component: relative and additive scale multiply.
inline float apply_product(CurveMode mode, float rest, float base, float key, float weight) {
    switch (mode) {
        case CurveMode::Relative:
            return rest * key;
        case CurveMode::Additive:
            return base + (base * key - base) * weight;  // lerp(base, base·key, ab)
        default:
            return key;
    }
}

inline glm::quat apply_rotation(CurveMode mode, const glm::quat& rest, const glm::quat& base,
                                const glm::quat& key, float weight) {
    switch (mode) {
        case CurveMode::Relative:
            return glm::normalize(rest * key);
        case CurveMode::Additive:
            return weight == 1.0f ? glm::normalize(base * key)
                                  : shortest_slerp(base, base * key, weight);
        default:
            return key;
    }
}

}  // namespace

void SamplingJob::solve_ik() const {
    const std::size_t bones = skeleton->bone_count();
    std::vector<glm::mat4> own;
    std::vector<glm::mat4>& worlds = context ? context->rig_worlds : own;
    if (worlds.size() < bones) worlds.resize(bones);
    detail::solve_ik(*skeleton, locals.first(bones), std::span(worlds).first(bones));
}

Expected<void> SamplingJob::run() const {
    if (!validate())
        return make_error(problem("anim.sampling-job",
                                  "sampling job inputs are missing, built for another skeleton, "
                                  "or its output spans are too small"));
    const Animation& a = *animation;
    const float t =
        looped && a.looping() ? wrap_frame(frame, a.start_frame(), a.end_frame()) : frame;
    const std::span<const Transform> start = base.empty() ? skeleton->rest() : base;
    std::copy(start.begin(), start.end(), locals.begin());
    std::fill(blend_shape_weights.begin(), blend_shape_weights.end(), 0.0f);
    std::fill(visibility.begin(), visibility.end(), 0.0f);

    std::uint32_t* scalar_cursors = context ? context->scalar_cursors.data() : nullptr;
    std::uint32_t* rotation_cursors = context ? context->rotation_cursors.data() : nullptr;
    const float* scalar_frames = a.scalar_frames().data();
    const float* scalar_values = a.scalar_values().data();
    const Transform* rest = skeleton->rest().data();

    for (const BoundCurve& curve : a.curves()) {
        std::uint32_t scratch = 0;
        if (curve.channel == Channel::Rotation) {
            const TrackRange& range = a.rotation_tracks()[curve.track];
            std::uint32_t& cursor = rotation_cursors ? rotation_cursors[curve.track] : scratch;
            glm::quat key =
                sample_slerp(a.rotation_frames().data() + range.first,
                             a.rotation_values().data() + range.first, range.count, t, cursor);
            glm::quat& rotation = locals[curve.target].rotation;
            rotation = apply_rotation(curve.mode, rest[curve.target].rotation, rotation, key,
                                      curve.blend_weight);
            continue;
        }
        const TrackRange& range = a.scalar_tracks()[curve.track];
        std::uint32_t& cursor = scalar_cursors ? scalar_cursors[curve.track] : scratch;
        const float key = sample_linear(scalar_frames + range.first, scalar_values + range.first,
                                        range.count, t, cursor);
        switch (curve.channel) {
            case Channel::TranslationX:
            case Channel::TranslationY:
            case Channel::TranslationZ: {
                const int axis =
                    static_cast<int>(curve.channel) - static_cast<int>(Channel::TranslationX);
                float& value = locals[curve.target].translation[axis];
                value = apply_sum(curve.mode, rest[curve.target].translation[axis], value, key,
                                  curve.blend_weight);
                break;
            }
            case Channel::ScaleX:
            case Channel::ScaleY:
            case Channel::ScaleZ: {
                const int axis =
                    static_cast<int>(curve.channel) - static_cast<int>(Channel::ScaleX);
                float& value = locals[curve.target].scale[axis];
                value = apply_product(curve.mode, rest[curve.target].scale[axis], value, key,
                                      curve.blend_weight);
                break;
            }
            case Channel::BlendShape: {
                float& value = blend_shape_weights[curve.target];
                value = apply_sum(curve.mode, 0.0f, value, key, curve.blend_weight);  // ruling 22a
                break;
            }
            default: {
                float& value = visibility[curve.target];
                value = apply_sum(curve.mode, 0.0f, value, key, curve.blend_weight);  // ruling 22a
                break;
            }
        }
    }
    if (solve_rig && !skeleton->ik_handles().empty()) solve_ik();
    if (solve_rig) detail::apply_constraints(*skeleton, locals.first(skeleton->bone_count()));
    return {};
}

}  // namespace castkit::anim
