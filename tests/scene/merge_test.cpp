// scene::merge: animations from other documents moved into a model's document, matched to
// its bones by name (rule 24), the unmatched curves dropped with one warning per animation.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <castkit/scene/merge.hpp>

#include "../anim/scene.hpp"

namespace castkit::test::merge_test {
namespace {

// A model with bones root > Spine > head and a mesh with a "smile" blend shape.
cast::Document hero() {
    AnimScene scene;
    scene.model.set_name("hero");
    scene.bone("root");
    scene.bone("Spine", 0, {0, 1, 0});
    scene.bone("head", 1, {0, 1, 0});
    cast::Mesh mesh = scene.model.add_mesh();
    mesh.set_name("body");
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    cast::BlendShape smile = scene.model.add_blend_shape();
    smile.set_name("smile");
    smile.set_base_shape(mesh);
    smile.set_targets(std::vector<std::uint32_t>{1}, std::vector<glm::vec3>{{1, 1, 0}});
    // The model file holds no animation of its own.
    scene.document.roots()[0].take_children_if(
        [](const cast::Node& child) { return child.is(cast::NodeId::Animation); });
    return std::move(scene.document);
}

// An animation-only document keying `nodes` (translation x each), named `name` when not empty.
scene::AnimationSource animation(std::string stem, std::string name,
                                 std::vector<std::string> nodes) {
    AnimScene scene;
    scene.document.roots()[0].take_children_if(
        [](const cast::Node& child) { return child.is(cast::NodeId::Model); });
    if (!name.empty()) scene.animation.set_name(name);
    for (const std::string& node : nodes)
        scene.curve(node, "tx", {0, 10}, {0.0f, 1.0f}, "absolute");
    return {std::move(scene.document), std::move(stem)};
}

std::vector<std::string> curve_names(const cast::Animation& animation) {
    std::vector<std::string> out;
    for (const cast::Curve& curve : animation.curves())
        out.emplace_back(curve.node_name().value_or(""));
    return out;
}

TEST(Merge, AnimationsKeepTheirNameElseTakeTheFileStem) {
    cast::Document model = hero();
    std::vector<scene::AnimationSource> sources;
    sources.push_back(animation("walk_file", "Walk Cycle", {"root"}));
    sources.push_back(animation("run", "", {"head"}));
    Diagnostics diagnostics;
    scene::MergeResult result = scene::merge(model, std::move(sources), diagnostics);
    EXPECT_TRUE(diagnostics.empty());
    EXPECT_EQ(result.merged, (std::vector<std::string>{"Walk Cycle", "run"}));
    std::vector<cast::Animation> animations = model.animations();
    ASSERT_EQ(animations.size(), 2u);
    EXPECT_EQ(animations[0].name().value_or(""), "Walk Cycle");
    EXPECT_EQ(animations[1].name().value_or(""), "run");
    // Both under the model's own Root, beside the Model.
    EXPECT_EQ(model.roots().size(), 1u);
    EXPECT_EQ(model.root_nodes()[0].models().size(), 1u);
}

TEST(Merge, BonesMatchExactlyThenCaseInsensitively) {
    cast::Document model = hero();
    std::vector<scene::AnimationSource> sources;
    sources.push_back(animation("walk", "", {"ROOT", "spine", "Spine", "smile"}));
    Diagnostics diagnostics;
    (void)scene::merge(model, std::move(sources), diagnostics);
    // "smile" is a bone-channel curve (tx) here, and the model has no bone of that name.
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(curve_names(model.animations()[0]),
              (std::vector<std::string>{"ROOT", "spine", "Spine"}));
}

TEST(Merge, CurvesForMissingBonesAreDroppedWithOneWarningListingThem) {
    cast::Document model = hero();
    std::vector<scene::AnimationSource> sources;
    sources.push_back(animation("walk", "", {"root", "tail", "tail", "wing", "head"}));
    Diagnostics diagnostics;
    (void)scene::merge(model, std::move(sources), diagnostics);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].severity, Severity::Warning);
    EXPECT_EQ(diagnostics[0].rule, "merge.unmatched-curves");
    EXPECT_EQ(diagnostics[0].path, "root[0]/animation[0]");
    EXPECT_NE(diagnostics[0].message.find("tail, wing"), std::string::npos)
        << diagnostics[0].message;
    EXPECT_EQ(curve_names(model.animations()[0]), (std::vector<std::string>{"root", "head"}));
}

TEST(Merge, BlendShapeCurvesMatchTheModelsBlendShapes) {
    cast::Document model = hero();
    scene::AnimationSource source = animation("face", "", {"root"});
    cast::Animation anim = source.document.animations()[0];
    for (const char* name : {"smile", "frown"}) {
        cast::Curve curve = anim.add_curve();
        curve.set_node_name(name);
        curve.set_key_property(cast::KeyProperty::BlendShape);
        curve.set_key_frames(std::vector<std::uint32_t>{0});
        curve.set_float_values(std::vector<float>{1.0f});
    }
    std::vector<scene::AnimationSource> sources;
    sources.push_back(std::move(source));
    Diagnostics diagnostics;
    (void)scene::merge(model, std::move(sources), diagnostics);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("frown"), std::string::npos);
    EXPECT_EQ(curve_names(model.animations()[0]), (std::vector<std::string>{"root", "smile"}));
}

TEST(Merge, AnAnimationMatchingNothingIsAnErrorAndTheOthersStillMerge) {
    cast::Document model = hero();
    std::vector<scene::AnimationSource> sources;
    sources.push_back(animation("dragon", "", {"wing", "tail"}));
    sources.push_back(animation("walk", "", {"root"}));
    Diagnostics diagnostics;
    scene::MergeResult result = scene::merge(model, std::move(sources), diagnostics);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].severity, Severity::Error);
    EXPECT_EQ(diagnostics[0].rule, "merge.no-match");
    EXPECT_EQ(result.merged, (std::vector<std::string>{"walk"}));
    ASSERT_EQ(model.animations().size(), 1u);
}

TEST(Merge, AFileWithoutAnimationsIsAnError) {
    cast::Document model = hero();
    std::vector<scene::AnimationSource> sources;
    sources.push_back({hero(), "prop"});
    Diagnostics diagnostics;
    scene::MergeResult result = scene::merge(model, std::move(sources), diagnostics);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].rule, "merge.no-animation");
    EXPECT_EQ(diagnostics[0].file, "prop");
    EXPECT_TRUE(result.merged.empty());
}

TEST(Merge, NamesAlreadyTakenGetASuffix) {
    cast::Document model = hero();
    std::vector<scene::AnimationSource> sources;
    sources.push_back(animation("a", "Take 001", {"root"}));
    sources.push_back(animation("b", "Take 001", {"root"}));
    sources.push_back(animation("c", "Take 001", {"root"}));
    Diagnostics diagnostics;
    scene::MergeResult result = scene::merge(model, std::move(sources), diagnostics);
    EXPECT_EQ(result.merged, (std::vector<std::string>{"Take 001", "Take 001_2", "Take 001_3"}));
}

TEST(Merge, MovedNodesGetFreshHashesAndKeepTheirLinks) {
    cast::Document model = hero();
    scene::AnimationSource source = animation("ik", "", {"root"});
    // An animation carrying its own Skeleton with an IK handle linking two of its bones.
    cast::Animation anim = source.document.animations()[0];
    cast::Skeleton own = anim.add_skeleton();
    cast::Bone a = own.add_bone();
    a.set_name("root");
    cast::Bone b = own.add_bone();
    b.set_name("head");
    cast::IKHandle handle = own.add_ik_handle();
    handle.set_start_bone(a);
    handle.set_end_bone(b);
    std::vector<scene::AnimationSource> sources;
    sources.push_back(std::move(source));
    // Both documents count hashes from the same base (rule 12): they collide before the merge.
    Diagnostics diagnostics;
    (void)scene::merge(model, std::move(sources), diagnostics);
    EXPECT_TRUE(diagnostics.empty());
    cast::validate(model, diagnostics);
    for (const Diagnostic& d : diagnostics) EXPECT_NE(d.severity, Severity::Error) << d.to_string();
    cast::IKHandle moved = model.animations()[0].skeleton().ik_handles()[0];
    EXPECT_EQ(moved.start_bone().name().value_or(""), "root");
    EXPECT_EQ(moved.end_bone().name().value_or(""), "head");
}

}  // namespace
}  // namespace castkit::test::merge_test
