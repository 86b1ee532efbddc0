#include "transform.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace castkit::formats {

bool is_trs(const glm::mat4& matrix, float tolerance) {
    glm::mat4 back = anim::to_matrix(anim::decompose(matrix));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::abs(back[c][r] - matrix[c][r]) >
                tolerance * std::max(1.0f, std::abs(matrix[c][r])))
                return false;
    return true;
}

cast::Bone add_bone(cast::Skeleton& skeleton, std::string_view name, std::int32_t parent,
                    const glm::mat4& local) {
    cast::Bone bone = skeleton.add_bone();
    bone.set_name(name);
    bone.set_parent_index(parent);
    const anim::Transform trs = anim::decompose(local);
    bone.set_local_position(trs.translation);
    bone.set_local_rotation(cast::xyzw_from_quat(trs.rotation));
    bone.set_scale(trs.scale);
    bone.set_segment_scale_compensate(false);
    return bone;
}

namespace {

glm::mat4 trs_matrix(std::optional<glm::vec3> p, std::optional<glm::vec4> r,
                     std::optional<glm::vec3> s) {
    anim::Transform trs;
    if (p) trs.translation = *p;
    if (r) trs.rotation = glm::normalize(cast::quat_from_xyzw(*r));
    if (s) trs.scale = *s;
    return anim::to_matrix(trs);
}

}  // namespace

std::vector<glm::mat4> local_matrices(const std::vector<cast::ConstBone>& bones) {
    std::vector<glm::mat4> locals(bones.size(), glm::mat4(1.0f));
    std::vector<std::int32_t> parents(bones.size());
    for (std::size_t i = 0; i < bones.size(); ++i) parents[i] = bones[i].parent_index();
    auto valid_parent = [&](std::size_t i) {
        return parents[i] >= 0 && static_cast<std::size_t>(parents[i]) < bones.size() &&
               static_cast<std::size_t>(parents[i]) != i;
    };
    // Bones with only world transforms: local = inverse(parent world) · world.
    std::vector<glm::mat4> worlds(bones.size());
    for (std::size_t i = 0; i < bones.size(); ++i)
        worlds[i] = trs_matrix(bones[i].world_position(), bones[i].world_rotation(), std::nullopt);
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const cast::ConstBone& bone = bones[i];
        bool has_local = bone.local_position() || bone.local_rotation();
        bool has_world = bone.world_position() || bone.world_rotation();
        if (!has_local && has_world) {
            glm::mat4 parent_world =
                valid_parent(i) ? worlds[static_cast<std::size_t>(parents[i])] : glm::mat4(1.0f);
            locals[i] = glm::inverse(parent_world) * worlds[i];
            if (bone.scale()) locals[i] = locals[i] * glm::scale(glm::mat4(1.0f), *bone.scale());
            continue;
        }
        locals[i] = trs_matrix(bone.local_position(), bone.local_rotation(), bone.scale());
        if (bone.segment_scale_compensate() && valid_parent(i)) {
            glm::vec3 parent_scale =
                bones[static_cast<std::size_t>(parents[i])].scale().value_or(glm::vec3(1.0f));
            if (parent_scale != glm::vec3(1.0f) && parent_scale.x != 0 && parent_scale.y != 0 &&
                parent_scale.z != 0) {
                // Rule 18: T · C · R · S with C = inverse(parent scale).
                glm::mat4 translation = glm::translate(glm::mat4(1.0f), glm::vec3(locals[i][3]));
                glm::mat4 rest = locals[i];
                rest[3] = glm::vec4(0, 0, 0, 1);
                locals[i] = translation * glm::scale(glm::mat4(1.0f), 1.0f / parent_scale) * rest;
            }
        }
    }
    return locals;
}

std::vector<glm::mat4> world_matrices(const std::vector<glm::mat4>& locals,
                                      const std::vector<std::int32_t>& parents) {
    std::vector<glm::mat4> worlds(locals.size());
    std::vector<std::uint8_t> state(locals.size(), 0);  // 0 todo, 1 in progress, 2 done
    for (std::size_t start = 0; start < locals.size(); ++start) {
        // Walk up to the first finished ancestor, then fill in on the way back down.
        std::vector<std::size_t> chain;
        std::size_t i = start;
        while (state[i] == 0) {
            state[i] = 1;
            chain.push_back(i);
            std::int32_t p = parents[i];
            if (p < 0 || static_cast<std::size_t>(p) >= locals.size() ||
                state[static_cast<std::size_t>(p)] == 1)
                break;
            i = static_cast<std::size_t>(p);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            std::int32_t p = parents[*it];
            bool has_parent = p >= 0 && static_cast<std::size_t>(p) < locals.size() &&
                              state[static_cast<std::size_t>(p)] == 2;
            worlds[*it] =
                has_parent ? worlds[static_cast<std::size_t>(p)] * locals[*it] : locals[*it];
            state[*it] = 2;
        }
    }
    return worlds;
}

}  // namespace castkit::formats
