// Rule 22: absolute, relative and additive curves on every channel kind, with hand-computed
// results. The bone's rest pose is lp (1, 2, 3), lr 90° about x, s (2, 2, 2).
#include <gtest/gtest.h>

#include "scene.hpp"

namespace castkit::test::modes_test {
namespace {

const glm::vec4 kRestRotation = axis_angle_xyzw({1, 0, 0}, 90.0f);
const glm::vec4 kQuarterY = axis_angle_xyzw({0, 1, 0}, 90.0f);

AnimScene bone_scene() {
    AnimScene scene;
    scene.bone("b", -1, {1, 2, 3}, kRestRotation, {2, 2, 2});
    return scene;
}

TEST(CurveModes, Rule22AbsoluteTranslationIsTheKey) {
    AnimScene scene = bone_scene();
    scene.curve("b", "tx", {0}, {5.0f});
    scene.build();
    Pose pose = scene.sample(0.0f);
    expect_vec3(pose.locals[0].translation, {5, 2, 3});
}

TEST(CurveModes, Rule22RelativeTranslationAddsToRest) {
    AnimScene scene = bone_scene();
    scene.curve("b", "ty", {0, 10}, {0.0f, 10.0f}, "relative");
    scene.build();
    expect_vec3(scene.sample(5.0f).locals[0].translation, {1, 7, 3});
}

TEST(CurveModes, Rule22AdditiveTranslationBlendsOnTheBase) {
    AnimScene scene = bone_scene();
    // No curve before it: the base is the rest value. ab 0.5: 3 + 4 × 0.5.
    scene.curve("b", "tz", {0}, {4.0f}, "additive").set_additive_blend_weight(0.5f);
    // After an absolute curve the base is that curve's value: 10 + 4 × 0.5.
    scene.curve("b", "tx", {0}, {10.0f});
    scene.curve("b", "tx", {0}, {4.0f}, "additive").set_additive_blend_weight(0.5f);
    scene.build();
    expect_vec3(scene.sample(0.0f).locals[0].translation, {12, 2, 5});
}

TEST(CurveModes, Rule14AdditiveBlendWeightDefaultsToOne) {
    AnimScene scene = bone_scene();
    scene.curve("b", "ty", {0}, {4.0f}, "additive");
    scene.build();
    expect_vec3(scene.sample(0.0f).locals[0].translation, {1, 6, 3});
}

TEST(CurveModes, Rule22AbsoluteScaleIsTheKey) {
    AnimScene scene = bone_scene();
    scene.curve("b", "sx", {0}, {3.0f});
    scene.build();
    expect_vec3(scene.sample(0.0f).locals[0].scale, {3, 2, 2});
}

TEST(CurveModes, Rule22RelativeScaleMultipliesRest) {
    AnimScene scene = bone_scene();
    scene.curve("b", "sy", {0}, {3.0f}, "relative");
    scene.build();
    expect_vec3(scene.sample(0.0f).locals[0].scale, {2, 6, 2});
}

TEST(CurveModes, Rule22AdditiveScaleMultipliesTheBase) {
    AnimScene scene = bone_scene();
    // lerp(2, 2 × 3, 0.5) = 4.
    scene.curve("b", "sz", {0}, {3.0f}, "additive").set_additive_blend_weight(0.5f);
    // After an absolute 5: lerp(5, 5 × 3, 1) = 15.
    scene.curve("b", "sx", {0}, {5.0f});
    scene.curve("b", "sx", {0}, {3.0f}, "additive");
    scene.build();
    expect_vec3(scene.sample(0.0f).locals[0].scale, {15, 2, 4});
}

TEST(CurveModes, Rule22AbsoluteRotationIsTheKey) {
    AnimScene scene = bone_scene();
    scene.rotation("b", {0}, {kQuarterY});
    scene.build();
    expect_same_rotation(scene.sample(0.0f).locals[0].rotation, kQuarterY);
}

// rest ⊗ key with rest = 90° about x and key = 90° about y (Hamilton product, by hand):
// (x, y, z, w) = (0.5, 0.5, 0.5, 0.5). key ⊗ rest would give z = -0.5.
TEST(CurveModes, Rule22RelativeRotationIsRestTimesKey) {
    AnimScene scene = bone_scene();
    scene.rotation("b", {0}, {kQuarterY}, "relative");
    scene.build();
    expect_same_rotation(scene.sample(0.0f).locals[0].rotation, glm::vec4(0.5f, 0.5f, 0.5f, 0.5f));
}

// slerp(base, base ⊗ key, ab) = base ⊗ key^ab: with ab 0.5, rest ⊗ (45° about y), which is
// (√½·cos 22.5°, √½·sin 22.5°, √½·sin 22.5°, √½·cos 22.5°).
TEST(CurveModes, Rule22AdditiveRotationSlerpsFromTheBase) {
    AnimScene scene = bone_scene();
    scene.rotation("b", {0}, {kQuarterY}, "additive").set_additive_blend_weight(0.5f);
    scene.build();
    const float h = std::sqrt(0.5f), c = std::cos(glm::radians(22.5f)),
                s = std::sin(glm::radians(22.5f));
    expect_same_rotation(scene.sample(0.0f).locals[0].rotation,
                         glm::vec4(h * c, h * s, h * s, h * c));
}

TEST(CurveModes, Rule22AdditiveRotationAfterAnAbsoluteCurve) {
    AnimScene scene = bone_scene();
    scene.rotation("b", {0}, {axis_angle_xyzw({0, 0, 1}, 30.0f)});
    scene.rotation("b", {0}, {axis_angle_xyzw({0, 0, 1}, 45.0f)}, "additive");
    scene.build();
    expect_same_rotation(scene.sample(0.0f).locals[0].rotation, axis_angle_xyzw({0, 0, 1}, 75.0f));
}

TEST(CurveModes, Rule22BlendShapeWeightModes) {
    AnimScene scene = bone_scene();
    scene.curve("smile", "bs", {0, 10}, {0.0f, 1.0f});
    scene.curve("frown", "bs", {0}, {0.3f}, "relative");
    scene.curve("blink", "bs", {0}, {0.5f});
    scene.curve("blink", "bs", {0}, {0.25f}, "additive").set_additive_blend_weight(0.8f);
    scene.build();
    ASSERT_EQ(scene.compiled.blend_shapes(), (std::vector<std::string>{"smile", "frown", "blink"}));
    Pose pose = scene.sample(2.5f);
    EXPECT_FLOAT_EQ(pose.weights[0], 0.25f);
    EXPECT_FLOAT_EQ(pose.weights[1], 0.3f);
    EXPECT_FLOAT_EQ(pose.weights[2], 0.7f);
}

// Ruling 22a: vb and bs apply modes with rest 0. Relative gives the key, so a relative vb curve
// keyed 0 hides its node (with rest 1, as castkit had it, it could never hide); additive adds to
// the value of the curves before it, else to 0.
TEST(CurveModes, Ruling22aVisibilityAndBlendShapeRestIsZero) {
    AnimScene scene = bone_scene();
    scene.curve("b", "vb", {0, 10}, {1.0f, 0.0f}, "relative");
    scene.curve("c", "vb", {0}, {0.4f}, "additive");
    scene.curve("d", "vb", {0}, {1.0f});
    scene.curve("d", "vb", {0}, {-0.8f}, "additive").set_additive_blend_weight(0.5f);
    scene.curve("smile", "bs", {0}, {0.3f}, "relative");
    scene.curve("frown", "bs", {0}, {0.6f}, "additive").set_additive_blend_weight(0.5f);
    scene.build();
    ASSERT_EQ(scene.compiled.visibility_nodes(), (std::vector<std::string>{"b", "c", "d"}));
    Pose start = scene.sample(0.0f), end = scene.sample(10.0f);
    EXPECT_FLOAT_EQ(start.visibility[0], 1.0f);
    EXPECT_FLOAT_EQ(end.visibility[0], 0.0f);
    EXPECT_FALSE(anim::is_visible(end.visibility[0]));
    EXPECT_FLOAT_EQ(start.visibility[1], 0.4f);  // 0 + 0.4: hidden
    EXPECT_FLOAT_EQ(start.visibility[2], 0.6f);  // lerp(1, 1 - 0.8, 0.5)
    EXPECT_FLOAT_EQ(start.weights[0], 0.3f);
    EXPECT_FLOAT_EQ(start.weights[1], 0.3f);  // lerp(0, 0.6, 0.5)
}

// vb interpolates linearly and is visible at 0.5 and above (rule 21).
TEST(CurveModes, Rule21VisibilityThreshold) {
    AnimScene scene = bone_scene();
    cast::Curve curve = scene.curve("b", "vb", {0, 10}, {0.0f, 0.0f});
    std::vector<std::uint32_t> values = {0, 1};
    curve.set_integer_values(values);
    scene.curve("b", "vb", {0}, {0.0f}).node().remove("kv");  // a broken curve does not count
    scene.build();
    ASSERT_EQ(scene.compiled.visibility_nodes().size(), 1u);
    EXPECT_FALSE(anim::is_visible(scene.sample(4.9f).visibility[0]));
    EXPECT_TRUE(anim::is_visible(scene.sample(5.0f).visibility[0]));
    EXPECT_FLOAT_EQ(scene.sample(5.0f).visibility[0], 0.5f);
    EXPECT_EQ(scene.reports_with_rule("anim.curve-kv"), 1u);
}

TEST(CurveModes, Rule22MissingModeIsAbsolute) {
    AnimScene scene = bone_scene();
    scene.curve("b", "tx", {0}, {7.0f}, "");
    scene.build();
    EXPECT_FLOAT_EQ(scene.sample(0.0f).locals[0].translation.x, 7.0f);
}

TEST(CurveModes, UnknownModeIsReportedAndAbsolute) {
    AnimScene scene = bone_scene();
    scene.curve("b", "tx", {0}, {7.0f}, "sideways");
    scene.build();
    EXPECT_FLOAT_EQ(scene.sample(0.0f).locals[0].translation.x, 7.0f);
    EXPECT_EQ(scene.reports_with_rule("anim.curve-mode"), 1u);
}

// Curves apply in file order: a later absolute curve replaces an earlier additive result.
TEST(CurveModes, Rule22CurvesApplyInFileOrder) {
    AnimScene scene = bone_scene();
    scene.curve("b", "tx", {0}, {4.0f}, "additive");
    scene.curve("b", "tx", {0}, {9.0f});
    scene.curve("b", "ty", {0}, {9.0f});
    scene.curve("b", "ty", {0}, {4.0f}, "additive");
    scene.build();
    Pose pose = scene.sample(0.0f);
    EXPECT_FLOAT_EQ(pose.locals[0].translation.x, 9.0f);
    EXPECT_FLOAT_EQ(pose.locals[0].translation.y, 13.0f);
}

// Channels no curve keys keep the rest pose; other bones too.
TEST(CurveModes, UnkeyedChannelsKeepTheRestPose) {
    AnimScene scene = bone_scene();
    scene.bone("other", 0, {4, 5, 6});
    scene.curve("b", "tx", {0}, {7.0f});
    scene.build();
    Pose pose = scene.sample(3.0f);
    expect_same_rotation(pose.locals[0].rotation, kRestRotation);
    expect_vec3(pose.locals[0].scale, {2, 2, 2});
    expect_vec3(pose.locals[1].translation, {4, 5, 6});
}

}  // namespace
}  // namespace castkit::test::modes_test
