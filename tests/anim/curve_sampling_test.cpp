// Sampling one curve (rules 20, 21): linear and slerp interpolation, holding, key and value
// buffer types, shortest path, decoding errors.
#include <gtest/gtest.h>

#include <castkit/anim/curve_sampling.hpp>
#include <random>

#include "scene.hpp"

namespace castkit::test::curve_sampling_test {
namespace {

anim::CurveKeys keys_of(const cast::ConstCurve& curve) {
    Diagnostics warnings;
    auto keys = anim::read_curve_keys(curve, warnings);
    EXPECT_TRUE(keys.has_value()) << (keys ? "" : keys.error().to_string());
    return keys ? *keys : anim::CurveKeys{};
}

TEST(CurveSampling, Rule21LinearAtFractionalFrames) {
    AnimScene scene;
    anim::CurveKeys keys = keys_of(scene.curve("a", "tx", {0, 10, 20}, {0.0f, 5.0f, -5.0f}));
    EXPECT_FLOAT_EQ(keys.sample_scalar(2.5f), 1.25f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(10.0f), 5.0f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(12.5f), 2.5f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(19.75f), -4.75f);
}

TEST(CurveSampling, Rule20HoldsFirstKeyBeforeAndLastKeyAfter) {
    AnimScene scene;
    anim::CurveKeys keys = keys_of(scene.curve("a", "sy", {5, 8}, {2.0f, 4.0f}));
    EXPECT_FLOAT_EQ(keys.sample_scalar(-100.0f), 2.0f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(4.99f), 2.0f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(8.0f), 4.0f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(1e9f), 4.0f);
}

TEST(CurveSampling, SingleKeyHoldsEverywhere) {
    AnimScene scene;
    anim::CurveKeys keys = keys_of(scene.curve("a", "bs", {3}, {0.25f}));
    EXPECT_FLOAT_EQ(keys.sample_scalar(0.0f), 0.25f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(3.0f), 0.25f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(7.5f), 0.25f);
}

// kb may be b, h or i: the same keys stored in each width sample the same.
TEST(CurveSampling, KeyFrameBuffersOfEveryIntegerWidth) {
    for (cast::PropertyType type :
         {cast::PropertyType::Byte, cast::PropertyType::Short, cast::PropertyType::Integer32}) {
        AnimScene scene;
        cast::Curve curve = scene.curve("a", "tx", {0, 200}, {0.0f, 100.0f});
        std::vector<std::uint32_t> frames = {0, 200};
        curve.node().set(cast::make_integers("kb", type, frames).value());
        ASSERT_EQ(curve.node().find("kb")->type(), type);
        EXPECT_FLOAT_EQ(keys_of(curve).sample_scalar(50.0f), 25.0f) << cast::type_name(type);
    }
    // Frames past a byte and a short need the wider buffers.
    AnimScene scene;
    anim::CurveKeys wide = keys_of(scene.curve("a", "tx", {70000, 70010}, {1.0f, 2.0f}));
    EXPECT_EQ(scene.animation.curves()[0].node().find("kb")->type(), cast::PropertyType::Integer32);
    EXPECT_FLOAT_EQ(wide.sample_scalar(70005.0f), 1.5f);
}

// kv may be b, h, i or f for scalar channels (vb keys are integers), v4 for rq.
TEST(CurveSampling, ValueBuffersOfEveryAllowedType) {
    for (cast::PropertyType type :
         {cast::PropertyType::Byte, cast::PropertyType::Short, cast::PropertyType::Integer32}) {
        AnimScene scene;
        cast::Curve curve = scene.curve("a", "vb", {0, 4}, {0.0f, 0.0f});
        std::vector<std::uint32_t> values = {0, 1};
        curve.node().set(cast::make_integers("kv", type, values).value());
        anim::CurveKeys keys = keys_of(curve);
        EXPECT_FLOAT_EQ(keys.sample_scalar(1.0f), 0.25f) << cast::type_name(type);
        EXPECT_FLOAT_EQ(keys.sample_scalar(4.0f), 1.0f) << cast::type_name(type);
    }
    AnimScene scene;
    cast::Curve curve = scene.rotation("a", {0, 1}, {glm::vec4(0, 0, 0, 2), glm::vec4(0, 3, 0, 0)});
    anim::CurveKeys keys = keys_of(curve);
    // Keys are normalised on read: (0,0,0,2) is the identity, (0,3,0,0) 180° about y.
    expect_same_rotation(keys.sample_rotation(0.0f), glm::vec4(0, 0, 0, 1));
    expect_same_rotation(keys.sample_rotation(0.5f), axis_angle_xyzw({0, 1, 0}, 90.0f));
}

// Slerp, not lerp: a quarter of the way through a 90° turn is 22.5°.
TEST(CurveSampling, Rule21RotationIsSlerp) {
    AnimScene scene;
    anim::CurveKeys keys = keys_of(scene.rotation(
        "a", {0, 4}, {axis_angle_xyzw({0, 0, 1}, 0.0f), axis_angle_xyzw({0, 0, 1}, 160.0f)}));
    expect_same_rotation(keys.sample_rotation(1.0f), axis_angle_xyzw({0, 0, 1}, 40.0f));
    expect_same_rotation(keys.sample_rotation(3.0f), axis_angle_xyzw({0, 0, 1}, 120.0f));
}

// The second key is stored with the opposite sign: slerp must still take the 90° path, not the
// 270° one.
TEST(CurveSampling, Rule21QuaternionSignFlipTakesShortestPath) {
    AnimScene scene;
    glm::vec4 quarter = axis_angle_xyzw({0, 0, 1}, 90.0f);
    anim::CurveKeys keys = keys_of(scene.rotation("a", {0, 10}, {glm::vec4(0, 0, 0, 1), -quarter}));
    expect_same_rotation(keys.sample_rotation(5.0f), axis_angle_xyzw({0, 0, 1}, 45.0f));
    expect_same_rotation(keys.sample_rotation(2.5f), axis_angle_xyzw({0, 0, 1}, 22.5f));
}

// castkit's slerp computes the weights another way than glm::slerp; both are slerp.
TEST(CurveSampling, SlerpAgreesWithGlm) {
    std::mt19937 random(3);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (int i = 0; i < 1000; ++i) {
        glm::quat a =
            glm::normalize(glm::quat(unit(random), unit(random), unit(random), unit(random)));
        glm::quat b =
            glm::normalize(glm::quat(unit(random), unit(random), unit(random), unit(random)));
        float alpha = (unit(random) + 1.0f) / 2.0f;
        glm::quat expected = glm::normalize(glm::slerp(a, b, alpha));
        expect_same_rotation(anim::shortest_slerp(a, b, alpha), cast::xyzw_from_quat(expected),
                             2e-6f);
    }
}

TEST(CurveSampling, NearlyEqualRotationsStayNormalised) {
    glm::quat a = cast::quat_from_xyzw(axis_angle_xyzw({1, 0, 0}, 10.0f));
    glm::quat b = cast::quat_from_xyzw(axis_angle_xyzw({1, 0, 0}, 10.00001f));
    glm::quat mid = anim::shortest_slerp(a, b, 0.5f);
    EXPECT_NEAR(glm::length(mid), 1.0f, 1e-6f);
    expect_same_rotation(mid, axis_angle_xyzw({1, 0, 0}, 10.0f));
}

TEST(CurveSampling, KeysOutOfOrderAreSortedAndReported) {
    AnimScene scene;
    cast::Curve curve = scene.curve("a", "tx", {10, 0, 5}, {10.0f, 0.0f, 50.0f});
    Diagnostics warnings;
    auto keys = anim::read_curve_keys(curve, warnings);
    ASSERT_TRUE(keys.has_value());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rule, "anim.curve-order");
    EXPECT_EQ(keys->frames, (std::vector<float>{0, 5, 10}));
    EXPECT_FLOAT_EQ(keys->sample_scalar(7.5f), 30.0f);
}

TEST(CurveSampling, MalformedCurvesAreErrors) {
    Diagnostics warnings;
    {
        AnimScene scene;
        auto keys =
            anim::read_curve_keys(scene.curve("a", "tx", {0, 1, 2}, {1.0f, 2.0f}), warnings);
        ASSERT_FALSE(keys.has_value());
        EXPECT_EQ(keys.error().rule, "anim.curve-keys");
    }
    {
        AnimScene scene;
        auto keys = anim::read_curve_keys(scene.curve("a", "rq", {0}, {1.0f}), warnings);
        ASSERT_FALSE(keys.has_value());
        EXPECT_EQ(keys.error().rule, "anim.curve-kv");
    }
    {
        AnimScene scene;
        auto keys = anim::read_curve_keys(scene.curve("a", "rx", {0}, {1.0f}), warnings);
        ASSERT_FALSE(keys.has_value());
        EXPECT_EQ(keys.error().rule, "anim.curve-kp");
    }
    {
        AnimScene scene;
        auto keys = anim::read_curve_keys(scene.rotation("a", {0}, {glm::vec4(0)}), warnings);
        ASSERT_FALSE(keys.has_value());
        EXPECT_EQ(keys.error().rule, "anim.curve-kv");
    }
    {
        AnimScene scene;
        cast::Curve curve = scene.curve("a", "tx", {0}, {1.0f});
        curve.node().remove("kb");
        auto keys = anim::read_curve_keys(curve, warnings);
        ASSERT_FALSE(keys.has_value());
        EXPECT_EQ(keys.error().rule, "anim.curve-kb");
    }
}

TEST(CurveSampling, Rule20WrapFrameForLoopedSampling) {
    EXPECT_FLOAT_EQ(anim::wrap_frame(12.0f, 0.0f, 10.0f), 2.0f);
    EXPECT_FLOAT_EQ(anim::wrap_frame(-3.0f, 0.0f, 10.0f), 7.0f);
    EXPECT_FLOAT_EQ(anim::wrap_frame(10.0f, 0.0f, 10.0f), 10.0f);
    EXPECT_FLOAT_EQ(anim::wrap_frame(25.5f, 5.0f, 15.0f), 5.5f);
    EXPECT_FLOAT_EQ(anim::wrap_frame(3.0f, 5.0f, 5.0f), 3.0f);
}

// The cursor gives the same answers as a cold search, in any sampling order.
TEST(CurveSampling, CursorMatchesBinarySearch) {
    std::vector<float> frames, values;
    for (int i = 0; i < 50; ++i) {
        frames.push_back(float(i * 2));
        values.push_back(float(i * i));
    }
    std::uint32_t cursor = 0;
    for (float t : {0.5f, 1.0f, 1.5f, 3.0f, 7.0f, 90.0f, 2.0f, 97.9f, 0.1f, 50.0f, 51.0f}) {
        std::uint32_t cold = 0;
        float warm = anim::sample_linear(frames.data(), values.data(), 50, t, cursor);
        EXPECT_FLOAT_EQ(warm, anim::sample_linear(frames.data(), values.data(), 50, t, cold)) << t;
        int i = int(t / 2);
        float alpha = (t - float(i * 2)) / 2.0f;
        EXPECT_NEAR(warm, float(i * i) + (float((i + 1) * (i + 1)) - float(i * i)) * alpha, 1e-4f)
            << t;
    }
}

// Two keys on one frame are a step: the later one applies from that frame on.
TEST(CurveSampling, TwoKeysOnOneFrameAreAStep) {
    AnimScene scene;
    anim::CurveKeys keys = keys_of(scene.curve("a", "tx", {0, 5, 5, 10}, {0.0f, 1.0f, 2.0f, 3.0f}));
    EXPECT_FLOAT_EQ(keys.sample_scalar(2.5f), 0.5f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(5.0f), 2.0f);
    EXPECT_FLOAT_EQ(keys.sample_scalar(7.5f), 2.5f);
}

// Unevenly spaced keys: the proportional guess misses and the binary search finds the key.
TEST(CurveSampling, UnevenKeysAreFound) {
    std::vector<float> frames = {0, 1, 2, 50, 51, 100};
    std::vector<float> values = {0, 10, 20, 30, 40, 50};
    std::uint32_t cursor = 0;
    EXPECT_FLOAT_EQ(anim::sample_linear(frames.data(), values.data(), 6, 26.0f, cursor), 25.0f);
    EXPECT_EQ(cursor, 2u);
    EXPECT_FLOAT_EQ(anim::sample_linear(frames.data(), values.data(), 6, 75.5f, cursor), 45.0f);
    EXPECT_EQ(cursor, 4u);
    EXPECT_FLOAT_EQ(anim::sample_linear(frames.data(), values.data(), 6, 0.5f, cursor), 5.0f);
    EXPECT_EQ(cursor, 0u);
}

}  // namespace
}  // namespace castkit::test::curve_sampling_test
