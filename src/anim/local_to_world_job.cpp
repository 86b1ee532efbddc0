#include <castkit/anim/local_to_world_job.hpp>

#include "problem.hpp"

namespace castkit::anim {

bool LocalToWorldJob::validate() const {
    return skeleton != nullptr && locals.size() >= skeleton->bone_count() &&
           worlds.size() >= skeleton->bone_count() &&
           subtree < static_cast<std::int64_t>(skeleton->bone_count());
}

Expected<void> LocalToWorldJob::run() const {
    if (!validate())
        return make_error(problem("anim.local-to-world-job",
                                  "local-to-world job has no skeleton or its spans are too small"));
    const std::span<const std::uint32_t> bones =
        subtree < 0 ? std::span(skeleton->order())
                    : skeleton->subtree(static_cast<std::uint32_t>(subtree));
    for (std::uint32_t bone : bones) {
        glm::mat4 local = to_matrix(locals[bone]);
        const std::int32_t parent = skeleton->parents()[bone];
        if (parent < 0) {
            worlds[bone] = local;
            continue;
        }
        if (skeleton->segment_scale_compensate()[bone]) {
            // T · C · R · S: C scales the rows of R · S by the inverse parent scale. A zero
            // parent scale component has no inverse; that axis is left uncompensated.
            const glm::vec3& parent_scale = locals[parent].scale;
            glm::vec3 inverse(1.0f);
            for (int axis = 0; axis < 3; ++axis)
                if (parent_scale[axis] != 0.0f) inverse[axis] = 1.0f / parent_scale[axis];
            for (int column = 0; column < 3; ++column)
                local[column] = glm::vec4(glm::vec3(local[column]) * inverse, 0.0f);
        }
        worlds[bone] = worlds[parent] * local;
    }
    return {};
}

}  // namespace castkit::anim
