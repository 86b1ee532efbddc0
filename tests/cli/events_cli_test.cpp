// Issue 60 #2: notetracks an engine can key by. The glTF export writes each event with its frame
// and its time in seconds (`extras.castkit_events`), and `--events FILE.json` on convert and bake
// writes every clip's events beside the output, a side output that never replaces a file the
// run did not write (docs/events.md).
#include <castkit/cast/nodes.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../formats/cli_command.hpp"
#include "../gltf/gltf_scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::events_cli_test {
namespace {

namespace fs = std::filesystem;

const fs::path kHero = fs::path(CASTKIT_SOURCE_DIR) / "examples" / "data" / "hero";

nlohmann::json json_of(const fs::path& path) {
    return nlohmann::json::parse(std::ifstream(path, std::ios::binary));
}

std::string text_of(const fs::path& path) {
    const std::vector<std::byte> bytes = read_bytes(path);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The walk's `footstep` track keys frames 0 and 15 at 30 fps (examples/build_scene.cpp).
const nlohmann::json kWalkEvents = nlohmann::json::parse(R"([
    {"name": "footstep", "frame": 0, "time": 0},
    {"name": "footstep", "frame": 15, "time": 0.5}])");

class EventsCli : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("events-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    // `castkit convert` of the hero with its walk and idle into `output` inside dir, with
    // `more` after it.
    CommandResult convert_hero(const std::string& output, const std::string& more = "") {
        return run_cli(fmt::format("convert {} {} {} -o {} {}", quoted(kHero / "hero.cast"),
                                   quoted(kHero / "hero_walk.cast"),
                                   quoted(kHero / "hero_idle.cast"), quoted(dir / output),
                                   in_dir(dir, more)));
    }
    fs::path dir;
};

TEST_F(EventsCli, TheWalksGlbCarriesEachFootstepWithItsFrameAndItsTimeInSeconds) {
    const CommandResult converted = convert_hero("hero.glb");
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    const nlohmann::json json = gltf_json(dir / "hero.glb");
    ASSERT_EQ(json["animations"].size(), 2u);
    const nlohmann::json& walk = json["animations"][0]["extras"];
    EXPECT_EQ(json["animations"][0]["name"], "walk");
    EXPECT_EQ(walk["castkit_framerate"], 30);
    EXPECT_EQ(walk["castkit_events"], kWalkEvents);
    // castkit's own layout stays for its importer and older scripts.
    EXPECT_EQ(walk["castkit_notifications"], nlohmann::json::parse(R"({"footstep": [0, 15]})"));
    // A clip without notification tracks has neither key (docs/gltf.md), never a null.
    EXPECT_FALSE(json["animations"][1]["extras"].contains("castkit_events"));
    EXPECT_FALSE(json["animations"][1]["extras"].contains("castkit_notifications"));
}

TEST_F(EventsCli, ConvertWritesEveryClipsEventsBesideTheOutputForAnyFormat) {
    for (const char* output : {"hero.glb", "hero_moves.cast"}) {
        const std::string events = std::string(output) + ".events.json";
        const CommandResult converted = convert_hero(output, "--events {" + events + "}");
        ASSERT_EQ(converted.exit_code, 0) << converted.err;
        EXPECT_EQ(converted.err, "") << output;
        const nlohmann::json sidecar = json_of(dir / events);
        EXPECT_EQ(sidecar["castkit_events"], 1);
        ASSERT_EQ(sidecar["clips"].size(), 2u) << output;
        const nlohmann::json& walk = sidecar["clips"][0];
        EXPECT_EQ(walk["name"], "walk");
        EXPECT_EQ(walk["framerate"], 30);
        EXPECT_EQ(walk["start_frame"], 0);
        EXPECT_EQ(walk["end_frame"], 30);
        EXPECT_EQ(walk["duration"], 1);
        EXPECT_EQ(walk["looping"], true);
        EXPECT_EQ(walk["events"], kWalkEvents) << output;
        const nlohmann::json& idle = sidecar["clips"][1];
        EXPECT_EQ(idle["name"], "idle");
        EXPECT_EQ(idle["end_frame"], 60);
        EXPECT_EQ(idle["duration"], 2);
        EXPECT_EQ(idle["events"], nlohmann::json::array()) << output;
    }
}

TEST_F(EventsCli, AnOutputOnStandardOutputStillGetsItsEventsFile) {
    const CommandResult converted =
        run_cli_in("",
                   fmt::format("convert {} - --to seanim --events {}",
                               quoted(kHero / "hero_walk.cast"), quoted(dir / "walk.json")),
                   ">" + quoted(dir / "walk.seanim"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(json_of(dir / "walk.json")["clips"][0]["events"], kWalkEvents);
}

TEST_F(EventsCli, ADmfConversionInItsFamilyGivesTheEventsOfTheFileItWrote) {
    // DMF has no notification tracks (dmf.write says they are dropped): the clip, no events.
    ASSERT_EQ(convert_hero("hero.dmf").exit_code, 0);
    const CommandResult converted =
        run_cli(in_dir(dir, "convert {hero.dmf} {hero.dmf.json} --events {hero.events.json}"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    const nlohmann::json clips = json_of(dir / "hero.events.json")["clips"];
    ASSERT_EQ(clips.size(), 2u);
    EXPECT_EQ(clips[0]["name"], "walk");
    EXPECT_EQ(clips[0]["events"], nlohmann::json::array());
}

TEST_F(EventsCli, TheEventsPathIsRelativeToTheWorkingFolderNotToTheOutput) {
    fs::create_directories(dir / "out");
    const CommandResult converted =
    // cmd.exe changes the drive too only with /d (the test's folder is on C: under Wine).
#ifdef _WIN32
        run_cli_in("cd /d " + quoted(dir) + " && ",
#else
        run_cli_in("cd " + quoted(dir) + " && ",
#endif
                   fmt::format("convert {} {} -o out/hero.glb --events hero.events.json",
                               quoted(kHero / "hero.cast"), quoted(kHero / "hero_walk.cast")));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_TRUE(fs::exists(dir / "hero.events.json"));
    EXPECT_FALSE(fs::exists(dir / "out" / "hero.events.json"));
}

TEST_F(EventsCli, AFileTheRunDidNotWriteKeepsItsBytesAndTheEventsTakeTheNextName) {
    const std::string users = "{\"the user's\": \"own file\"}\n";
    std::ofstream(dir / "hero.events.json", std::ios::binary) << users;
    const CommandResult converted = convert_hero("hero.glb", "--events {hero.events.json}");
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(text_of(dir / "hero.events.json"), users);
    EXPECT_EQ(json_of(dir / "hero.events-2.json")["clips"][0]["events"], kWalkEvents);
    EXPECT_NE(converted.err.find("[events.renamed]"), std::string::npos) << converted.err;
    EXPECT_NE(converted.err.find("hero.events.json"), std::string::npos) << converted.err;
    // The same events again: the file holding them is reused, no third name.
    const CommandResult again = convert_hero("hero.glb", "--events {hero.events-2.json}");
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(again.err, "");
    EXPECT_FALSE(fs::exists(dir / "hero.events-3.json"));
}

TEST_F(EventsCli, TheEventsNeverTakeTheOutputsName) {
    const CommandResult converted = convert_hero("hero.glb", "--events {hero.glb}");
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(gltf_json(dir / "hero.glb")["asset"]["version"], "2.0");
    EXPECT_EQ(json_of(dir / "hero-2.glb")["clips"].size(), 2u);
}

TEST_F(EventsCli, BakeWritesTheBakedClipsEventsAtItsOwnRate) {
    const CommandResult baked =
        run_cli(fmt::format("bake --model {} --anim {} -o {} --fps 60 --events {}",
                            quoted(kHero / "hero.cast"), quoted(kHero / "hero_walk.cast"),
                            quoted(dir / "walk60.cast"), quoted(dir / "walk60.events.json")));
    ASSERT_EQ(baked.exit_code, 0) << baked.err;
    const nlohmann::json clip = json_of(dir / "walk60.events.json")["clips"][0];
    EXPECT_EQ(clip["framerate"], 60);
    EXPECT_EQ(clip["events"], nlohmann::json::parse(R"([
        {"name": "footstep", "frame": 0, "time": 0},
        {"name": "footstep", "frame": 30, "time": 0.5}])"));
}

TEST_F(EventsCli, AModelWithoutAnimationsGivesNoClips) {
    const CommandResult converted =
        run_cli(fmt::format("convert {} {} --events {}", quoted(kHero / "hero.cast"),
                            quoted(dir / "hero.glb"), quoted(dir / "hero.events.json")));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(json_of(dir / "hero.events.json")["clips"], nlohmann::json::array());
}

TEST_F(EventsCli, AFolderConversionRefusesOneEventsFileAndNamesTheOptionThatGivesOneEach) {
    const CommandResult converted =
        run_cli(fmt::format("convert {} -o {} --to glb --events {}", quoted(kHero),
                            quoted(dir / "out"), quoted(dir / "events.json")));
    EXPECT_EQ(converted.exit_code, 2);
    EXPECT_NE(converted.err.find("--events-beside"), std::string::npos) << converted.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST_F(EventsCli, EventsBesideNamesTheSidecarForTheOutput) {
    const CommandResult converted = convert_hero("hero.glb", "--events-beside");
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(json_of(dir / "hero.events.json")["clips"][0]["events"], kWalkEvents);
    const CommandResult both = convert_hero("hero2.glb", "--events-beside --events {e.json}");
    EXPECT_EQ(both.exit_code, 2) << both.err;
    const CommandResult piped = run_cli(
        fmt::format("convert {} - --to seanim --events-beside", quoted(kHero / "hero_walk.cast")));
    EXPECT_EQ(piped.exit_code, 2);
    EXPECT_NE(piped.err.find("--events FILE.json"), std::string::npos) << piped.err;
}

// Each output of a folder gets the events of the file written: every model with a skeleton has
// the walk --anims merges into it (in a sub-folder too), the idle file its own clip.
TEST_F(EventsCli, AFolderConversionWritesEachOutputsEventsBesideIt) {
    fs::create_directories(dir / "in" / "props");
    fs::create_directories(dir / "anims");
    fs::copy_file(kHero / "hero.cast", dir / "in" / "hero.cast");
    fs::copy_file(kHero / "hero_idle.cast", dir / "in" / "hero_idle.cast");
    fs::copy_file(kHero / "hero.cast", dir / "in" / "props" / "statue.cast");
    fs::copy_file(kHero / "hero_walk.cast", dir / "anims" / "hero_walk.cast");
    const CommandResult converted =
        run_cli(in_dir(dir, "convert {in} -o {out} --to glb -r --anims {anims} --events-beside"));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    const nlohmann::json hero = json_of(dir / "out" / "hero.events.json")["clips"];
    ASSERT_EQ(hero.size(), 1u);
    EXPECT_EQ(hero[0]["events"], kWalkEvents);
    const nlohmann::json idle = json_of(dir / "out" / "hero_idle.events.json")["clips"];
    ASSERT_EQ(idle.size(), 1u);
    EXPECT_EQ(idle[0]["name"], "idle");
    EXPECT_EQ(idle[0]["events"], nlohmann::json::array());
    EXPECT_EQ(json_of(dir / "out" / "props" / "statue.events.json")["clips"].size(), 1u);
    EXPECT_TRUE(fs::exists(dir / "out" / "hero.glb"));
}

TEST_F(EventsCli, TheImporterReadsTheEventsListWhenCastkitsOwnLayoutIsAbsent) {
    ASSERT_EQ(run_cli(fmt::format("convert {} {} -o {}", quoted(kHero / "hero.cast"),
                                  quoted(kHero / "hero_walk.cast"), quoted(dir / "walk.gltf")))
                  .exit_code,
              0);
    nlohmann::json json = gltf_json(dir / "walk.gltf");
    json["animations"][0]["extras"].erase("castkit_notifications");
    std::ofstream(dir / "walk.gltf", std::ios::binary) << json.dump();
    const CommandResult read = run_cli(in_dir(dir, "convert {walk.gltf} {walk.cast}"));
    ASSERT_EQ(read.exit_code, 0) << read.err;
    EXPECT_EQ(read.err.find("gltf.extras-dropped"), std::string::npos) << read.err;
    auto document = open_cast(dir / "walk.cast");
    ASSERT_TRUE(document.has_value());
    const auto tracks = document->animations()[0].notification_tracks();
    ASSERT_EQ(tracks.size(), 1u);
    EXPECT_EQ(tracks[0].name().value_or(""), "footstep");
    EXPECT_EQ(tracks[0].key_frames().to_vector(), (std::vector<std::uint32_t>{0, 15}));
}

}  // namespace
}  // namespace castkit::test::events_cli_test
