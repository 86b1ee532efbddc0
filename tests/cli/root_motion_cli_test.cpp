// `--root-motion strip|extract`, `--root-bone` and `--model` through the real command line:
// convert and bake print what they moved with the warnings' ids, and the poses `castkit pose`
// gives of their outputs are those worked out from the input's.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <nlohmann/json.hpp>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"

namespace castkit::test::root_motion_cli_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Vec3 = std::array<double, 3>;

constexpr double kTolerance = 1e-4;

fs::path hero(const std::string& file) {
    return fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero" / file;
}

// Every bone's world translation at `frame`, as `castkit pose ARGS --json` prints it.
std::map<std::string, Vec3> world_translations(const std::string& arguments, int frame) {
    CommandResult result = run_cli(fmt::format("pose {} --frame {} --json", arguments, frame));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::map<std::string, Vec3> out;
    if (result.exit_code != 0) return out;
    const json pose = json::parse(result.out);  // kept: its bones are walked below
    for (const json& bone : pose["bones"]) {
        const json& t = bone["world"]["t"];
        out[bone["name"].get<std::string>()] = {t[0].get<double>(), t[1].get<double>(),
                                                t[2].get<double>()};
    }
    EXPECT_EQ(out.count("pelvis"), 1u) << arguments;
    return out;
}

std::string hero_with_walk() {
    return fmt::format("--model {} --anim {}", quoted(hero("hero.cast")),
                       quoted(hero("hero_walk.cast")));
}

void expect_near(const Vec3& actual, const Vec3& expected, const std::string& what) {
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(actual[i], expected[i], kTolerance) << what;
}

// Every bone of `before` at the same world position in `after`.
void expect_same_worlds(const std::map<std::string, Vec3>& before,
                        const std::map<std::string, Vec3>& after, int frame) {
    for (const auto& [bone, position] : before) {
        ASSERT_TRUE(after.contains(bone)) << bone;
        expect_near(after.at(bone), position, fmt::format("{} at frame {}", bone, frame));
    }
}

class RootMotionCli : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = temp_dir("root-motion-cli-" +
                       std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    fs::path dir;
};

TEST_F(RootMotionCli, ConvertStripLeavesThePelvisAtItsRestGroundPositionWithItsHeight) {
    CommandResult result =
        run_cli(fmt::format("convert {} {} --root-motion strip -o {}", quoted(hero("hero.cast")),
                            quoted(hero("hero_walk.cast")), quoted(dir / "strip.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("clip 'walk': the root motion of bone 'pelvis' stripped"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("[anim.root-motion-stripped]"), std::string::npos) << result.err;
    const std::string stripped =
        fmt::format("--model {} --anim {}", quoted(dir / "strip.cast"), quoted(dir / "strip.cast"));
    // The pelvis's rest: the pose at a frame of a clip that keys nothing is the rest.
    auto open = open_cast(hero("hero.cast"));
    ASSERT_TRUE(open);
    const glm::vec3 rest =
        std::as_const(*open).models().front().skeleton().bones().front().local_position().value();
    for (int frame : {0, 7, 15, 22}) {
        const Vec3 input = world_translations(hero_with_walk(), frame).at("pelvis");
        const Vec3 output = world_translations(stripped, frame).at("pelvis");
        expect_near(output, {rest.x, input[1], rest.z}, fmt::format("pelvis at frame {}", frame));
    }
}

TEST_F(RootMotionCli, TheGroundPlaneIsTheFilesOwn) {
    // The hero turned +Z up says so in its Metadata: stripping it keeps the pelvis's z (its
    // height there) and takes its x and y.
    ASSERT_EQ(run_cli(fmt::format("convert {} {} --up z -o {}", quoted(hero("hero.cast")),
                                  quoted(hero("hero_walk.cast")), quoted(dir / "z.cast")))
                  .exit_code,
              0);
    CommandResult result = run_cli(fmt::format("convert {} --root-motion strip -o {}",
                                               quoted(dir / "z.cast"), quoted(dir / "strip.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string turned =
        fmt::format("--model {} --anim {}", quoted(dir / "z.cast"), quoted(dir / "z.cast"));
    const std::string stripped =
        fmt::format("--model {} --anim {}", quoted(dir / "strip.cast"), quoted(dir / "strip.cast"));
    for (int frame : {0, 7, 15, 22}) {
        const Vec3 input = world_translations(turned, frame).at("pelvis");
        expect_near(world_translations(stripped, frame).at("pelvis"), {0.0, 0.0, input[2]},
                    fmt::format("pelvis at frame {}", frame));
    }
}

TEST_F(RootMotionCli, AnAnimationFileAloneIsInItsModelsAxes) {
    // A +Z-up model, and its walk as SEAnim, which says no up axis: the model's says it.
    ASSERT_EQ(run_cli(fmt::format("convert {} --up z -o {}", quoted(hero("hero.cast")),
                                  quoted(dir / "hero_z.cast")))
                  .exit_code,
              0);
    ASSERT_EQ(
        run_cli(fmt::format("convert {} --model {} --up z -o {}", quoted(hero("hero_walk.seanim")),
                            quoted(hero("hero.cast")), quoted(dir / "walk_z.seanim")))
            .exit_code,
        0);
    CommandResult result = run_cli(fmt::format(
        "convert {} --model {} --root-motion strip -o {}", quoted(dir / "walk_z.seanim"),
        quoted(dir / "hero_z.cast"), quoted(dir / "strip.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string input = fmt::format("--model {} --anim {}", quoted(dir / "hero_z.cast"),
                                          quoted(dir / "walk_z.seanim"));
    for (int frame : {0, 7, 15, 22}) {
        const Vec3 before = world_translations(input, frame).at("pelvis");
        expect_near(world_translations("--anim " + quoted(dir / "strip.cast"), frame).at("pelvis"),
                    {0.0, 0.0, before[2]}, fmt::format("pelvis at frame {}", frame));
    }
}

TEST_F(RootMotionCli, ConvertExtractToGlbKeepsEveryWorldPoseOnANewTopBone) {
    CommandResult result =
        run_cli(fmt::format("convert {} {} --root-motion extract -o {}", quoted(hero("hero.cast")),
                            quoted(hero("hero_walk.cast")), quoted(dir / "extract.glb")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("moved onto the new top bone 'root_motion'"), std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("[anim.root-motion-extracted]"), std::string::npos) << result.err;
    const std::string extracted = fmt::format("--model {} --anim {}", quoted(dir / "extract.glb"),
                                              quoted(dir / "extract.glb"));
    for (int frame : {0, 7, 15, 22}) {
        const auto before = world_translations(hero_with_walk(), frame);
        const auto after = world_translations(extracted, frame);
        expect_same_worlds(before, after, frame);
        // The new bone carries the pelvis's ground motion (the pelvis rests on the up axis).
        ASSERT_TRUE(after.contains("root_motion"));
        expect_near(after.at("root_motion"), {before.at("pelvis")[0], 0.0, before.at("pelvis")[2]},
                    fmt::format("root_motion at frame {}", frame));
    }
}

TEST_F(RootMotionCli, BakeStripsAndExtracts) {
    CommandResult strip = run_cli(fmt::format("bake {} --root-motion strip -o {}", hero_with_walk(),
                                              quoted(dir / "strip.seanim")));
    ASSERT_EQ(strip.exit_code, 0) << strip.err;
    EXPECT_NE(strip.err.find("[anim.root-motion-stripped]"), std::string::npos) << strip.err;
    CommandResult extract = run_cli(fmt::format("bake {} --root-motion extract -o {}",
                                                hero_with_walk(), quoted(dir / "extract.cast")));
    ASSERT_EQ(extract.exit_code, 0) << extract.err;
    EXPECT_NE(extract.err.find("[anim.root-motion-extracted]"), std::string::npos) << extract.err;
    for (int frame : {0, 7, 15}) {
        const auto before = world_translations(hero_with_walk(), frame);
        const auto stripped =
            world_translations(fmt::format("--model {} --anim {}", quoted(hero("hero.cast")),
                                           quoted(dir / "strip.seanim")),
                               frame);
        expect_near(stripped.at("pelvis"), {0.0, before.at("pelvis")[1], 0.0}, "stripped pelvis");
        // The extracted bake carries its skeleton, root_motion included.
        const auto after = world_translations("--anim " + quoted(dir / "extract.cast"), frame);
        expect_same_worlds(before, after, frame);
        EXPECT_TRUE(after.contains("root_motion"));
    }
}

TEST_F(RootMotionCli, ARootBoneNamingNoBoneIsAnErrorListingTheTopBones) {
    for (const std::string& command :
         {fmt::format("convert {} {} --root-motion strip --root-bone nosuch -o {}",
                      quoted(hero("hero.cast")), quoted(hero("hero_walk.cast")),
                      quoted(dir / "out.cast")),
          fmt::format("bake {} --root-motion extract --root-bone nosuch -o {}", hero_with_walk(),
                      quoted(dir / "out.cast"))}) {
        CommandResult result = run_cli(command);
        EXPECT_EQ(result.exit_code, 1) << command;
        EXPECT_NE(result.err.find("--root-bone 'nosuch' names no bone of the skeleton; its top "
                                  "bones: pelvis [anim.root-bone]"),
                  std::string::npos)
            << result.err;
        EXPECT_FALSE(fs::exists(dir / "out.cast"));
    }
}

// +Y up turned +Z up: (x, y, z) becomes (x, −z, y).
Vec3 turned_to_z(const Vec3& v) { return {v[0], -v[2], v[1]}; }

TEST_F(RootMotionCli, AnAnimationFileAloneTurnsItsRootsOnTheModelsSkeleton) {
    CommandResult result =
        run_cli(fmt::format("convert {} --model {} --up z -o {}", quoted(hero("hero_walk.seanim")),
                            quoted(hero("hero.cast")), quoted(dir / "walk.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("axes.no-skeleton"), std::string::npos) << result.err;
    const std::string input = fmt::format("--model {} --anim {}", quoted(hero("hero.cast")),
                                          quoted(hero("hero_walk.seanim")));
    for (int frame : {0, 7, 15}) {
        const auto before = world_translations(input, frame);
        // The output is the animation, its skeleton carried in it.
        const auto after = world_translations("--anim " + quoted(dir / "walk.cast"), frame);
        ASSERT_EQ(after.size(), before.size());
        for (const auto& [bone, position] : before)
            expect_near(after.at(bone), turned_to_z(position),
                        fmt::format("{} at frame {}", bone, frame));
    }
}

TEST_F(RootMotionCli, AFolderPairsItsAnimationFilesWithTheModel) {
    const fs::path in = dir / "in";
    fs::create_directories(in);
    fs::copy_file(hero("hero.cast"), in / "hero.cast");
    fs::copy_file(hero("hero_walk.seanim"), in / "hero_walk.seanim");
    CommandResult result =
        run_cli(fmt::format("convert {} -o {} --to cast --model {} --up z --root-motion extract -q",
                            quoted(in), quoted(dir / "out"), quoted(in / "hero.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("axes.no-skeleton"), std::string::npos) << result.err;
    const std::string input = fmt::format("--model {} --anim {}", quoted(hero("hero.cast")),
                                          quoted(hero("hero_walk.seanim")));
    // The model gets the new bone too, so the two outputs still go together.
    const auto model = open_cast(dir / "out/hero.cast");
    ASSERT_TRUE(model);
    EXPECT_EQ(std::as_const(*model).models().front().skeleton().bones().size(), 22u);
    for (int frame : {0, 7, 15}) {
        const auto before = world_translations(input, frame);
        const auto after =
            world_translations(fmt::format("--model {} --anim {}", quoted(dir / "out/hero.cast"),
                                           quoted(dir / "out/hero_walk.cast")),
                               frame);
        for (const auto& [bone, position] : before)
            expect_near(after.at(bone), turned_to_z(position),
                        fmt::format("{} at frame {}", bone, frame));
    }
}

}  // namespace
}  // namespace castkit::test::root_motion_cli_test
