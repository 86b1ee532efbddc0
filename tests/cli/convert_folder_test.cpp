// `castkit convert DIR -o OUTDIR --to FORMAT`: a folder of hundreds of mixed files (every
// format castkit reads, some corrupt) converted in one command, in parallel.
#include <gtest/gtest.h>

#include <castkit/batch.hpp>
#include <fstream>

#include "../formats/cli_command.hpp"
#include "../gltf/gltf_scene.hpp"
#include "character.hpp"

namespace castkit::test::convert_folder_test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kModelFormats{"cast", "semodel", "dmf", "dmf.json",
                                             "k3d",  "glb",     "gltf"};
// DMF animation-only files are left out: written from an animation-only document they
// convert to a glb with a null node (a DMF/glTF limitation reported separately).
const std::vector<std::string> kAnimationFormats{"seanim", "cast", "glb"};

void write_text(const fs::path& path, std::string_view text) {
    std::ofstream(path, std::ios::binary) << text;
}

// The first half of a valid file: cut short in the middle of its data.
void truncate_copy(const fs::path& from, const fs::path& to) {
    std::vector<std::byte> bytes = read_bytes(from);
    bytes.resize(bytes.size() / 2);
    write_bytes(to, bytes);
}

class ConvertFolder : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("convert-folder-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    fs::path dir;
};

TEST_F(ConvertFolder, HundredsOfMixedFilesConvertAndCorruptOnesAreReported) {
    const fs::path assets = dir / "assets";
    fs::create_directories(assets / "props" / "deep");
    std::size_t valid = 0;
    for (int i = 0; i < 24; ++i) {
        const fs::path folder = i % 3 == 0   ? assets
                                : i % 3 == 1 ? assets / "props"
                                             : assets / "props" / "deep";
        for (const std::string& ext : kModelFormats) {
            std::string stem = ext;
            std::replace(stem.begin(), stem.end(), '.', '_');
            write_as(character(), folder / fmt::format("model{}_{}.{}", i, stem, ext));
            ++valid;
        }
        for (const std::string& ext : kAnimationFormats) {
            std::string stem = ext;
            std::replace(stem.begin(), stem.end(), '.', '_');
            write_as(character_animation("walk", {"root", "head"}),
                     folder / fmt::format("walk{}_{}.{}", i, stem, ext));
            ++valid;
        }
    }
    // Two inputs whose outputs would share a name: the later one keeps its own extension.
    write_as(character(), assets / "twin.cast");
    write_as(character(), assets / "twin.semodel");
    valid += 2;
    // Corrupt files of every format: cut short, or not the format at all.
    std::vector<std::string> corrupt;
    for (const std::string& ext : kModelFormats) {
        std::string stem = ext;
        std::replace(stem.begin(), stem.end(), '.', '_');
        const std::string name = fmt::format("broken_{}.{}", stem, ext);
        truncate_copy(assets / fmt::format("model0_{}.{}", stem, ext), assets / "props" / name);
        corrupt.push_back(name);
    }
    write_text(assets / "noise.seanim", "SEAnim\0 but nothing else");
    write_text(assets / "props" / "text.cast", "this is not a cast file");
    corrupt.insert(corrupt.end(), {"noise.seanim", "text.cast"});
    // Files castkit cannot read are not inputs.
    write_text(assets / "readme.txt", "not an asset");

    const fs::path out = dir / "out";
    CommandResult result = run_cli(
        in_dir(dir, "convert {assets} -o {out} --to glb --recursive -j 2 --report {report.json}"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_GE(valid + corrupt.size(), 200u);

    // One entry per input; the corrupt ones failed with the usual file/offset/path error.
    nlohmann::json report = nlohmann::json::parse(std::ifstream(dir / "report.json"));
    ASSERT_EQ(report["files"].size(), valid + corrupt.size());
    EXPECT_EQ(report["summary"]["failed"], corrupt.size());
    EXPECT_EQ(report["summary"]["converted"].get<std::size_t>() +
                  report["summary"]["warned"].get<std::size_t>(),
              valid);
    std::size_t failed = 0;
    for (const nlohmann::json& entry : report["files"]) {
        const std::string input = entry["input"];
        const bool is_corrupt =
            std::any_of(corrupt.begin(), corrupt.end(),
                        [&](const std::string& name) { return input.ends_with("/" + name); });
        EXPECT_EQ(entry["status"] == "failed", is_corrupt) << entry.dump();
        EXPECT_GT(entry["bytes"].get<std::uint64_t>(), 0u);
        EXPECT_TRUE(entry.contains("milliseconds"));
        if (!is_corrupt) {
            EXPECT_TRUE(fs::exists(entry["output"].get<std::string>())) << entry.dump();
            continue;
        }
        ++failed;
        ASSERT_EQ(entry["errors"].size(), 1u);
        const std::string error = entry["errors"][0];
        EXPECT_NE(error.find(fs::path(input).filename().string()), std::string::npos) << error;
        EXPECT_NE(result.err.find(error), std::string::npos) << result.err;
        EXPECT_FALSE(fs::exists(entry["output"].get<std::string>()));
    }
    EXPECT_EQ(failed, corrupt.size());

    // The same relative tree; of two colliding names the later keeps the input's extension.
    EXPECT_TRUE(fs::exists(out / "model0_semodel.glb"));
    EXPECT_TRUE(fs::exists(out / "props" / "model1_k3d.glb"));
    EXPECT_TRUE(fs::exists(out / "props" / "deep" / "walk2_glb.glb"));
    EXPECT_TRUE(fs::exists(out / "twin.glb"));
    EXPECT_TRUE(fs::exists(out / "twin.semodel.glb"));
    EXPECT_FALSE(fs::exists(out / "readme.glb"));
    // stdout is not a terminal here: the summary only, no progress line (which starts by erasing
    // the line: "\r\033[K"; Windows ends text lines with "\r\n").
    EXPECT_EQ(result.out.find('\033'), std::string::npos);
    EXPECT_NE(result.out.find(fmt::format("{} failed", corrupt.size())), std::string::npos)
        << result.out;
    // Every output is complete and valid glTF.
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(out))
        EXPECT_EQ(entry.path().string().find(".castkit-"), std::string::npos) << entry.path();
    if (const std::optional<ValidatorResult> validation = run_gltf_validator(out)) {
        EXPECT_EQ(validation->exit_code, 0) << validation->output;
        std::size_t clean = 0;
        for (std::size_t at = 0;
             (at = validation->output.find(": 0 errors", at)) != std::string::npos; ++at)
            ++clean;
        EXPECT_EQ(clean, valid) << validation->output;
    }

    // A second run skips what is up to date and tries the failures again; --force redoes all.
    CommandResult again = run_cli(
        in_dir(dir, "convert {assets} -o {out} --to glb --recursive --report {again.json}"));
    EXPECT_EQ(again.exit_code, 1);
    nlohmann::json second = nlohmann::json::parse(std::ifstream(dir / "again.json"));
    EXPECT_EQ(second["summary"]["skipped"], valid);
    EXPECT_EQ(second["summary"]["failed"], corrupt.size());
    CommandResult forced = run_cli(
        in_dir(dir, "convert {assets} -o {out} --to glb -r --force -q --report {forced.json}"));
    nlohmann::json third = nlohmann::json::parse(std::ifstream(dir / "forced.json"));
    EXPECT_EQ(third["summary"]["skipped"], 0u);
    EXPECT_TRUE(forced.out.empty()) << forced.out;
}

TEST_F(ConvertFolder, WithoutRecursiveOnlyTheTopFolderIsConverted) {
    fs::create_directories(dir / "in" / "sub");
    write_as(character(), dir / "in" / "top.semodel");
    write_as(character(), dir / "in" / "sub" / "below.semodel");
    CommandResult result = run_cli(in_dir(dir, "convert {in} -o {out} --to cast"));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(fs::exists(dir / "out" / "top.cast"));
    EXPECT_FALSE(fs::exists(dir / "out" / "sub"));
    EXPECT_NE(result.out.find("1 files: 1 converted"), std::string::npos) << result.out;
}

TEST_F(ConvertFolder, AnimsAttachesEveryAnimationToEveryModel) {
    fs::create_directories(dir / "models");
    fs::create_directories(dir / "anims");
    for (const char* ext : {"semodel", "cast", "k3d"})
        write_as(character(), dir / "models" / (std::string("hero_") + ext + "." + ext));
    write_as(character_animation("", {"root"}), dir / "anims" / "walk.seanim");
    write_as(character_animation("", {"head", "spine"}), dir / "anims" / "run.seanim");
    CommandResult result = run_cli(
        in_dir(dir, "convert {models} -o {out} --to glb --anims {anims} --report {report.json}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    nlohmann::json report = nlohmann::json::parse(std::ifstream(dir / "report.json"));
    ASSERT_EQ(report["files"].size(), 3u);
    for (const nlohmann::json& entry : report["files"]) {
        nlohmann::json json = gltf_json(entry["output"].get<std::string>());
        ASSERT_EQ(json["animations"].size(), 2u) << entry.dump();
        // Animation files in name order.
        EXPECT_EQ(json["animations"][0]["name"], "run");
        EXPECT_EQ(json["animations"][1]["name"], "walk");
        EXPECT_EQ(json["skins"].size(), 1u);
    }
}

// Issue 57 item 5: --anims files were read by path once per model, so a file swapped for a
// link to another animation during a run put that one into 495-687 outputs. Each is read once
// for the run (batch::Options::animation_files) and every model merges the same bytes: the
// file is swapped here between the first model's conversion and the second's.
TEST_F(ConvertFolder, AnAnimationSwappedDuringARunChangesNoOutput) {
    fs::create_directories(dir / "models");
    fs::create_directories(dir / "anims");
    fs::create_directories(dir / "outside");
    write_as(character(), dir / "models" / "a.cast");
    write_as(character(), dir / "models" / "b.cast");
    write_as(character_animation("", {"root"}), dir / "anims" / "walk.seanim");
    write_as(character_animation("", {"head", "spine"}), dir / "outside" / "walk.seanim");
    batch::Options options;
    options.input_dir = dir / "models";
    options.output_dir = dir / "out";
    options.to = "glb";
    options.animations = {dir / "anims" / "walk.seanim"};
    Diagnostics diagnostics;
    auto plan = batch::plan(options, diagnostics);
    ASSERT_TRUE(plan) << plan.error().to_string();
    ASSERT_EQ(plan->tasks.size(), 2u);
    const batch::Result first = batch::convert(options, plan->tasks[0], plan->outputs);
    fs::remove(dir / "anims" / "walk.seanim");
    std::error_code error;
    fs::create_symlink(dir / "outside" / "walk.seanim", dir / "anims" / "walk.seanim", error);
    if (error) GTEST_SKIP() << "symbolic links need a privilege here";
    const batch::Result second = batch::convert(options, plan->tasks[1], plan->outputs);
    ASSERT_TRUE(first.errors.empty() && second.errors.empty());
    auto channels = [](const fs::path& glb) {
        const nlohmann::json json = gltf_json(glb);
        return json["animations"].size() == 1 ? json["animations"][0]["channels"].size() : 0u;
    };
    const std::size_t merged = channels(plan->tasks[0].output);
    EXPECT_GT(merged, 0u);
    EXPECT_EQ(channels(plan->tasks[1].output), merged);
}

TEST_F(ConvertFolder, AFolderNeedsAnOutputFormat) {
    fs::create_directories(dir / "in");
    CommandResult result = run_cli(in_dir(dir, "convert {in} -o {out}"));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("--to"), std::string::npos);
}

}  // namespace
}  // namespace castkit::test::convert_folder_test
