// castkit bake --base (issue 46 item 3): an additive clip layered on a base clip, on one frame
// of it, or on the rest pose, baked into absolute motion. The expected poses come from a
// reference written here by hand from rule 22 (additive translation adds, additive rotation
// multiplies on the right), not from castkit's evaluator.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::additive_bake_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

glm::quat turn_x(float degrees) {
    return glm::angleAxis(glm::radians(degrees), glm::vec3(1, 0, 0));
}

// The leg both clips play on: hip at (0, 1, 0), knee under it.
void add_leg(AnimScene& scene) {
    scene.bone("hip", -1, {0, 1, 0});
    scene.bone("knee", 0, {0, -1, 0});
}

// model.cast (the leg), base.cast (hip tx 0 → 10 and knee 0° → 90° over frames 0 to 10, both
// absolute; ty and tz held at the rest) and additive.cast (hip tx +0 → +2, hip ty +0.5, knee +0°
// → +30°, all additive).
fs::path write_files(const std::string& name) {
    const fs::path dir = temp_dir(name);
    AnimScene model;
    add_leg(model);
    model.document.roots()[0].take_child(1);  // the scene's empty Animation: a model alone
    EXPECT_TRUE(cast::write(model.document, dir / "model.cast").has_value());
    AnimScene base;
    add_leg(base);
    base.curve("hip", "tx", {0, 10}, {0.0f, 10.0f});
    // All three axes keyed, as SEAnim stores them (a missing one would be written as 0).
    base.curve("hip", "ty", {0, 10}, {1.0f, 1.0f});
    base.curve("hip", "tz", {0, 10}, {0.0f, 0.0f});
    base.rotation("knee", {0, 10},
                  {axis_angle_xyzw({1, 0, 0}, 0.0f), axis_angle_xyzw({1, 0, 0}, 90.0f)});
    EXPECT_TRUE(cast::write(base.document, dir / "base.cast").has_value());
    AnimScene additive;
    add_leg(additive);
    additive.curve("hip", "tx", {0, 10}, {0.0f, 2.0f}, "additive");
    additive.curve("hip", "ty", {0, 10}, {0.5f, 0.5f}, "additive");
    additive.curve("hip", "tz", {0, 10}, {0.0f, 0.0f}, "additive");
    additive.rotation("knee", {0, 10},
                      {axis_angle_xyzw({1, 0, 0}, 0.0f), axis_angle_xyzw({1, 0, 0}, 30.0f)},
                      "additive");
    EXPECT_TRUE(cast::write(additive.document, dir / "additive.cast").has_value());
    return dir;
}

struct Expected {
    float hip_x, hip_y;
    glm::quat knee;
};

// The baked file posed at `frame` (through the CLI) against `expected`.
void expect_pose(const fs::path& dir, const fs::path& baked, int frame, const Expected& expected) {
    CommandResult pose = run_cli(fmt::format("pose --model \"{}\" --anim \"{}\" --frame {} --json",
                                             (dir / "model.cast").string(), baked.string(), frame));
    ASSERT_EQ(pose.exit_code, 0) << pose.err;
    const json bones = json::parse(pose.out)["bones"];
    EXPECT_NEAR(bones[0]["local"]["t"][0].get<float>(), expected.hip_x, 1e-4f) << frame;
    EXPECT_NEAR(bones[0]["local"]["t"][1].get<float>(), expected.hip_y, 1e-4f) << frame;
    const json& r = bones[1]["local"]["r"];
    const glm::quat knee(r[3].get<float>(), r[0].get<float>(), r[1].get<float>(),
                         r[2].get<float>());
    EXPECT_NEAR(std::abs(glm::dot(knee, expected.knee)), 1.0f, 1e-5f) << frame;
}

std::string bake_command(const fs::path& dir, const std::string& output, const std::string& base) {
    return fmt::format("bake --model \"{}\" --anim \"{}\" -o \"{}\"{}",
                       (dir / "model.cast").string(), (dir / "additive.cast").string(),
                       (dir / output).string(),
                       base.empty() ? "" : " --base \"" + (dir / base).string() + "\"");
}

TEST(AdditiveBake, OnAWholeBaseClipEachFrameAddsToTheBaseAtTheSameTime) {
    const fs::path dir = write_files("additive-bake-clip");
    CommandResult bake = run_cli(bake_command(dir, "layered.cast", "base.cast"));
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    auto baked = open_cast(dir / "layered.cast");
    ASSERT_TRUE(baked.has_value());
    for (const cast::ConstCurve& curve : baked->animations()[0].curves())
        EXPECT_EQ(curve.mode_name().value(), "absolute");
    for (int f : {0, 3, 5, 10}) {
        const float t = float(f) / 10.0f;
        expect_pose(dir, dir / "layered.cast", f,
                    {10.0f * t + 2.0f * t, 1.0f + 0.5f, turn_x(90.0f * t) * turn_x(30.0f * t)});
    }
}

TEST(AdditiveBake, OnOneFrameOfTheBaseOrOnTheRestPose) {
    const fs::path dir = write_files("additive-bake-frame");
    ASSERT_EQ(run_cli(bake_command(dir, "on_frame.cast", "base.cast@5")).exit_code, 0);
    ASSERT_EQ(run_cli(bake_command(dir, "on_rest.cast", "")).exit_code, 0);
    for (int f : {0, 4, 10}) {
        const float t = float(f) / 10.0f;
        expect_pose(dir, dir / "on_frame.cast", f,
                    {5.0f + 2.0f * t, 1.5f, turn_x(45.0f) * turn_x(30.0f * t)});
        expect_pose(dir, dir / "on_rest.cast", f, {2.0f * t, 1.5f, turn_x(30.0f * t)});
    }
}

// The same additive clip as an SEAnim (its ADDITIVE type), and the base as an SEAnim too: any
// format castkit reads can be either side, and the result can be written in any format.
TEST(AdditiveBake, SEAnimAdditiveFilesLayerAlike) {
    const fs::path dir = write_files("additive-bake-seanim");
    ASSERT_EQ(run_cli(fmt::format("convert \"{}\" \"{}\"", (dir / "additive.cast").string(),
                                  (dir / "additive.seanim").string()))
                  .exit_code,
              0);
    ASSERT_EQ(run_cli(fmt::format("convert \"{}\" \"{}\"", (dir / "base.cast").string(),
                                  (dir / "base.seanim").string()))
                  .exit_code,
              0);
    CommandResult bake =
        run_cli(fmt::format("bake --model \"{}\" --anim \"{}\" -o \"{}\" --base \"{}\"",
                            (dir / "model.cast").string(), (dir / "additive.seanim").string(),
                            (dir / "layered.seanim").string(), (dir / "base.seanim").string()));
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    for (int f : {0, 5, 10}) {
        const float t = float(f) / 10.0f;
        expect_pose(dir, dir / "layered.seanim", f,
                    {12.0f * t, 1.5f, turn_x(90.0f * t) * turn_x(30.0f * t)});
    }
}

// convert MODEL ANIM... --base: each additive animation is layered on the base before it merges
// into the model's scene, so a glTF (which has no additive channels) plays the absolute motion;
// an absolute animation merges as it is.
TEST(AdditiveBake, ConvertLayersAdditiveAnimationsOnTheBaseBeforeTheyMerge) {
    const fs::path dir = write_files("additive-bake-convert");
    CommandResult merged = run_cli(fmt::format(
        "convert \"{}\" \"{}\" \"{}\" -o \"{}\" --base \"{}\"", (dir / "model.cast").string(),
        (dir / "additive.cast").string(), (dir / "base.cast").string(),
        (dir / "scene.cast").string(), (dir / "base.cast").string()));
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    auto scene = open_cast(dir / "scene.cast");
    ASSERT_TRUE(scene.has_value());
    ASSERT_EQ(scene->animations().size(), 2u);
    for (const cast::ConstCurve& curve : scene->animations()[0].curves())
        EXPECT_EQ(curve.mode_name().value(), "absolute");
    CommandResult pose =
        run_cli(fmt::format("pose --model \"{0}\" --anim \"{0}\" --animation 0 --frame 5 --json",
                            (dir / "scene.cast").string()));
    ASSERT_EQ(pose.exit_code, 0) << pose.err;
    const json bones = json::parse(pose.out)["bones"];
    EXPECT_NEAR(bones[0]["local"]["t"][0].get<float>(), 6.0f, 1e-4f);  // 5 + 1
    EXPECT_NEAR(bones[0]["local"]["t"][1].get<float>(), 1.5f, 1e-4f);
    // Without animation files --base has nothing to layer: a usage error.
    EXPECT_EQ(
        run_cli(fmt::format("convert \"{}\" \"{}\" --base \"{}\"", (dir / "model.cast").string(),
                            (dir / "out.cast").string(), (dir / "base.cast").string()))
            .exit_code,
        2);
}

}  // namespace
}  // namespace castkit::test::additive_bake_test
