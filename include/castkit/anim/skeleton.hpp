// The runtime skeleton: a Cast Skeleton flattened into arrays (names, parents, rest pose,
// segment scale compensation) with an evaluation order where parents come before children.
// Built once, offline; the runtime jobs (jobs.hpp) only read it.
#pragma once

#include <array>
#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace castkit::anim {

// A bone's translation, rotation and scale; as a matrix T · R · S (rule 18).
struct Transform {
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 scale{1.0f};
};

// T · R · S as a matrix. A few dozen multiplies.
glm::mat4 to_matrix(const Transform& transform);

// Translation, rotation and scale of an affine matrix: the scale is each basis column's length
// (x negated when the matrix mirrors), the rotation that of the normalised columns, with w >= 0
// so that equal matrices give equal quaternions. A zero-scale axis takes the direction that
// completes the other two into a right-handed basis (identity rotation when two or more axes are
// zero). Exact for matrices without shear; with shear (non-uniform scale under rotation and no
// compensation) the rotation is the nearest one to the sheared basis. The one decomposition
// every importer and exporter uses. A few dozen operations.
Transform decompose(const glm::mat4& matrix);

// The angle in radians of the rotation from `a` to `b` (unit quaternions, either sign), from
// the chord between them, 4·asin(|a − b| / 2): accurate to float rounding for small angles,
// where 2·acos(a·b) of floats is off by up to 7e-4 (the dot product rounds to 1).
float rotation_angle(const glm::quat& a, const glm::quat& b);

// The longest IK chain solved, in joints: a chain's joints are kept on the stack while it solves.
inline constexpr std::size_t kMaxIkChain = 64;

// A Cast IKHandle as bone indices: the chain from its start bone (`sb`) down to its end bone
// (`eb`), parents first; the target (`tb`), the pole vector bone (`pv`) and the pole (twist)
// bone (`pb`), -1 when absent; `tr` and `to`. docs/animation.md, "IK handles".
struct IkHandle {
    std::vector<std::int32_t> chain;
    std::int32_t target = -1, pole_vector = -1, pole_bone = -1;
    bool use_target_rotation = false;
    glm::vec3 target_offset{0.0f};
};

// A Cast Constraint as bone indices (docs/animation.md, "Constraints"): the owner (`cb`) takes
// the target's (`tb`) location, rotation or scale channel, relative to the rest, weighted.
struct BoneConstraint {
    cast::ConstraintType type = cast::ConstraintType::Point;
    std::int32_t owner = -1, target = -1;
    bool maintain_offset = false;                   // `mo`
    std::optional<glm::vec4> custom_offset{};       // `co`: xyz for pt and sc, xyzw for or
    float weight = 1.0f;                            // `wt`
    std::array<bool, 3> skip{false, false, false};  // `sx`, `sy`, `sz`
};

// Read-only once built: made by build_skeleton (from a Cast Skeleton) or from_arrays, which
// check the arrays and compute the evaluation order, so a Skeleton is always consistent. The
// default one has no bones.
class Skeleton {
  public:
    Skeleton() = default;

    // A skeleton from flat arrays: `parents` index into `names` (-1 for a root); `rest`
    // defaults to identity transforms and `segment_scale_compensate` to 1 (rule 14) when
    // empty. Fails when the arrays differ in size, a parent index is outside the skeleton, or
    // the parents form a cycle, an IK handle's chain is not a line of parents of 2 to
    // kMaxIkChain bones or names a bone outside the skeleton (`anim.ik-handle`), or a rest, a
    // target offset, a constraint's weight or offset is NaN or infinite (`anim.non-finite`). A
    // constraint weight outside [0, 1] is clamped, with an `anim.constraint-weight` warning in
    // `warnings` when given. O(bones + chains + constraints).
    static Expected<Skeleton> from_arrays(std::vector<std::string> names,
                                          std::vector<std::int32_t> parents,
                                          std::vector<Transform> rest = {},
                                          std::vector<std::uint8_t> segment_scale_compensate = {},
                                          std::vector<IkHandle> ik_handles = {},
                                          std::vector<BoneConstraint> constraints = {},
                                          Diagnostics* warnings = nullptr);

    std::size_t bone_count() const { return names_.size(); }
    const std::vector<std::string>& names() const { return names_; }
    const std::vector<std::int32_t>& parents() const { return parents_; }  // -1 for a root
    const std::vector<std::uint8_t>& segment_scale_compensate() const {    // rule 14: default 1
        return segment_scale_compensate_;
    }
    const std::vector<Transform>& rest() const { return rest_; }  // lp, lr, s
    // The rest pose's world matrices (LocalToWorldJob over rest()), computed once when built:
    // what IK measures a chain's bend at rest from on every sample.
    const std::vector<glm::mat4>& rest_worlds() const { return rest_worlds_; }
    // Each bone's rest rotation in Model space, the rests' scales left out (as the Blender
    // add-on's bones): what constraints turn a target's channels by on every sample.
    const std::vector<glm::quat>& rest_world_rotations() const { return rest_world_rotations_; }
    const std::vector<std::uint32_t>& order() const { return order_; }  // parents first
    // `bone` and every bone below it, in order(): a contiguous run of it (order() is depth
    // first). O(1).
    std::span<const std::uint32_t> subtree(std::uint32_t bone) const {
        return std::span(order_).subspan(order_index_[bone], subtree_size_[bone]);
    }
    // Solved in this order by SamplingJob (unless told not to).
    const std::vector<IkHandle>& ik_handles() const { return ik_handles_; }
    // Applied after the IK handles, in this order.
    const std::vector<BoneConstraint>& constraints() const { return constraints_; }

    // The bone named `name`: exact match first, then ASCII case-insensitive (rule 24); -1 when
    // none. O(1) expected.
    std::int32_t find_bone(std::string_view name) const;

  private:
    // Builds the lookup tables and the evaluation order from the arrays. O(bones).
    Expected<void> index();
    // Checks each IK handle and constraint against the bones. O(chains + constraints).
    Expected<void> check_rig() const;

    std::vector<std::string> names_;
    std::vector<std::int32_t> parents_;
    std::vector<std::uint8_t> segment_scale_compensate_;
    std::vector<Transform> rest_;
    std::vector<glm::mat4> rest_worlds_;
    std::vector<glm::quat> rest_world_rotations_;
    std::vector<std::uint32_t> order_;
    std::vector<std::uint32_t> order_index_;   // per bone, its index in order_
    std::vector<std::uint32_t> subtree_size_;  // per bone, itself and the bones below it
    std::vector<IkHandle> ik_handles_;
    std::vector<BoneConstraint> constraints_;
    std::unordered_map<std::string, std::int32_t> exact_;
    std::unordered_map<std::string, std::int32_t> folded_;
};

// Per bone, whether the rig (SamplingJob::solve_rig) sets its translation, rotation and scale
// (indices 0, 1, 2): the rotations of every IK chain's bones, and the channel each constraint
// copies onto its owner. What a bake or an export must write for every bone the rig moves.
// O(bones + chains + constraints).
std::vector<std::array<bool, 3>> rig_channels(const Skeleton& skeleton);

// Flattens a Cast Skeleton, with its IK handles and constraints. A parent index outside the
// skeleton makes that bone a root and is reported in `warnings`; an IK handle that cannot be solved
// (no target, an end bone not under its start bone, a bone it names missing, a target offset
// that is not a number) is left out with an `anim.ik-handle` warning, a constraint without both
// bones, of an unknown type or with a weight or offset that is not a number with an
// `anim.constraint` warning; a weight outside [0, 1] is clamped with an `anim.constraint-weight`
// warning. A parent cycle, or a rest translation or scale that is not a number, is an error.
// O(bones). `document`, when given, is the
// one `skeleton` is in: diagnostics then name its file.
Expected<Skeleton> build_skeleton(const cast::ConstSkeleton& skeleton, Diagnostics& warnings,
                                  const cast::Document* document = nullptr);

// ASCII lower case, the folding rule 24 uses for case-insensitive matching.
std::string fold_case(std::string_view text);

}  // namespace castkit::anim
