// `castkit convert MODEL ANIM... -o OUT`: a model and its animation files as one scene, in any
// pairing of the formats castkit reads, and the merged file read back by info, pose and bake.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>

#include "../formats/cli_command.hpp"
#include "../gltf/gltf_scene.hpp"
#include "character.hpp"

namespace castkit::test::convert_merge_test {
namespace {

class ConvertMerge : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("convert-merge-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    std::filesystem::path dir;
};

TEST_F(ConvertMerge, SemodelWithTwoSeanimsIsOneGlbWithTwoAnimationsOnOneSkin) {
    write_as(character(), dir / "hero.semodel");
    // SEAnim has no animation names: each animation is named after its file.
    write_as(character_animation("ignored", {"root", "spine"}), dir / "walk.seanim");
    write_as(character_animation("ignored", {"head", "root"}), dir / "run.seanim");
    CommandResult result =
        run_cli(in_dir(dir, "convert {hero.semodel} {walk.seanim} {run.seanim} -o {hero.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;

    nlohmann::json json = gltf_json(dir / "hero.glb");
    ASSERT_EQ(json["animations"].size(), 2u);
    EXPECT_EQ(json["animations"][0]["name"], "walk");
    EXPECT_EQ(json["animations"][1]["name"], "run");
    ASSERT_EQ(json["skins"].size(), 1u);
    // Every channel of both animations drives a joint of the one skin.
    const nlohmann::json& joints = json["skins"][0]["joints"];
    for (const nlohmann::json& animation : json["animations"])
        for (const nlohmann::json& channel : animation["channels"])
            EXPECT_NE(std::find(joints.begin(), joints.end(), channel["target"]["node"]),
                      joints.end())
                << channel.dump();
    if (const std::optional<ValidatorResult> validation = run_gltf_validator(dir / "hero.glb")) {
        EXPECT_EQ(validation->exit_code, 0) << validation->output;
        EXPECT_NE(validation->output.find("hero.glb: 0 errors"), std::string::npos)
            << validation->output;
    }
}

TEST_F(ConvertMerge, EveryModelFormatTakesEveryAnimationFormat) {
    const std::vector<std::string> models{"cast", "semodel", "dmf", "dmf.json",
                                          "k3d",  "glb",     "gltf"};
    // DMF as an animation source is not covered: an animation-only document written as DMF
    // loses its rotation keys (a DMF writer limitation reported separately).
    const std::vector<std::string> animations{"cast", "seanim", "glb", "gltf"};
    for (const std::string& ext : models) write_as(character(), dir / ("hero." + ext));
    for (const std::string& ext : animations)
        write_as(character_animation("walk", {"root", "head"}), dir / ("walk." + ext));
    for (const std::string& model : models)
        for (const std::string& animation : animations) {
            SCOPED_TRACE(model + " + " + animation);
            const std::string out = "out-" + model + "-" + animation + ".cast";
            CommandResult result = run_cli(in_dir(
                dir, "convert {hero." + model + "} {walk." + animation + "} -o {" + out + "}"));
            ASSERT_EQ(result.exit_code, 0) << result.err;
            auto merged = open_cast(dir / out);
            ASSERT_TRUE(merged.has_value());
            ASSERT_EQ(merged->models().size(), 1u);
            ASSERT_EQ(merged->animations().size(), 1u);
            // The rotation curves of both bones arrive (glTF splits translation per axis).
            std::size_t rotations = 0;
            for (const cast::Curve& curve : merged->animations()[0].curves())
                rotations += curve.key_property() == "rq" ? 1 : 0;
            EXPECT_EQ(rotations, 2u);
        }
}

TEST_F(ConvertMerge, MissingBonesAreOneWarningAndAnUnmatchedAnimationFailsAlone) {
    write_as(character(), dir / "hero.cast");
    write_as(character_animation("walk", {"root", "tail", "wing"}), dir / "walk.cast");
    write_as(character_animation("fly", {"wing", "tail"}), dir / "fly.seanim");
    CommandResult result =
        run_cli(in_dir(dir, "convert {hero.cast} {walk.cast} {fly.seanim} -o {hero.glb}"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("the model has no tail, wing: their curves were dropped"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("fly.seanim"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("the animation was not merged"), std::string::npos) << result.err;
    nlohmann::json json = gltf_json(dir / "hero.glb");
    ASSERT_EQ(json["animations"].size(), 1u);
    EXPECT_EQ(json["animations"][0]["name"], "walk");
}

TEST_F(ConvertMerge, InfoPoseAndBakeReadTheMergedFile) {
    write_as(character(), dir / "hero.semodel");
    write_as(character_animation("", {"root", "spine"}), dir / "walk.seanim");
    write_as(character_animation("", {"head"}), dir / "run.seanim");
    ASSERT_EQ(
        run_cli(in_dir(dir, "convert {hero.semodel} {walk.seanim} {run.seanim} -o {hero.cast}"))
            .exit_code,
        0);
    CommandResult info = run_cli(in_dir(dir, "info {hero.cast}"));
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find("walk"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("run"), std::string::npos) << info.out;
    // The model and the animations are in one file: pose needs no --model.
    CommandResult pose = run_cli(in_dir(dir, "pose --anim {hero.cast} --frame 5 --json"));
    ASSERT_EQ(pose.exit_code, 0) << pose.err;
    nlohmann::json posed = nlohmann::json::parse(pose.out);
    EXPECT_FALSE(posed.empty());
    CommandResult bake = run_cli(in_dir(dir, "bake --anim {hero.cast} -o {baked.cast}"));
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "baked.cast"));
}

TEST_F(ConvertMerge, TheTwoArgumentFormStillConverts) {
    write_as(character(), dir / "hero.cast");
    CommandResult result = run_cli(in_dir(dir, "convert {hero.cast} {hero.semodel}"));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "hero.semodel"));
    CommandResult three = run_cli(in_dir(dir, "convert {hero.cast} {a.cast} {b.cast}"));
    EXPECT_EQ(three.exit_code, 2);
}

}  // namespace
}  // namespace castkit::test::convert_merge_test
