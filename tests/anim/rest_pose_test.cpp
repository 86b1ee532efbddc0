// complete_rest_transforms: the missing rest transforms of each bone, derived by rule 18, agree
// with castkit's evaluator; present ones are never changed; bad parents do not stop it.
#include <gtest/gtest.h>

#include <castkit/anim/rest_pose.hpp>

#include "scene.hpp"

namespace castkit::test::rest_pose_test {
namespace {

// World matrices of the skeleton's rest pose, by LocalToWorldJob.
std::vector<glm::mat4> rest_worlds(AnimScene& scene) {
    scene.build();
    return scene.worlds(Pose{scene.compiled_skeleton.rest(), {}, {}});
}

// hip (scale 2) > thigh (turned, non-uniform scale, no segment scale compensation under a
// uniform scale) > shin (compensating the thigh's scale). No world here has shear, which wp/wr
// could not hold.
void leg(AnimScene& scene) {
    scene.bone("hip", -1, {1, 2, 3}, axis_angle_xyzw({0, 1, 0}, 30), {2, 2, 2});
    scene.bone("thigh", 0, {0, -1, 0}, axis_angle_xyzw({1, 0, 0}, 45), {1, 3, 1})
        .set_segment_scale_compensate(false);
    scene.bone("shin", 1, {0, -2, 0}, axis_angle_xyzw({0, 0, 1}, -20));
}

TEST(RestPose, WorldsFromLocalsAreTheEvaluatorsWorlds) {
    AnimScene scene;
    leg(scene);
    anim::complete_rest_transforms(scene.skeleton);
    const auto worlds = rest_worlds(scene);
    const auto bones = scene.skeleton.bones();
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const anim::Transform world = anim::decompose(worlds[i]);
        expect_vec3(*bones[i].world_position(), world.translation);
        expect_same_rotation(world.rotation, *bones[i].world_rotation());
    }
}

TEST(RestPose, LocalsFromWorldsEvaluateBackToThem) {
    AnimScene given;
    leg(given);
    anim::complete_rest_transforms(given.skeleton);
    // The same skeleton with only world transforms (and scales): the locals must come back.
    AnimScene scene;
    for (const cast::Bone& bone : given.skeleton.bones()) {
        cast::Bone copy = scene.skeleton.add_bone();
        copy.set_name(*bone.name());
        copy.set_parent_index(bone.parent_index());
        copy.set_segment_scale_compensate(bone.segment_scale_compensate());
        copy.set_scale(*bone.scale());
        copy.set_world_position(*bone.world_position());
        copy.set_world_rotation(*bone.world_rotation());
    }
    anim::complete_rest_transforms(scene.skeleton);
    const auto want = given.skeleton.bones(), got = scene.skeleton.bones();
    for (std::size_t i = 0; i < want.size(); ++i) {
        expect_vec3(*got[i].local_position(), *want[i].local_position(), 1e-5f);
        expect_same_rotation(cast::quat_from_xyzw(*got[i].local_rotation()),
                             *want[i].local_rotation(), 1e-5f);
        // The given worlds stay exactly as they were.
        EXPECT_EQ(*got[i].world_position(), *want[i].world_position());
    }
}

TEST(RestPose, PresentValuesAreKeptAndMissingOnesDefault) {
    AnimScene scene;
    cast::Bone root = scene.skeleton.add_bone();
    root.set_name("root");
    root.set_local_position({1, 0, 0});           // lr missing: identity
    root.set_world_position({5, 5, 5});           // disagrees, and is kept
    cast::Bone bare = scene.skeleton.add_bone();  // no transform: at its parent's origin
    bare.set_name("bare");
    bare.set_parent_index(0);
    anim::complete_rest_transforms(scene.skeleton);
    EXPECT_EQ(*root.world_position(), glm::vec3(5, 5, 5));
    EXPECT_EQ(*root.local_rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(*root.world_rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(*bare.local_position(), glm::vec3(0));
    EXPECT_EQ(*bare.world_position(), glm::vec3(1, 0, 0));  // from root's local, rule 18
}

TEST(RestPose, CyclesAndOutOfRangeParentsCountAsRoots) {
    AnimScene scene;
    for (std::int32_t parent : {1, 0, 7, 2}) {  // 0 ↔ 1 cycle, 7 outside, 3 under 2
        cast::Bone bone = scene.skeleton.add_bone();
        bone.set_name("b");
        bone.set_parent_index(parent);
        bone.set_local_position({0, 1, 0});
    }
    anim::complete_rest_transforms(scene.skeleton);
    const auto bones = scene.skeleton.bones();
    EXPECT_EQ(*bones[2].world_position(), glm::vec3(0, 1, 0));  // a root
    EXPECT_EQ(*bones[3].world_position(), glm::vec3(0, 2, 0));  // under it
    for (const cast::Bone& bone : bones) EXPECT_TRUE(bone.world_rotation());
}

}  // namespace
}  // namespace castkit::test::rest_pose_test
