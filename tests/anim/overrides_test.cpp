// Rule 23: a CurveModeOverride covers its node and every descendant, the nearest covering
// override wins, only for the flagged channel kinds; bs and vb are never overridden.
// Skeleton: root → spine → arm → hand, each with rest tx 10; every bone has a relative tx
// curve keyed 1, so relative gives 11, absolute 1 and additive (on the rest value) 11.
#include <gtest/gtest.h>

#include "scene.hpp"

namespace castkit::test::overrides_test {
namespace {

AnimScene chain() {
    AnimScene scene;
    scene.bone("root", -1, {10, 0, 0});
    scene.bone("spine", 0, {10, 0, 0});
    scene.bone("arm", 1, {10, 0, 0});
    scene.bone("hand", 2, {10, 0, 0});
    for (const char* name : {"root", "spine", "arm", "hand"})
        scene.curve(name, "tx", {0}, {1.0f}, "relative");
    return scene;
}

std::vector<float> translations_x(const Pose& pose) {
    std::vector<float> out;
    for (const anim::Transform& t : pose.locals) out.push_back(t.translation.x);
    return out;
}

TEST(CurveModeOverride, Rule23AppliesToTheNamedNodeAndItsDescendants) {
    AnimScene scene = chain();
    scene.override_mode("spine", "absolute", true, false, false);
    scene.build();
    // The plugins skip the named node itself; the spec does not.
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{11, 1, 1, 1}));
}

TEST(CurveModeOverride, Rule23NearestOverrideWins) {
    AnimScene scene = chain();
    scene.override_mode("spine", "absolute", true, false, false);
    scene.override_mode("arm", "additive", true, false, false);
    scene.build();
    // additive on rest: 10 + 1.
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{11, 1, 11, 11}));
    EXPECT_EQ(scene.compiled.curves()[2].mode, anim::CurveMode::Additive);
    EXPECT_EQ(scene.compiled.curves()[1].mode, anim::CurveMode::Absolute);
}

// The order of the overrides in the file does not matter: nearness does.
TEST(CurveModeOverride, Rule23NearestWinsWhateverTheFileOrder) {
    AnimScene scene = chain();
    scene.override_mode("arm", "additive", true, false, false);
    scene.override_mode("root", "absolute", true, false, false);
    scene.build();
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{1, 1, 11, 11}));
}

TEST(CurveModeOverride, Rule23OnlyFlaggedChannelKinds) {
    AnimScene scene = chain();
    scene.override_mode("root", "absolute", false, true, true);  // rotation and scale only
    scene.bone("extra", 3, {0, 0, 0}, axis_angle_xyzw({1, 0, 0}, 90.0f), {2, 2, 2});
    scene.rotation("extra", {0}, {axis_angle_xyzw({0, 0, 1}, 90.0f)}, "relative");
    scene.curve("extra", "sx", {0}, {3.0f}, "relative");
    scene.build();
    Pose pose = scene.sample(0.0f);
    EXPECT_EQ(translations_x(pose), (std::vector<float>{11, 11, 11, 11, 0}));  // tx keeps relative
    // Absolute: the rest (90° about x, scale 2) is ignored; relative would give rest ⊗ key and 6.
    expect_same_rotation(pose.locals[4].rotation, axis_angle_xyzw({0, 0, 1}, 90.0f));
    EXPECT_FLOAT_EQ(pose.locals[4].scale.x, 3.0f);
}

// Among several overrides only those whose flag covers the channel compete.
TEST(CurveModeOverride, Rule23NearestAmongThoseCoveringTheChannel) {
    AnimScene scene = chain();
    scene.override_mode("root", "absolute", true, false, false);
    scene.override_mode("arm", "additive", false, true, false);  // rotation only
    scene.build();
    // hand's tx: arm's override does not cover translation, so root's absolute applies.
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{1, 1, 1, 1}));
}

// Several overrides on one node: the first in file order that covers the kind wins, as both
// official plugins resolve it (castkit applied the last before issue 30).
TEST(CurveModeOverride, Rule23FirstOverrideOnTheSameNodeWins) {
    AnimScene scene = chain();
    scene.override_mode("spine", "absolute", true, false, false);
    scene.override_mode("spine", "additive", true, true, false);
    scene.override_mode("arm", "absolute", false, true, false);  // covers no translation
    scene.override_mode("arm", "additive", true, false, false);
    scene.build();
    // spine: the first (absolute) wins over the later additive; arm: the first covering
    // translation is its second override (additive, 10 + 1); hand follows arm.
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{11, 1, 11, 11}));
    EXPECT_EQ(scene.compiled.curves()[1].mode, anim::CurveMode::Absolute);
    EXPECT_EQ(scene.compiled.curves()[2].mode, anim::CurveMode::Additive);
}

TEST(CurveModeOverride, Rule23BlendShapeAndVisibilityAreNeverOverridden) {
    AnimScene scene = chain();
    scene.override_mode("spine", "absolute", true, true, true);
    scene.curve("spine", "bs", {0}, {0.5f});
    scene.curve("spine", "bs", {0}, {0.25f}, "additive");
    scene.curve("hand", "vb", {0}, {0.5f});
    scene.curve("hand", "vb", {0}, {0.25f}, "additive");  // 0.5 + 0.25; overridden it would be 0.25
    scene.build();
    Pose pose = scene.sample(0.0f);
    EXPECT_FLOAT_EQ(pose.weights[0], 0.75f);
    EXPECT_FLOAT_EQ(pose.visibility[0], 0.75f);
}

TEST(CurveModeOverride, OverrideOnUnknownNodeIsReported) {
    AnimScene scene = chain();
    scene.override_mode("tail", "absolute", true, true, true);
    scene.build();
    EXPECT_EQ(scene.reports_with_rule("anim.unknown-node"), 1u);
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{11, 11, 11, 11}));
}

TEST(CurveModeOverride, OverrideWithoutAValidModeIsReportedAndIgnored) {
    AnimScene scene = chain();
    scene.override_mode("root", "bogus", true, true, true);
    scene.build();
    EXPECT_EQ(scene.reports_with_rule("anim.override-mode"), 1u);
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{11, 11, 11, 11}));
}

// The hierarchy is the skeleton's, even when a child is stored before its parent.
TEST(CurveModeOverride, Rule23UsesTheSkeletonHierarchyNotFileOrder) {
    AnimScene scene;
    scene.bone("hand", 2, {10, 0, 0});
    scene.bone("root", -1, {10, 0, 0});
    scene.bone("arm", 1, {10, 0, 0});
    for (const char* name : {"root", "arm", "hand"})
        scene.curve(name, "tx", {0}, {1.0f}, "relative");
    scene.override_mode("arm", "absolute", true, false, false);
    scene.build();
    EXPECT_EQ(translations_x(scene.sample(0.0f)), (std::vector<float>{1, 11, 1}));
}

}  // namespace
}  // namespace castkit::test::overrides_test
