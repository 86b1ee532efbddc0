// The Cast bone transforms that formats storing bone matrices (K3D, DMF) map to (rule 18);
// matrices split and join with anim::decompose and anim::to_matrix, as everywhere else.
#pragma once

#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <string_view>

namespace castkit::formats {

// True when to_matrix(decompose(m)) equals m within `tolerance` per element (no shear).
bool is_trs(const glm::mat4& matrix, float tolerance = 1e-5f);

// Adds a Bone with name, parent and the local matrix decomposed into lp/lr/s; segment scale
// compensation is switched off because these formats multiply plain matrices.
cast::Bone add_bone(cast::Skeleton& skeleton, std::string_view name, std::int32_t parent,
                    const glm::mat4& local);

// Each bone's local matrix for plain parent·child multiplication: lp/lr/s (defaults 0, identity,
// 1), with the parent's inverse scale folded in when segment scale compensation is on (rule 18);
// bones that only have wp/wr get local = inverse(parent world)·world. O(bones).
std::vector<glm::mat4> local_matrices(const std::vector<cast::ConstBone>& bones);
// World matrices from local matrices and parent indices (parents may come in any order;
// out-of-range or cyclic parents count as roots). O(bones).
std::vector<glm::mat4> world_matrices(const std::vector<glm::mat4>& locals,
                                      const std::vector<std::int32_t>& parents);

}  // namespace castkit::formats
