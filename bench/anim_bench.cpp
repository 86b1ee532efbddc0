// Animation sampling: a 200-bone skeleton with every channel keyed (tx ty tz rq sx sy sz on every
// bone, a key every frame for 240 frames). Reports channel samples per second, where one channel
// sample is one curve evaluated at one frame (bones × channels × frames).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <castkit/anim/animation.hpp>
#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <cmath>
#include <random>

namespace {

using namespace castkit;

constexpr int kBones = 200;
constexpr int kFrames = 240;

struct Fixture {
    anim::Skeleton skeleton;
    anim::Animation animation;
};

// mode: the curves' mode ("absolute", or a mix where every third curve is relative and every
// third additive).
Fixture make_fixture(bool mixed_modes) {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Skeleton skeleton = root.add_model().add_skeleton();
    cast::Animation animation = root.add_animation();
    animation.set_framerate(30.0f);
    std::mt19937 random(42);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<std::uint32_t> frames(kFrames);
    for (int f = 0; f < kFrames; ++f) frames[f] = static_cast<std::uint32_t>(f);
    const cast::CurveMode modes[] = {cast::CurveMode::Absolute, cast::CurveMode::Relative,
                                     cast::CurveMode::Additive};
    int curve_index = 0;
    for (int b = 0; b < kBones; ++b) {
        cast::Bone bone = skeleton.add_bone();
        std::string name = fmt::format("bone_{}", b);
        bone.set_name(name);
        bone.set_parent_index(b == 0 ? -1 : (b - 1) / 2);
        bone.set_local_position({unit(random), unit(random), unit(random)});
        using enum cast::KeyProperty;
        for (cast::KeyProperty kp :
             {TranslationX, TranslationY, TranslationZ, Rotation, ScaleX, ScaleY, ScaleZ}) {
            cast::Curve curve = animation.add_curve();
            curve.set_node_name(name);
            curve.set_key_property(kp);
            curve.set_key_frames(frames);
            curve.set_mode(mixed_modes ? modes[curve_index++ % 3] : cast::CurveMode::Absolute);
            if (kp == Rotation) {
                std::vector<glm::vec4> values(kFrames);
                for (auto& v : values)
                    v = glm::normalize(glm::vec4(unit(random), unit(random), unit(random), 1.0f));
                curve.set_quaternion_values(values);
            } else {
                std::vector<float> values(kFrames);
                for (auto& v : values) v = kp >= ScaleX ? 1.0f + 0.2f * unit(random) : unit(random);
                curve.set_float_values(values);
            }
        }
    }
    Fixture fixture;
    Diagnostics reports;
    fixture.skeleton = std::move(*anim::build_skeleton(skeleton, reports));
    fixture.animation = std::move(*anim::build_animation(animation, fixture.skeleton, {}, reports));
    return fixture;
}

const Fixture& fixture(bool mixed_modes) {
    static const Fixture absolute = make_fixture(false);
    static const Fixture mixed = make_fixture(true);
    return mixed_modes ? mixed : absolute;
}

// Playback: successive fractional frames (a step of 0.37 frame), key cursors kept warm.
void BM_SamplePlayback(benchmark::State& state) {
    const Fixture& f = fixture(state.range(0) != 0);
    std::vector<anim::Transform> locals(f.skeleton.bone_count());
    anim::SamplingContext context(f.animation);
    anim::SamplingJob job{
        .animation = &f.animation, .skeleton = &f.skeleton, .context = &context, .locals = locals};
    float frame = 0.0f;
    for (auto _ : state) {
        job.frame = frame;
        if (!job.run()) state.SkipWithError("sampling failed");
        benchmark::DoNotOptimize(locals.data());
        frame += 0.37f;
        if (frame > kFrames) frame -= kFrames;
    }
    state.counters["channel_samples/s"] =
        benchmark::Counter(static_cast<double>(f.animation.curves().size()),
                           benchmark::Counter::kIsIterationInvariantRate);
    state.counters["channels"] = static_cast<double>(f.animation.curves().size());
}
BENCHMARK(BM_SamplePlayback)->Arg(0)->Arg(1)->ArgName("mixed_modes");

// Random access: every sample at an unrelated frame, no cursors (binary search per curve).
void BM_SampleRandomAccess(benchmark::State& state) {
    const Fixture& f = fixture(false);
    std::vector<anim::Transform> locals(f.skeleton.bone_count());
    anim::SamplingJob job{.animation = &f.animation, .skeleton = &f.skeleton, .locals = locals};
    std::mt19937 random(7);
    std::uniform_real_distribution<float> frames(0.0f, float(kFrames));
    for (auto _ : state) {
        job.frame = frames(random);
        if (!job.run()) state.SkipWithError("sampling failed");
        benchmark::DoNotOptimize(locals.data());
    }
    state.counters["channel_samples/s"] =
        benchmark::Counter(static_cast<double>(f.animation.curves().size()),
                           benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_SampleRandomAccess);

// World matrices for the 200 bones (rule 18, segment scale compensation on).
void BM_LocalToWorld(benchmark::State& state) {
    const Fixture& f = fixture(false);
    std::vector<anim::Transform> locals(f.skeleton.bone_count());
    std::vector<glm::mat4> worlds(f.skeleton.bone_count());
    anim::SamplingJob sampling{
        .animation = &f.animation, .skeleton = &f.skeleton, .frame = 17.5f, .locals = locals};
    if (!sampling.run()) state.SkipWithError("sampling failed");
    anim::LocalToWorldJob job{.skeleton = &f.skeleton, .locals = locals, .worlds = worlds};
    for (auto _ : state) {
        if (!job.run()) state.SkipWithError("local to world failed");
        benchmark::DoNotOptimize(worlds.data());
    }
    state.counters["bones/s"] = benchmark::Counter(static_cast<double>(f.skeleton.bone_count()),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_LocalToWorld);

}  // namespace
