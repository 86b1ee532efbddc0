// Root motion (castkit/anim/root_motion.hpp): strip leaves the root its rest ground position and
// yaw with its height and tilt, extract keeps every bone's world pose with the ground motion on
// a new top bone; both checked against poses worked out here from the input's keys.
#include <gtest/gtest.h>

#include <castkit/anim/root_motion.hpp>
#include <castkit/scene/merge.hpp>
#include <cmath>
#include <map>
#include <numbers>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::root_motion_test {
namespace {

namespace fs = std::filesystem;

constexpr float kTolerance = 1e-4f;
const glm::vec3 kUp(0.0f, 1.0f, 0.0f);

// The test's own swing-twist split about +Y: the height, the ground part, the yaw angle in
// radians and the tilt (yaw⁻¹ ⊗ q).
struct Parts {
    float height;
    glm::vec2 ground;  // x, z
    float yaw;
    glm::quat tilt;
};

Parts parts_of(const anim::Transform& t) {
    glm::quat q = t.rotation;
    if (q.w < 0.0f) q = -q;
    const float yaw = 2.0f * std::atan2(q.y, q.w);
    const glm::quat twist = glm::angleAxis(yaw, kUp);
    return {t.translation.y, {t.translation.x, t.translation.z}, yaw, glm::conjugate(twist) * q};
}

// The same rotation, either sign.
void expect_same_rotation(const glm::quat& a, const glm::quat& b) {
    EXPECT_LT(anim::rotation_angle(a, b), kTolerance);
}

// A root walking forward on a curve and turning 120°, bobbing up and down and leaning, at
// rest off the origin and turned 30°, with a spine and a head under it; keys every 4 frames
// (the rest interpolated), frames 0 to 24.
AnimScene walking_clip() {
    AnimScene scene;
    scene.bone("hips", -1, {0.2f, 1.0f, -0.1f}, axis_angle_xyzw({0, 1, 0}, 30.0f));
    scene.bone("spine", 0, {0, 0.5f, 0}, axis_angle_xyzw({1, 0, 0}, 5.0f));
    scene.bone("head", 1, {0, 0.4f, 0.05f});
    scene.animation.set_name("walk");
    std::vector<std::uint32_t> frames;
    std::vector<float> x, y, z;
    std::vector<glm::vec4> rotations;
    for (std::uint32_t f = 0; f <= 24; f += 4) {
        const float s = static_cast<float>(f) / 24.0f;
        frames.push_back(f);
        x.push_back(0.2f + 0.5f * std::sin(s * 3.0f));
        y.push_back(1.0f + 0.05f * std::sin(s * 12.0f));
        z.push_back(-0.1f + 2.0f * s);
        const glm::quat yaw = glm::angleAxis(glm::radians(30.0f + 120.0f * s), kUp);
        const glm::quat lean = glm::angleAxis(glm::radians(8.0f * std::sin(s * 6.0f)),
                                              glm::normalize(glm::vec3(1, 0, 0.3f)));
        rotations.push_back(cast::xyzw_from_quat(yaw * lean));
    }
    scene.curve("hips", "tx", frames, x);
    std::vector<float> relative_y;  // relative to the rest's 1
    for (float v : y) relative_y.push_back(v - 1.0f);
    scene.curve("hips", "ty", frames, relative_y, "relative");
    scene.curve("hips", "tz", frames, z);
    scene.rotation("hips", frames, rotations);
    scene.rotation("spine", {0, 24},
                   {axis_angle_xyzw({1, 0, 0}, 5.0f), axis_angle_xyzw({0, 0, 1}, 15.0f)});
    scene.build();
    return scene;
}

// Every bone's world matrix at every whole frame of the document's first clip, by bone name,
// on the skeleton castkit plays it on.
std::map<std::string, std::vector<glm::mat4>> world_poses(const cast::Document& document,
                                                          std::uint32_t last_frame) {
    const cast::ConstAnimation clip = document.animations().front();
    const auto chosen = anim::choose_skeleton(clip, document, nullptr);
    EXPECT_TRUE(chosen.has_value());
    if (!chosen) return {};
    Diagnostics reports;
    auto skeleton = anim::build_skeleton(chosen->skeleton, reports, &document);
    EXPECT_TRUE(skeleton.has_value());
    auto animation = anim::build_animation(clip, *skeleton, chosen->targets, reports, &document);
    EXPECT_TRUE(animation.has_value());
    std::map<std::string, std::vector<glm::mat4>> poses;
    std::vector<anim::Transform> locals(skeleton->bone_count());
    std::vector<float> weights(animation->blend_shapes().size());
    std::vector<float> visibility(animation->visibility_nodes().size());
    std::vector<glm::mat4> worlds(skeleton->bone_count());
    for (std::uint32_t frame = 0; frame <= last_frame; ++frame) {
        const anim::SamplingJob sampling{.animation = &*animation,
                                         .skeleton = &*skeleton,
                                         .frame = static_cast<float>(frame),
                                         .locals = locals,
                                         .blend_shape_weights = weights,
                                         .visibility = visibility};
        EXPECT_TRUE(sampling.run().has_value());
        const anim::LocalToWorldJob world{
            .skeleton = &*skeleton, .locals = locals, .worlds = worlds};
        EXPECT_TRUE(world.run().has_value());
        for (std::size_t b = 0; b < skeleton->bone_count(); ++b)
            poses[skeleton->names()[b]].push_back(worlds[b]);
    }
    return poses;
}

void expect_same_worlds(const std::map<std::string, std::vector<glm::mat4>>& before,
                        const std::map<std::string, std::vector<glm::mat4>>& after) {
    for (const auto& [bone, frames] : before) {
        ASSERT_TRUE(after.contains(bone)) << bone;
        for (std::size_t f = 0; f < frames.size(); ++f)
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r)
                    EXPECT_NEAR(after.at(bone)[f][c][r], frames[f][c][r], kTolerance)
                        << bone << " frame " << f;
    }
}

anim::RootMotionJob job_for(cast::Document& document, anim::RootMotion mode, Diagnostics& warnings,
                            std::vector<anim::ClipRootMotion>& moved) {
    return {.mode = mode,
            .document = &document,
            .up = cast::Axis::Y,
            .name = "clip.cast",
            .warnings = &warnings,
            .moved = &moved};
}

std::size_t count_rule(const Diagnostics& diagnostics, std::string_view rule) {
    std::size_t n = 0;
    for (const Diagnostic& d : diagnostics) n += d.rule == rule;
    return n;
}

TEST(RootMotion, StripKeepsTheRestGroundAndYawWithTheHeightAndTilt) {
    AnimScene scene = walking_clip();
    std::vector<Pose> before;
    for (std::uint32_t f = 0; f <= 24; ++f) before.push_back(scene.sample(static_cast<float>(f)));
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    ASSERT_TRUE(job_for(scene.document, anim::RootMotion::Strip, warnings, moved).run());
    EXPECT_EQ(count_rule(warnings, "anim.root-motion-stripped"), 1u);
    scene.build();
    EXPECT_EQ(scene.compiled_skeleton.bone_count(), 3u);  // strip adds no bone
    const Parts rest = parts_of(scene.compiled_skeleton.rest()[0]);
    float travelled = 0.0f;
    for (std::uint32_t f = 0; f <= 24; ++f) {
        SCOPED_TRACE(testing::Message() << "frame " << f);
        const Parts input = parts_of(before[f].locals[0]);
        const Parts output = parts_of(scene.sample(static_cast<float>(f)).locals[0]);
        EXPECT_NEAR(output.ground.x, rest.ground.x, kTolerance);
        EXPECT_NEAR(output.ground.y, rest.ground.y, kTolerance);
        EXPECT_NEAR(output.yaw, rest.yaw, kTolerance);
        EXPECT_NEAR(output.height, input.height, kTolerance);
        expect_same_rotation(output.tilt, input.tilt);
        // Below the root nothing changed.
        for (std::size_t b = 1; b < 3; ++b) {
            const anim::Transform local = scene.sample(static_cast<float>(f)).locals[b];
            expect_same_rotation(local.rotation, before[f].locals[b].rotation);
        }
        if (f > 0)
            travelled += glm::length(input.ground - parts_of(before[f - 1].locals[0]).ground);
    }
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(moved[0].clip, "walk");
    EXPECT_EQ(moved[0].bone, "hips");
    EXPECT_NEAR(moved[0].ground_distance, travelled, 1e-3);
    EXPECT_NEAR(moved[0].yaw_min_degrees, 0.0, 1e-2);
    EXPECT_NEAR(moved[0].yaw_max_degrees, 120.0, 1e-2);
}

TEST(RootMotion, ExtractKeepsEveryWorldPoseWithTheGroundMotionOnANewTopBone) {
    AnimScene scene = walking_clip();
    const auto before = world_poses(scene.document, 24);
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    ASSERT_TRUE(job_for(scene.document, anim::RootMotion::Extract, warnings, moved).run());
    EXPECT_EQ(count_rule(warnings, "anim.root-motion-extracted"), 1u);
    const auto after = world_poses(scene.document, 24);
    expect_same_worlds(before, after);
    scene.build();
    const std::int32_t motion = scene.compiled_skeleton.find_bone("root_motion");
    ASSERT_EQ(motion, 3);  // appended: the bones before it keep their indices
    EXPECT_EQ(scene.compiled_skeleton.parents()[3], -1);
    EXPECT_EQ(scene.compiled_skeleton.parents()[0], 3);
    // The new bone carries the ground motion and the turn: on the ground, turning about +Y,
    // where the root's ground position was less its rest's (turned with it).
    const Parts rest = parts_of(scene.compiled_skeleton.rest()[0]);
    for (std::uint32_t f = 0; f <= 24; ++f) {
        const anim::Transform m = anim::decompose(after.at("root_motion")[f]);
        const Parts root = parts_of(anim::decompose(before.at("hips")[f]));
        const glm::quat turn = glm::angleAxis(root.yaw - rest.yaw, kUp);
        const glm::vec3 rest_ground = turn * glm::vec3(rest.ground.x, 0.0f, rest.ground.y);
        EXPECT_NEAR(m.translation.y, 0.0f, kTolerance);
        EXPECT_NEAR(m.translation.x, root.ground.x - rest_ground.x, kTolerance);
        EXPECT_NEAR(m.translation.z, root.ground.y - rest_ground.z, kTolerance);
        expect_same_rotation(m.rotation, turn);
    }
    EXPECT_EQ(moved.at(0).motion_bone, "root_motion");
}

// The bundled hero with its walk merged in, as `castkit convert hero.cast hero_walk.cast` does.
cast::Document hero_with_walk() {
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    auto model = open_cast(hero / "hero.cast");
    auto walk = open_cast(hero / "hero_walk.cast");
    EXPECT_TRUE(model && walk);
    Diagnostics diagnostics;
    std::vector<scene::AnimationSource> sources;
    sources.push_back({std::move(*walk), "hero_walk"});
    scene::merge(*model, std::move(sources), diagnostics);
    return std::move(*model);
}

TEST(RootMotion, ExtractOnTheHerosWalkKeepsEveryWorldPoseAndTheSkinWeights) {
    cast::Document hero = hero_with_walk();
    const auto before = world_poses(hero, 30);
    const cast::ConstMesh mesh = std::as_const(hero).models().front().meshes().front();
    const std::vector<std::uint32_t> weight_bones = mesh.weight_bones().to_vector();
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    ASSERT_TRUE(job_for(hero, anim::RootMotion::Extract, warnings, moved).run());
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(moved[0].bone, "pelvis");
    const auto after = world_poses(hero, 30);
    EXPECT_EQ(after.size(), before.size() + 1);
    expect_same_worlds(before, after);
    // Weights name bones by index: the 21 bones keep theirs, the new one is the 22nd.
    EXPECT_EQ(mesh.weight_bones().to_vector(), weight_bones);
    const std::vector<cast::ConstBone> bones =
        std::as_const(hero).models().front().skeleton().bones();
    ASSERT_EQ(bones.size(), 22u);
    EXPECT_EQ(bones[21].name(), "root_motion");
    EXPECT_EQ(bones[0].parent_index(), 21);
}

TEST(RootMotion, ARootBoneNamingNoBoneIsAnErrorListingTheTopBones) {
    AnimScene scene = walking_clip();
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    anim::RootMotionJob job = job_for(scene.document, anim::RootMotion::Strip, warnings, moved);
    job.root_bone = "nosuch";
    auto ran = job.run();
    ASSERT_FALSE(ran);
    EXPECT_EQ(ran.error().rule, "anim.root-bone");
    EXPECT_NE(ran.error().message.find("hips"), std::string::npos) << ran.error().message;
    EXPECT_EQ(scene.animation.curves().size(), 5u);  // unchanged
}

TEST(RootMotion, ANamedRootBoneIsTheOneMoved) {
    AnimScene scene = walking_clip();
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    anim::RootMotionJob job = job_for(scene.document, anim::RootMotion::Strip, warnings, moved);
    job.root_bone = "SPINE";  // rule 24: any case
    ASSERT_TRUE(job.run());
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(moved[0].bone, "spine");
}

TEST(RootMotion, AClipWithoutRootCurvesIsLeftAsItIs) {
    AnimScene scene;
    scene.bone("hips", -1, {0, 1, 0});
    scene.bone("spine", 0, {0, 0.5f, 0});
    scene.rotation("spine", {0, 10},
                   {axis_angle_xyzw({1, 0, 0}, 0), axis_angle_xyzw({1, 0, 0}, 40)});
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    ASSERT_TRUE(job_for(scene.document, anim::RootMotion::Strip, warnings, moved).run());
    EXPECT_TRUE(moved.empty());
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(scene.animation.curves().size(), 1u);
}

TEST(RootMotion, AdditiveRootCurvesAreSkippedWithAWarning) {
    AnimScene scene;
    scene.bone("hips", -1, {0, 1, 0});
    scene.curve("hips", "tx", {0, 10}, {0.0f, 1.0f}, "additive");
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    ASSERT_TRUE(job_for(scene.document, anim::RootMotion::Extract, warnings, moved).run());
    EXPECT_EQ(count_rule(warnings, "anim.root-motion-skipped"), 1u);
    EXPECT_TRUE(moved.empty());
    ASSERT_EQ(scene.animation.curves().size(), 1u);
    EXPECT_EQ(scene.animation.curves()[0].mode_name(), "additive");
}

TEST(RootMotion, KeysFarApartAreRefusedBeforeAnythingIsSampled) {
    AnimScene scene;
    scene.bone("hips", -1, {0, 1, 0});
    scene.curve("hips", "tx", {0, 4000000000u}, {0.0f, 1.0f});
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    auto ran = job_for(scene.document, anim::RootMotion::Strip, warnings, moved).run();
    ASSERT_FALSE(ran);
    EXPECT_EQ(ran.error().rule, "anim.sample-budget");
    EXPECT_EQ(ran.error().file, "clip.cast");
}

TEST(RootMotion, KeepChangesNothing) {
    AnimScene scene = walking_clip();
    Diagnostics warnings;
    std::vector<anim::ClipRootMotion> moved;
    ASSERT_TRUE(job_for(scene.document, anim::RootMotion::Keep, warnings, moved).run());
    EXPECT_EQ(scene.animation.curves().size(), 5u);
    EXPECT_EQ(scene.skeleton.bones().size(), 3u);
    EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace castkit::test::root_motion_test
