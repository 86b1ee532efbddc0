// The CLI end to end with SEAnim and SEModel: convert picks formats from the extensions (or
// --from/--to), info and dump read both formats, and files come back byte for byte.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <cstring>

#include "../anim/scene.hpp"
#include "../test_support.hpp"
#include "cli_command.hpp"
#include "se_golden.hpp"

namespace castkit::test::se_cli_test {
namespace {

void expect_cli(const std::string& arguments) {
    CommandResult result = run_cli(arguments);
    EXPECT_EQ(result.exit_code, 0) << arguments << "\n" << result.err;
}

TEST(SECli, ConvertSEAnimToCastAndBackIsExact) {
    auto dir = temp_dir("se-cli-anim");
    write_bytes(dir / "walk.seanim", seanim_golden_vector());
    expect_cli(
        fmt::format("convert {} {}", quoted(dir / "walk.seanim"), quoted(dir / "walk.cast")));
    auto cast_bytes = read_bytes(dir / "walk.cast");
    ASSERT_GE(cast_bytes.size(), 4u);
    EXPECT_EQ(std::memcmp(cast_bytes.data(), "cast", 4), 0);
    expect_cli(
        fmt::format("convert {} {}", quoted(dir / "walk.cast"), quoted(dir / "back.seanim")));
    EXPECT_EQ(read_bytes(dir / "back.seanim"), seanim_golden_vector());
}

TEST(SECli, ConvertSEModelToCastAndBackIsExact) {
    auto dir = temp_dir("se-cli-model");
    write_bytes(dir / "gun.semodel", semodel_golden_vector());
    expect_cli(fmt::format("convert {} {}", quoted(dir / "gun.semodel"), quoted(dir / "gun.cast")));
    expect_cli(
        fmt::format("convert {} {}", quoted(dir / "gun.cast"), quoted(dir / "back.semodel")));
    EXPECT_EQ(read_bytes(dir / "back.semodel"), semodel_golden_vector());
}

TEST(SECli, FromAndToOverrideTheExtensions) {
    auto dir = temp_dir("se-cli-override");
    write_bytes(dir / "anim.bin", seanim_golden_vector());
    expect_cli(fmt::format("convert --from seanim --to cast {} {}", quoted(dir / "anim.bin"),
                           quoted(dir / "anim.out")));
    expect_cli(fmt::format("convert --from cast --to seanim {} {}", quoted(dir / "anim.out"),
                           quoted(dir / "anim2.bin")));
    EXPECT_EQ(read_bytes(dir / "anim2.bin"), seanim_golden_vector());
}

TEST(SECli, InfoAndDumpReadBothFormats) {
    auto dir = temp_dir("se-cli-info");
    write_bytes(dir / "walk.seanim", seanim_golden_vector());
    write_bytes(dir / "gun.semodel", semodel_golden_vector());
    CommandResult info = run_cli(
        fmt::format("info {} {}", quoted(dir / "walk.seanim"), quoted(dir / "gun.semodel")));
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find("walk.seanim: seanim, read as Cast"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("gun.semodel: semodel, read as Cast"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("7 curves, 1 override, 1 notification track, frames 0..2 at 30 fps"),
              std::string::npos)
        << info.out;
    EXPECT_NE(info.out.find("mesh (unnamed): 3 vertices, 1 face, 1 UV layer,"), std::string::npos)
        << info.out;
    CommandResult dump = run_cli(fmt::format("dump {}", quoted(dir / "walk.seanim")));
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    EXPECT_NE(dump.out.find("tag_origin"), std::string::npos);
    EXPECT_NE(dump.out.find("se.type"), std::string::npos);
    CommandResult json = run_cli(fmt::format("dump --json {}", quoted(dir / "gun.semodel")));
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_NE(json.out.find("d.png"), std::string::npos);
}

TEST(SECli, WritingAModelAsAnAnimationIsAnError) {
    auto dir = temp_dir("se-cli-mismatch");
    write_bytes(dir / "gun.semodel", semodel_golden_vector());
    CommandResult result = run_cli(
        fmt::format("convert {} {}", quoted(dir / "gun.semodel"), quoted(dir / "gun.seanim")));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("no Animation node"), std::string::npos) << result.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "gun.seanim"));
}

TEST(SECli, BadInputIsAnErrorWithAnOffset) {
    auto dir = temp_dir("se-cli-bad");
    auto bytes = seanim_golden_vector();
    bytes.resize(0x40);
    write_bytes(dir / "cut.seanim", bytes);
    CommandResult result = run_cli(fmt::format("info {}", quoted(dir / "cut.seanim")));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("cut.seanim: offset 0x"), std::string::npos) << result.err;
}

// SEAnim cannot hold a curve's additive blend weight: the warning names the file written (the
// writer names none; the registry gives it the output's name).
TEST(SECli, AWritersWarningNamesTheFile) {
    const std::filesystem::path dir = temp_dir("se-cli-warning-file");
    AnimScene scene;
    scene.bone("spine");
    scene.curve("spine", "tx", {0, 10}, {0.0f, 1.0f}, "additive").set_additive_blend_weight(0.5f);
    const std::filesystem::path input = dir / "walk.cast";
    ASSERT_TRUE(cast::write(scene.document, input).has_value());
    const std::filesystem::path output = dir / "walk.seanim";
    CommandResult result = run_cli(fmt::format("convert {} {}", quoted(input), quoted(output)));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::string expected = fmt::format(
        "{}: warning: curve 'tx' of 'spine': SEAnim has no additive blend weight; 0.5 dropped "
        "[seanim.write]",
        output.string());
    EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
}

}  // namespace
}  // namespace castkit::test::se_cli_test
