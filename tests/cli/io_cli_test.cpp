// Input and output at the CLI's edge: `-` for every format in every command, failed writes as
// errors, exit code 2 for every usage error, JSON output that parses whatever bytes a file holds.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../formats/cli_command.hpp"
#include "../formats/dmf_golden.hpp"
#include "../test_support.hpp"

namespace castkit::test::io_cli_test {
namespace {

std::filesystem::path edge(const std::string& name) { return fixtures() / "cast" / "edge" / name; }

// Every registered format with the file name a conversion of the triangle fixture gets.
constexpr std::array<std::pair<const char*, const char*>, 8> kFormats{{
    {"cast", "t.cast"},
    {"seanim", "t.seanim"},
    {"semodel", "t.semodel"},
    {"dmf", "t.dmf"},
    {"dmf-json", "t.dmf.json"},
    {"k3d", "t.k3d"},
    {"glb", "t.glb"},
    {"gltf", "t.gltf"},
}};

// The triangle fixture plus an animation curve, so that every format, the animation-only SEAnim
// included, has something to carry.
std::filesystem::path scene(const std::filesystem::path& dir) {
    auto document = open_cast(edge("triangle.cast"));
    EXPECT_TRUE(document) << document.error().to_string();
    cast::Animation animation = document->root_nodes().front().add_animation();
    animation.set_framerate(30.0f);
    cast::Curve curve = animation.add_curve();
    curve.set_node_name("root");
    curve.set_key_property(cast::KeyProperty::TranslationX);
    const std::array<std::uint32_t, 2> frames{0, 10};
    const std::array<float, 2> values{0.0f, 1.0f};
    curve.set_key_frames(frames);
    curve.set_float_values(values);
    std::filesystem::path path = dir / "t.cast";
    EXPECT_TRUE(cast::write(*document, path));
    return path;
}

TEST(CliIo, StandardInputWorksForEveryFormatInInfoDumpAndConvert) {
    auto dir = temp_dir("io-stdin-every-format");
    scene(dir);
    // Bytes from standard input have no folder, so they read no side files (docs/security.md,
    // "What castkit reads"): the .gltf given there carries its buffer inline.
    ASSERT_EQ(run_cli_in("", in_dir(dir, "convert {t.cast} - --to gltf"),
                         fmt::format(">{}", quoted(dir / "inline.gltf")))
                  .exit_code,
              0);
    for (const auto& [format, name] : kFormats) {
        if (std::string(format) != "cast") {
            auto made = run_cli(in_dir(dir, fmt::format("convert {{t.cast}} {{{}}}", name)));
            // SEAnim holds animations only: the triangle's model is dropped with a warning.
            ASSERT_EQ(made.exit_code, 0) << format << ": " << made.err;
        }
        const std::string file = std::string(format) == "gltf" ? "inline.gltf" : name;
        // (cmd.exe's cd changes the drive too only with /d: the test's folder is on C:, the
        // build tree under Wine on Z:.)
#ifdef _WIN32
        const std::string cd = "cd /d " + quoted(dir) + " && ";
#else
        const std::string cd = "cd " + quoted(dir) + " && ";
#endif
        auto info =
            run_cli_in(cd, fmt::format("info --from {} - < {}", format, quoted(dir / file)));
        EXPECT_EQ(info.exit_code, 0) << format << ": " << info.err;
        EXPECT_NE(info.out.find("<stdin>"), std::string::npos) << format << ": " << info.out;
        auto dump =
            run_cli_in(cd, fmt::format("dump --json --from {} - < {}", format, quoted(dir / file)));
        EXPECT_EQ(dump.exit_code, 0) << format << ": " << dump.err;
        EXPECT_TRUE(nlohmann::json::accept(dump.out)) << format;
        const std::filesystem::path out = dir / fmt::format("from-{}.cast", format);
        auto convert = run_cli_in(cd, fmt::format("convert - {} --from {} < {}", quoted(out),
                                                  format, quoted(dir / file)));
        EXPECT_EQ(convert.exit_code, 0) << format << ": " << convert.err;
        EXPECT_TRUE(open_cast(out)) << format;
    }
}

TEST(CliIo, StandardInputToStandardOutputKeepsACastFileByteForByte) {
    auto dir = temp_dir("io-stdin-cast");
    auto result = run_cli_in("", "convert - - < " + quoted(edge("triangle.cast")),
                             fmt::format(">{}", quoted(dir / "out.cast")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(read_bytes(dir / "out.cast"), read_bytes(edge("triangle.cast")));
}

TEST(CliIo, GltfToStandardOutputCarriesItsBufferInline) {
    auto dir = temp_dir("io-gltf-stdout");
    scene(dir);
    auto result = run_cli_in("", in_dir(dir, "convert {t.cast} - --to gltf"),
                             fmt::format(">{}", quoted(dir / "out.gltf")));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "-.bin"));
    const std::vector<std::byte> bytes = read_bytes(dir / "out.gltf");
    const auto gltf = nlohmann::json::parse(
        std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    ASSERT_EQ(gltf["buffers"].size(), 1u);
    EXPECT_TRUE(gltf["buffers"][0]["uri"].get<std::string>().starts_with(
        "data:application/octet-stream;base64,"));
    // Read back from another folder: nothing beside the file is needed.
    auto back = run_cli("info --from gltf - < " + quoted(dir / "out.gltf"));
    EXPECT_EQ(back.exit_code, 0) << back.err;
    EXPECT_NE(back.out.find("mesh"), std::string::npos) << back.out;
}

// Standard output sent where every write fails: Linux's /dev/full (a full disk); on Windows,
// which has no such device, a file opened for reading (cmd.exe's `<FILE 1>&0` makes standard
// output a duplicate of standard input's read-only handle).
std::string failing_stdout() {
#ifdef _WIN32
    return fmt::format("<{} 1>&0", quoted(edge("triangle.cast")));
#else
    return ">/dev/full";
#endif
}

TEST(CliIo, AFailedWriteToStandardOutputIsAnError) {
#ifndef _WIN32
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
#endif
    const std::string triangle = quoted(edge("triangle.cast"));
    for (const std::string& command :
         {"info " + triangle, "dump " + triangle, "dump --json " + triangle, "validate " + triangle,
          "validate --json " + triangle, std::string("validate --list-rules"),
          "convert " + triangle + " -"}) {
        auto result = run_cli_in("", command, failing_stdout());
        EXPECT_EQ(result.exit_code, 1) << command;
        EXPECT_NE(result.err.find("<stdout>"), std::string::npos) << command << ": " << result.err;
    }
}

TEST(CliIo, UnknownFormatNamesAreUsageErrors) {
    const std::string triangle = quoted(edge("triangle.cast"));
    auto dir = temp_dir("io-unknown-format");
    // An input of no known extension is told from its bytes: these are none castkit knows.
    write_bytes(dir / "no-extension", {std::byte{'?'}});
    for (const std::string& command :
         {"info --from nope " + triangle, "dump --from nope " + triangle,
          "convert --from nope " + triangle + " " + quoted(dir / "a.cast"),
          "convert --to nope " + triangle + " " + quoted(dir / "a.cast"),
          "convert " + triangle + " " + quoted(dir / "a.unknown"),
          "info " + quoted(dir / "no-extension")}) {
        auto result = run_cli(command);
        EXPECT_EQ(result.exit_code, 2) << command << ": " << result.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "a.cast"));
}

// A Cast file whose curve names a node with a Latin-1 byte (not UTF-8) that no bone of the
// file's skeleton matches, so that the validator's warning quotes the name.
std::filesystem::path latin1_curve(const std::filesystem::path& dir) {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Bone bone = root.add_model().add_skeleton().add_bone();
    bone.set_name("root");
    bone.set_parent_index(-1);
    cast::Animation animation = root.add_animation();
    animation.set_framerate(30.0f);
    cast::Curve curve = animation.add_curve();
    curve.set_node_name("caf\xe9");
    curve.set_key_property(cast::KeyProperty::TranslationX);
    curve.node().set(cast::make_string("m", "absolute"));
    const std::array<std::uint32_t, 2> frames{0, 10};
    const std::array<float, 2> values{0.0f, 1.0f};
    curve.set_key_frames(frames);
    curve.set_float_values(values);
    std::filesystem::path path = dir / "latin1.cast";
    EXPECT_TRUE(cast::write(document, path));
    return path;
}

TEST(CliIo, ValidateJsonOfANonUtf8NameParses) {
    auto dir = temp_dir("io-latin1-validate");
    auto result = run_cli("validate --json " + quoted(latin1_curve(dir)));
    // Invalid UTF-8 in a name is an error (property.utf8), so the file is invalid: exit 1.
    EXPECT_EQ(result.exit_code, 1) << result.err;
    const auto report = nlohmann::json::parse(result.out);  // throws, failing the test, if invalid
    bool named = false;
    for (const auto& d : report["files"][0]["diagnostics"])
        named |= d["rule"] == "animation.node-name" &&
                 d["message"].get<std::string>().find("caf\u00e9") != std::string::npos;
    EXPECT_TRUE(named) << result.out;
}

TEST(CliIo, DumpJsonOfANonUtf8NameParsesAndReadsAsLatin1) {
    auto dir = temp_dir("io-latin1-dump");
    auto result = run_cli("dump --json " + quoted(latin1_curve(dir)));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto dump = nlohmann::json::parse(result.out);
    const auto& curve = dump["roots"][0]["children"][1]["children"][0];
    std::string name;
    for (const auto& property : curve["properties"])
        if (property["name"] == "nn") name = property["values"][0].get<std::string>();
    EXPECT_EQ(name, "caf\u00e9");
}

TEST(CliIo, DmfTexturesGoIntoTheFolderTexturesNames) {
    auto dir = temp_dir("io-dmf-textures");
    write_bytes(dir / "in.dmf", golden_dmf());
    std::filesystem::create_directories(dir / "images");
    auto result = run_cli(in_dir(dir, "convert {in.dmf} {out.cast} --textures {images}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err.find("not carried by Cast"), std::string::npos) << result.err;
    Diagnostics warnings;
    auto model = dmf::read(golden_dmf(), "golden", warnings);
    ASSERT_TRUE(model);
    ASSERT_FALSE(model->textures.empty());
    bool found = false;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "images"))
        found |= read_bytes(entry.path()) == model->textures[0].png;
    EXPECT_TRUE(found);
    // Back to DMF, the images are read from the same folder (the side-file base), not from the
    // DMF the Cast file was made from.
    std::filesystem::remove(dir / "in.dmf");
    auto back = run_cli(in_dir(dir, "convert {out.cast} {back.dmf} --textures {images}"));
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_EQ(back.err.find("could not be read"), std::string::npos) << back.err;
    auto written = dmf::read(read_bytes(dir / "back.dmf"), "back.dmf", warnings);
    ASSERT_TRUE(written) << written.error().to_string();
    ASSERT_EQ(written->textures.size(), model->textures.size());
    EXPECT_EQ(written->textures[0].png, model->textures[0].png);
}

}  // namespace
}  // namespace castkit::test::io_cli_test
