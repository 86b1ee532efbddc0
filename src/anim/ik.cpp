// The IK handles of a skeleton solved on a local pose (docs/animation.md, "IK handles"): a
// rotate-plane solve per handle, in the skeleton's order.
#include "ik.hpp"

#include <array>
#include <castkit/anim/local_to_world_job.hpp>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

namespace castkit::anim::detail {
namespace {

constexpr float kTiny = 1e-6f;

glm::vec3 position_of(const glm::mat4& m) { return glm::vec3(m[3]); }

// The unit vector of `v` without its part along the unit `a`; zero when `v` lies along `a`.
glm::vec3 across(const glm::vec3& v, const glm::vec3& a) {
    const glm::vec3 p = v - a * glm::dot(v, a);
    const float length = glm::length(p);
    return length > kTiny ? p / length : glm::vec3(0.0f);
}

// The rotation taking the unit `from` to the unit `to` by the shortest arc.
glm::quat shortest_arc(const glm::vec3& from, const glm::vec3& to) {
    const float d = glm::dot(from, to);
    if (d > 1.0f - kTiny) return glm::quat(1, 0, 0, 0);
    if (d < -1.0f + kTiny) {  // opposite: half a turn about any axis across them
        glm::vec3 axis = across(glm::vec3(1, 0, 0), from);
        if (glm::length(axis) < 0.5f) axis = across(glm::vec3(0, 1, 0), from);
        return glm::angleAxis(glm::pi<float>(), axis);
    }
    const glm::vec3 axis = glm::cross(from, to);  // |axis| = sin θ, 1 + d = 2 cos² θ/2
    return glm::normalize(glm::quat(1.0f + d, axis.x, axis.y, axis.z));
}

// The rotation taking the frame (a, s) to the frame (b, t): a, b along the chain, s, t across.
glm::quat frame_turn(const glm::vec3& a, const glm::vec3& s, const glm::vec3& b,
                     const glm::vec3& t) {
    const glm::mat3 from(a, s, glm::cross(a, s)), to(b, t, glm::cross(b, t));
    return glm::normalize(glm::quat_cast(to * glm::transpose(from)));
}

// A bone's world matrix from its parent's (rule 18), as LocalToWorldJob makes it.
glm::mat4 world_of(const Skeleton& skeleton, std::span<const Transform> locals,
                   std::span<const glm::mat4> worlds, std::size_t bone) {
    const std::int32_t parent = skeleton.parents()[bone];
    const Transform& local = locals[bone];
    glm::mat4 m = glm::translate(glm::mat4(1.0f), local.translation);
    if (parent >= 0 && skeleton.segment_scale_compensate()[bone] != 0) {
        const glm::vec3 s = locals[static_cast<std::size_t>(parent)].scale;
        m = glm::scale(
            m, glm::vec3(s.x != 0 ? 1 / s.x : 0, s.y != 0 ? 1 / s.y : 0, s.z != 0 ? 1 / s.z : 0));
    }
    m = m * glm::mat4_cast(local.rotation);
    m = glm::scale(m, local.scale);
    return parent >= 0 ? worlds[static_cast<std::size_t>(parent)] * m : m;
}

glm::quat world_rotation_of(std::span<const glm::mat4> worlds, std::int32_t bone) {
    return bone >= 0 ? decompose(worlds[static_cast<std::size_t>(bone)]).rotation
                     : glm::quat(1, 0, 0, 0);
}

// Turns `bone` by `delta` in world space: its local rotation becomes P⁻¹ ⊗ delta ⊗ P ⊗ r, P its
// parent's world rotation (exact under uniform scales), and its world matrix follows.
void turn_bone(const Skeleton& skeleton, std::span<Transform> locals, std::span<glm::mat4> worlds,
               std::size_t bone, const glm::quat& delta) {
    const glm::quat parent = world_rotation_of(worlds, skeleton.parents()[bone]);
    locals[bone].rotation =
        glm::normalize(glm::inverse(parent) * delta * parent * locals[bone].rotation);
    worlds[bone] = world_of(skeleton, locals, worlds, bone);
}

// The chain's joint positions, at most kMaxIkChain of them.
using Joints = std::array<glm::vec3, kMaxIkChain>;

// The chain's joint positions in `worlds`.
Joints joints_of(const IkHandle& handle, std::span<const glm::mat4> worlds) {
    Joints joints{};
    for (std::size_t i = 0; i < handle.chain.size(); ++i)
        joints[i] = position_of(worlds[static_cast<std::size_t>(handle.chain[i])]);
    return joints;
}

// The unit direction across `axis` (from joints[0]) to the first inner joint off that line; zero
// when every inner joint lies on it (a straight chain).
glm::vec3 first_bend(const Joints& joints, std::size_t count, const glm::vec3& axis) {
    for (std::size_t i = 1; i + 1 < count; ++i)
        if (const glm::vec3 bend = across(joints[i] - joints[0], axis); glm::length(bend) > 0.0f)
            return bend;
    return glm::vec3(0.0f);
}

// Where the joints go: lengths kept, the end on `target`, every joint in the plane of the start
// and `side` (unit, across start → target) on the side of `side`; straight towards the target
// when it is out of reach. Two bones: the triangle solved exactly; longer chains: FABRIK from
// the joints laid into that plane.
void place_joints(Joints& joints, std::size_t count, const glm::vec3& target,
                  const glm::vec3& side) {
    std::array<float, kMaxIkChain> lengths{};
    float reach = 0.0f;
    for (std::size_t i = 0; i + 1 < count; ++i)
        reach += lengths[i] = glm::length(joints[i + 1] - joints[i]);
    const glm::vec3 start = joints[0];
    const float distance = glm::length(target - start);
    const glm::vec3 axis = distance > kTiny ? (target - start) / distance : glm::vec3(0, 1, 0);
    if (distance >= reach) {
        for (std::size_t i = 1; i < count; ++i) joints[i] = joints[i - 1] + axis * lengths[i - 1];
        return;
    }
    if (count == 3) {  // law of cosines: the middle joint's foot along the axis, and its height
        const float along =
            (distance * distance + lengths[0] * lengths[0] - lengths[1] * lengths[1]) /
            (2.0f * distance);
        const float height = std::sqrt(std::max(0.0f, lengths[0] * lengths[0] - along * along));
        joints[1] = start + axis * along + side * height;
        joints[2] = target;
        return;
    }
    for (std::size_t i = 1; i < count; ++i) {  // into the plane, on the side of `side`
        const glm::vec3 v = joints[i] - start;
        const float along = glm::dot(v, axis);
        joints[i] = start + axis * along + side * glm::length(v - axis * along);
    }
    for (int pass = 0;
         pass < kFabrikPasses && glm::length(joints[count - 1] - target) > 1e-6f * reach; ++pass) {
        joints[count - 1] = target;
        for (std::size_t i = count - 1; i-- > 0;)
            joints[i] = joints[i + 1] + glm::normalize(joints[i] - joints[i + 1]) * lengths[i];
        joints[0] = start;
        for (std::size_t i = 1; i < count; ++i)
            joints[i] = joints[i - 1] + glm::normalize(joints[i] - joints[i - 1]) * lengths[i - 1];
    }
}

// The unit direction across start → target the chain bends towards: the pole vector bone's
// side, else the side the chain bends to now, turned about the axis by the pole bone's twist
// (its local rotation about X, as Maya's twist); zero for a straight chain without a pole.
glm::vec3 bend_side(const IkHandle& handle, std::span<const Transform> locals,
                    std::span<const glm::mat4> worlds, const Joints& joints, std::size_t count,
                    const glm::vec3& target) {
    const glm::vec3 start = joints[0];
    const glm::vec3 axis = glm::normalize(target - start);
    glm::vec3 side(0.0f);
    if (handle.pole_vector >= 0) {
        side =
            across(position_of(worlds[static_cast<std::size_t>(handle.pole_vector)]) - start, axis);
    }
    if (glm::length(side) == 0.0f) side = first_bend(joints, count, axis);
    if (handle.pole_bone >= 0 && glm::length(side) > 0.0f) {
        const glm::quat q = locals[static_cast<std::size_t>(handle.pole_bone)].rotation;
        side = glm::angleAxis(2.0f * std::atan2(q.x, q.w), axis) * side;
    }
    return side;
}

// The side a chain bends to at rest, in its start bone's frame: the first joint off the line
// from start to end; zero for a chain straight at rest.
glm::vec3 rest_bend(const IkHandle& handle, std::span<const glm::mat4> rest_worlds) {
    const std::size_t count = handle.chain.size();
    const Joints rest = joints_of(handle, rest_worlds);
    if (glm::length(rest[count - 1] - rest[0]) <= kTiny) return glm::vec3(0.0f);
    const glm::vec3 bend = first_bend(rest, count, glm::normalize(rest[count - 1] - rest[0]));
    const glm::mat4& first = rest_worlds[static_cast<std::size_t>(handle.chain[0])];
    return glm::inverse(decompose(first).rotation) * bend;
}

// The chain turned so its joints lie where place_joints put them: first the whole chain about
// the start, so its bend (the rest bend as the start bone carries it now, else the bend it has
// now) turns to `side` (the joints keep their hinge axes, even when the chain ends straight out
// of reach), then each bone by the arc to its next joint, which is about the plane's normal.
void pose_chain(const Skeleton& skeleton, const IkHandle& handle, std::span<Transform> locals,
                std::span<glm::mat4> worlds, const Joints& before, const Joints& after,
                const glm::vec3& bend_at_rest, const glm::vec3& side) {
    const std::size_t count = handle.chain.size();
    const auto first = static_cast<std::size_t>(handle.chain[0]);
    const glm::vec3 start = before[0];
    const glm::vec3 a = glm::normalize(before[count - 1] - start);
    const glm::vec3 b = glm::normalize(after[count - 1] - start);
    glm::vec3 s = across(decompose(worlds[first]).rotation * bend_at_rest, a);
    if (glm::length(s) == 0.0f) s = first_bend(before, count, a);
    const glm::vec3 t = across(side, b);
    const bool planar = glm::length(s) > 0.0f && glm::length(t) > 0.0f;
    turn_bone(skeleton, locals, worlds, first,
              planar ? frame_turn(a, s, b, t) : shortest_arc(a, b));
    for (std::size_t i = 0; i + 1 < count; ++i) {
        const auto bone = static_cast<std::size_t>(handle.chain[i]);
        const auto next = static_cast<std::size_t>(handle.chain[i + 1]);
        if (i > 0) worlds[bone] = world_of(skeleton, locals, worlds, bone);
        const glm::vec3 here = position_of(worlds[bone]);
        const glm::vec3 now = position_of(world_of(skeleton, locals, worlds, next)) - here;
        const glm::vec3 wanted = after[i + 1] - here;
        if (glm::length(now) > kTiny && glm::length(wanted) > kTiny)
            turn_bone(skeleton, locals, worlds, bone,
                      shortest_arc(glm::normalize(now), glm::normalize(wanted)));
    }
    const auto end = static_cast<std::size_t>(handle.chain[count - 1]);
    worlds[end] = world_of(skeleton, locals, worlds, end);
}

void solve_handle(const Skeleton& skeleton, const IkHandle& handle, std::span<Transform> locals,
                  std::span<glm::mat4> worlds, std::span<const glm::mat4> rest_worlds) {
    const std::size_t count = handle.chain.size();
    const glm::mat4& goal = worlds[static_cast<std::size_t>(handle.target)];
    const glm::vec3 target = glm::vec3(goal * glm::vec4(handle.target_offset, 1.0f));
    const Joints before = joints_of(handle, worlds);
    Joints after{};
    if (glm::length(target - before[0]) > kTiny) {
        after = before;
        const glm::vec3 side = bend_side(handle, locals, worlds, before, count, target);
        place_joints(after, count, target, side);
        pose_chain(skeleton, handle, locals, worlds, before, after, rest_bend(handle, rest_worlds),
                   side);
    }
    if (handle.use_target_rotation) {
        const auto end = static_cast<std::size_t>(handle.chain[count - 1]);
        const glm::quat parent = world_rotation_of(worlds, skeleton.parents()[end]);
        locals[end].rotation = glm::normalize(glm::inverse(parent) * decompose(goal).rotation);
    }
}

}  // namespace

void solve_ik(const Skeleton& skeleton, std::span<Transform> locals, std::span<glm::mat4> worlds) {
    // Every world matrix once; after each handle only those below its chain's start, the bones
    // whose locals or parents it turned (the same matrices a full pass would give).
    std::int32_t changed = -1;
    for (const IkHandle& handle : skeleton.ik_handles()) {
        const LocalToWorldJob job{
            .skeleton = &skeleton, .locals = locals, .worlds = worlds, .subtree = changed};
        if (!job.run()) return;
        solve_handle(skeleton, handle, locals, worlds, skeleton.rest_worlds());
        changed = handle.chain.front();
    }
}

}  // namespace castkit::anim::detail
