// What a user met in their first hour with the CLI (issue 42): `validate` of any format,
// formats told from the bytes, `bake` writing the format its output names, glTF output of a
// scene of Instances, and errors that say what is wrong.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <nlohmann/json.hpp>

#include "../formats/cli_command.hpp"
#include "../gltf/gltf_scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::first_hour_test {
namespace {

namespace fs = std::filesystem;

fs::path examples() { return fs::path(CASTKIT_SOURCE_DIR) / "examples" / "data"; }
fs::path hero(const std::string& name) { return examples() / "hero" / name; }

// Every file under examples/data/ whose extension names a format castkit reads.
std::vector<fs::path> example_models() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(examples()))
        if (entry.is_regular_file() && format_for_path(entry.path()) != nullptr)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string first_bytes(const fs::path& path, std::size_t count) {
    const std::vector<std::byte> bytes = read_bytes(path);
    return std::string(reinterpret_cast<const char*>(bytes.data()), std::min(count, bytes.size()));
}

// ---- 2. formats told from the bytes ------------------------------------------------------------

TEST(CliSniff, StandardInputOfEveryFormatIsRead) {
    for (const fs::path& file : example_models()) {
        const FormatInfo* format = format_for_path(file);
        // A .gltf from standard input has no folder to find its buffer in (docs/security.md).
        if (format->name == "gltf") continue;
        SCOPED_TRACE(file.string());
        CommandResult result = run_cli("info - < " + quoted(file));
        EXPECT_EQ(result.exit_code, 0) << result.err;
        const std::string kind =
            format->name == "cast" ? "cast v1" : fmt::format("{}, read as Cast", format->name);
        EXPECT_NE(result.out.find("<stdin>: " + kind), std::string::npos) << result.out;
    }
}

TEST(CliSniff, AnUnknownExtensionIsToldFromTheBytes) {
    const fs::path dir = temp_dir("cli-sniff-extension");
    fs::copy_file(hero("hero.glb"), dir / "hero.download");
    fs::copy_file(hero("hero.dmf.json"), dir / "hero.txt");
    CommandResult glb = run_cli(in_dir(dir, "info {hero.download}"));
    EXPECT_EQ(glb.exit_code, 0) << glb.err;
    EXPECT_NE(glb.out.find("glb, read as Cast"), std::string::npos) << glb.out;
    CommandResult json = run_cli(in_dir(dir, "info {hero.txt}"));
    EXPECT_EQ(json.exit_code, 0) << json.err;
    EXPECT_NE(json.out.find("dmf-json, read as Cast"), std::string::npos) << json.out;
    CommandResult converted = run_cli(in_dir(dir, "convert {hero.download} {hero.semodel}"));
    EXPECT_EQ(converted.exit_code, 0) << converted.err;
    EXPECT_EQ(first_bytes(dir / "hero.semodel", 7), "SEModel");
}

TEST(CliSniff, BytesOfNoFormatAreAUsageError) {
    const fs::path dir = temp_dir("cli-sniff-none");
    write_bytes(dir / "notes.txt", {std::byte{'h'}, std::byte{'i'}});
    CommandResult file = run_cli(in_dir(dir, "info {notes.txt}"));
    EXPECT_EQ(file.exit_code, 2);
    EXPECT_NE(file.err.find("notes.txt: cannot tell the format from the extension or the contents"),
              std::string::npos)
        << file.err;
    CommandResult piped = run_cli(in_dir(dir, "dump - < {notes.txt}"));
    EXPECT_EQ(piped.exit_code, 2);
    EXPECT_NE(piped.err.find("<stdin>: cannot tell the format from the contents; use --from"),
              std::string::npos)
        << piped.err;
}

// ---- 6a. a missing input ------------------------------------------------------------------------

TEST(CliErrors, AMissingInputSaysItIsMissing) {
    const fs::path dir = temp_dir("cli-missing");
    CommandResult folder =
        run_cli_in(fmt::format("cd {} && ", quoted(dir)), "convert assets/ -o out/ --to glb");
    EXPECT_EQ(folder.exit_code, 1);
    std::erase(folder.err, '\r');  // Windows ends text lines with "\r\n"
    EXPECT_EQ(folder.err, "castkit: assets/: no such file or folder\n");
    CommandResult file = run_cli(in_dir(dir, "info {gone.xyz}"));
    EXPECT_EQ(file.exit_code, 1);
    EXPECT_NE(file.err.find("gone.xyz: no such file or folder"), std::string::npos) << file.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
}

// ---- 3. bake writes the format its output names ------------------------------------------------

TEST(CliBake, TheOutputsExtensionNamesItsFormat) {
    const fs::path dir = temp_dir("cli-bake-format");
    const std::string bake = fmt::format("bake --model {} --anim {} -o ", quoted(hero("hero.cast")),
                                         quoted(hero("hero_walk.cast")));
    for (const auto& [name, magic] : std::vector<std::pair<std::string, std::string>>{
             {"walk.cast", "cast"}, {"walk.seanim", "SEAnim"}, {"walk.glb", "glTF"}}) {
        SCOPED_TRACE(name);
        CommandResult result = run_cli(bake + quoted(dir / name));
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(first_bytes(dir / name, magic.size()), magic);
    }
    EXPECT_EQ(gltf_json(dir / "walk.glb")["animations"].size(), 1u);
    CommandResult unknown = run_cli(bake + quoted(dir / "walk.xyz"));
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("cannot tell the format"), std::string::npos) << unknown.err;
    EXPECT_FALSE(fs::exists(dir / "walk.xyz"));
    CommandResult to = run_cli(bake + quoted(dir / "walk.bin") + " --to seanim");
    EXPECT_EQ(to.exit_code, 0) << to.err;
    EXPECT_EQ(first_bytes(dir / "walk.bin", 6), "SEAnim");
}

// ---- 1. validate reads every format ---------------------------------------------------------

TEST(CliValidateAnyFormat, EveryExampleFileValidates) {
    const std::vector<fs::path> files = example_models();
    ASSERT_GE(files.size(), 12u);
    std::string arguments = "validate --json";
    // fmt rather than operator+: g++ 12 at -O3 reports a false -Wrestrict for " " + s.
    for (const fs::path& file : files) arguments += fmt::format(" {}", quoted(file));
    CommandResult result = run_cli(arguments);
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out);
    ASSERT_EQ(report["files"].size(), files.size());
    for (const nlohmann::json& file : report["files"]) {
        EXPECT_TRUE(file["valid"].get<bool>()) << file.dump(2);
        for (const nlohmann::json& finding : file["diagnostics"])
            EXPECT_FALSE(finding["rule"].get<std::string>().starts_with("cast.")) << file.dump(2);
    }
}

TEST(CliValidateAnyFormat, TheIssuesFilesAreReadByTheirOwnReaders) {
    CommandResult result =
        run_cli("validate " + quoted(hero("hero.glb")) + " " + quoted(hero("hero_walk.seanim")));
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    EXPECT_EQ(result.out.find("bad magic"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("hero.glb: valid"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("hero_walk.seanim: valid"), std::string::npos) << result.out;
}

// The Cast rules run on the document a reader made: a SEModel with a broken face says so.
TEST(CliValidateAnyFormat, TheCastRulesRunOnWhatTheReaderMade) {
    const fs::path dir = temp_dir("cli-validate-rules");
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 1});
    ASSERT_TRUE(cast::write(document, dir / "flat.cast"));
    ASSERT_EQ(run_cli(in_dir(dir, "convert {flat.cast} {flat.k3d}")).exit_code, 0);
    CommandResult result = run_cli(in_dir(dir, "validate {flat.k3d}"));
    EXPECT_NE(result.out.find("[mesh.degenerate-face]"), std::string::npos) << result.out;
}

TEST(CliValidateAnyFormat, FromOverridesTheExtensionAndStandardInputIsSniffed) {
    const fs::path dir = temp_dir("cli-validate-from");
    fs::copy_file(hero("hero.semodel"), dir / "hero.cast");
    EXPECT_EQ(run_cli(in_dir(dir, "validate {hero.cast}")).exit_code, 1);
    CommandResult from = run_cli(in_dir(dir, "validate --from semodel {hero.cast}"));
    EXPECT_EQ(from.exit_code, 0) << from.out;
    CommandResult piped = run_cli("validate - < " + quoted(hero("hero.k3d")));
    EXPECT_EQ(piped.exit_code, 0) << piped.out << piped.err;
    EXPECT_NE(piped.out.find("<stdin>: valid"), std::string::npos) << piped.out;
}

// ---- 6d. one condition, one id -----------------------------------------------------------------

TEST(CliValidateAnyFormat, AnUnreadableFileKeepsTheReadersId) {
    const fs::path dir = temp_dir("cli-validate-ids");
    for (const char* name : {"hero.cast", "hero_walk.seanim", "hero.semodel", "hero.dmf"}) {
        SCOPED_TRACE(name);
        std::vector<std::byte> bytes = read_bytes(hero(name));
        bytes.resize(bytes.size() / 2);
        write_bytes(dir / name, bytes);
        CommandResult dump = run_cli(in_dir(dir, fmt::format("dump {{{}}}", name)));
        EXPECT_EQ(dump.exit_code, 1);
        const std::size_t open = dump.err.rfind('[');
        ASSERT_NE(open, std::string::npos) << dump.err;
        const std::string id = dump.err.substr(open + 1, dump.err.find(']', open) - open - 1);
        EXPECT_NE(id, "cast.read") << dump.err;
        CommandResult validate = run_cli(in_dir(dir, fmt::format("validate --json {{{}}}", name)));
        EXPECT_EQ(validate.exit_code, 1);
        const nlohmann::json report = nlohmann::json::parse(validate.out);
        ASSERT_EQ(report["files"][0]["diagnostics"].size(), 1u) << validate.out;
        EXPECT_EQ(report["files"][0]["diagnostics"][0]["rule"], id) << validate.out;
    }
}

// ---- 4 and 6a. folders
// ---------------------------------------------------------------------------

TEST(CliErrors, AFolderWithoutOutputFolderSaysHowToConvertIt) {
    const fs::path dir = temp_dir("cli-folder-no-o");
    CommandResult result =
        run_cli("convert " + quoted(examples() / "hero") + " " + quoted(dir / "out2"));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("is a folder"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("-o OUTDIR"), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(dir / "out2"));
}

TEST(CliErrors, AnOutputFolderInsideTheInputFolderIsRefused) {
    const fs::path dir = temp_dir("cli-folder-inside");
    fs::create_directories(dir / "in" / "sub");
    fs::copy_file(hero("hero.semodel"), dir / "in" / "hero.semodel");
    for (const char* output : {"in", "in/", "in/out", "in/sub/../out", "in/sub"}) {
        SCOPED_TRACE(output);
        CommandResult result =
            run_cli(in_dir(dir, "convert {in} -o ") + quoted(dir / output) + " --to cast");
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_NE(result.err.find("is the input folder"), std::string::npos) << result.err;
    }
    EXPECT_FALSE(fs::exists(dir / "in" / "out"));
    EXPECT_FALSE(fs::exists(dir / "in" / "hero.cast"));
    // A sibling whose name starts with the input's is outside it.
    CommandResult beside = run_cli(in_dir(dir, "convert {in} -o {in2} --to cast"));
    EXPECT_EQ(beside.exit_code, 0) << beside.err;
    EXPECT_TRUE(fs::exists(dir / "in2" / "hero.cast"));
}

// ---- 5. Instances in glTF ----------------------------------------------------------------------

std::size_t meshes_in(const fs::path& glb) {
    return gltf_json(glb).value("meshes", nlohmann::json::array()).size();
}

TEST(CliInstances, GltfOutputInlinesInstancesByDefault) {
    const fs::path dir = temp_dir("cli-instances");
    const std::string scene = quoted(examples() / "scene.cast");
    ASSERT_EQ(run_cli("convert " + scene + " " + quoted(dir / "default.glb")).exit_code, 0);
    EXPECT_GT(meshes_in(dir / "default.glb"), 0u);
    ASSERT_EQ(
        run_cli("convert --inline-instances " + scene + " " + quoted(dir / "inline.glb")).exit_code,
        0);
    EXPECT_EQ(read_bytes(dir / "inline.glb"), read_bytes(dir / "default.glb"));
    ASSERT_EQ(
        run_cli("convert --keep-instance-references " + scene + " " + quoted(dir / "refs.glb"))
            .exit_code,
        0);
    EXPECT_EQ(meshes_in(dir / "refs.glb"), 0u);
    const nlohmann::json refs = gltf_json(dir / "refs.glb");
    EXPECT_EQ(refs["nodes"][0]["extras"]["castkit_instance"]["file"], "character.cast");
    EXPECT_EQ(run_cli("convert --inline-instances --keep-instance-references " + scene + " " +
                      quoted(dir / "both.glb"))
                  .exit_code,
              2);
}

// ---- 6b and 6c. commands and their help ---------------------------------------------------------

TEST(CliErrors, AnUnknownCommandIsNamedWithTheCommands) {
    CommandResult result = run_cli("frobnicate");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("castkit: unknown command 'frobnicate'"), std::string::npos)
        << result.err;
    for (const char* command : {"info", "dump", "validate", "convert", "pose", "bake"})
        EXPECT_NE(result.err.find(command), std::string::npos) << command << "\n" << result.err;
    EXPECT_EQ(result.err.find("A subcommand is required"), std::string::npos) << result.err;
}

TEST(CliErrors, HelpShowsWordsNotEnumNumbers) {
    for (const char* command : {"info", "dump", "validate", "convert", "pose", "bake"}) {
        SCOPED_TRACE(command);
        CommandResult help = run_cli(fmt::format("{} --help", command));
        ASSERT_EQ(help.exit_code, 0);
        EXPECT_EQ(help.out.find("ENUM"), std::string::npos) << help.out;
        EXPECT_EQ(help.out.find("->"), std::string::npos) << help.out;
    }
    CommandResult convert = run_cli("convert --help");
    EXPECT_NE(convert.out.find("{automatic,embed,copy,reference}"), std::string::npos)
        << convert.out;
    CommandResult reference =
        run_cli(fmt::format("convert --texture-mode Reference {} {}", quoted(hero("hero.cast")),
                            quoted(temp_dir("cli-mode") / "hero.gltf")));
    EXPECT_EQ(reference.exit_code, 0) << reference.err;
    EXPECT_EQ(run_cli("convert --texture-mode 3 a.cast b.glb").exit_code, 2);
}

// ---- 6e. counts and articles -------------------------------------------------------------------

TEST(CliWording, OneIsSingularAndAnAnimationTakesAn) {
    const fs::path dir = temp_dir("cli-wording");
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Model model = root.add_model();
    model.add_mesh().set_positions(std::vector<glm::vec3>{{0, 0, 0}});
    cast::Animation animation = root.add_animation();
    animation.set_framerate(30);
    animation.set_string("zz", "unknown");
    ASSERT_TRUE(cast::write(document, dir / "one.cast"));
    CommandResult info = run_cli(in_dir(dir, "info {one.cast}"));
    EXPECT_NE(info.out.find(", 1 root\n"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("root 0: 1 model, 1 animation, 0 instances"), std::string::npos)
        << info.out;
    EXPECT_NE(info.out.find(": 1 mesh, bounds"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("1 vertex, 0 faces, 0 UV layers"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("0 curves, 0 overrides, 0 notification tracks"), std::string::npos)
        << info.out;
    CommandResult dump = run_cli(in_dir(dir, "dump {one.cast}"));
    EXPECT_NE(dump.out.find("flags 0x0, 1 root\n"), std::string::npos) << dump.out;
    CommandResult validate = run_cli(in_dir(dir, "validate {one.cast}"));
    EXPECT_NE(validate.out.find("is not defined for an Animation"), std::string::npos)
        << validate.out;
    EXPECT_EQ(validate.out.find(" a Animation"), std::string::npos) << validate.out;
}

}  // namespace
}  // namespace castkit::test::first_hour_test
