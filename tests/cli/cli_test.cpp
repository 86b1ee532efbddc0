// The castkit CLI as a user runs it: exit codes (0 success, 1 invalid input, 2 usage), --help
// on every command, info/dump/convert through files and through `-`, and atomic output.
#include <fmt/format.h>
#include <gtest/gtest.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../test_support.hpp"

namespace castkit::test::cli_cli_test {
namespace {

using nlohmann::json;

std::filesystem::path reference(const std::string& name) {
    return fixtures() / "cast" / "reference" / name;
}
std::filesystem::path edge(const std::string& name) { return fixtures() / "cast" / "edge" / name; }
// fmt rather than operator+: g++ 12 at -O3 reports a false -Wrestrict for "\"" + s + "\"".
std::string quoted(const std::filesystem::path& path) {
    return fmt::format("\"{}\"", path.string());
}

std::vector<std::byte> bytes_of(const std::string& text) {
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
}

// The names listed under "Subcommands:" in `castkit --help`.
std::vector<std::string> subcommands() {
    CommandResult help = run_cli("--help");
    std::istringstream lines(help.out);
    std::vector<std::string> names;
    bool listing = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("Subcommands:")) {
            listing = true;
            continue;
        }
        if (listing && line.starts_with("  ")) {
            std::istringstream words(line);
            std::string name;
            words >> name;
            names.push_back(name);
        } else if (listing && !line.empty()) {
            listing = false;
        }
    }
    return names;
}

// "1 root", "2 roots": what info prints for a count.
std::string counted(std::size_t n, const std::string& one, const std::string& many = "") {
    return fmt::format("{} {}", n, n == 1 ? one : many.empty() ? one + "s" : many);
}

// Every file in `dir` except the ones listed.
std::vector<std::string> entries(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST(Cli, WithoutASubcommandIsAUsageError) {
    CommandResult result = run_cli("");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("subcommand"), std::string::npos) << result.err;
}

TEST(Cli, UnknownSubcommandOrOptionIsAUsageError) {
    EXPECT_EQ(run_cli("frobnicate x.cast").exit_code, 2);
    EXPECT_EQ(run_cli("dump --no-such-option " + quoted(edge("triangle.cast"))).exit_code, 2);
    EXPECT_EQ(run_cli("dump").exit_code, 2);
    EXPECT_EQ(run_cli("convert " + quoted(edge("triangle.cast"))).exit_code, 2);
}

TEST(Cli, HelpWorksOnEveryCommand) {
    CommandResult top = run_cli("--help");
    EXPECT_EQ(top.exit_code, 0);
    auto names = subcommands();
    for (const char* required : {"info", "dump", "convert"})
        EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
    for (const std::string& name : names) {
        CommandResult help = run_cli(name + " --help");
        EXPECT_EQ(help.exit_code, 0) << name;
        EXPECT_NE(help.out.find("Usage: castkit " + name), std::string::npos) << help.out;
    }
}

TEST(Cli, VersionPrintsTheVersion) {
    CommandResult result = run_cli("--version");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("castkit"), std::string::npos);
}

TEST(Cli, InfoMentionsTheCountsTheDocumentHolds) {
    for (const char* name : {"gen_7_11.cast", "gen_7_18.cast", "gen_7_2.cast"}) {
        SCOPED_TRACE(name);
        auto document = open_cast(reference(name));
        ASSERT_TRUE(document);
        CommandResult result = run_cli("info " + quoted(reference(name)));
        EXPECT_EQ(result.exit_code, 0) << result.err;
        EXPECT_NE(result.out.find(counted(document->roots().size(), "root") + "\n"),
                  std::string::npos);
        auto roots = document->root_nodes();
        ASSERT_FALSE(roots.empty());
        EXPECT_NE(result.out.find(fmt::format("root 0: {}, {}, {}",
                                              counted(roots[0].models().size(), "model"),
                                              counted(roots[0].animations().size(), "animation"),
                                              counted(roots[0].instances().size(), "instance"))),
                  std::string::npos)
            << result.out;
        for (cast::Model& model : document->models())
            for (cast::Mesh& mesh : model.meshes())
                EXPECT_NE(result.out.find(fmt::format(
                              "{}, {}", counted(mesh.vertex_count(), "vertex", "vertices"),
                              counted(mesh.face_count(), "face"))),
                          std::string::npos)
                    << result.out;
        for (cast::Animation& animation : document->animations())
            EXPECT_NE(result.out.find(counted(animation.curves().size(), "curve")),
                      std::string::npos);
    }
}

// Mesh → material and blend shape → base mesh links are named; a model with many meshes whose
// links resolve nowhere must not make info quadratic (each lookup used to scan every sibling).
TEST(Cli, InfoNamesLinksAndStaysLinearWithManyMeshes) {
    auto dir = temp_dir("cli-info-links");
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Mesh body = model.add_mesh();
    body.set_name("body");
    cast::Material skin = model.add_material();
    skin.set_name("skin");
    body.set_material(skin);
    cast::BlendShape smile = model.add_blend_shape();
    smile.set_base_shape(body);
    cast::BlendShape lost = model.add_blend_shape();
    lost.set_hash_link("b", skin.hash());  // a Material, not a Mesh
    for (int i = 0; i < 60000; ++i) model.add_mesh().set_hash_link("m", 42);
    ASSERT_TRUE(cast::write(document, dir / "links.cast"));
    const auto start = std::chrono::steady_clock::now();
    CommandResult result = run_cli("info " + quoted(dir / "links.cast"));
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_LT(seconds, 10.0);
    EXPECT_NE(
        result.out.find(
            "mesh 'body': 0 vertices, 0 faces, 0 UV layers, 0 colour layers, material 'skin'\n"),
        std::string::npos);
    EXPECT_NE(result.out.find("blend shape (unnamed): 0 target vertices, base 'body'\n"),
              std::string::npos);
    EXPECT_NE(result.out.find("blend shape (unnamed): 0 target vertices, base (unresolved)\n"),
              std::string::npos);
}

TEST(Cli, InfoReportsEveryFileAndFailsIfAnyIsInvalid) {
    CommandResult result =
        run_cli("info " + quoted(edge("triangle.cast")) + " " + quoted(edge("bad-magic.cast")) +
                " " + quoted(edge("legacy-vc.cast")));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.out.find("triangle.cast: cast v1, 182 B, 1 root\n"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("legacy-vc.cast"), std::string::npos);
    EXPECT_NE(result.err.find("bad-magic.cast: offset 0x0: /: "), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("[cast.bad-magic]"), std::string::npos) << result.err;
}

TEST(Cli, InfoReadsStandardInput) {
    CommandResult result = run_cli("info - < " + quoted(edge("triangle.cast")));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("<stdin>: cast v1, 182 B, 1 root\n"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("mesh 'Triangle': 3 vertices, 1 face,"), std::string::npos)
        << result.out;
}

TEST(Cli, DumpPrintsTheTree) {
    CommandResult result = run_cli("dump " + quoted(edge("triangle.cast")));
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("root 0x0000000000000100"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("f (b x 3) = [0, 1, 2]"), std::string::npos) << result.out;
}

TEST(Cli, DumpJsonMatchesTheLibraryAndTheReferenceDump) {
    for (const char* name : {"gen_7_4.cast", "gen_7_5.cast"}) {
        SCOPED_TRACE(name);
        CommandResult result = run_cli("dump --json " + quoted(reference(name)));
        ASSERT_EQ(result.exit_code, 0) << result.err;
        json dumped = json::parse(result.out);
        auto document = open_cast(reference(name));
        ASSERT_TRUE(document);
        std::string library;
        cast::dump_json(*document, library);
        EXPECT_EQ(dumped, json::parse(library));

        auto expected_path = reference(name);
        std::ifstream in(expected_path.replace_extension(".json"));
        json expected = json::parse(in);
        EXPECT_EQ(dumped["version"], expected["version"]);
        EXPECT_EQ(dumped["flags"], expected["flags"]);
        ASSERT_EQ(dumped["roots"].size(), expected["roots"].size());
        // Node ids, hashes and property names and types match; values are compared as float32
        // by the reference fixture test.
        std::function<void(const json&, const json&)> same_shape = [&](const json& a,
                                                                       const json& b) {
            EXPECT_EQ(a["id"], b["id"]);
            EXPECT_EQ(a["hash"], b["hash"]);
            ASSERT_EQ(a["properties"].size(), b["properties"].size());
            for (std::size_t i = 0; i < a["properties"].size(); ++i) {
                EXPECT_EQ(a["properties"][i]["name"], b["properties"][i]["name"]);
                EXPECT_EQ(a["properties"][i]["type"], b["properties"][i]["type"]);
                EXPECT_EQ(a["properties"][i]["values"].size(), b["properties"][i]["values"].size());
            }
            ASSERT_EQ(a["children"].size(), b["children"].size());
            for (std::size_t i = 0; i < a["children"].size(); ++i)
                same_shape(a["children"][i], b["children"][i]);
        };
        for (std::size_t i = 0; i < dumped["roots"].size(); ++i)
            same_shape(dumped["roots"][i], expected["roots"][i]);
    }
}

TEST(Cli, DumpJsonShowsOpaqueBytesAsHex) {
    CommandResult result = run_cli("dump --json " + quoted(edge("unknown-property-type.cast")));
    ASSERT_EQ(result.exit_code, 0);
    json dumped = json::parse(result.out);
    std::string opaque = dumped["roots"][0]["children"][0]["opaque"];
    EXPECT_EQ(opaque.size(), 81u * 2);
    EXPECT_TRUE(opaque.starts_with("71000200010000007a7a")) << opaque;
    EXPECT_NE(result.err.find("[cast.unknown-property-type]"), std::string::npos);
}

TEST(Cli, DumpReadsStandardInput) {
    CommandResult from_file = run_cli("dump --json " + quoted(edge("triangle.cast")));
    CommandResult from_stdin = run_cli("dump --json - < " + quoted(edge("triangle.cast")));
    EXPECT_EQ(from_stdin.exit_code, 0);
    EXPECT_EQ(from_stdin.out, from_file.out);
}

TEST(Cli, InvalidInputExitsWithOneAndALocatedMessage) {
    CommandResult result = run_cli("dump " + quoted(edge("huge-array-claim.cast")));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(result.out.empty());
    EXPECT_NE(result.err.find("huge-array-claim.cast: offset 0x5c: root[0]/model[0]/mesh[0]: "
                              "property 'vp' claims 2147483647 v3 values"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(run_cli("dump /nonexistent/file.cast").exit_code, 1);
    EXPECT_EQ(run_cli("dump - < " + quoted(edge("truncated.cast"))).exit_code, 1);
}

TEST(Cli, WarningsGoToStandardErrorWithTheirRule) {
    CommandResult result = run_cli("dump " + quoted(edge("flags-set.cast")));
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.err.find("warning: non-zero header flags 0x5 [cast.flags]"), std::string::npos)
        << result.err;
    EXPECT_EQ(result.out.find("warning"), std::string::npos);
}

TEST(Cli, ConvertRewritesAFileByteForByte) {
    auto dir = temp_dir("cli-convert");
    auto in = reference("gen_7_6.cast");
    CommandResult result = run_cli("convert " + quoted(in) + " " + quoted(dir / "out.cast"));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(read_bytes(dir / "out.cast"), read_bytes(in));
    EXPECT_EQ(entries(dir), std::vector<std::string>{"out.cast"});
}

TEST(Cli, ConvertCorrectsNodeSize) {
    auto dir = temp_dir("cli-convert-nodesize");
    CommandResult result = run_cli("convert " + quoted(edge("nodesize-too-small.cast")) + " " +
                                   quoted(dir / "out.cast"));
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.err.find("[cast.nodesize]"), std::string::npos);
    Diagnostics warnings;
    auto fixed = cast::open(dir / "out.cast", warnings);
    ASSERT_TRUE(fixed);
    EXPECT_TRUE(warnings.empty());
}

TEST(Cli, ConvertThroughStandardInputAndOutput) {
    auto in = reference("gen_7_7.cast");
    CommandResult result = run_cli("convert - - < " + quoted(in));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(bytes_of(result.out), read_bytes(in));

    auto dir = temp_dir("cli-convert-stdio");
    EXPECT_EQ(run_cli("convert - " + quoted(dir / "a.cast") + " < " + quoted(in)).exit_code, 0);
    EXPECT_EQ(read_bytes(dir / "a.cast"), read_bytes(in));
    CommandResult to_stdout = run_cli("convert " + quoted(in) + " -");
    EXPECT_EQ(bytes_of(to_stdout.out), read_bytes(in));
}

TEST(Cli, ConvertToAnUnknownExtensionIsAUsageError) {
    auto dir = temp_dir("cli-convert-unknown");
    CommandResult result =
        run_cli("convert " + quoted(edge("triangle.cast")) + " " + quoted(dir / "out.xyz"));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("cannot tell the format"), std::string::npos);
    EXPECT_TRUE(entries(dir).empty());
}

TEST(Cli, ConvertOfInvalidInputLeavesTheDestinationAlone) {
    auto dir = temp_dir("cli-convert-invalid");
    auto out = dir / "out.cast";
    write_bytes(out, bytes_of("previous contents"));
    CommandResult result = run_cli("convert " + quoted(edge("truncated.cast")) + " " + quoted(out));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(read_bytes(out), bytes_of("previous contents"));
    EXPECT_EQ(entries(dir), std::vector<std::string>{"out.cast"});
}

// A write that fails at the final rename leaves the destination as it was and no temporary.
TEST(Cli, FailedWriteOntoADirectoryLeavesNoTrace) {
    auto dir = temp_dir("cli-atomic-directory");
    std::filesystem::create_directory(dir / "taken.cast");
    write_bytes(dir / "taken.cast" / "inside", bytes_of("keep"));
    CommandResult result =
        run_cli("convert " + quoted(edge("triangle.cast")) + " " + quoted(dir / "taken.cast"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("taken.cast"), std::string::npos) << result.err;
    EXPECT_TRUE(std::filesystem::is_directory(dir / "taken.cast"));
    EXPECT_EQ(entries(dir), std::vector<std::string>{"taken.cast"});
    EXPECT_EQ(entries(dir / "taken.cast"), std::vector<std::string>{"inside"});
}

TEST(Cli, WriteIntoAMissingDirectoryFails) {
    auto dir = temp_dir("cli-atomic-missing");
    CommandResult result =
        run_cli("convert " + quoted(edge("triangle.cast")) + " " + quoted(dir / "no" / "out.cast"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("cannot create"), std::string::npos) << result.err;
    EXPECT_TRUE(entries(dir).empty());
}

TEST(Cli, WriteIntoAnUnwritableDirectoryLeavesTheOldFile) {
#ifdef _WIN32
    // Windows ignores the read-only attribute (all std::filesystem::permissions sets) on
    // folders; only an access control list can deny writing into one, and Wine, which runs
    // programs as the Unix user, enforces none.
    GTEST_SKIP() << "Wine enforces no Windows access control lists, the only way to make a "
                    "Windows folder unwritable";
#else
    if (::geteuid() == 0) GTEST_SKIP() << "root can write into read-only directories";
#endif
    auto dir = temp_dir("cli-atomic-readonly");
    write_bytes(dir / "out.cast", bytes_of("old"));
    std::filesystem::permissions(
        dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    CommandResult result =
        run_cli("convert " + quoted(edge("triangle.cast")) + " " + quoted(dir / "out.cast"));
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(read_bytes(dir / "out.cast"), bytes_of("old"));
    EXPECT_EQ(entries(dir), std::vector<std::string>{"out.cast"});
}

}  // namespace
}  // namespace castkit::test::cli_cli_test
