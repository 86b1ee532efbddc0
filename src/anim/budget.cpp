// The sampling budgets (castkit/anim/budget.hpp): what a run of frames costs.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/anim/budget.hpp>

#include "ik.hpp"

namespace castkit::anim {

std::string describe_memory_budget(std::uint64_t input_bytes, std::string_view input) {
    return fmt::format("{} bytes (8 x the {} bytes of {} + 64 MiB)", memory_budget(input_bytes),
                       input_bytes, input);
}

std::uint64_t key_count(const Animation& animation) {
    return animation.scalar_frames().size() + animation.rotation_frames().size();
}

std::uint64_t key_bytes(const Animation& animation) {
    return animation.scalar_frames().size() * (sizeof(std::uint32_t) + sizeof(float)) +
           animation.rotation_frames().size() * (sizeof(std::uint32_t) + 4 * sizeof(float));
}

std::uint64_t frame_work(const Animation& animation, const Skeleton& skeleton, bool solve_rig) {
    std::uint64_t work = skeleton.bone_count() + animation.curves().size();
    if (solve_rig) {
        // IK: one world pass over every bone, then per handle its chain solved and the worlds
        // below its start computed again (detail::solve_ik).
        if (!skeleton.ik_handles().empty()) work += skeleton.bone_count();
        for (const IkHandle& handle : skeleton.ik_handles()) {
            const std::uint64_t passes = handle.chain.size() == 3 ? 1 : 2 * detail::kFabrikPasses;
            const auto start = static_cast<std::uint32_t>(handle.chain.front());
            work += skeleton.subtree(start).size() + handle.chain.size() * passes;
        }
        work += skeleton.constraints().size();
    }
    return std::max<std::uint64_t>(1, work);
}

double sampling_work(double frames, const Animation& animation, const Skeleton& skeleton,
                     bool solve_rig, const Animation* base, std::uint64_t stored) {
    double per_frame = double(frame_work(animation, skeleton, solve_rig)) + double(stored);
    if (base != nullptr) per_frame += double(frame_work(*base, skeleton, solve_rig));
    return frames * per_frame;
}

}  // namespace castkit::anim
