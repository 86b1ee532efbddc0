#include <fmt/format.h>

#include <algorithm>
#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/skeleton.hpp>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat3x3.hpp>

#include "problem.hpp"

namespace castkit::anim {

glm::mat4 to_matrix(const Transform& transform) {
    glm::mat4 m = glm::mat4_cast(transform.rotation);
    m[0] *= transform.scale.x;
    m[1] *= transform.scale.y;
    m[2] *= transform.scale.z;
    m[3] = glm::vec4(transform.translation, 1.0f);
    return m;
}

Transform decompose(const glm::mat4& matrix) {
    Transform out;
    out.translation = glm::vec3(matrix[3]);
    glm::mat3 basis(matrix);
    out.scale = glm::vec3(glm::length(basis[0]), glm::length(basis[1]), glm::length(basis[2]));
    // A mirroring matrix cannot be a rotation times positive scales: put the sign on x.
    if (glm::determinant(basis) < 0.0f) out.scale.x = -out.scale.x;
    int zero_axes = 0, zero_axis = 0;
    for (int axis = 0; axis < 3; ++axis) {
        if (out.scale[axis] != 0.0f) {
            basis[axis] /= out.scale[axis];
        } else {
            ++zero_axes;
            zero_axis = axis;
        }
    }
    if (zero_axes > 1) return out;  // no rotation can be told from one direction or none
    if (zero_axes == 1)
        basis[zero_axis] = glm::cross(basis[(zero_axis + 1) % 3], basis[(zero_axis + 2) % 3]);
    out.rotation = glm::normalize(glm::quat_cast(basis));
    if (out.rotation.w < 0.0f) out.rotation = -out.rotation;
    return out;
}

float rotation_angle(const glm::quat& a, const glm::quat& b) {
    const glm::quat near_b = glm::dot(a, b) < 0.0f ? -b : b;
    return 4.0f * std::asin(std::min(1.0f, glm::length(a - near_b) / 2.0f));
}

std::string fold_case(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::int32_t Skeleton::find_bone(std::string_view name) const {
    std::string key(name);
    if (auto it = exact_.find(key); it != exact_.end()) return it->second;
    if (auto it = folded_.find(fold_case(name)); it != folded_.end()) return it->second;
    return -1;
}

Expected<void> Skeleton::index() {
    exact_.clear();
    folded_.clear();
    order_.clear();
    const auto count = static_cast<std::int32_t>(names_.size());
    if (parents_.size() != names_.size() || segment_scale_compensate_.size() != names_.size() ||
        rest_.size() != names_.size())
        return make_error(
            problem("anim.skeleton-arrays",
                    "names, parents, segment_scale_compensate and rest differ in size"));
    for (std::int32_t i = 0; i < count; ++i)
        if (parents_[i] < -1 || parents_[i] >= count)
            return make_error(problem("anim.bone-parent",
                                      fmt::format("bone '{}' has parent index {}, outside the "
                                                  "skeleton",
                                                  names_[i], parents_[i])));
    // The first bone of a name wins both lookups, so duplicate names bind predictably.
    for (std::int32_t i = 0; i < count; ++i) {
        exact_.try_emplace(names_[i], i);
        folded_.try_emplace(fold_case(names_[i]), i);
    }
    // Evaluation order: each bone after its parent. Depth-first from the roots, iteratively so
    // that a long chain cannot overflow the stack; a bone never reached sits on a cycle.
    std::vector<std::vector<std::uint32_t>> children(names_.size());
    std::vector<std::uint8_t> reached(names_.size(), 0);
    std::vector<std::uint32_t> stack;
    for (std::int32_t i = count - 1; i >= 0; --i) {
        if (parents_[i] < 0)
            stack.push_back(static_cast<std::uint32_t>(i));
        else
            children[parents_[i]].push_back(static_cast<std::uint32_t>(i));
    }
    while (!stack.empty()) {
        std::uint32_t bone = stack.back();
        stack.pop_back();
        order_.push_back(bone);
        reached[bone] = 1;
        for (auto it = children[bone].rbegin(); it != children[bone].rend(); ++it)
            stack.push_back(*it);
    }
    if (order_.size() != names_.size()) {
        for (std::int32_t i = 0; i < count; ++i)
            if (!reached[i])
                return make_error(problem("anim.bone-cycle",
                                          fmt::format("bone '{}' is its own ancestor", names_[i])));
    }
    order_index_.assign(names_.size(), 0);
    subtree_size_.assign(names_.size(), 1);
    for (std::size_t i = order_.size(); i-- > 0;) {
        const std::uint32_t bone = order_[i];
        order_index_[bone] = static_cast<std::uint32_t>(i);
        if (parents_[bone] >= 0)
            subtree_size_[static_cast<std::size_t>(parents_[bone])] += subtree_size_[bone];
    }
    return {};
}

namespace {

bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
bool finite(const glm::vec4& v) { return finite(glm::vec3(v)) && std::isfinite(v.w); }
bool finite(const glm::quat& q) { return finite(glm::vec4(q.x, q.y, q.z, q.w)); }
bool finite(const Transform& t) {
    return finite(t.translation) && finite(t.rotation) && finite(t.scale);
}

// The first NaN or infinite value of the arrays, named, or empty: a rest, a target offset, a
// weight or an offset that is not a number spreads to every bone posed from it.
// O(bones + chains + constraints).
std::string first_non_finite(const std::vector<std::string>& names,
                             const std::vector<Transform>& rest,
                             const std::vector<IkHandle>& ik_handles,
                             const std::vector<BoneConstraint>& constraints) {
    for (std::size_t i = 0; i < rest.size(); ++i)
        if (!finite(rest[i]))
            return fmt::format("the rest of bone '{}'", i < names.size() ? names[i] : "");
    for (std::size_t h = 0; h < ik_handles.size(); ++h)
        if (!finite(ik_handles[h].target_offset))
            return fmt::format("the target offset of IK handle {}", h);
    for (std::size_t c = 0; c < constraints.size(); ++c)
        if (!std::isfinite(constraints[c].weight) ||
            (constraints[c].custom_offset && !finite(*constraints[c].custom_offset)))
            return fmt::format("the weight or offset of constraint {}", c);
    return {};
}

// A constraint's weight clamped to [0, 1]; when it was outside, an `anim.constraint-weight`
// warning at `where` (its file, offset and path) naming `constraint` goes to `warnings`, if given.
float clamped_weight(float weight, std::string_view constraint, Diagnostic where,
                     Diagnostics* warnings) {
    const float clamped = std::clamp(weight, 0.0f, 1.0f);
    if (clamped == weight || warnings == nullptr) return clamped;
    where.severity = Severity::Warning;
    where.rule = "anim.constraint-weight";
    where.message = fmt::format("constraint '{}' has weight {}, outside 0 to 1; {} is used",
                                constraint, weight, clamped);
    warnings->push_back(std::move(where));
    return clamped;
}

}  // namespace

Expected<Skeleton> Skeleton::from_arrays(
    std::vector<std::string> names, std::vector<std::int32_t> parents, std::vector<Transform> rest,
    std::vector<std::uint8_t> segment_scale_compensate, std::vector<IkHandle> ik_handles,
    std::vector<BoneConstraint> constraints, Diagnostics* warnings) {
    if (std::string what = first_non_finite(names, rest, ik_handles, constraints); !what.empty())
        return make_error(problem("anim.non-finite", fmt::format("{} is not a number", what)));
    for (std::size_t c = 0; c < constraints.size(); ++c)
        constraints[c].weight =
            clamped_weight(constraints[c].weight, fmt::format("{}", c), {}, warnings);
    Skeleton out;
    if (rest.empty()) rest.resize(names.size());
    if (segment_scale_compensate.empty()) segment_scale_compensate.assign(names.size(), 1);
    out.names_ = std::move(names);
    out.parents_ = std::move(parents);
    out.rest_ = std::move(rest);
    out.segment_scale_compensate_ = std::move(segment_scale_compensate);
    out.ik_handles_ = std::move(ik_handles);
    out.constraints_ = std::move(constraints);
    if (auto ok = out.index(); !ok) return make_error(ok.error());
    if (auto ok = out.check_rig(); !ok) return make_error(ok.error());
    out.rest_worlds_.resize(out.bone_count());
    const LocalToWorldJob at_rest{
        .skeleton = &out, .locals = out.rest_, .worlds = out.rest_worlds_};
    if (auto ok = at_rest.run(); !ok) return make_error(ok.error());
    out.rest_world_rotations_.resize(out.bone_count());
    for (const std::uint32_t bone : out.order_) {
        const std::int32_t parent = out.parents_[bone];
        const glm::quat& local = out.rest_[bone].rotation;
        out.rest_world_rotations_[bone] =
            parent < 0 ? local
                       : out.rest_world_rotations_[static_cast<std::size_t>(parent)] * local;
    }
    return out;
}

Expected<void> Skeleton::check_rig() const {
    const auto count = static_cast<std::int32_t>(bone_count());
    const auto bone = [count](std::int32_t b) { return b >= 0 && b < count; };
    for (std::size_t h = 0; h < ik_handles_.size(); ++h) {
        const IkHandle& handle = ik_handles_[h];
        // One bone has no joint to bend: its solve divides by the length of a chain of none.
        bool line = handle.chain.size() >= 2 && handle.chain.size() <= kMaxIkChain;
        for (std::size_t i = 0; line && i < handle.chain.size(); ++i)
            line = bone(handle.chain[i]) &&
                   (i == 0 ||
                    parents_[static_cast<std::size_t>(handle.chain[i])] == handle.chain[i - 1]);
        if (!line || !bone(handle.target) ||
            (handle.pole_vector >= 0 && !bone(handle.pole_vector)) ||
            (handle.pole_bone >= 0 && !bone(handle.pole_bone)))
            return make_error(problem(
                "anim.ik-handle",
                fmt::format("IK handle {} is not a chain of parents of 2 to {} bones with a "
                            "target, each a bone of the skeleton",
                            h, kMaxIkChain)));
    }
    for (const BoneConstraint& constraint : constraints_)
        if (!bone(constraint.owner) || !bone(constraint.target))
            return make_error(
                problem("anim.constraint", "a constraint names a bone outside the skeleton"));
    return {};
}

namespace {

// The index of each bone of a Cast Skeleton by its hash, for the links IK handles and
// constraints make.
class BoneIndex {
  public:
    explicit BoneIndex(const cast::ConstSkeleton& skeleton) {
        std::int32_t next = 0;
        for (const cast::ConstBone& bone : skeleton.bones()) index_of_.emplace(bone.hash(), next++);
    }
    // The bone `hash` links to, -1 for none.
    std::int32_t operator()(std::optional<std::uint64_t> hash) const {
        auto it = hash ? index_of_.find(*hash) : index_of_.end();
        return it != index_of_.end() ? it->second : -1;
    }

  private:
    std::unordered_map<std::uint64_t, std::int32_t> index_of_;
};

// Why `handle` cannot be solved on bones with these `parents`, or empty when it can; `out` gets
// its indices. O(chain).
std::string read_ik_handle(const cast::ConstIKHandle& handle, const BoneIndex& find,
                           const std::vector<std::int32_t>& parents, IkHandle& out) {
    const std::int32_t start = find(handle.start_bone_hash()), end = find(handle.end_bone_hash());
    out.target = find(handle.target_bone_hash());
    if (start < 0 || end < 0) return "its start or end bone is not a bone of the skeleton";
    if (out.target < 0) return "it has no target bone (tb) of the skeleton";
    for (std::int32_t b = end; b >= 0 && out.chain.size() <= kMaxIkChain; b = parents[b]) {
        out.chain.insert(out.chain.begin(), b);
        if (b == start) break;
    }
    if (out.chain.front() != start || out.chain.size() < 2 || out.chain.size() > kMaxIkChain)
        return fmt::format("its end bone is not 1 to {} bones under its start bone",
                           kMaxIkChain - 1);
    out.pole_vector = find(handle.pole_vector_bone_hash());
    out.pole_bone = find(handle.pole_bone_hash());
    out.use_target_rotation = handle.use_target_rotation();
    out.target_offset = handle.target_offset().value_or(glm::vec3(0.0f));
    if (!finite(out.target_offset)) return "its target offset (to) is not a number";
    return {};
}

// The IK handles of `skeleton` that can be solved; each other one is an `anim.ik-handle`
// warning. O(handles × chain).
std::vector<IkHandle> ik_handles_of(const cast::ConstSkeleton& skeleton,
                                    const std::vector<std::int32_t>& parents, Diagnostics& warnings,
                                    const cast::Document* document) {
    const BoneIndex find(skeleton);
    std::vector<IkHandle> handles;
    std::size_t at = 0;
    for (const cast::ConstIKHandle& handle : skeleton.ik_handles()) {
        IkHandle solved;
        if (std::string why = read_ik_handle(handle, find, parents, solved); why.empty()) {
            handles.push_back(std::move(solved));
        } else {
            warnings.push_back({.severity = Severity::Warning,
                                .file = document ? document->source_name : "",
                                .offset = handle.node().file_offset,
                                .path = fmt::format("skeleton/ikhandle[{}]", at),
                                .rule = "anim.ik-handle",
                                .message = fmt::format("IK handle '{}' is not solved: {}",
                                                       handle.name().value_or(""), why)});
        }
        ++at;
    }
    return handles;
}

// The constraints of `skeleton` whose bones and type are known; each other one is an
// `anim.constraint` warning. O(constraints).
std::vector<BoneConstraint> constraints_of(const cast::ConstSkeleton& skeleton,
                                           Diagnostics& warnings, const cast::Document* document) {
    const BoneIndex find(skeleton);
    std::vector<BoneConstraint> out;
    std::size_t at = 0;
    for (const cast::ConstConstraint& constraint : skeleton.constraints()) {
        const auto type =
            cast::constraint_type_from_name(constraint.constraint_type().value_or(""));
        BoneConstraint made{
            .owner = find(constraint.constraint_bone_hash()),
            .target = find(constraint.target_bone_hash()),
            .maintain_offset = constraint.maintain_offset(),
            .weight = constraint.weight().value_or(1.0f),
            .skip = {constraint.skip_x(), constraint.skip_y(), constraint.skip_z()}};
        if (constraint.node().find("co") != nullptr)
            made.custom_offset = constraint.custom_offset();
        const Diagnostic where{.file = document ? document->source_name : "",
                               .offset = constraint.node().file_offset,
                               .path = fmt::format("skeleton/constraint[{}]", at),
                               .rule = "anim.constraint",
                               .message = {}};
        const bool finite_values =
            std::isfinite(made.weight) && (!made.custom_offset || finite(*made.custom_offset));
        if (type && made.owner >= 0 && made.target >= 0 && finite_values) {
            made.type = *type;
            made.weight =
                clamped_weight(made.weight, constraint.name().value_or(""), where, &warnings);
            out.push_back(made);
        } else {
            Diagnostic warning = where;
            warning.severity = Severity::Warning;
            warning.message = fmt::format(
                "constraint '{}' is not applied: {}", constraint.name().value_or(""),
                !type            ? "its type (ct) is not pt, or or sc"
                : !finite_values ? "its weight (wt) or offset (co) is not a number"
                                 : "its constraint or target bone is not a bone of the skeleton");
            warnings.push_back(std::move(warning));
        }
        ++at;
    }
    return out;
}

}  // namespace

std::vector<std::array<bool, 3>> rig_channels(const Skeleton& skeleton) {
    std::vector<std::array<bool, 3>> made(skeleton.bone_count(), std::array<bool, 3>{});
    for (const IkHandle& handle : skeleton.ik_handles())
        for (std::int32_t bone : handle.chain) made[static_cast<std::size_t>(bone)][1] = true;
    // ConstraintType's order is the channels' own: point, orient, scale.
    for (const BoneConstraint& constraint : skeleton.constraints())
        made[static_cast<std::size_t>(constraint.owner)]
            [static_cast<std::size_t>(constraint.type)] = true;
    return made;
}

Expected<Skeleton> build_skeleton(const cast::ConstSkeleton& skeleton, Diagnostics& warnings,
                                  const cast::Document* document) {
    std::vector<std::string> names;
    std::vector<std::int32_t> parents;
    std::vector<std::uint8_t> compensate;
    std::vector<Transform> rests;
    std::vector<cast::ConstBone> bones = skeleton.bones();
    const auto count = static_cast<std::int32_t>(bones.size());
    for (std::int32_t i = 0; i < count; ++i) {
        const cast::ConstBone& bone = bones[i];
        names.emplace_back(bone.name().value_or(""));
        std::int32_t parent = bone.parent_index();
        if (parent >= count || parent < -1 || parent == i) {
            warnings.push_back({.severity = Severity::Warning,
                                .file = document ? document->source_name : "",
                                .offset = bone.node().file_offset,
                                .path = fmt::format("skeleton/bone[{}]", i),
                                .rule = "anim.bone-parent",
                                .message = fmt::format("parent index {} is not another bone of the "
                                                       "skeleton; the bone is treated as a root",
                                                       parent)});
            parent = -1;
        }
        parents.push_back(parent);
        compensate.push_back(bone.segment_scale_compensate() ? 1 : 0);
        Transform rest;
        rest.translation = bone.local_position().value_or(glm::vec3(0.0f));
        if (auto rotation = bone.local_rotation()) {
            glm::quat q = cast::quat_from_xyzw(*rotation);
            float length = glm::length(q);
            rest.rotation =
                length > 0.0f && std::isfinite(length) ? q / length : glm::quat(1, 0, 0, 0);
        }
        rest.scale = bone.scale().value_or(glm::vec3(1.0f));
        rests.push_back(rest);
    }
    std::vector<IkHandle> handles = ik_handles_of(skeleton, parents, warnings, document);
    auto out = Skeleton::from_arrays(std::move(names), std::move(parents), std::move(rests),
                                     std::move(compensate), std::move(handles),
                                     constraints_of(skeleton, warnings, document));
    if (!out) {
        Diagnostic error = out.error();
        error.file = document ? document->source_name : "";
        error.offset = skeleton.node().file_offset;
        error.path = "skeleton";
        return make_error(std::move(error));
    }
    return out;
}

}  // namespace castkit::anim
