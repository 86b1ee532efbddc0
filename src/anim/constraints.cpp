// The constraints of a skeleton applied to a local pose (docs/animation.md, "Constraints"), as
// the official Blender add-on sets them up: each copies its target's channel in local space.
#include <castkit/anim/skeleton.hpp>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik.hpp"

namespace castkit::anim::detail {
namespace {

// A bone's channels as Blender keys them: relative to its rest, in the rest's frame
// (local = rest T · rest R · T(location) · R(rotation) · S(scale) · rest S).
struct Channels {
    glm::vec3 location{0.0f};
    glm::quat rotation{1, 0, 0, 0};
    glm::vec3 scale{1.0f};
};

glm::vec3 divided(const glm::vec3& a, const glm::vec3& b) {
    return {b.x != 0 ? a.x / b.x : 0, b.y != 0 ? a.y / b.y : 0, b.z != 0 ? a.z / b.z : 0};
}

Channels channels_of(const Transform& local, const Transform& rest) {
    const glm::quat unrest = glm::inverse(rest.rotation);
    return {unrest * (local.translation - rest.translation),
            glm::normalize(unrest * local.rotation), divided(local.scale, rest.scale)};
}

Transform local_of(const Channels& c, const Transform& rest) {
    return {rest.translation + rest.rotation * c.location,
            glm::normalize(rest.rotation * c.rotation), c.scale * rest.scale};
}

// `value` with the axes the constraint skips taken from `own`.
glm::vec3 kept_axes(const BoneConstraint& constraint, glm::vec3 value, const glm::vec3& own) {
    for (int axis = 0; axis < 3; ++axis)
        if (constraint.skip[static_cast<std::size_t>(axis)]) value[axis] = own[axis];
    return value;
}

// Rotations compose by their XYZ Euler angles when axes are skipped, as Blender's use_x/y/z do.
glm::quat kept_axes(const BoneConstraint& constraint, const glm::quat& value,
                    const glm::quat& own) {
    if (!constraint.skip[0] && !constraint.skip[1] && !constraint.skip[2]) return value;
    return glm::quat(kept_axes(constraint, glm::eulerAngles(value), glm::eulerAngles(own)));
}

// The owner's channels the constraint makes, before its weight: the target's, or in offset mode
// (`mo`, or a custom offset, which stands for the owner's own channel) combined with them.
Channels constrained(const BoneConstraint& constraint, const Channels& own,
                     const Channels& target) {
    Channels out = own;
    const bool offset = constraint.maintain_offset || constraint.custom_offset.has_value();
    const glm::vec4 custom = constraint.custom_offset.value_or(glm::vec4(0.0f));
    switch (constraint.type) {
        case cast::ConstraintType::Point: {
            const glm::vec3 base = constraint.custom_offset ? glm::vec3(custom) : own.location;
            const glm::vec3 value = offset ? base + target.location : target.location;
            out.location = kept_axes(constraint, value, own.location);
            break;
        }
        case cast::ConstraintType::Orient: {
            const glm::quat base =
                constraint.custom_offset
                    ? glm::normalize(glm::quat(custom.w, custom.x, custom.y, custom.z))
                    : own.rotation;
            const glm::quat value = offset ? target.rotation * base : target.rotation;
            out.rotation = kept_axes(constraint, glm::normalize(value), own.rotation);
            break;
        }
        case cast::ConstraintType::Scale: {
            const glm::vec3 base = constraint.custom_offset ? glm::vec3(custom) : own.scale;
            const glm::vec3 value = offset ? base * target.scale : target.scale;
            out.scale = kept_axes(constraint, value, own.scale);
            break;
        }
    }
    return out;
}

Channels blend(const Channels& from, const Channels& to, float weight) {
    return {
        glm::mix(from.location, to.location, weight),
        glm::slerp(from.rotation,
                   glm::dot(from.rotation, to.rotation) < 0 ? -to.rotation : to.rotation, weight),
        glm::mix(from.scale, to.scale, weight)};
}

// The rotation of a matrix that may carry a non-uniform scale turned off its axes, as Blender's
// orthogonalize_m4_stable finds it for COPY_ROTATION: the Y axis (a bone's length) kept, X and Z
// made square to it, then turned towards square to each other by half the error each.
glm::quat rotation_keeping_y(const glm::mat3& m) {
    const glm::vec3 y = glm::normalize(m[1]);
    const glm::vec3 x = glm::normalize(m[0] - glm::dot(m[0], y) * y);
    const glm::vec3 z = glm::normalize(m[2] - glm::dot(m[2], y) * y);
    const glm::vec3 sum = glm::normalize(x + z), difference = glm::normalize(x - z);
    const float half = std::sqrt(0.5f);
    return glm::normalize(
        glm::quat_cast(glm::mat3((sum + difference) * half, y, (sum - difference) * half)));
}

// The target's channels as an `or` constraint reads them: its local matrix turned from the
// target's rest frame into the owner's (Blender's LOCAL_OWNER_ORIENT target space, which the
// add-on sets for `or`), so a target and owner whose rests point different ways turn about the
// same Model-space axis. A non-uniform scale turned off its axes bends the rotation read back,
// as in Blender.
Channels in_owner_orientation(Channels target, const glm::quat& owner_rest,
                              const glm::quat& target_rest) {
    const glm::mat3 turn = glm::mat3_cast(glm::inverse(owner_rest) * target_rest);
    const glm::mat3 local =
        glm::mat3_cast(target.rotation) * glm::mat3(glm::scale(glm::mat4(1.0f), target.scale));
    target.rotation = rotation_keeping_y(turn * local * glm::transpose(turn));
    return target;
}

}  // namespace

void apply_constraints(const Skeleton& skeleton, std::span<Transform> locals) {
    if (skeleton.constraints().empty()) return;  // every sample of every skeleton comes here
    const std::vector<Transform>& rest = skeleton.rest();
    const std::vector<glm::quat>& rest_world = skeleton.rest_world_rotations();
    for (const BoneConstraint& constraint : skeleton.constraints()) {
        const auto owner = static_cast<std::size_t>(constraint.owner);
        const auto target = static_cast<std::size_t>(constraint.target);
        const Channels own = channels_of(locals[owner], rest[owner]);
        Channels theirs = channels_of(locals[target], rest[target]);
        if (constraint.type == cast::ConstraintType::Orient)
            theirs = in_owner_orientation(theirs, rest_world[owner], rest_world[target]);
        const Channels made = constrained(constraint, own, theirs);
        locals[owner] = local_of(blend(own, made, constraint.weight), rest[owner]);
    }
}

}  // namespace castkit::anim::detail
