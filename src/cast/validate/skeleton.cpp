// Skeletons: bone parent indices (in range, acyclic), unique bone names, IKHandle and Constraint
// bone links within the Skeleton, Constraint offsets, and unit rotation quaternions.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "../english.hpp"
#include "buffers.hpp"
#include "checks.hpp"

namespace castkit::cast::validation {
namespace {

constexpr float kQuaternionTolerance = 1e-3f;

// A bone's parent index: -1 for none (rule 8: a signed i32), nullopt when `p` is unusable.
std::optional<std::int64_t> parent_index(const Node& bone) {
    if (bone.find("p") == nullptr) return -1;
    auto p = valid_integer(bone, "p");
    if (!p) return std::nullopt;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(*p));
}

}  // namespace

void check_skeleton(Context& context, const NodeRef& ref) {
    std::vector<const Node*> bones;
    for (const Node& child : ref.node.children())
        if (child.is(NodeId::Bone)) bones.push_back(&child);
    // Duplicate names found by sorting (name, index) pairs, a third of a hash map's memory a
    // bone; each bone named like an earlier one is reported, in bone order, with the first.
    std::vector<std::pair<std::string_view, std::size_t>> names;
    names.reserve(bones.size());
    for (std::size_t i = 0; i < bones.size(); ++i)
        if (auto name = valid_string(*bones[i], "n")) names.emplace_back(*name, i);
    std::sort(names.begin(), names.end());
    std::vector<std::pair<std::size_t, std::size_t>> duplicates;  // (bone, first of its name)
    for (std::size_t i = 1, first = 0; i < names.size(); ++i) {
        if (names[i].first != names[first].first)
            first = i;
        else
            duplicates.emplace_back(names[i].second, names[first].second);
    }
    std::sort(duplicates.begin(), duplicates.end());
    for (const auto& [i, first] : duplicates) {
        PathStep step{&ref.step, bones[i]->id, static_cast<std::uint32_t>(i)};
        context.report(Rule::BoneDuplicateName, {*bones[i], &ref.node, step}, *bones[i]->find("n"),
                       fmt::format("bone {} is named '{}' like bone {}", i,
                                   *valid_string(*bones[i], "n"), first));
    }
    const auto count = static_cast<std::int64_t>(bones.size());
    std::vector<std::int64_t> parents(bones.size(), -1);
    for (std::size_t i = 0; i < bones.size(); ++i) {
        auto parent = parent_index(*bones[i]);
        if (!parent) continue;
        if (*parent < -1 || *parent >= count) {
            PathStep step{&ref.step, bones[i]->id, static_cast<std::uint32_t>(i)};
            context.report(Rule::BoneParent, {*bones[i], &ref.node, step}, *bones[i]->find("p"),
                           fmt::format("parent index {} is outside the Skeleton's {}", *parent,
                                       count_of(static_cast<std::uint64_t>(count), "bone")));
            continue;
        }
        parents[i] = *parent;
    }
    // Parent links form a functional graph: walk each chain, colouring bones on the current walk;
    // reaching a bone of the current walk closes a cycle, reported once at its lowest index.
    enum : std::uint8_t { kUnvisited, kOnWalk, kDone };
    std::vector<std::uint8_t> state(bones.size(), kUnvisited);
    std::vector<std::size_t> walk;
    for (std::size_t start = 0; start < bones.size(); ++start) {
        walk.clear();
        std::int64_t at = static_cast<std::int64_t>(start);
        while (at >= 0 && state[at] == kUnvisited) {
            state[at] = kOnWalk;
            walk.push_back(static_cast<std::size_t>(at));
            at = parents[at];
        }
        if (at >= 0 && state[at] == kOnWalk) {
            std::size_t lowest = static_cast<std::size_t>(at);
            std::size_t length = 0;
            std::int64_t cursor = at;
            do {
                lowest = std::min(lowest, static_cast<std::size_t>(cursor));
                cursor = parents[cursor];
                ++length;
            } while (cursor != at);
            PathStep step{&ref.step, bones[lowest]->id, static_cast<std::uint32_t>(lowest)};
            context.report(
                Rule::BoneCycle, {*bones[lowest], &ref.node, step},
                fmt::format("bone {} is its own ancestor: its parent chain loops through {} "
                            "bone{}",
                            lowest, length, length == 1 ? "" : "s"));
        }
        for (std::size_t bone : walk) state[bone] = kDone;
    }
}

void check_ik_handle(Context& context, const NodeRef& ref) {
    if (ref.parent == nullptr || !ref.parent->is(NodeId::Skeleton)) return;
    for (std::string_view name : {"sb", "eb", "tb", "pv", "pb"})
        check_link(context, Rule::IKHandleBone, ref, name, *ref.parent, NodeId::Bone, "Skeleton");
}

void check_constraint(Context& context, const NodeRef& ref) {
    if (ref.parent != nullptr && ref.parent->is(NodeId::Skeleton))
        for (std::string_view name : {"cb", "tb"})
            check_link(context, Rule::ConstraintBone, ref, name, *ref.parent, NodeId::Bone,
                       "Skeleton");
    auto type = valid_string(ref.node, "ct");
    const Property* offset = valid_property(ref.node, "co");
    if (!type || offset == nullptr) return;
    const PropertyType expected = *type == "or" ? PropertyType::Vector4 : PropertyType::Vector3;
    if ((*type == "pt" || *type == "or" || *type == "sc") && offset->type() != expected)
        context.report(Rule::ConstraintOffset, ref, *offset,
                       fmt::format("'co' is {} but a '{}' constraint's offset is {}",
                                   type_name(offset->type()), *type, type_name(expected)));
}

void check_rotation(Context& context, const NodeRef& ref, std::string_view name) {
    const Property* rotation = valid_property(ref.node, name);
    if (rotation == nullptr) return;
    if (unnormalised_quaternions(*rotation, kQuaternionTolerance).count > 0) {
        const float x = rotation->component(0, 0), y = rotation->component(0, 1),
                    z = rotation->component(0, 2), w = rotation->component(0, 3);
        context.report(Rule::Quaternion, ref, *rotation,
                       fmt::format("'{}' has length {:.4g}; a rotation quaternion has length 1",
                                   name, std::sqrt(x * x + y * y + z * z + w * w)));
    }
}

}  // namespace castkit::cast::validation
