// The CLI at its trust boundary: devices are never read, running out of memory is an error
// (exit 1) rather than an abort, --allow-any-path opens what its refusals say it opens (glTF
// buffers too), and a folder conversion does not follow links out of its folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"
#include "character.hpp"

namespace castkit::test::trust_boundary_cli_test {
namespace {

namespace fs = std::filesystem;

bool mentions(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

#ifndef _WIN32

TEST(TrustBoundary, ADeviceNamedAsAFileIsRefusedNotReadUntilMemoryRunsOut) {
    const CommandResult result = run_cli("info /dev/zero --from cast");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(mentions(result.err, "/dev/zero")) << result.err;
    EXPECT_TRUE(mentions(result.err, "not a regular file")) << result.err;
    EXPECT_TRUE(mentions(result.err, "io.not-a-file")) << result.err;
}

TEST(TrustBoundary, APipeIsStillRead) {
    const fs::path dir = temp_dir("trust-pipe");
    write_as(character(), dir / "hero.cast");
    const CommandResult result =
        run_cli_in("cat " + quoted(dir / "hero.cast") + " | ", "info /dev/stdin --from cast");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(mentions(result.out, "hero")) << result.out;
}

// Issue 57 item 5: an animation file that is a FIFO (named as MODEL ANIM..., or swapped into
// an --anims folder after it was listed) hung the conversion forever (2-4 of 6 runs). It is
// opened without waiting and refused, on its descriptor, as no regular file. `timeout` ends a
// hang with 124.
TEST(TrustBoundary, AFifoGivenAsAnAnimationIsRefusedWithoutWaiting) {
    const fs::path dir = temp_dir("trust-fifo-anim");
    write_as(character(), dir / "hero.cast");
    ASSERT_EQ(run_shell("mkfifo " + quoted(dir / "walk.seanim")), 0);
    const CommandResult result =
        run_cli_in("timeout 20 ", in_dir(dir, "convert {hero.cast} {walk.seanim} -o {hero.glb}"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(mentions(result.err, "walk.seanim")) << result.err;
    EXPECT_TRUE(mentions(result.err, "not a regular file")) << result.err;
    EXPECT_TRUE(mentions(result.err, "io.animation-file")) << result.err;
}

// Standard input read under a 300 MB address-space limit: the buffer cannot grow to hold the
// gigabyte sent, and castkit says so instead of aborting (exit 134 before).
TEST(TrustBoundary, OutOfMemoryIsAnErrorWithExitOne) {
#ifdef CASTKIT_ADDRESS_SANITIZER
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#else
    const CommandResult result =
        run_cli_in("ulimit -v 300000 && head -c 1073741824 /dev/zero | ", "info - --from cast");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(mentions(result.err, "out of memory reading <stdin>")) << result.err;
#endif
}

// A folder with a file, a link to it and a link to a file outside the folder.
fs::path folder_with_links(const fs::path& dir) {
    fs::create_directories(dir / "in");
    fs::create_directories(dir / "outside");
    write_as(character(), dir / "in" / "hero.cast");
    write_as(character(), dir / "outside" / "secret.cast");
    fs::create_symlink(dir / "in" / "hero.cast", dir / "in" / "alias.cast");
    fs::create_symlink(dir / "outside" / "secret.cast", dir / "in" / "stolen.cast");
    return dir / "in";
}

TEST(TrustBoundary, AFolderConversionSkipsLinksOutOfTheFolder) {
    const fs::path dir = temp_dir("trust-batch-links");
    const fs::path in = folder_with_links(dir);
    const CommandResult result =
        run_cli(fmt::format("convert {} -o {} --to glb", quoted(in), quoted(dir / "out")));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(fs::exists(dir / "out" / "hero.glb"));
    EXPECT_TRUE(fs::exists(dir / "out" / "alias.glb"));  // a link inside the folder is fine
    EXPECT_FALSE(fs::exists(dir / "out" / "stolen.glb"));
    EXPECT_TRUE(mentions(result.err, "stolen.cast")) << result.err;
    EXPECT_TRUE(mentions(result.err, "io.link-outside")) << result.err;
    EXPECT_TRUE(mentions(result.err, "--allow-any-path")) << result.err;
}

TEST(TrustBoundary, AFolderConversionFollowsLinksOutWithAllowAnyPath) {
    const fs::path dir = temp_dir("trust-batch-links-allowed");
    const fs::path in = folder_with_links(dir);
    const CommandResult result = run_cli(
        fmt::format("convert {} -o {} --to glb --allow-any-path", quoted(in), quoted(dir / "out")));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(fs::exists(dir / "out" / "stolen.glb"));
    EXPECT_FALSE(mentions(result.err, "io.link-outside")) << result.err;
}

#endif

// A .gltf whose buffer is named by an absolute path to a file in another folder.
fs::path gltf_with_absolute_buffer(const fs::path& dir) {
    fs::create_directories(dir / "model");
    fs::create_directories(dir / "elsewhere");
    write_as(character(), dir / "model" / "hero.gltf");
    nlohmann::json gltf = nlohmann::json::parse(std::ifstream(dir / "model" / "hero.gltf"));
    const std::string uri = gltf["buffers"][0]["uri"];
    fs::rename(dir / "model" / uri, dir / "elsewhere" / uri);
    gltf["buffers"][0]["uri"] = (dir / "elsewhere" / uri).generic_string();
    std::ofstream(dir / "model" / "hero.gltf") << gltf.dump();
    return dir / "model" / "hero.gltf";
}

TEST(TrustBoundary, AGltfBufferOutsideItsFolderIsRefusedAndTheRefusalNamesTheOption) {
    const fs::path dir = temp_dir("trust-gltf-buffer");
    const fs::path gltf = gltf_with_absolute_buffer(dir);
    const CommandResult result =
        run_cli(fmt::format("convert {} {}", quoted(gltf), quoted(dir / "hero.cast")));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(mentions(result.err, "--allow-any-path")) << result.err;
    EXPECT_FALSE(fs::exists(dir / "hero.cast"));
}

TEST(TrustBoundary, AllowAnyPathReadsAGltfBufferOutsideItsFolder) {
    const fs::path dir = temp_dir("trust-gltf-buffer-allowed");
    const fs::path gltf = gltf_with_absolute_buffer(dir);
    const CommandResult result = run_cli(
        fmt::format("convert {} {} --allow-any-path", quoted(gltf), quoted(dir / "hero.cast")));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(fs::exists(dir / "hero.cast"));
}

}  // namespace
}  // namespace castkit::test::trust_boundary_cli_test
