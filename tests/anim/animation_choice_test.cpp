// `--animation NAME|INDEX` on pose and bake, and the index `castkit info` shows, through the
// real command line on a file holding three animations.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/anim/animation.hpp>
#include <castkit/cast/document.hpp>
#include <nlohmann/json.hpp>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::animation_choice_test {
namespace {

using nlohmann::json;

// One bone and three animations, "idle", "walk" and "run", keying the bone's tx at 1, 2 and 3.
std::filesystem::path three_animations() {
    std::filesystem::path dir = temp_dir("anim-choice");
    AnimScene scene;
    scene.bone("root");
    cast::Root root = scene.document.root_nodes()[0];
    const char* names[3] = {"idle", "walk", "run"};
    for (int i = 0; i < 3; ++i) {
        cast::Animation animation = i == 0 ? scene.animation : root.add_animation();
        animation.set_name(names[i]);
        animation.set_framerate(30.0f);
        cast::Curve curve = animation.add_curve();
        curve.set_node_name("root");
        curve.set_key_property(cast::KeyProperty::TranslationX);
        curve.set_mode(cast::CurveMode::Absolute);
        curve.set_key_frames(std::vector<std::uint32_t>{0, 10});
        curve.set_float_values(std::vector<float>{float(i + 1), float(i + 1)});
    }
    EXPECT_TRUE(cast::write(scene.document, dir / "three.cast").has_value());
    return dir;
}

float root_tx(const std::string& out) {
    return json::parse(out)["bones"][0]["local"]["t"][0].get<float>();
}

std::string pose(const std::filesystem::path& dir, const std::string& extra) {
    return fmt::format("pose --anim \"{}\" --frame 5 --json {}", (dir / "three.cast").string(),
                       extra);
}

TEST(AnimationChoice, PoseAnimation2PicksTheThirdAnimation) {
    auto dir = three_animations();
    CommandResult third = run_cli(pose(dir, "--animation 2"));
    ASSERT_EQ(third.exit_code, 0) << third.err;
    EXPECT_EQ(root_tx(third.out), 3.0f);
    CommandResult walk = run_cli(pose(dir, "--animation walk"));
    ASSERT_EQ(walk.exit_code, 0) << walk.err;
    EXPECT_EQ(root_tx(walk.out), 2.0f);
    // Without --animation: the first, with a note naming the others.
    CommandResult first = run_cli(pose(dir, ""));
    ASSERT_EQ(first.exit_code, 0) << first.err;
    EXPECT_EQ(root_tx(first.out), 1.0f);
    EXPECT_NE(first.err.find("0 'idle', 1 'walk', 2 'run'"), std::string::npos) << first.err;
}

TEST(AnimationChoice, AnUnknownNameOrIndexIsAUsageErrorListingTheAnimations) {
    auto dir = three_animations();
    for (const char* bad : {"3", "jump", "Walk"}) {
        CommandResult result = run_cli(pose(dir, fmt::format("--animation {}", bad)));
        EXPECT_EQ(result.exit_code, 2) << bad;
        EXPECT_EQ(result.out, "");
        EXPECT_NE(
            result.err.find(fmt::format("'{}'; the file holds 0 'idle', 1 'walk', 2 'run'", bad)),
            std::string::npos)
            << result.err;
    }
    CommandResult bake =
        run_cli(fmt::format("bake --anim \"{}\" -o \"{}\" --animation 7",
                            (dir / "three.cast").string(), (dir / "never.cast").string()));
    EXPECT_EQ(bake.exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(dir / "never.cast"));
}

TEST(AnimationChoice, BakeBakesTheChosenAnimation) {
    auto dir = three_animations();
    CommandResult result =
        run_cli(fmt::format("bake --anim \"{}\" -o \"{}\" --animation run",
                            (dir / "three.cast").string(), (dir / "run.cast").string()));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    auto baked = open_cast(dir / "run.cast");
    ASSERT_TRUE(baked);
    ASSERT_EQ(baked->animations().size(), 1u);
    EXPECT_EQ(baked->animations()[0].name(), "run");
    EXPECT_EQ(baked->animations()[0].curves()[0].float_values()[0], 3.0f);
}

TEST(AnimationChoice, InfoListsEachAnimationWithItsIndex) {
    auto dir = three_animations();
    CommandResult result = run_cli(fmt::format("info \"{}\"", (dir / "three.cast").string()));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("  animation 0 'idle': 1 curve,"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("  animation 1 'walk': 1 curve,"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("  animation 2 'run': 1 curve,"), std::string::npos) << result.out;
}

// The one skeleton rule pose, bake and Python share (anim::choose_skeleton): a model document
// given wins; else the animation's own Skeleton; else the animation document's first Model with
// one; else none.
TEST(SkeletonChoice, TheModelDocumentThenTheAnimationsOwnThenItsFilesFirstModel) {
    cast::Document animation_document;
    cast::Root root = animation_document.add_root();
    root.add_model().set_name("bare");  // no skeleton: passed over
    cast::Model rigged = root.add_model();
    rigged.set_name("rigged");
    rigged.add_mesh().set_name("body");
    cast::Skeleton file_skeleton = rigged.add_skeleton();
    cast::Animation animation = root.add_animation();

    auto chosen = anim::choose_skeleton(animation, animation_document, nullptr);
    ASSERT_TRUE(chosen);
    EXPECT_EQ(chosen->skeleton.hash(), file_skeleton.hash());
    EXPECT_EQ(chosen->document, &animation_document);
    EXPECT_EQ(chosen->targets.nodes, (std::vector<std::string>{"rigged", "body"}));

    cast::Skeleton own = animation.add_skeleton();
    chosen = anim::choose_skeleton(animation, animation_document, nullptr);
    ASSERT_TRUE(chosen);
    EXPECT_EQ(chosen->skeleton.hash(), own.hash());
    EXPECT_TRUE(chosen->targets.nodes.empty());

    cast::Document model_document;
    cast::Model model = model_document.add_root().add_model();
    EXPECT_FALSE(anim::choose_skeleton(animation, animation_document, &model_document));
    cast::Skeleton named = model.add_skeleton();
    chosen = anim::choose_skeleton(animation, animation_document, &model_document);
    ASSERT_TRUE(chosen);
    EXPECT_EQ(chosen->skeleton.hash(), named.hash());
    EXPECT_EQ(chosen->document, &model_document);

    cast::Document nothing;
    cast::Animation alone = nothing.add_root().add_animation();
    EXPECT_FALSE(anim::choose_skeleton(alone, nothing, nullptr));
}

}  // namespace
}  // namespace castkit::test::animation_choice_test
