// Baking: resampled absolute curves that evaluate exactly like the source at every frame, with
// and without key reduction; and the reducers themselves.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/anim/bake.hpp>
#include <castkit/anim/curve_sampling.hpp>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::bake_test {
namespace {

// Every feature at once: modes, overrides, ab, rq with a sign flip, scale, bs, vb, notifications.
AnimScene rich_scene() {
    AnimScene scene;
    scene.bone("root", -1, {0, 1, 0});
    scene.bone("spine", 0, {0, 2, 0}, axis_angle_xyzw({1, 0, 0}, 20.0f), {1, 2, 1});
    scene.bone("arm", 1, {1, 0, 0});
    scene.bone("still", 0, {3, 0, 0});
    scene.curve("root", "tx", {0, 10, 24}, {0.0f, 4.0f, -2.0f});
    scene.curve("spine", "ty", {0, 24}, {1.0f, 3.0f}, "relative");
    scene.curve("arm", "tz", {2, 9, 20}, {0.5f, -1.0f, 0.25f}, "additive")
        .set_additive_blend_weight(0.6f);
    scene.rotation("spine", {0, 12, 24},
                   {axis_angle_xyzw({0, 1, 0}, 0.0f), -axis_angle_xyzw({0, 1, 0}, 100.0f),
                    axis_angle_xyzw({0, 0, 1}, 45.0f)},
                   "relative");
    scene.rotation("arm", {0, 24},
                   {axis_angle_xyzw({1, 0, 0}, 10.0f), axis_angle_xyzw({1, 0, 0}, 80.0f)});
    scene.curve("arm", "sx", {0, 24}, {1.0f, 2.0f}, "additive");
    scene.curve("spine", "sz", {5, 15}, {1.0f, 0.5f});
    scene.override_mode("spine", "absolute", false, false, true);
    scene.curve("smile", "bs", {0, 12, 24}, {0.0f, 1.0f, 0.0f});
    cast::Curve blink = scene.curve("arm", "vb", {0, 6, 7, 24}, {0.0f, 0.0f, 0.0f, 0.0f});
    std::vector<std::uint32_t> visible = {1, 1, 0, 1};
    blink.set_integer_values(visible);
    cast::NotificationTrack step = scene.animation.add_notification_track();
    step.set_name("step");
    std::vector<std::uint32_t> frames = {3, 15};
    step.set_key_frames(frames);
    scene.build();
    return scene;
}

anim::Animation rebuild(AnimScene& scene, cast::Document& baked) {
    std::vector<cast::Animation> animations = baked.animations();
    EXPECT_EQ(animations.size(), 1u);
    Diagnostics reports;
    auto built = anim::build_animation(animations[0], scene.compiled_skeleton, {}, reports);
    EXPECT_TRUE(built.has_value());
    EXPECT_TRUE(reports.empty()) << reports[0].to_string();
    return built ? *built : anim::Animation{};
}

void expect_same_pose(const Pose& actual, const Pose& expected, float tolerance, float frame) {
    ASSERT_EQ(actual.locals.size(), expected.locals.size());
    for (std::size_t b = 0; b < actual.locals.size(); ++b) {
        SCOPED_TRACE(testing::Message() << "frame " << frame << " bone " << b);
        expect_vec3(actual.locals[b].translation, expected.locals[b].translation, tolerance);
        expect_vec3(actual.locals[b].scale, expected.locals[b].scale, tolerance);
        float angle =
            2.0f * std::acos(std::min(1.0f, std::abs(glm::dot(actual.locals[b].rotation,
                                                              expected.locals[b].rotation))));
        EXPECT_LE(angle, tolerance + 1e-3f);
    }
    ASSERT_EQ(actual.weights.size(), expected.weights.size());
    for (std::size_t i = 0; i < actual.weights.size(); ++i)
        EXPECT_NEAR(actual.weights[i], expected.weights[i], tolerance) << "frame " << frame;
    ASSERT_EQ(actual.visibility.size(), expected.visibility.size());
    for (std::size_t i = 0; i < actual.visibility.size(); ++i)
        EXPECT_EQ(anim::is_visible(actual.visibility[i]), anim::is_visible(expected.visibility[i]))
            << "frame " << frame;
}

TEST(Bake, RoundTripEqualsDirectEvaluationAtEveryFrame) {
    AnimScene scene = rich_scene();
    auto baked = anim::bake(scene.compiled, scene.compiled_skeleton);
    ASSERT_TRUE(baked.has_value()) << baked.error().to_string();
    anim::Animation again = rebuild(scene, *baked);
    EXPECT_FLOAT_EQ(again.start_frame(), 0.0f);
    EXPECT_FLOAT_EQ(again.end_frame(), 24.0f);
    for (int frame = 0; frame <= 24; ++frame)
        expect_same_pose(scene.sample(again, float(frame)), scene.sample(float(frame)), 1e-5f,
                         float(frame));
}

TEST(Bake, CurvesAreAbsoluteOnePerAnimatedChannelWithNotificationsKept) {
    AnimScene scene = rich_scene();
    auto baked = anim::bake(scene.compiled, scene.compiled_skeleton);
    ASSERT_TRUE(baked.has_value());
    cast::Animation animation = baked->animations()[0];
    EXPECT_FLOAT_EQ(animation.framerate().value(), 30.0f);
    std::vector<std::string> names;
    for (const cast::ConstCurve& curve : animation.curves()) {
        EXPECT_EQ(curve.mode_name().value(), "absolute");
        EXPECT_EQ(curve.key_frames().size(), 25u);
        names.push_back(
            fmt::format("{}.{}", curve.node_name().value(), curve.key_property().value()));
    }
    // Bone order, then tx ty tz rq sx sy sz, then bs, then vb. "still" has no curve.
    EXPECT_EQ(names,
              (std::vector<std::string>{"root.tx", "spine.ty", "spine.rq", "spine.sz", "arm.tz",
                                        "arm.rq", "arm.sx", "smile.bs", "arm.vb"}));
    EXPECT_EQ(animation.curves().back().key_values()->type(), cast::PropertyType::Byte);
    ASSERT_EQ(animation.notification_tracks().size(), 1u);
    EXPECT_EQ(animation.notification_tracks()[0].name().value(), "step");
    EXPECT_EQ(animation.notification_tracks()[0].key_frames().to_vector(),
              (std::vector<std::uint32_t>{3, 15}));
}

TEST(Bake, ReducedBakeStaysWithinTolerance) {
    AnimScene scene = rich_scene();
    const float tolerance = 1e-3f;
    auto full = anim::bake(scene.compiled, scene.compiled_skeleton);
    auto reduced = anim::bake(scene.compiled, scene.compiled_skeleton, {.tolerance = tolerance});
    ASSERT_TRUE(full.has_value() && reduced.has_value());
    EXPECT_LT(cast::file_size(*reduced), cast::file_size(*full));
    std::size_t keys = 0;
    for (const cast::ConstCurve& curve : reduced->animations()[0].curves())
        keys += curve.key_frames().size();
    EXPECT_LT(keys, 9u * 25u);
    anim::Animation again = rebuild(scene, *reduced);
    EXPECT_FLOAT_EQ(again.end_frame(), 24.0f);
    for (int frame = 0; frame <= 24; ++frame)
        expect_same_pose(scene.sample(again, float(frame)), scene.sample(float(frame)),
                         tolerance + 1e-5f, float(frame));
}

// At 60 fps output frame k is source frame k / 2.
TEST(Bake, ResamplesToAnotherFramerate) {
    AnimScene scene = rich_scene();
    auto baked = anim::bake(scene.compiled, scene.compiled_skeleton, {.framerate = 60.0f});
    ASSERT_TRUE(baked.has_value());
    anim::Animation again = rebuild(scene, *baked);
    EXPECT_FLOAT_EQ(again.framerate(), 60.0f);
    EXPECT_FLOAT_EQ(again.end_frame(), 48.0f);
    for (int k = 0; k <= 48; ++k)
        expect_same_pose(scene.sample(again, float(k)), scene.sample(float(k) / 2.0f), 1e-5f,
                         float(k));
    EXPECT_EQ(baked->animations()[0].notification_tracks()[0].key_frames().to_vector(),
              (std::vector<std::uint32_t>{6, 30}));
}

TEST(Bake, KeepsTheAnimationsOwnSkeletonWithUniqueHashes) {
    AnimScene scene = rich_scene();
    auto baked = anim::bake(scene.compiled, scene.compiled_skeleton,
                            {.skeleton_node = &scene.skeleton.node()});
    ASSERT_TRUE(baked.has_value());
    cast::Animation animation = baked->animations()[0];
    ASSERT_TRUE(animation.skeleton());
    EXPECT_EQ(animation.skeleton().bones().size(), 4u);
    ASSERT_EQ(baked->roots().size(), 1u);
    const HashTally tally = tally_hashes(*baked);
    EXPECT_EQ(tally.hashes.size(), tally.nodes);
    // The file writes and reads back.
    auto bytes = cast::write_to_buffer(*baked);
    ASSERT_TRUE(bytes.has_value());
    auto read = read_cast(std::move(*bytes));
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->animations()[0].curves().size(), 9u);
}

// A key range no bake can hold is an error, not a huge allocation or a wrapped frame.
TEST(Bake, RefusesRangesBeyondKeyFrameBuffers) {
    AnimScene scene;
    scene.bone("a");
    scene.curve("a", "tx", {4000000000u, 4000000001u}, {0.0f, 1.0f});
    scene.build();
    auto doubled = anim::bake(scene.compiled, scene.compiled_skeleton, {.framerate = 60.0f});
    ASSERT_FALSE(doubled.has_value());
    EXPECT_NE(doubled.error().message.find("does not fit"), std::string::npos);

    AnimScene wide;
    wide.bone("a");
    wide.curve("a", "tx", {0, 4000000000u}, {0.0f, 1.0f});
    wide.build();
    auto long_range = anim::bake(wide.compiled, wide.compiled_skeleton);
    ASSERT_FALSE(long_range.has_value());
    EXPECT_NE(long_range.error().message.find("frames to bake"), std::string::npos);
}

// Frames × (bones + curves + channels) past max_samples is refused before anything is sampled:
// a few bytes of key frames can name millions of frames (the anim fuzzer's finding,
// fuzz/regressions/anim/bake-16m-frames.cast).
TEST(Bake, RefusesMoreSamplesThanTheLimit) {
    AnimScene scene;
    scene.bone("a");
    scene.bone("b", 0);
    scene.curve("a", "tx", {0, 99}, {0.0f, 1.0f});
    scene.curve("b", "ty", {0, 99}, {0.0f, 1.0f});
    scene.build();
    anim::BakeOptions options;
    options.max_samples = 600;  // 100 frames × (2 bones + 2 curves + 2 channels)
    EXPECT_TRUE(anim::bake(scene.compiled, scene.compiled_skeleton, options).has_value());
    options.max_samples = 599;
    auto refused = anim::bake(scene.compiled, scene.compiled_skeleton, options);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().rule, "anim.sample-budget");
    EXPECT_NE(refused.error().message.find("max_samples"), std::string::npos);

    AnimScene huge;
    huge.bone("a");
    huge.curve("a", "tx", {0, 16000000}, {0.0f, 1.0f});
    huge.curve("a", "ty", {0, 16000000}, {0.0f, 1.0f});
    huge.build();
    EXPECT_FALSE(anim::bake(huge.compiled, huge.compiled_skeleton).has_value());
}

// Issue 45 item 7: under the fixed 2^26 limit, Python's bake() of a 7.7 KB file took 601 MB. The
// default limit now grows with the keys (anim::sample_budget): two keys 838,000 frames apart on
// one bone (838,001 frames × 3) pass 2^20 + 512; 300,000 frames apart (900,003) do not.
TEST(Bake, TheLimitGrowsWithTheKeysTheAnimationHolds) {
    EXPECT_EQ(anim::sample_budget(2, 0), (1u << 20) + 512u);
    EXPECT_EQ(anim::sample_budget(1u << 20, 0), std::uint64_t{1} << 26);
    EXPECT_EQ(anim::sample_budget(1u << 20, 600), 600u);  // the caller's own limit

    AnimScene far;
    far.bone("a");
    far.curve("a", "tx", {0, 838000}, {0.0f, 1.0f});
    far.build();
    auto refused = anim::bake(far.compiled, far.compiled_skeleton);
    ASSERT_FALSE(refused.has_value());
    EXPECT_NE(refused.error().message.find("for the animation's 2 keys"), std::string::npos)
        << refused.error().message;

    AnimScene near;
    near.bone("a");
    near.curve("a", "tx", {0, 300000}, {0.0f, 1.0f});
    near.build();
    EXPECT_TRUE(anim::bake(near.compiled, near.compiled_skeleton).has_value());
}

TEST(KeyReduction, LinearRunCollapsesToItsEnds) {
    std::vector<float> frames, values;
    for (int i = 0; i <= 100; ++i) {
        frames.push_back(float(i));
        values.push_back(3.0f + 0.25f * float(i));
    }
    EXPECT_EQ(anim::reduce_linear_keys(frames, values, 1e-4f),
              (std::vector<std::uint32_t>{0, 100}));
}

TEST(KeyReduction, CornersAreKept) {
    std::vector<float> frames = {0, 1, 2, 3, 4, 5, 6};
    std::vector<float> values = {0, 1, 2, 3, 2, 1, 0};
    EXPECT_EQ(anim::reduce_linear_keys(frames, values, 0.01f),
              (std::vector<std::uint32_t>{0, 3, 6}));
    // A tolerance as large as the bump flattens it.
    EXPECT_EQ(anim::reduce_linear_keys(frames, values, 3.0f), (std::vector<std::uint32_t>{0, 6}));
}

TEST(KeyReduction, EveryDroppedKeyIsWithinTolerance) {
    std::vector<float> frames, values;
    for (int i = 0; i < 200; ++i) {
        frames.push_back(float(i));
        values.push_back(std::sin(float(i) * 0.1f) * 5.0f);
    }
    // Curvature 5 × 0.1² per frame²: a chord of L frames strays 0.05 L² / 8, so 0.1 allows
    // spans of 4 to 5 frames.
    const float tolerance = 0.1f;
    std::vector<std::uint32_t> kept = anim::reduce_linear_keys(frames, values, tolerance);
    EXPECT_LT(kept.size(), 70u);
    EXPECT_GT(kept.size(), 25u);
    std::vector<float> kept_frames, kept_values;
    for (std::uint32_t i : kept) {
        kept_frames.push_back(frames[i]);
        kept_values.push_back(values[i]);
    }
    std::uint32_t cursor = 0;
    for (std::size_t i = 0; i < frames.size(); ++i)
        EXPECT_NEAR(anim::sample_linear(kept_frames.data(), kept_values.data(),
                                        static_cast<std::uint32_t>(kept.size()), frames[i], cursor),
                    values[i], tolerance + 1e-5f);
}

TEST(KeyReduction, SlerpAtConstantSpeedCollapsesToItsEnds) {
    std::vector<float> frames;
    std::vector<glm::quat> values;
    for (int i = 0; i <= 30; ++i) {
        frames.push_back(float(i));
        values.push_back(cast::quat_from_xyzw(axis_angle_xyzw({0, 1, 0}, float(i) * 4.0f)));
    }
    EXPECT_EQ(anim::reduce_slerp_keys(frames, values, 1e-3f), (std::vector<std::uint32_t>{0, 30}));
    // A long still stretch costs O(keys · log keys), not O(keys²).
    std::vector<float> still_frames(200000);
    for (std::size_t i = 0; i < still_frames.size(); ++i) still_frames[i] = float(i);
    std::vector<glm::quat> still(still_frames.size(), glm::quat(1, 0, 0, 0));
    EXPECT_EQ(anim::reduce_slerp_keys(still_frames, still, 1e-4f),
              (std::vector<std::uint32_t>{0, 199999}));
    // A turn back in the middle must be kept.
    values[15] = cast::quat_from_xyzw(axis_angle_xyzw({0, 1, 0}, 0.0f));
    std::vector<std::uint32_t> kept = anim::reduce_slerp_keys(frames, values, 1e-3f);
    EXPECT_NE(std::find(kept.begin(), kept.end(), 15u), kept.end());
}

}  // namespace
}  // namespace castkit::test::bake_test
