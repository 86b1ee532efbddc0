// Rule 18: local = T · R · S; world = parent_world · T · C · R · S with C the inverse of the
// parent's local scale when the child compensates segment scale (the default).
#include <gtest/gtest.h>

#include "scene.hpp"

namespace castkit::test::world_test {
namespace {

anim::Transform world_of(const AnimScene& scene, const Pose& pose, std::size_t bone) {
    return anim::decompose(scene.worlds(pose)[bone]);
}

TEST(WorldTransform, Rule18LocalIsTranslateRotateScale) {
    anim::Transform t{
        {1, 2, 3}, cast::quat_from_xyzw(axis_angle_xyzw({0, 0, 1}, 90.0f)), {2, 3, 4}};
    glm::mat4 m = anim::to_matrix(t);
    // The x axis, scaled by 2 then turned 90° about z, points along +y; then translated.
    glm::vec4 x = m * glm::vec4(1, 0, 0, 1);
    expect_vec3(glm::vec3(x), {1, 4, 3});
    glm::vec4 y = m * glm::vec4(0, 1, 0, 1);
    expect_vec3(glm::vec3(y), {-2, 2, 3});
}

TEST(WorldTransform, DecomposeInvertsToMatrix) {
    anim::Transform t{
        {-4, 0.5f, 9},
        cast::quat_from_xyzw(axis_angle_xyzw(glm::normalize(glm::vec3(1, 2, 3)), 70.0f)),
        {0.5f, 2, 3}};
    anim::Transform back = anim::decompose(anim::to_matrix(t));
    expect_vec3(back.translation, t.translation);
    expect_vec3(back.scale, t.scale);
    expect_same_rotation(back.rotation, cast::xyzw_from_quat(t.rotation));
}

// One decomposition for every importer (glTF, DMF, K3D used to have two, which disagreed on the
// quaternion's sign and on zero scales): the same matrix gives the same quaternion, w >= 0.
TEST(WorldTransform, DecomposeGivesOneQuaternionPerRotation) {
    // 200° about z: glm's quat_cast of this matrix gives (0, 0, 0.98, -0.17), w < 0.
    const glm::vec4 turn = axis_angle_xyzw({0, 0, 1}, 200.0f);
    const anim::Transform back =
        anim::decompose(anim::to_matrix({{0, 0, 0}, cast::quat_from_xyzw(turn), {1, 1, 1}}));
    EXPECT_GE(back.rotation.w, 0.0f);
    expect_same_rotation(back.rotation, turn);
}

// The angle between two rotations is exact where 2·acos(a·b) of floats is not: one rotation
// written with w < 0 and 1e-7 short of unit length (as exporters write them) against its
// normalised opposite reads 0, not the 1e-3 rad the rounded dot product gives.
TEST(WorldTransform, RotationAngleIsExactForNearlyEqualRotations) {
    const glm::quat file(-0.70946515f, -0.70474035f, 0.0f, 0.0f);  // w, x, y, z
    const glm::quat normalised = -glm::normalize(file);
    EXPECT_GT(2.0f * std::acos(std::min(1.0f, std::abs(glm::dot(file, normalised)))), 1e-4f);
    EXPECT_LT(anim::rotation_angle(file, normalised), 1e-6f);
    const glm::quat turned = glm::angleAxis(0.3f, glm::vec3(0, 1, 0)) * normalised;
    EXPECT_NEAR(anim::rotation_angle(normalised, turned), 0.3f, 1e-6f);
    EXPECT_NEAR(anim::rotation_angle(turned, -normalised), 0.3f, 1e-6f);
}

// A zero-scale axis (a bone scaled flat) keeps the rotation the other two axes show.
TEST(WorldTransform, DecomposeKeepsTheRotationOfAFlattenedAxis) {
    const glm::vec4 turn = axis_angle_xyzw({0, 0, 1}, 90.0f);
    const glm::mat4 flat = anim::to_matrix({{1, 2, 3}, cast::quat_from_xyzw(turn), {0, 2, 1}});
    const anim::Transform back = anim::decompose(flat);
    expect_vec3(back.scale, {0, 2, 1});
    expect_same_rotation(back.rotation, turn);
    const glm::mat4 again = anim::to_matrix(back);
    for (int c = 0; c < 4; ++c) expect_vec3(glm::vec3(again[c]), glm::vec3(flat[c]));
}

// Parent scaled 2 at the origin, child at lp (1, 0, 0): the child's position follows the
// parent's scale (world x = 2), its size does not (world scale 1).
TEST(WorldTransform, Rule18SegmentScaleCompensateIsTheDefault) {
    AnimScene scene;
    scene.bone("parent", -1, {0, 0, 0}, glm::vec4(0, 0, 0, 1), {2, 2, 2});
    scene.bone("child", 0, {1, 0, 0});
    scene.build();
    anim::Transform world = world_of(scene, scene.sample(0.0f), 1);
    expect_vec3(world.translation, {2, 0, 0});
    expect_vec3(world.scale, {1, 1, 1});
}

TEST(WorldTransform, Rule18WithoutCompensationScaleInherits) {
    AnimScene scene;
    scene.bone("parent", -1, {0, 0, 0}, glm::vec4(0, 0, 0, 1), {2, 2, 2});
    scene.bone("child", 0, {1, 0, 0}).set_segment_scale_compensate(false);
    scene.build();
    anim::Transform world = world_of(scene, scene.sample(0.0f), 1);
    expect_vec3(world.translation, {2, 0, 0});
    expect_vec3(world.scale, {2, 2, 2});
}

// Parent at (5, 0, 0) turned 90° about z with animated scale 3 (an absolute sx/sy/sz curve);
// child at lp (1, 0, 0) turned 90° about z too: world position 5 + R(1·3, 0, 0) = (5, 3, 0),
// world rotation 180° about z, world scale 1 (compensated).
TEST(WorldTransform, Rule18CompensationUsesTheAnimatedParentScale) {
    AnimScene scene;
    scene.bone("parent", -1, {5, 0, 0}, axis_angle_xyzw({0, 0, 1}, 90.0f));
    scene.bone("child", 0, {1, 0, 0}, axis_angle_xyzw({0, 0, 1}, 90.0f));
    for (const char* kp : {"sx", "sy", "sz"}) scene.curve("parent", kp, {0, 10}, {1.0f, 5.0f});
    scene.build();
    Pose pose = scene.sample(5.0f);
    anim::Transform parent = world_of(scene, pose, 0);
    anim::Transform child = world_of(scene, pose, 1);
    expect_vec3(parent.scale, {3, 3, 3});
    expect_vec3(child.translation, {5, 3, 0});
    expect_vec3(child.scale, {1, 1, 1});
    expect_same_rotation(child.rotation, axis_angle_xyzw({0, 0, 1}, 180.0f));
}

// Non-uniform parent scale: compensation divides the child's axes by the parent's, so a
// child with scale (1, 1, 1) under a parent (2, 4, 1) ends with world scale (1, 1, 1).
TEST(WorldTransform, Rule18CompensationPerAxis) {
    AnimScene scene;
    scene.bone("parent", -1, {0, 0, 0}, glm::vec4(0, 0, 0, 1), {2, 4, 1});
    scene.bone("child", 0, {1, 1, 1}, glm::vec4(0, 0, 0, 1), {1, 1, 3});
    scene.build();
    anim::Transform child = world_of(scene, scene.sample(0.0f), 1);
    expect_vec3(child.translation, {2, 4, 1});
    expect_vec3(child.scale, {1, 1, 3});
}

TEST(WorldTransform, ChildrenStoredBeforeParentsStillComposeInOrder) {
    AnimScene scene;
    scene.bone("leaf", 2, {0, 0, 1});
    scene.bone("root", -1, {1, 0, 0});
    scene.bone("mid", 1, {0, 1, 0});
    scene.build();
    std::vector<glm::mat4> worlds = scene.worlds(scene.sample(0.0f));
    expect_vec3(glm::vec3(worlds[0][3]), {1, 1, 1});
}

TEST(WorldTransform, LocalToWorldJobValidatesSpans) {
    AnimScene scene;
    scene.bone("a");
    scene.build();
    std::vector<anim::Transform> locals(1);
    std::vector<glm::mat4> worlds;
    anim::LocalToWorldJob job{
        .skeleton = &scene.compiled_skeleton, .locals = locals, .worlds = worlds};
    EXPECT_FALSE(job.validate());
    EXPECT_FALSE(job.run().has_value());
}

// A bone's subtree is a run of the evaluation order, and a job over it computes those worlds
// alone, as a full pass would (the IK solve refreshes only the bones below a chain it turned).
TEST(WorldTransform, ASubtreePassComputesTheBonesBelowABoneAsAFullPass) {
    AnimScene scene;
    scene.bone("root", -1, {1, 0, 0});
    scene.bone("left", 0, {0, 1, 0});
    scene.bone("left_tip", 1, {0, 0, 1});
    scene.bone("right", 0, {0, -1, 0}, axis_angle_xyzw({0, 0, 1}, 30.0f));
    scene.bone("right_tip", 3, {2, 0, 0});
    scene.build();
    const anim::Skeleton& skeleton = scene.compiled_skeleton;
    const std::span<const std::uint32_t> right = skeleton.subtree(3);
    EXPECT_EQ(std::vector<std::uint32_t>(right.begin(), right.end()),
              (std::vector<std::uint32_t>{3, 4}));
    EXPECT_EQ(skeleton.subtree(0).size(), 5u);
    Pose pose = scene.sample(0.0f);
    const std::vector<glm::mat4> before = scene.worlds(pose);
    pose.locals[3].rotation = cast::quat_from_xyzw(axis_angle_xyzw({1, 0, 0}, 45.0f));
    std::vector<glm::mat4> refreshed = before;
    const anim::LocalToWorldJob job{
        .skeleton = &skeleton, .locals = pose.locals, .worlds = refreshed, .subtree = 3};
    ASSERT_TRUE(job.run().has_value());
    EXPECT_EQ(refreshed, scene.worlds(pose));
    EXPECT_NE(refreshed[4], before[4]);
    EXPECT_EQ(refreshed[2], before[2]);
}

}  // namespace
}  // namespace castkit::test::world_test
