// Skeleton, Material, Instance, Animation and hash rules, one test per rule.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "scene.hpp"

namespace castkit::test::skeleton_test {
namespace {

using namespace castkit::cast;

TEST(ValidateSkeleton, BoneParentInRange) {
    Scene scene;
    scene.bones[2].set_parent_index(7);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "bone.parent"));
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/skeleton[0]/bone[2]");
    EXPECT_EQ(findings[0].message, "parent index 7 is outside the Skeleton's 3 bones");
}

TEST(ValidateSkeleton, BoneParentsAreAcyclic) {
    Scene scene;
    scene.bones[1].set_parent_index(2);  // spine -> head -> spine
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "bone.cycle"));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/skeleton[0]/bone[1]");
}

TEST(ValidateSkeleton, BoneThatIsItsOwnParentIsACycle) {
    Scene scene;
    scene.bones[0].set_parent_index(0);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "bone.cycle"));
    ASSERT_EQ(findings.size(), 1u);
}

TEST(ValidateSkeleton, BoneNamesAreUniqueInASkeleton) {
    Scene scene;
    scene.bones[2].set_name("spine");
    scene.translation_curve.set_node_name("root");
    scene.visibility_curve.set_node_name("root");
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "bone.duplicate-name"));
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/skeleton[0]/bone[2]");
    EXPECT_EQ(findings[0].message, "bone 2 is named 'spine' like bone 1");
}

TEST(ValidateSkeleton, RotationsAreUnitQuaternions) {
    Scene scene;
    scene.bones[1].set_world_rotation({0, 0, 0, 2});
    scene.instance.set_rotation({0, 0, 0, 0.5f});
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "quaternion.unnormalised"));
    ASSERT_EQ(findings.size(), 2u);
    EXPECT_EQ(findings[0].message, "'wr' has length 2; a rotation quaternion has length 1");
}

TEST(ValidateSkeleton, IKHandleBonesResolveInTheSkeleton) {
    Scene scene;
    scene.ik_handle.node().set(make_value<std::uint64_t>("pv", scene.material.hash()));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "ikhandle.bone"));
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/skeleton[0]/ikhandle[0]");
}

TEST(ValidateSkeleton, ConstraintBonesResolveInTheSkeleton) {
    Scene scene;
    scene.constraint.node().set(make_value<std::uint64_t>("tb", kNoSuchHash));
    EXPECT_TRUE(only(check(scene.document), "constraint.bone"));
}

TEST(ValidateSkeleton, ConstraintOffsetTypeMatchesConstraintType) {
    Scene scene;
    scene.constraint.set_custom_offset(glm::vec3(0, 0, 0));  // an orient constraint needs v4
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "constraint.offset-type"));
    EXPECT_EQ(findings[0].message, "'co' is v3 but a 'or' constraint's offset is v4");
}

TEST(ValidateMaterial, SlotsResolveToFileOrColorChildren) {
    Scene scene;
    scene.material.node().set(make_value<std::uint64_t>("extra3", kNoSuchHash));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "material.slot"));
    EXPECT_NE(findings[0].message.find("slot 'extra3'"), std::string::npos);
}

TEST(ValidateMaterial, ColorNeedsRgba) {
    Scene scene;
    scene.tint.node().remove("rgba");
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "property.required"));
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/material[0]/color[0]");
}

TEST(ValidateInstance, ReferenceFileResolvesToAFileChild) {
    Scene scene;
    scene.instance.node().set(make_value<std::uint64_t>("rf", kNoSuchHash));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "instance.file"));
    EXPECT_EQ(findings[0].message,
              "'rf' = 0xdeadbeef00000001 names no File among the Instance's children");
}

// Blender's exporter writes `p = ""` for a texture packed in the .blend.
TEST(ValidateFile, EmptyPathIsAWarning) {
    Scene scene;
    scene.instance_file.set_path("");
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "file.empty-path"));
    EXPECT_EQ(findings[0].severity, Severity::Warning);
    EXPECT_EQ(findings[0].path, "root[0]/instance[0]/file[0]");
}

TEST(ValidateAnimation, FramerateAboveZero) {
    Scene scene;
    scene.animation.set_framerate(0.0f);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "animation.framerate"));
    EXPECT_EQ(findings[0].path, "root[0]/animation[0]");
}

TEST(ValidateAnimation, KeyFramesAndValuesHaveEqualLengths) {
    Scene scene;
    const std::vector<float> two{0.0f, 1.0f};
    scene.translation_curve.set_float_values(two);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "curve.key-count"));
    EXPECT_EQ(findings[0].path, "root[0]/animation[0]/curve[1]");
}

TEST(ValidateAnimation, KeyFramesStrictlyIncrease) {
    Scene scene;
    const std::vector<std::uint32_t> frames{0, 5, 5};
    scene.translation_curve.set_key_frames(frames);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "curve.key-order"));
    EXPECT_EQ(findings[0].message, "'kb' is not strictly increasing: element 2 is 5 after 5");
}

TEST(ValidateAnimation, KeyValueTypeMatchesKeyProperty) {
    {
        Scene scene;
        const std::vector<glm::vec4> values(3, glm::vec4(0, 0, 0, 1));
        scene.translation_curve.set_quaternion_values(values);
        auto findings = check(scene.document);
        ASSERT_TRUE(only(findings, "curve.value-type"));
        EXPECT_EQ(findings[0].message, "'kv' is v4 but 'tx' keys are f");
    }
    {
        Scene scene;
        const std::vector<float> values{1.0f, 0.0f};
        scene.visibility_curve.set_float_values(values);
        EXPECT_TRUE(only(check(scene.document), "curve.value-type"));
    }
}

TEST(ValidateAnimation, RotationKeysAreUnitQuaternions) {
    Scene scene;
    const std::vector<glm::vec4> values{{0, 0, 0, 1}, {0, 0, 0, 3}};
    scene.rotation_curve.set_quaternion_values(values);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "curve.quaternion"));
    EXPECT_EQ(findings[0].message, "1 of 2 rotation keys is not of unit length (first: key 1)");
}

TEST(ValidateAnimation, CurveModeIsRequired) {
    Scene scene;
    scene.rotation_curve.node().remove("m");
    EXPECT_TRUE(only(check(scene.document), "property.required"));
}

TEST(ValidateAnimation, NodeNamesMatchBones) {
    Scene scene;
    scene.translation_curve.set_node_name("tail");
    scene.mode_override.set_node_name("wing");
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "animation.node-name"));
    ASSERT_EQ(findings.size(), 2u);
    EXPECT_EQ(findings[0].path, "root[0]/animation[0]/curve[1]");
    EXPECT_EQ(findings[1].path, "root[0]/animation[0]/curvemodeoverride[0]");
}

TEST(ValidateAnimation, BlendShapeCurveNamesABlendShapeOrBone) {
    Scene scene;
    scene.shape_curve.set_node_name("frown");
    EXPECT_TRUE(only(check(scene.document), "animation.node-name"));
}

TEST(ValidateAnimation, CurvesThatMoveNothingInAFileWithoutSkeletons) {
    Scene scene;
    scene.model.node().take_children_if(
        [](const cast::Node& c) { return c.is(NodeId::Skeleton) || c.is(NodeId::Mesh); });
    // The transform curves and the override name bones that no longer exist: nothing they key
    // can move.
    auto findings = check(scene.document);
    std::size_t unbound = 0;
    for (const Diagnostic& d : findings) unbound += d.rule == "animation.unbound-curve";
    EXPECT_GE(unbound, 2u);
    // Without Models (an animation-only file) nothing is checked.
    scene.document.roots()[0].take_children_if(
        [](const cast::Node& c) { return c.is(NodeId::Model); });
    for (const Diagnostic& d : check(scene.document)) EXPECT_NE(d.rule, "animation.unbound-curve");
}

TEST(ValidateAnimation, NotificationFramesAscend) {
    Scene scene;
    const std::vector<std::uint32_t> frames{5, 0};
    scene.notification_track.set_key_frames(frames);
    EXPECT_TRUE(only(check(scene.document), "notification.key-order"));
}

TEST(ValidateHashes, DuplicateOfALinkedHashIsAnError) {
    Scene scene;
    scene.hair.node().set_hash(scene.material.hash());  // the mesh's m names this hash
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "hash.duplicate"));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/hair[0]");
    EXPECT_EQ(findings[0].message,
              fmt::format("hash {:#x} is also the hash of root[0]/model[0]/material[0]",
                          scene.material.hash()));
}

TEST(ValidateHashes, DuplicateAmongRootChildrenIsAnError) {
    Scene scene;
    scene.metadata.node().set_hash(scene.animation.hash());
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "hash.duplicate"));
    EXPECT_EQ(findings[0].path, "root[0]/metadata[0]");
}

TEST(ValidateHashes, UnreferencedDuplicateIsAWarning) {
    Scene scene;
    scene.notification_track.node().set_hash(scene.rotation_curve.hash());
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "hash.duplicate-unreferenced"));
    EXPECT_EQ(findings[0].path, "root[0]/animation[0]/notificationtrack[0]");
}

TEST(ValidateHashes, OneFindingPerSharedHash) {
    Scene scene;
    // As Cast.NET writes: every curve with hash 0.
    for (Curve* curve : {&scene.rotation_curve, &scene.translation_curve, &scene.visibility_curve,
                         &scene.shape_curve})
        curve->node().set_hash(0);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "hash.duplicate-unreferenced"));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].path, "root[0]/animation[0]/curve[1]");
    EXPECT_EQ(findings[0].message,
              "hash 0x0 is shared by 4 nodes under this Root, the first being "
              "root[0]/animation[0]/curve[0]");
}

TEST(ValidateHashes, HashesOfDifferentRootsMayRepeat) {
    Scene scene;
    Root second = scene.document.add_root();
    // Insertion gives the copy a hash unique in the document; set_hash puts the same one back.
    second.node().add_child(scene.metadata.node().clone()).set_hash(scene.metadata.hash());
    EXPECT_TRUE(check(scene.document).empty()) << describe(check(scene.document));
}

}  // namespace
}  // namespace castkit::test::skeleton_test
