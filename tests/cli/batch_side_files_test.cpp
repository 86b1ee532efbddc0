// castkit::batch::side_files (castkit/batch.hpp): the files a folder conversion's task reads
// besides its input, which a run whose workers do not see the client's folders sends with it
// (docs/batch.md, "Bytes only"). Found under the side-file policy, so nothing it refuses is sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/batch.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <fstream>

#include "../test_support.hpp"

namespace castkit::test::batch_side_files_test {
namespace {

namespace fs = std::filesystem;

// A Cast document of one model whose material names `textures`.
cast::Document textured(const std::vector<std::string>& textures) {
    cast::Document document;
    cast::Material material = document.add_root().add_model().add_material();
    for (std::size_t i = 0; i < textures.size(); ++i) {
        cast::File file = material.add_file(textures[i]);
        material.set_slot(i == 0 ? "albedo" : "extra" + std::to_string(i), file);
    }
    return document;
}

void save(const cast::Document& document, const fs::path& path) {
    fs::create_directories(path.parent_path());
    ASSERT_TRUE(cast::write(document, path));
}

void touch(const fs::path& path, std::string_view text = "image") {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

class BatchSideFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = fs::absolute(
            temp_dir("batch-side-files-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())));
        fs::create_directories(dir / "in");
    }

    // The side files of in/`name` converted to `to`, relative to in/, sorted.
    std::vector<std::string> listed(const std::string& name, const std::string& to,
                                    bool inline_instances = false) const {
        batch::Options options;
        options.input_dir = dir / "in";
        options.output_dir = dir / "out";
        options.to = to;
        options.format_options.place_textures = true;  // as `castkit convert`
        options.format_options.inline_instances = inline_instances;
        batch::Task task;
        task.input = dir / "in" / name;
        task.output = (dir / "out" / name).replace_extension(to == "glb" ? ".glb" : ".semodel");
        std::vector<std::string> out;
        for (const fs::path& path : batch::side_files(options, task)) {
            EXPECT_TRUE(path.is_absolute()) << path;
            out.push_back(path.lexically_relative(dir / "in").generic_string());
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    fs::path dir;
};

TEST_F(BatchSideFiles, ACastModelListsTheTexturesItsMaterialsNameAndFindsNothingOutside) {
    touch(dir / "in/tex/albedo.png");
    touch(dir / "in/normal.png");
    touch(dir / "outside.png", "a file outside the input's folder");
    std::error_code no_links;  // symbolic links need a privilege on Windows: then none is made
    fs::create_symlink(dir / "outside.png", dir / "in/link.png", no_links);
    save(textured({"tex/albedo.png", "normal.png", "missing.png", "../outside.png",
                   (dir / "outside.png").string(), "link.png"}),
         dir / "in/hero.cast");
    // The texture named by a Windows path from another machine is found by its name.
    save(textured({"C:\\art\\tex\\albedo.png"}), dir / "in/tex/other.cast");
    for (const std::string to : {"semodel", "glb"}) {
        EXPECT_EQ(listed("hero.cast", to),
                  (std::vector<std::string>{"normal.png", "tex/albedo.png"}))
            << to;
        EXPECT_EQ(listed("tex/other.cast", to), (std::vector<std::string>{"tex/albedo.png"}));
    }
}

TEST_F(BatchSideFiles, AGltfListsItsBuffersAndImagesAndABrokenFileNone) {
    const fs::path sample = fs::path(CASTKIT_FIXTURES) / "gltf/real/BoxTextured-glTF";
    fs::create_directories(dir / "in/box");
    for (const char* name : {"BoxTextured.gltf", "BoxTextured0.bin", "CesiumLogoFlat.png"})
        fs::copy_file(sample / name, dir / "in/box" / name);
    touch(dir / "in/box/unrelated.png");
    EXPECT_EQ(listed("box/BoxTextured.gltf", "semodel"),
              (std::vector<std::string>{"box/BoxTextured0.bin", "box/CesiumLogoFlat.png"}));
    touch(dir / "in/broken.gltf", "{ not json");
    EXPECT_TRUE(listed("broken.gltf", "glb").empty());
    touch(dir / "in/noise.cast", "not a cast file");
    EXPECT_TRUE(listed("noise.cast", "glb").empty());
}

TEST_F(BatchSideFiles, AnInstanceListsItsSceneAndWhenInlinedTheScenesOwnFiles) {
    touch(dir / "in/parts/wood.png");
    save(textured({"wood.png"}), dir / "in/parts/prop.cast");
    cast::Document scene;
    cast::Root root = scene.add_root();
    for (const char* path : {"parts/prop.cast", "../elsewhere/prop.cast"}) {
        cast::Instance instance = root.add_instance();
        cast::File file = instance.add_file(path);
        instance.set_reference_file(file);
    }
    save(textured({"wood.png"}), dir / "elsewhere/prop.cast");
    save(scene, dir / "in/scene.cast");
    EXPECT_EQ(listed("scene.cast", "glb", true),
              (std::vector<std::string>{"parts/prop.cast", "parts/wood.png"}));
    // Not inlined: the scene is named, not read, so its own files are not needed.
    EXPECT_EQ(listed("scene.cast", "glb", false), (std::vector<std::string>{"parts/prop.cast"}));
}

// A worker converts a task without the plan's warnings; put back, they make a converted file
// warned, as convert() on the client says, and the worker's paths become the client's.
Diagnostic warning(std::string file, std::string rule, std::string message) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.file = std::move(file);
    d.rule = std::move(rule);
    d.message = std::move(message);
    return d;
}

// A worker's answer names files inside the output folder, but a link there (one a program
// dropped into it) led them elsewhere: the check was on the names alone, so a bytes-only run
// wrote a worker's texture outside every folder the user gave. Each file is now checked where
// it really lands; an output folder that is itself a link still takes its files.
TEST_F(BatchSideFiles, AWorkersFileLedOutOfTheOutputFolderByALinkIsRefused) {
    fs::create_directories(dir / "elsewhere");
    fs::create_directories(dir / "out");
    std::error_code linked;
    fs::create_directory_symlink(dir / "elsewhere", dir / "out" / "textures", linked);
    if (linked) GTEST_SKIP() << "no directory links here: " << linked.message();
    batch::Options options;
    options.input_dir = dir / "in";
    options.output_dir = dir / "out";
    options.to = "cast";
    batch::Task task;
    task.input = dir / "in" / "hero.cast";
    task.output = dir / "out" / "hero.cast";
    const std::vector<std::byte> bytes(4, std::byte{1});
    const std::vector<batch::OutputFile> files{{dir / "out" / "textures" / "skin.png", bytes},
                                               {task.output, bytes}};
    auto placed = batch::place_outputs(options, task, files);
    ASSERT_FALSE(placed.has_value());
    EXPECT_EQ(placed.error().rule, "io.worker-output");
    EXPECT_NE(placed.error().message.find("a link inside the output folder"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir / "elsewhere" / "skin.png"));
    EXPECT_FALSE(fs::exists(task.output));

    // The output folder itself a link: its files are placed through it.
    fs::create_directory_symlink(dir / "elsewhere", dir / "linked-out", linked);
    ASSERT_FALSE(linked) << linked.message();
    options.output_dir = dir / "linked-out";
    task.output = dir / "linked-out" / "hero.cast";
    const std::vector<batch::OutputFile> through{{dir / "linked-out" / "skin.png", bytes},
                                                 {task.output, bytes}};
    auto written = batch::place_outputs(options, task, through);
    ASSERT_TRUE(written.has_value()) << written.error().to_string();
    EXPECT_TRUE(fs::exists(dir / "elsewhere" / "skin.png"));
    EXPECT_TRUE(fs::exists(dir / "elsewhere" / "hero.cast"));
}

// Issue 45 item 2: an input replaced by a link to a file outside the folder after the plan
// listed it was converted, the outside file's contents landing in the output. The input is now
// opened once and judged by what was opened.
TEST_F(BatchSideFiles, AnInputSwappedForALinkOutsideAfterThePlanIsNotRead) {
    save(textured({"inside.png"}), dir / "in" / "model.cast");
    save(textured({"secret.png"}), dir / "secret.cast");
    batch::Options options;
    options.input_dir = dir / "in";
    options.output_dir = dir / "out";
    options.to = "cast";
    Diagnostics warnings;
    auto planned = batch::plan(options, warnings);
    ASSERT_TRUE(planned) << planned.error().to_string();
    ASSERT_EQ(planned->tasks.size(), 1u);
    const batch::Task& task = planned->tasks.front();
    fs::remove(task.input);
    std::error_code linked;
    fs::create_symlink(dir / "secret.cast", task.input, linked);
    if (linked) GTEST_SKIP() << "no links here: " << linked.message();

    const batch::Result refused = batch::convert(options, task, planned->outputs);
    EXPECT_EQ(refused.status, batch::Status::Failed);
    ASSERT_EQ(refused.errors.size(), 1u);
    EXPECT_EQ(refused.errors.front().rule, "io.link-outside");
    EXPECT_FALSE(fs::exists(task.output));

    options.format_options.side_files.allow_any_path = true;  // --allow-any-path follows it
    const batch::Result followed = batch::convert(options, task, planned->outputs);
    EXPECT_EQ(followed.status, batch::Status::Converted) << followed.errors.size();
    EXPECT_TRUE(fs::exists(task.output));
}

// The bytes transfer read each file again by path after listing it: under a racing link, 9 of
// 90 outputs embedded a file from outside. What it sends is now read from the descriptor that
// was checked: inside the input folder or a texture folder; an animation as the options name it.
TEST_F(BatchSideFiles, ASentFileIsReadOnlyFromInsideTheRunsFolders) {
    touch(dir / "in/albedo.png", "inside");
    touch(dir / "textures/shared.png", "shared");
    touch(dir / "anims/walk.seanim", "walk");
    touch(dir / "outside.png", "a file outside every folder of the run");
    batch::Options options;
    options.input_dir = dir / "in";
    options.output_dir = dir / "out";
    options.to = "glb";
    options.format_options.side_files.folders = {dir / "textures"};
    options.animations = {dir / "anims/walk.seanim"};
    auto text = [&](const fs::path& path) {
        auto bytes = batch::read_sent_file(options, path);
        return bytes ? std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size())
                     : bytes.error().rule;
    };
    EXPECT_EQ(text(dir / "in/albedo.png"), "inside");
    EXPECT_EQ(text(dir / "textures/shared.png"), "shared");
    EXPECT_EQ(text(dir / "anims/walk.seanim"), "walk");
    EXPECT_EQ(text(dir / "outside.png"), "io.link-outside");
    fs::remove(dir / "in/albedo.png");
    std::error_code linked;
    fs::create_symlink(dir / "outside.png", dir / "in/albedo.png", linked);
    if (linked) GTEST_SKIP() << "no links here: " << linked.message();
    EXPECT_EQ(text(dir / "in/albedo.png"), "io.link-outside");
    options.format_options.side_files.allow_any_path = true;
    EXPECT_EQ(text(dir / "in/albedo.png"), "a file outside every folder of the run");
}

// The input a "cut" file's listing is asked about: cut to nothing while its bytes are listed.
fs::path g_cut_input;

// A format whose referenced_files() cuts its input short before it looks at the bytes: what
// another program truncating the file while the client lists it does, deterministically.
FormatInfo cutting_format() {
    FormatInfo format;
    format.name = "cut";
    format.extensions = {".cut"};
    format.read = [](const cast::SharedBytes&, const ReadContext&,
                     Diagnostics&) -> Expected<cast::Document> { return cast::Document(); };
    format.write = [](const cast::Document&, Sink&, const WriteContext&,
                      Diagnostics&) -> Expected<void> { return {}; };
    format.referenced_files = [](std::span<const std::byte> bytes) {
        std::error_code ignored;
        fs::resize_file(g_cut_input, 0, ignored);
        std::size_t sum = 0;
        for (std::byte b : bytes) sum += static_cast<std::size_t>(b);
        return std::vector<std::string>{"image" + std::to_string(sum % 2) + ".png"};
    };
    return format;
}

// Issue 57 item 5: the bytes-only client mapped each input to list its side files, and an
// input cut short meanwhile killed it with SIGBUS (every time: a mapping's lost pages fault).
// It reads the input into memory instead. The format is registered in the child alone, so the
// registry of this program holds castkit's formats only.
TEST_F(BatchSideFiles, ListingAnInputCutShortWhileItIsListedDoesNotKillTheClient) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    g_cut_input = dir / "in/model.cut";
    touch(g_cut_input, std::string(256 * 1024, 'x'));
    touch(dir / "in/image0.png");
    touch(dir / "in/image1.png");
    batch::Options options;
    options.input_dir = dir / "in";
    options.output_dir = dir / "out";
    options.to = "glb";
    batch::Task task;
    task.input = g_cut_input;
    task.output = dir / "out/model.glb";
    EXPECT_EXIT(
        {
            if (!register_format(cutting_format())) std::exit(2);
            const std::vector<fs::path> files = batch::side_files(options, task);
            std::exit(files.empty() ? 3 : 0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST(BatchRelocated, ThePlansWarningsComeFirstAndMakeAConvertedFileWarned) {
    batch::Task task;
    task.input = "/client/in/hero.k3d";
    task.warnings.push_back(
        warning("/client/in/hero.k3d", "output.renamed", "written as 'hero.k3d.glb'"));
    batch::Result converted;
    converted.status = batch::Status::Converted;
    const std::vector<batch::PathPrefix> files{{"/w/in/hero.k3d", "/client/in/hero.k3d"}};
    const std::vector<batch::PathPrefix> folder{{"/w/", "/client/"}};
    batch::Result result = batch::relocated(converted, task, files, folder);
    EXPECT_EQ(result.status, batch::Status::Warned);
    ASSERT_EQ(result.warnings.size(), 1u);
    EXPECT_EQ(result.warnings.begin()->rule, "output.renamed");

    converted.warnings.push_back(
        warning("/w/out/hero.k3d.glb", "gltf.export", "see /w/out/hero.k3d.glb"));
    converted.status = batch::Status::Warned;
    result = batch::relocated(converted, task, files, folder);
    EXPECT_EQ(result.status, batch::Status::Warned);
    ASSERT_EQ(result.warnings.size(), 2u);
    const Diagnostic& moved = *std::next(result.warnings.begin());
    EXPECT_EQ(moved.file, "/client/out/hero.k3d.glb");
    EXPECT_EQ(moved.message, "see /client/out/hero.k3d.glb");

    batch::Result failed;
    failed.status = batch::Status::Failed;
    EXPECT_EQ(batch::relocated(failed, task, files, folder).status, batch::Status::Failed);
}

// Issue 45 item 6: a report given fewer results than tasks read past the end of the results.
TEST(BatchReport, ATaskWithoutAResultIsReportedAsNotStarted) {
    batch::Options options;
    options.to = "glb";
    std::vector<batch::Task> tasks(3);
    tasks[0].input = "a.cast";
    tasks[1].input = "b.cast";
    tasks[2].input = "c.cast";
    std::vector<batch::Result> results(1);
    results[0].status = batch::Status::Converted;
    const std::string report = batch::report(options, tasks, results, 1, 0.5);
    EXPECT_NE(report.find("\"converted\": 1"), std::string::npos) << report;
    EXPECT_NE(report.find("\"input\": \"c.cast\""), std::string::npos) << report;
    std::size_t not_started = 0;
    for (std::size_t at = report.find("\"not-started\""); at != std::string::npos;
         at = report.find("\"not-started\"", at + 1))
        ++not_started;
    EXPECT_EQ(not_started, 2u) << report;
}

}  // namespace
}  // namespace castkit::test::batch_side_files_test
