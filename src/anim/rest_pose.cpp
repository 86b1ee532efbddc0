// Completing a skeleton's rest transforms: every bone gets lp, lr, wp and wr, the missing ones
// derived from the ones present with rule 18, so that readers which need one kind (the Blender
// add-on reads lp/lr unconditionally) see the same skeleton castkit evaluates.
#include <castkit/anim/rest_pose.hpp>
#include <castkit/anim/skeleton.hpp>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>

namespace castkit::anim {
namespace {

// Parent indices with out-of-range parents as roots, and an order where each bone comes after
// its parent; a bone on a parent cycle is ordered as a root. O(bones).
struct Hierarchy {
    std::vector<std::int32_t> parents;
    std::vector<std::uint32_t> order;
};

Hierarchy hierarchy(const std::vector<cast::Bone>& bones) {
    const auto count = static_cast<std::int32_t>(bones.size());
    Hierarchy h;
    for (std::int32_t i = 0; i < count; ++i) {
        const std::int32_t parent = bones[static_cast<std::size_t>(i)].parent_index();
        h.parents.push_back(parent >= 0 && parent < count && parent != i ? parent : -1);
    }
    // 0 not placed, 1 on the current walk, 2 placed.
    std::vector<std::uint8_t> state(bones.size(), 0);
    std::vector<std::uint32_t> chain;
    for (std::int32_t start = 0; start < count; ++start) {
        chain.clear();
        std::int32_t at = start;
        while (at >= 0 && state[static_cast<std::size_t>(at)] == 0) {
            state[static_cast<std::size_t>(at)] = 1;
            chain.push_back(static_cast<std::uint32_t>(at));
            at = h.parents[static_cast<std::size_t>(at)];
        }
        // Walked into the current chain: the last bone's parent closes a cycle; cut it there.
        if (at >= 0 && state[static_cast<std::size_t>(at)] == 1) h.parents[chain.back()] = -1;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            h.order.push_back(*it);
            state[*it] = 2;
        }
    }
    return h;
}

glm::vec3 inverse_scale(const glm::vec3& scale) {
    glm::vec3 inverse(1.0f);
    for (int axis = 0; axis < 3; ++axis)
        if (scale[axis] != 0.0f) inverse[axis] = 1.0f / scale[axis];
    return inverse;
}

// One sign per rotation (w >= 0), so a derived value does not depend on the solver's choice.
glm::vec4 canonical_xyzw(glm::quat q) {
    if (q.w < 0.0f) q = -q;
    return cast::xyzw_from_quat(q);
}

glm::quat normalised(std::optional<glm::vec4> xyzw) {
    if (!xyzw) return glm::quat(1, 0, 0, 0);
    glm::quat q = cast::quat_from_xyzw(*xyzw);
    const float length = glm::length(q);
    return length > 0.0f && std::isfinite(length) ? q / length : glm::quat(1, 0, 0, 0);
}

}  // namespace

void complete_rest_transforms(cast::Skeleton& skeleton) {
    std::vector<cast::Bone> bones = skeleton.bones();
    const Hierarchy h = hierarchy(bones);
    std::vector<Transform> locals(bones.size());
    std::vector<glm::mat4> worlds(bones.size(), glm::mat4(1.0f));
    for (std::uint32_t i : h.order) {
        cast::Bone& bone = bones[i];
        const std::int32_t parent = h.parents[i];
        const glm::mat4 parent_world =
            parent >= 0 ? worlds[static_cast<std::size_t>(parent)] : glm::mat4(1.0f);
        // C of rule 18: the inverse parent scale under segment scale compensation.
        glm::vec3 compensate(1.0f);
        if (parent >= 0 && bone.segment_scale_compensate())
            compensate = inverse_scale(locals[static_cast<std::size_t>(parent)].scale);
        Transform& local = locals[i];
        local.scale = bone.scale().value_or(glm::vec3(1.0f));
        const bool has_local = bone.local_position() || bone.local_rotation();
        const bool has_world = bone.world_position() || bone.world_rotation();
        if (has_local || !has_world) {
            local.translation = bone.local_position().value_or(glm::vec3(0.0f));
            local.rotation = normalised(bone.local_rotation());
        } else {
            // parent_world · T · C · R = world (position and rotation): T is the translation of
            // parent_world⁻¹ · world, and R the rotation left once C is taken off its basis.
            Transform world;
            world.translation = bone.world_position().value_or(glm::vec3(0.0f));
            world.rotation = normalised(bone.world_rotation());
            const glm::mat4 relative = glm::inverse(parent_world) * to_matrix(world);
            local.translation = glm::vec3(relative[3]);
            glm::mat4 basis(1.0f);
            for (int column = 0; column < 3; ++column)
                basis[column] = glm::vec4(glm::vec3(relative[column]) / compensate, 0.0f);
            local.rotation = decompose(basis).rotation;
        }
        glm::mat4 matrix = to_matrix(local);
        for (int column = 0; column < 3; ++column)
            matrix[column] = glm::vec4(glm::vec3(matrix[column]) * compensate, 0.0f);
        worlds[i] = parent_world * matrix;

        if (!bone.local_position()) bone.set_local_position(local.translation);
        if (!bone.local_rotation()) bone.set_local_rotation(canonical_xyzw(local.rotation));
        if (!bone.world_position()) bone.set_world_position(glm::vec3(worlds[i][3]));
        if (!bone.world_rotation())
            bone.set_world_rotation(canonical_xyzw(decompose(worlds[i]).rotation));
    }
}

}  // namespace castkit::anim
