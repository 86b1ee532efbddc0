// The runtime skeleton: a Cast Skeleton flattened into arrays (names, parents, rest pose,
// segment scale compensation) with an evaluation order where parents come before children.
// Built once, offline; the runtime jobs (jobs.hpp) only read it.
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
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

// Read-only once built: made by build_skeleton (from a Cast Skeleton) or from_arrays, which
// check the arrays and compute the evaluation order, so a Skeleton is always consistent. The
// default one has no bones.
class Skeleton {
  public:
    Skeleton() = default;

    // A skeleton from flat arrays: `parents` index into `names` (-1 for a root); `rest`
    // defaults to identity transforms and `segment_scale_compensate` to 1 (rule 14) when
    // empty. Fails when the arrays differ in size, a parent index is outside the skeleton, or
    // the parents form a cycle. O(bones).
    static Expected<Skeleton> from_arrays(std::vector<std::string> names,
                                          std::vector<std::int32_t> parents,
                                          std::vector<Transform> rest = {},
                                          std::vector<std::uint8_t> segment_scale_compensate = {});

    std::size_t bone_count() const { return names_.size(); }
    const std::vector<std::string>& names() const { return names_; }
    const std::vector<std::int32_t>& parents() const { return parents_; }  // -1 for a root
    const std::vector<std::uint8_t>& segment_scale_compensate() const {    // rule 14: default 1
        return segment_scale_compensate_;
    }
    const std::vector<Transform>& rest() const { return rest_; }        // lp, lr, s
    const std::vector<std::uint32_t>& order() const { return order_; }  // parents first

    // The bone named `name`: exact match first, then ASCII case-insensitive (rule 24); -1 when
    // none. O(1) expected.
    std::int32_t find_bone(std::string_view name) const;

  private:
    // Builds the lookup tables and the evaluation order from the arrays. O(bones).
    Expected<void> index();

    std::vector<std::string> names_;
    std::vector<std::int32_t> parents_;
    std::vector<std::uint8_t> segment_scale_compensate_;
    std::vector<Transform> rest_;
    std::vector<std::uint32_t> order_;
    std::unordered_map<std::string, std::int32_t> exact_;
    std::unordered_map<std::string, std::int32_t> folded_;
};

// Flattens a Cast Skeleton. A parent index outside the skeleton makes that bone a root and is
// reported in `warnings`; a parent cycle is an error. O(bones). `document`, when given, is the
// one `skeleton` is in: diagnostics then name its file.
Expected<Skeleton> build_skeleton(const cast::ConstSkeleton& skeleton, Diagnostics& warnings,
                                  const cast::Document* document = nullptr);

// ASCII lower case, the folding rule 24 uses for case-insensitive matching.
std::string fold_case(std::string_view text);

}  // namespace castkit::anim
