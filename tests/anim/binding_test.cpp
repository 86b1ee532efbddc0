// Binding curves to the skeleton once (rule 24) and reporting what cannot be bound.
#include <gtest/gtest.h>

#include "scene.hpp"

namespace castkit::test::binding_test {
namespace {

TEST(Binding, Rule24ExactNameFirstThenCaseInsensitive) {
    AnimScene scene;
    scene.bone("Spine");
    scene.bone("spine");
    scene.curve("spine", "tx", {0}, {1.0f});  // exact: the second bone
    scene.curve("SPINE", "ty", {0}, {2.0f});  // no exact match: the first case-insensitive one
    scene.build();
    EXPECT_TRUE(scene.reports.empty());
    Pose pose = scene.sample(0.0f);
    expect_vec3(pose.locals[1].translation, {1, 0, 0});
    expect_vec3(pose.locals[0].translation, {0, 2, 0});
}

TEST(Binding, CurvesForUnknownNodesAreReportedWithTheirPath) {
    AnimScene scene;
    scene.bone("hip");
    scene.curve("hip", "tx", {0}, {1.0f});
    scene.curve("tail", "rq", {0}, {0.0f});
    scene.build();
    ASSERT_EQ(scene.reports.size(), 1u);
    // The curve's kv is the wrong type for rq: reported once, before its name is looked at.
    EXPECT_EQ(scene.reports[0].rule, "anim.curve-kv");
    EXPECT_EQ(scene.reports[0].path, "root[0]/animation[0]/curve[1]");

    AnimScene unknown;
    unknown.bone("hip");
    unknown.curve("tail", "tx", {0}, {1.0f});
    unknown.build();
    ASSERT_EQ(unknown.reports.size(), 1u);
    EXPECT_EQ(unknown.reports[0].rule, "anim.unknown-node");
    EXPECT_EQ(unknown.reports[0].path, "root[0]/animation[0]/curve[0]");
    EXPECT_NE(unknown.reports[0].message.find("'tail'"), std::string::npos);
    EXPECT_TRUE(unknown.compiled.curves().empty());
}

TEST(Binding, BlendShapeAndVisibilityNamesAreCheckedAgainstTheModel) {
    AnimScene scene;
    scene.bone("head");
    cast::Mesh mesh = scene.model.add_mesh();
    mesh.set_name("face");
    cast::BlendShape shape = scene.model.add_blend_shape();
    shape.set_name("smile");
    scene.curve("smile", "bs", {0}, {1.0f});
    scene.curve("Smile", "bs", {0}, {1.0f});  // case-insensitive match is fine
    scene.curve("frown", "bs", {0}, {1.0f});
    scene.curve("face", "vb", {0}, {0.0f});
    scene.curve("head", "vb", {0}, {0.0f});
    scene.curve("ghost", "vb", {0}, {0.0f});
    scene.build();
    EXPECT_EQ(scene.reports_with_rule("anim.unknown-node"), 2u);
    // Reported curves are still evaluated, under their own name.
    EXPECT_EQ(scene.compiled.blend_shapes(), (std::vector<std::string>{"smile", "Smile", "frown"}));
    EXPECT_EQ(scene.compiled.visibility_nodes(),
              (std::vector<std::string>{"face", "head", "ghost"}));
}

TEST(Binding, UnknownKeyPropertyIsReported) {
    AnimScene scene;
    scene.bone("a");
    scene.curve("a", "rx", {0}, {1.0f});
    scene.build();
    EXPECT_EQ(scene.reports_with_rule("anim.curve-kp"), 1u);
}

TEST(Binding, MissingFramerateIsReportedAndDefaultsTo30) {
    AnimScene scene;
    scene.bone("a");
    scene.animation.node().remove("fr");
    scene.build();
    EXPECT_EQ(scene.reports_with_rule("anim.framerate"), 1u);
    EXPECT_FLOAT_EQ(scene.compiled.framerate(), 30.0f);
    EXPECT_FLOAT_EQ(scene.compiled.frames_from_seconds(0.5), 15.0f);
}

TEST(Binding, NonPositiveFramerateIsAnError) {
    AnimScene scene;
    scene.animation.set_framerate(0.0f);
    Diagnostics reports;
    auto skeleton = anim::build_skeleton(scene.skeleton, reports);
    ASSERT_TRUE(skeleton.has_value());
    auto built = anim::build_animation(scene.animation, *skeleton, {}, reports);
    ASSERT_FALSE(built.has_value());
    EXPECT_EQ(built.error().rule, "anim.framerate");
}

TEST(Binding, KeyRangeCoversCurvesAndNotificationTracks) {
    AnimScene scene;
    scene.bone("a");
    scene.curve("a", "tx", {4, 9}, {0.0f, 1.0f});
    cast::NotificationTrack track = scene.animation.add_notification_track();
    track.set_name("step");
    std::vector<std::uint32_t> frames = {12, 2};
    track.set_key_frames(frames);
    scene.build();
    EXPECT_FLOAT_EQ(scene.compiled.start_frame(), 2.0f);
    EXPECT_FLOAT_EQ(scene.compiled.end_frame(), 12.0f);
    EXPECT_EQ(scene.compiled.notification_tracks()[0].frames, (std::vector<float>{2, 12}));
}

TEST(Binding, SkeletonParentCycleIsAnError) {
    AnimScene scene;
    scene.bone("a", 1);
    scene.bone("b", 0);
    Diagnostics reports;
    auto skeleton = anim::build_skeleton(scene.skeleton, reports);
    ASSERT_FALSE(skeleton.has_value());
    EXPECT_EQ(skeleton.error().rule, "anim.bone-cycle");
}

TEST(Binding, SkeletonFromArraysRejectsInconsistentArrays) {
    auto mismatched = anim::Skeleton::from_arrays({"a", "b"}, {-1});
    ASSERT_FALSE(mismatched.has_value());
    EXPECT_EQ(mismatched.error().rule, "anim.skeleton-arrays");
    auto out_of_range = anim::Skeleton::from_arrays({"a", "b"}, {-1, 2});
    ASSERT_FALSE(out_of_range.has_value());
    EXPECT_EQ(out_of_range.error().rule, "anim.bone-parent");
    auto cycle = anim::Skeleton::from_arrays({"a", "b"}, {1, 0});
    ASSERT_FALSE(cycle.has_value());
    EXPECT_EQ(cycle.error().rule, "anim.bone-cycle");
    auto built = anim::Skeleton::from_arrays({"b", "a"}, {1, -1});
    ASSERT_TRUE(built.has_value());
    EXPECT_EQ(built->order(), (std::vector<std::uint32_t>{1, 0}));
    EXPECT_EQ(built->rest().size(), 2u);
    EXPECT_EQ(built->segment_scale_compensate(), (std::vector<std::uint8_t>{1, 1}));
}

TEST(Binding, ParentIndexOutOfRangeIsReportedAndMadeARoot) {
    AnimScene scene;
    scene.bone("a", 7);
    Diagnostics reports;
    auto skeleton = anim::build_skeleton(scene.skeleton, reports);
    ASSERT_TRUE(skeleton.has_value());
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].rule, "anim.bone-parent");
    EXPECT_EQ(skeleton->parents()[0], -1);
}

// A job built for one skeleton refuses another, and output spans must be large enough.
TEST(Binding, SamplingJobValidatesItsInputs) {
    AnimScene scene;
    scene.bone("a");
    scene.bone("b", 0);
    scene.curve("x", "bs", {0}, {1.0f});
    scene.build();
    std::vector<anim::Transform> locals(2);
    std::vector<float> weights(1), visibility;
    anim::SamplingJob job{.animation = &scene.compiled,
                          .skeleton = &scene.compiled_skeleton,
                          .locals = locals,
                          .blend_shape_weights = weights,
                          .visibility = visibility};
    EXPECT_TRUE(job.validate());
    job.blend_shape_weights = {};
    EXPECT_FALSE(job.validate());
    EXPECT_FALSE(job.run().has_value());
    job.blend_shape_weights = weights;
    job.locals = std::span(locals).first(1);
    EXPECT_FALSE(job.validate());
    // A skeleton with one bone fewer than the animation was built for.
    std::vector<std::string> names = scene.compiled_skeleton.names();
    std::vector<std::int32_t> parents = scene.compiled_skeleton.parents();
    names.pop_back();
    parents.pop_back();
    const anim::Skeleton other = anim::Skeleton::from_arrays(names, parents).value();
    job.locals = locals;
    job.skeleton = &other;
    EXPECT_FALSE(job.validate());
}

}  // namespace
}  // namespace castkit::test::binding_test
