// castkit diff (issue 46 item 5), end to end through files: a difference planted in one bone's
// keys is named with its bone, size and first frame; a curve marked relative where the other
// file says absolute is named even when the poses agree; a file from standard input is read
// once; the same clip in two formats differs in nothing. The expected figures are the planted
// ones, not castkit's own output.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::diff_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::uint32_t kFrames = 21;
constexpr std::uint32_t kPlantedFrame = 7;
constexpr float kPlanted = 0.25f;

// A leg (hip → knee → foot) whose knee turns and whose foot slides on every frame; `planted`
// adds kPlanted to the foot's tx key at kPlantedFrame, `foot_mode` is the foot curve's mode
// (the foot's rest x is 0, so absolute and relative keys give the same pose).
fs::path write_clip(const fs::path& dir, const std::string& name, float planted,
                    std::string_view foot_mode = "absolute") {
    AnimScene scene;
    scene.bone("hip", -1, {0, 1, 0});
    scene.bone("knee", 0, {0, -1, 0});
    scene.bone("foot", 1, {0, -1, 0});
    std::vector<std::uint32_t> frames(kFrames);
    std::iota(frames.begin(), frames.end(), 0u);
    std::vector<float> slide;
    std::vector<glm::vec4> turn;
    for (std::uint32_t f : frames) {
        slide.push_back(0.05f * float(f) + (f == kPlantedFrame ? planted : 0.0f));
        turn.push_back(axis_angle_xyzw({1, 0, 0}, 4.0f * float(f)));
    }
    scene.rotation("knee", frames, turn);
    scene.curve("foot", "tx", frames, slide, foot_mode);
    const fs::path path = dir / name;
    EXPECT_TRUE(cast::write(scene.document, path).has_value());
    return path;
}

std::string quoted(const fs::path& path) { return "\"" + path.string() + "\""; }

// The clip as written (a.cast) and with the planted difference (b.cast), in a new folder.
std::pair<fs::path, fs::path> planted_pair(const std::string& folder) {
    const fs::path dir = temp_dir(folder);
    return {write_clip(dir, "a.cast", 0.0f), write_clip(dir, "b.cast", kPlanted)};
}

// What diff says of the planted pair: they differ, in the foot, by kPlanted at kPlantedFrame.
void expect_planted_difference(const CommandResult& result) {
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(result.out.find("foot: position 0.25 (frame 7)"), std::string::npos) << result.out;
}

TEST(DiffCli, APlantedDifferenceIsNamedWithItsBoneSizeAndFirstFrame) {
    const auto [a, b] = planted_pair("diff-cli-planted");
    CommandResult text = run_cli(fmt::format("diff {} {}", quoted(a), quoted(b)));
    expect_planted_difference(text);
    EXPECT_NE(text.out.find("first differs at frame 7"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("hip:"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("knee:"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("1 of 3 bones differ"), std::string::npos) << text.out;

    CommandResult same = run_cli(fmt::format("diff {} {}", quoted(a), quoted(a)));
    EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
    EXPECT_NE(same.out.find("no difference"), std::string::npos) << same.out;

    // The same clip baked at twice the rate is compared at the same times, not the same frames.
    const fs::path doubled = a.parent_path() / "a60.cast";
    ASSERT_EQ(
        run_cli(fmt::format("bake --anim {} -o {} --fps 60", quoted(a), quoted(doubled))).exit_code,
        0);
    CommandResult rates = run_cli(fmt::format("diff {} {}", quoted(a), quoted(doubled)));
    EXPECT_EQ(rates.exit_code, 0) << rates.out << rates.err;
    EXPECT_NE(rates.out.find("B: " + doubled.string() + " at 60 fps"), std::string::npos)
        << rates.out;

    // Within a tolerance larger than the planted difference, nothing differs.
    CommandResult loose = run_cli(fmt::format("diff {} {} --tolerance 0.3", quoted(a), quoted(b)));
    EXPECT_EQ(loose.exit_code, 0) << loose.out;
}

// A pose that is not a number is not within any tolerance (NaN compares false against it, so
// this said "no difference" and exited 0): a NaN key at frame 7 differs from frame 6 on (the
// pose between keys 6 and 7 is interpolated towards it), and a rest pose that overflows to
// infinity differs even from itself.
TEST(DiffCli, APoseThatIsNotANumberDiffersFromItsFirstFrame) {
    const fs::path dir = temp_dir("diff-cli-nan");
    const fs::path good = write_clip(dir, "good.cast", 0.0f);
    const fs::path nan = write_clip(dir, "nan.cast", std::numeric_limits<float>::quiet_NaN());
    CommandResult result = run_cli(fmt::format("diff {} {}", quoted(good), quoted(nan)));
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    EXPECT_NE(result.out.find("foot: position inf (frame 6)"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("first differs at frame 6"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("1 of 3 bones differ"), std::string::npos) << result.out;

    AnimScene far;
    far.bone("hip", -1, {3e38f, 0, 0});
    far.bone("foot", 0, {3e38f, 0, 0});  // its world x is past the largest float
    const fs::path rest = dir / "far.cast";
    ASSERT_TRUE(cast::write(far.document, rest).has_value());
    CommandResult rests = run_cli(fmt::format("diff {} {}", quoted(rest), quoted(rest)));
    EXPECT_EQ(rests.exit_code, 1) << rests.out << rests.err;
    EXPECT_NE(rests.out.find("foot: position inf"), std::string::npos) << rests.out;
}

TEST(DiffCli, JsonListsEveryBoneAndNamesADisagreeingCurveMode) {
    const fs::path dir = temp_dir("diff-cli-modes");
    const fs::path a = write_clip(dir, "a.cast", 0.0f);
    const fs::path b = write_clip(dir, "b.cast", 0.0f, "relative");
    CommandResult result = run_cli(fmt::format("diff {} {} --json", quoted(a), quoted(b)));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    const json report = json::parse(result.out);
    EXPECT_TRUE(report["differs"].get<bool>());
    EXPECT_EQ(report["poses"].get<int>(), int(kFrames));
    ASSERT_EQ(report["bones"].size(), 3u);
    const json& foot = report["bones"][2];
    EXPECT_EQ(foot["name"], "foot");
    EXPECT_EQ(foot["modes_a"], "absolute");
    EXPECT_EQ(foot["modes_b"], "relative");
    EXPECT_NEAR(foot["position"].get<float>(), 0.0f, 1e-6f);  // the poses agree
    EXPECT_TRUE(foot["first_frame"].is_null());
    EXPECT_EQ(report["bones"][1]["modes_a"], "absolute");  // the knee's rotation
    EXPECT_EQ(report["bones"][0]["modes_a"], "");          // the hip has no curve

    CommandResult text = run_cli(fmt::format("diff {} {}", quoted(a), quoted(b)));
    EXPECT_NE(text.out.find("curve modes absolute in A, relative in B"), std::string::npos)
        << text.out;
}

// Each file is read once: A from standard input compares as A from its path does (read twice,
// standard input would be empty the second time), clips and rest poses alike.
TEST(DiffCli, AFileFromStandardInputIsReadOnce) {
    const auto [a, b] = planted_pair("diff-cli-stdin");
    expect_planted_difference(run_cli(fmt::format("diff - {} < {}", quoted(b), quoted(a))));
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    CommandResult rests = run_cli(
        fmt::format("diff - {} < {}", quoted(hero / "hero.semodel"), quoted(hero / "hero.cast")));
    EXPECT_EQ(rests.exit_code, 0) << rests.out << rests.err;
}

// The bundled character's walk as Cast and as SEAnim (written by scripts/make_example.sh from
// the same keys), and its model as Cast and SEModel at rest.
TEST(DiffCli, TheSameClipInTwoFormatsDiffersInNothing) {
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    CommandResult clips =
        run_cli(fmt::format("diff {} {} --model {}", quoted(hero / "hero_walk.cast"),
                            quoted(hero / "hero_walk.seanim"), quoted(hero / "hero.cast")));
    EXPECT_EQ(clips.exit_code, 0) << clips.out << clips.err;
    EXPECT_NE(clips.out.find("no difference (21 bones"), std::string::npos) << clips.out;
    CommandResult rests = run_cli(
        fmt::format("diff {} {}", quoted(hero / "hero.cast"), quoted(hero / "hero.semodel")));
    EXPECT_EQ(rests.exit_code, 0) << rests.out << rests.err;
    CommandResult mixed = run_cli(
        fmt::format("diff {} {}", quoted(hero / "hero.cast"), quoted(hero / "hero_walk.seanim")));
    EXPECT_EQ(mixed.exit_code, 2) << mixed.out;
    EXPECT_NE(mixed.err.find("holds an Animation and"), std::string::npos) << mixed.err;
}

// The bundled rig's step clip against its bake (the IK leg's solved turns written as curves):
// solved on both sides they agree; `--no-rig` plays the curves alone, where the step leaves
// the leg at rest and the bake turns it, so the calf is named.
TEST(DiffCli, NoRigComparesTheCurvesAlone) {
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    const fs::path baked = temp_dir("diff-cli-rig") / "step_baked.cast";
    ASSERT_EQ(run_cli(fmt::format("bake --model {} --anim {} -o {}", quoted(hero / "hero_rig.cast"),
                                  quoted(hero / "hero_step.cast"), quoted(baked)))
                  .exit_code,
              0);
    const std::string diff = fmt::format("diff {} {} --model {}", quoted(hero / "hero_step.cast"),
                                         quoted(baked), quoted(hero / "hero_rig.cast"));
    CommandResult solved = run_cli(diff);
    EXPECT_EQ(solved.exit_code, 0) << solved.out << solved.err;
    CommandResult raw = run_cli(diff + " --no-rig");
    EXPECT_EQ(raw.exit_code, 1) << raw.out << raw.err;
    EXPECT_NE(raw.out.find("calf_l: position"), std::string::npos) << raw.out;
}

}  // namespace
}  // namespace castkit::test::diff_cli_test
