// castkit pose and castkit bake, end to end through files.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <nlohmann/json.hpp>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::anim_cli_test {
namespace {

using nlohmann::json;

// A model file (skeleton hip → knee, a mesh and a blend shape) and an animation file without a
// skeleton of its own.
std::filesystem::path write_model_and_animation(const std::string& name) {
    std::filesystem::path dir = temp_dir(name);
    AnimScene scene;
    scene.bone("hip", -1, {0, 1, 0}, glm::vec4(0, 0, 0, 1), {2, 2, 2});
    scene.bone("knee", 0, {0, -1, 0});
    scene.model.add_mesh().set_name("legs");
    scene.model.add_blend_shape().set_name("bulge");
    scene.curve("hip", "tx", {0, 10}, {0.0f, 10.0f});
    scene.rotation("knee", {0, 10},
                   {axis_angle_xyzw({1, 0, 0}, 0.0f), axis_angle_xyzw({1, 0, 0}, 90.0f)});
    scene.curve("bulge", "bs", {0, 10}, {0.0f, 1.0f});
    scene.curve("legs", "vb", {0, 10}, {1.0f, 0.0f});
    scene.curve("tail", "tx", {0}, {1.0f});
    std::unique_ptr<cast::Node> animation = scene.document.roots()[0].take_child(1);
    EXPECT_TRUE(cast::write(scene.document, dir / "model.cast").has_value());
    cast::Document animation_file;
    animation_file.add_root().node().add_child(std::move(animation));
    EXPECT_TRUE(cast::write(animation_file, dir / "walk.cast").has_value());
    return dir;
}

void expect_floats(const json& actual, std::vector<float> expected) {
    ASSERT_EQ(actual.size(), expected.size()) << actual;
    for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_NEAR(actual[i].get<float>(), expected[i], 1e-5f) << actual;
}

TEST(AnimCli, PoseJsonFromSeparateModelAndAnimationFiles) {
    std::filesystem::path dir = write_model_and_animation("anim-cli-pose");
    CommandResult result =
        run_cli(fmt::format("pose --model \"{}\" --anim \"{}\" --frame 5 --json",
                            (dir / "model.cast").string(), (dir / "walk.cast").string()));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // The tail curve names no bone: reported, not dropped silently.
    EXPECT_NE(result.err.find("'tail'"), std::string::npos) << result.err;
    json pose = json::parse(result.out);
    EXPECT_EQ(pose["frame"].get<float>(), 5.0f);
    ASSERT_EQ(pose["bones"].size(), 2u);
    const json& hip = pose["bones"][0];
    const json& knee = pose["bones"][1];
    EXPECT_EQ(hip["name"], "hip");
    expect_floats(hip["local"]["t"], {5, 1, 0});
    expect_floats(hip["local"]["s"], {2, 2, 2});
    expect_floats(hip["world"]["t"], {5, 1, 0});
    // Knee: 45° about x, at hip + 2 × (0, -1, 0); its size is compensated.
    float s = std::sin(glm::radians(22.5f)), c = std::cos(glm::radians(22.5f));
    expect_floats(knee["local"]["r"], {s, 0, 0, c});
    expect_floats(knee["world"]["t"], {5, -1, 0});
    expect_floats(knee["world"]["s"], {1, 1, 1});
    expect_floats(knee["world"]["r"], {s, 0, 0, c});
    EXPECT_NEAR(pose["blendshapes"]["bulge"].get<float>(), 0.5f, 1e-6f);
    EXPECT_EQ(pose["visibility"]["legs"], true);  // 0.5 is visible
}

TEST(AnimCli, PoseTextAndLoopedSampling) {
    std::filesystem::path dir = write_model_and_animation("anim-cli-text");
    std::string files = fmt::format("--model \"{}\" --anim \"{}\"", (dir / "model.cast").string(),
                                    (dir / "walk.cast").string());
    CommandResult text = run_cli("pose " + files + " --frame 2.5");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("hip\n  local t (2.5, 1, 0)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("visibility legs = visible (0.75)"), std::string::npos) << text.out;
    // The animation does not loop: --loop holds the last key.
    CommandResult held = run_cli("pose " + files + " --frame 12.5 --loop --json");
    ASSERT_EQ(held.exit_code, 0) << held.err;
    expect_floats(json::parse(held.out)["bones"][0]["local"]["t"], {10, 1, 0});
}

TEST(AnimCli, PoseUsesTheAnimationsOwnSkeleton) {
    std::filesystem::path dir = temp_dir("anim-cli-own");
    cast::Document document;
    cast::Animation animation = document.add_root().add_animation();
    animation.set_framerate(24.0f);
    cast::Bone bone = animation.add_skeleton().add_bone();
    bone.set_name("solo");
    cast::Curve curve = animation.add_curve();
    curve.set_node_name("SOLO");
    curve.set_key_property(cast::KeyProperty::TranslationZ);
    std::vector<std::uint32_t> frames = {0, 4};
    std::vector<float> values = {0.0f, 8.0f};
    curve.set_key_frames(frames);
    curve.set_float_values(values);
    curve.set_mode(cast::CurveMode::Absolute);
    ASSERT_TRUE(cast::write(document, dir / "solo.cast").has_value());
    CommandResult result =
        run_cli(fmt::format("pose --anim \"{}\" --frame 1 --json", (dir / "solo.cast").string()));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_floats(json::parse(result.out)["bones"][0]["local"]["t"], {0, 0, 2});
}

TEST(AnimCli, PoseUsesAModelInTheAnimationsFile) {
    std::filesystem::path dir = temp_dir("anim-cli-same");
    AnimScene scene;
    scene.bone("pelvis", -1, {0, 0, 3});
    scene.curve("pelvis", "tx", {0, 2}, {0.0f, 4.0f}, "relative");
    ASSERT_TRUE(cast::write(scene.document, dir / "both.cast").has_value());
    CommandResult result =
        run_cli(fmt::format("pose --anim \"{}\" --frame 1 --json", (dir / "both.cast").string()));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_floats(json::parse(result.out)["bones"][0]["local"]["t"], {2, 0, 3});
}

TEST(AnimCli, PoseWithoutAnySkeletonFails) {
    std::filesystem::path dir = write_model_and_animation("anim-cli-noskel");
    CommandResult result =
        run_cli(fmt::format("pose --anim \"{}\" --frame 0", (dir / "walk.cast").string()));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("give --model"), std::string::npos) << result.err;
}

TEST(AnimCli, BakeWritesAbsoluteCurvesThatPoseTheSame) {
    std::filesystem::path dir = write_model_and_animation("anim-cli-bake");
    std::string model = (dir / "model.cast").string();
    CommandResult bake =
        run_cli(fmt::format("bake --model \"{}\" --anim \"{}\" -o \"{}\" --tolerance 0.0001", model,
                            (dir / "walk.cast").string(), (dir / "baked.cast").string()));
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    auto baked = open_cast(dir / "baked.cast");
    ASSERT_TRUE(baked.has_value());
    for (const cast::ConstCurve& curve : baked->animations()[0].curves())
        EXPECT_EQ(curve.mode_name().value(), "absolute");
    // The linear tx ramp reduces to its two ends.
    EXPECT_EQ(baked->animations()[0].curves()[0].key_frames().size(), 2u);
    for (const char* frame : {"0", "3", "7", "10"}) {
        CommandResult direct =
            run_cli(fmt::format("pose --model \"{}\" --anim \"{}\" --frame {} --json", model,
                                (dir / "walk.cast").string(), frame));
        CommandResult again =
            run_cli(fmt::format("pose --model \"{}\" --anim \"{}\" --frame {} --json", model,
                                (dir / "baked.cast").string(), frame));
        ASSERT_EQ(again.exit_code, 0) << again.err;
        json a = json::parse(direct.out), b = json::parse(again.out);
        for (std::size_t bone = 0; bone < 2; ++bone)
            for (const char* space : {"local", "world"})
                for (const char* part : {"t", "r", "s"})
                    for (std::size_t i = 0; i < a["bones"][bone][space][part].size(); ++i)
                        EXPECT_NEAR(a["bones"][bone][space][part][i].get<float>(),
                                    b["bones"][bone][space][part][i].get<float>(), 1e-3f)
                            << frame << " " << space << " " << part;
        EXPECT_EQ(a["blendshapes"], b["blendshapes"]);
        EXPECT_EQ(a["visibility"], b["visibility"]);
    }
}

TEST(AnimCli, BakeAtAnotherFramerate) {
    std::filesystem::path dir = write_model_and_animation("anim-cli-fps");
    CommandResult bake = run_cli(fmt::format(
        "bake --model \"{}\" --anim \"{}\" -o \"{}\" --fps 60", (dir / "model.cast").string(),
        (dir / "walk.cast").string(), (dir / "baked.cast").string()));
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    auto baked = open_cast(dir / "baked.cast");
    ASSERT_TRUE(baked.has_value());
    EXPECT_FLOAT_EQ(baked->animations()[0].framerate().value(), 60.0f);
    EXPECT_EQ(baked->animations()[0].curves()[0].key_frames().size(), 21u);
}

}  // namespace
}  // namespace castkit::test::anim_cli_test
