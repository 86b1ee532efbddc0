// Constraints evaluated (issue 46 item 1), as the official Blender add-on sets them up: each
// copies its target's channel (location, rotation or scale relative to its rest, in its rest's
// frame) onto the owner's, or adds it in offset mode; the weight blends. The expectations are
// worked here from those rules, not taken from castkit.
#include <gtest/gtest.h>

#include <castkit/anim/bake.hpp>
#include <glm/gtc/quaternion.hpp>
#include <limits>

#include "scene.hpp"

namespace castkit::test::constraints_test {
namespace {

// The target's rest: at (0, 2, 0), turned 30° about Z.
const glm::quat kTargetRest = glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 0, 1));

// The target's location channel: its translation relative to its rest, in its rest's frame.
glm::vec3 target_channel(const glm::vec3& translation) {
    return glm::inverse(kTargetRest) * (translation - glm::vec3(0, 2, 0));
}

// owner and target, roots with rests of their own; the target keyed at frame 0.
struct Rig {
    AnimScene scene;
    cast::Bone owner, target;
    cast::Constraint constraint;

    Rig(std::string_view type, glm::vec4 owner_rest = {0, 0, 0, 1}) {
        owner = scene.bone("owner", -1, {1, 0, 0}, owner_rest, {1, 1, 1});
        target = scene.bone("target", -1, {0, 2, 0}, axis_angle_xyzw({0, 0, 1}, 30), {2, 2, 2});
        constraint = scene.skeleton.add_constraint();
        constraint.set_string("ct", type);
        constraint.set_constraint_bone(owner);
        constraint.set_target_bone(target);
    }

    anim::Transform owner_local(bool solve = true) {
        scene.build();
        return scene.sample(0.0f, false, solve).locals[0];
    }
};

TEST(Constraint, PointCopiesTheTargetsLocationFromItsRestIntoTheOwnersRestFrame) {
    // The owner rests turned 90° about Z, so its rest frame's +X is the parent's +Y.
    Rig rig("pt", axis_angle_xyzw({0, 0, 1}, 90));
    rig.scene.curve("target", "tx", {0}, {0.5f});
    rig.scene.curve("target", "tz", {0}, {-1.0f});
    rig.scene.curve("owner", "ty", {0}, {7.0f});  // overridden by the constraint
    const glm::vec3 copied = target_channel({0.5f, 2.0f, -1.0f});
    // Into the owner's rest frame: its +X is the parent's +Y, its +Y the parent's −X.
    expect_vec3(rig.owner_local().translation, glm::vec3(1.0f - copied.y, copied.x, copied.z),
                1e-5f);
    expect_vec3(rig.owner_local(false).translation, {1.0f, 7.0f, 0.0f});
}

TEST(Constraint, PointInOffsetModeAddsToTheOwnersOwnAndSkipsAxes) {
    Rig rig("pt");
    rig.constraint.set_maintain_offset(true);
    rig.constraint.set_skip_y(true);
    rig.scene.curve("target", "tx", {0}, {0.5f});
    rig.scene.curve("target", "ty", {0}, {3.0f});
    rig.scene.curve("owner", "tx", {0}, {2.0f});  // own channel: +1 from its rest
    rig.scene.curve("owner", "ty", {0}, {0.25f});
    // x: the rest 1, its own channel 1 and the target's; y skipped: the owner's 0.25.
    const glm::vec3 copied = target_channel({0.5f, 3.0f, 0.0f});
    expect_vec3(rig.owner_local().translation, {2.0f + copied.x, 0.25f, copied.z}, 1e-5f);
}

// The target turns 40° about its rest's +X, which is the owner's (30° about Z) axis; the owner
// turns as much about the same Model-space axis (the add-on's LOCAL_OWNER_ORIENT target space).
const glm::vec3 kTargetX = kTargetRest * glm::vec3(1, 0, 0);

TEST(Constraint, OrientCopiesTheTargetsTurnInTheOwnersOrientationAndTheWeightBlends) {
    Rig rig("or");
    const glm::quat turn = glm::angleAxis(glm::radians(40.0f), glm::vec3(1, 0, 0));
    rig.scene.rotation("target", {0}, {cast::xyzw_from_quat(kTargetRest * turn)});
    expect_same_rotation(rig.owner_local().rotation,
                         cast::xyzw_from_quat(glm::angleAxis(glm::radians(40.0f), kTargetX)));
    rig.constraint.set_weight(0.5f);
    expect_same_rotation(rig.owner_local().rotation,
                         cast::xyzw_from_quat(glm::angleAxis(glm::radians(20.0f), kTargetX)));
}

TEST(Constraint, OrientWithACustomOffsetComposesTheTargetsOnIt) {
    Rig rig("or");
    const glm::quat offset = glm::angleAxis(glm::radians(15.0f), glm::vec3(0, 1, 0));
    rig.constraint.set_custom_offset(cast::xyzw_from_quat(offset));
    const glm::quat turn = glm::angleAxis(glm::radians(40.0f), glm::vec3(1, 0, 0));
    rig.scene.rotation("target", {0}, {cast::xyzw_from_quat(kTargetRest * turn)});
    expect_same_rotation(
        rig.owner_local().rotation,
        cast::xyzw_from_quat(glm::angleAxis(glm::radians(40.0f), kTargetX) * offset));
}

TEST(Constraint, ScaleCopiesTheTargetsScaleOverItsRest) {
    Rig rig("sc");
    rig.scene.curve("target", "sx", {0}, {3.0f});  // 1.5 times its rest of 2
    rig.scene.curve("target", "sz", {0}, {1.0f});  // half its rest
    expect_vec3(rig.owner_local().scale, {1.5f, 1.0f, 0.5f});
}

// A bake writes the channel a constraint sets, though no curve keys the owner.
TEST(Constraint, ABakeWritesTheOwnersConstrainedChannel) {
    Rig rig("sc");
    rig.scene.curve("target", "sx", {0, 2}, {3.0f, 4.0f});
    rig.scene.build();
    auto baked = anim::bake(rig.scene.compiled, rig.scene.compiled_skeleton, {});
    ASSERT_TRUE(baked.has_value()) << baked.error().to_string();
    std::vector<float> owner_sx;
    for (const cast::ConstCurve& curve : baked->animations()[0].curves())
        if (curve.node_name() == "owner" && curve.key_property() == "sx")
            owner_sx = curve.float_values().to_vector();
    EXPECT_EQ(owner_sx, (std::vector<float>{1.5f, 1.75f, 2.0f}));  // the target's over its rest 2
}

// The rig checks its inputs (issue 57): a weight outside [0, 1] is clamped with a warning that
// names the constraint, a weight or offset that is not a number leaves the constraint out.
TEST(Constraint, AWeightOutsideZeroToOneIsClampedWithAWarning) {
    Rig rig("pt");
    rig.constraint.set_weight(1.5f);
    rig.scene.curve("target", "tx", {0}, {0.5f});
    const glm::vec3 full = target_channel({0.5f, 2.0f, 0.0f});
    expect_vec3(rig.owner_local().translation, glm::vec3(1.0f, 0.0f, 0.0f) + full, 1e-5f);
    EXPECT_EQ(rig.scene.reports_with_rule("anim.constraint-weight"), 1u);
    ASSERT_EQ(rig.scene.compiled_skeleton.constraints().size(), 1u);
    EXPECT_EQ(rig.scene.compiled_skeleton.constraints()[0].weight, 1.0f);

    Diagnostics warnings;
    anim::BoneConstraint negative{.owner = 1, .target = 0, .weight = -0.25f};
    auto built =
        anim::Skeleton::from_arrays({"a", "b"}, {-1, 0}, {}, {}, {}, {negative}, &warnings);
    ASSERT_TRUE(built.has_value()) << built.error().to_string();
    EXPECT_EQ(built->constraints()[0].weight, 0.0f);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rule, "anim.constraint-weight");
}

TEST(Constraint, AWeightThatIsNotANumberLeavesTheConstraintOut) {
    Rig rig("pt");
    rig.constraint.set_weight(std::numeric_limits<float>::quiet_NaN());
    rig.scene.curve("target", "tx", {0}, {0.5f});
    expect_vec3(rig.owner_local().translation, {1.0f, 0.0f, 0.0f});
    EXPECT_EQ(rig.scene.reports_with_rule("anim.constraint"), 1u);
    EXPECT_TRUE(rig.scene.compiled_skeleton.constraints().empty());

    for (const anim::BoneConstraint& bad :
         {anim::BoneConstraint{
              .owner = 1, .target = 0, .weight = std::numeric_limits<float>::quiet_NaN()},
          anim::BoneConstraint{.owner = 1,
          .target = 0,
          .custom_offset = glm::vec4(std::numeric_limits<float>::infinity())}}) {
        auto built = anim::Skeleton::from_arrays({"a", "b"}, {-1, 0}, {}, {}, {}, {bad});
        ASSERT_FALSE(built.has_value());
        EXPECT_EQ(built.error().rule, "anim.non-finite");
    }
}

}  // namespace
}  // namespace castkit::test::constraints_test
