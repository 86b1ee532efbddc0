// libFuzzer harness for the animation jobs on arbitrary Cast input: every Animation is built
// against the first Skeleton found (its own, else a Model's), sampled at its first, middle and
// last frame and a few outside, composed into world matrices, and baked.
#include <castkit/anim/bake.hpp>
#include <castkit/anim/jobs.hpp>
#include <castkit/cast/nodes.hpp>
#include <cstdint>

#include "read_shim.hpp"

namespace {

using namespace castkit;

void play(const cast::Animation& source, const cast::Skeleton& skeleton_node,
          const anim::BindingTargets& targets) {
    Diagnostics reports;
    auto skeleton = anim::build_skeleton(skeleton_node, reports);
    if (!skeleton) return;
    auto animation = anim::build_animation(source, *skeleton, targets, reports);
    if (!animation) return;
    const std::size_t bones = skeleton->bone_count();
    std::vector<anim::Transform> locals(bones);
    std::vector<float> weights(animation->blend_shapes().size());
    std::vector<float> visibility(animation->visibility_nodes().size());
    std::vector<glm::mat4> worlds(bones);
    anim::SamplingContext context(*animation);
    const float start = animation->start_frame(), end = animation->end_frame();
    for (float frame : {start, (start + end) / 2, end, end + 1.5f, -3.0f, 1e30f})
        for (bool looped : {false, true}) {
            anim::SamplingJob sampling{.animation = &*animation,
                                       .skeleton = &*skeleton,
                                       .frame = frame,
                                       .looped = looped,
                                       .context = &context,
                                       .locals = locals,
                                       .blend_shape_weights = weights,
                                       .visibility = visibility};
            anim::LocalToWorldJob world{.skeleton = &*skeleton, .locals = locals, .worlds = worlds};
            if (sampling.run()) (void)world.run();
        }
    (void)anim::bake(*animation, *skeleton, {.tolerance = 0.001f});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Diagnostics warnings;
    auto document =
        fuzz::read_as("cast", cast::Bytes(reinterpret_cast<const std::byte*>(data), size),
                      "fuzz.cast", warnings);
    if (!document) return 0;
    cast::Skeleton model_skeleton;
    anim::BindingTargets targets;
    for (cast::Model& model : document->models())
        if (cast::Skeleton skeleton = model.skeleton()) {
            model_skeleton = skeleton;
            targets = anim::binding_targets(model);
            break;
        }
    for (cast::Animation& animation : document->animations()) {
        cast::Skeleton own = animation.skeleton();
        if (own)
            play(animation, own, targets);
        else if (model_skeleton)
            play(animation, model_skeleton, targets);
    }
    return 0;
}
