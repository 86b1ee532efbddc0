// The policy for files a document names: inside the source file's folder and the folders the
// user names, regular files only, size-bounded; everything else only with the user's opt-in.
#include "io/side_files.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/io/side_files.hpp>
#include <castkit/registry.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "formats/cli_command.hpp"
#include "gltf/gltf_scene.hpp"
#include "test_support.hpp"

namespace castkit::side_files_test {
namespace {

using namespace castkit::test;
namespace fs = std::filesystem;

void write_text(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

std::string text_of(const Expected<std::vector<std::byte>>& bytes) {
    return bytes ? std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size()) : "";
}

// <dir>/model/scene.cast (not written; only its folder counts), <dir>/model/tex/a.png,
// <dir>/secret.txt outside the model's folder and <dir>/shared/b.png in a folder a user may name.
fs::path layout(const std::string& name) {
    fs::path dir = temp_dir(name);
    write_text(dir / "model/tex/a.png", "A");
    write_text(dir / "secret.txt", "SECRET");
    write_text(dir / "shared/b.png", "B");
    return dir;
}

TEST(SideFiles, ReadsFilesInsideTheSourceFolderWithEitherSeparator) {
    fs::path dir = layout("side-inside");
    EXPECT_EQ(text_of(read_side_file("tex/a.png", dir / "model/scene.cast", {})), "A");
    EXPECT_EQ(text_of(read_side_file("tex\\a.png", dir / "model/scene.cast", {})), "A");
    EXPECT_EQ(text_of(read_side_file("./tex/../tex/a.png", dir / "model/scene.cast", {})), "A");
}

TEST(SideFiles, RefusesEscapesAndAbsolutePathsUnlessAllowed) {
    fs::path dir = layout("side-escape");
    fs::path source = dir / "model/scene.cast";
    auto escape = read_side_file("../secret.txt", source, {});
    ASSERT_FALSE(escape);
    EXPECT_NE(escape.error().message.find("outside"), std::string::npos);
    EXPECT_NE(escape.error().message.find("--allow-any-path"), std::string::npos);
    EXPECT_EQ(escape.error().file, source.string());
    std::string absolute = (dir / "secret.txt").string();
    auto refused = read_side_file(absolute, source, {});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("absolute"), std::string::npos);
    EXPECT_FALSE(read_side_file("C:\\Windows\\win.ini", source, {}));

    SideFilePolicy any;
    any.allow_any_path = true;
    EXPECT_EQ(text_of(read_side_file("../secret.txt", source, any)), "SECRET");
    EXPECT_EQ(text_of(read_side_file(absolute, source, any)), "SECRET");
}

TEST(SideFiles, SearchesNamedFoldersByPathAndByFileName) {
    fs::path dir = layout("side-folders");
    fs::path source = dir / "model/scene.cast";
    EXPECT_FALSE(read_side_file("b.png", source, {}));
    SideFilePolicy policy{.folders = {dir / "shared"}};
    EXPECT_EQ(text_of(read_side_file("b.png", source, policy)), "B");
    // A path from the machine that wrote the file is found by its name in the named folder.
    EXPECT_EQ(text_of(read_side_file("D:\\rips\\textures\\b.png", source, policy)), "B");
    EXPECT_EQ(text_of(read_side_file("tex/a.png", source, policy)), "A");  // own folder first
    // ... and beside the source file too.
    EXPECT_EQ(text_of(read_side_file("D:\\rips\\a.png", dir / "model/tex/scene.cast", {})), "A");
}

TEST(SideFiles, RefusesDirectoriesDeviceFilesLinksOutAndOversizedFiles) {
    fs::path dir = layout("side-kinds");
    fs::path source = dir / "model/scene.cast";
    auto folder = read_side_file("tex", source, {});
    ASSERT_FALSE(folder);
    EXPECT_NE(folder.error().message.find("not a regular file"), std::string::npos);
    SideFilePolicy small;
    small.max_size = 0;
    auto big = read_side_file("tex/a.png", source, small);
    ASSERT_FALSE(big);
    EXPECT_NE(big.error().message.find("larger than"), std::string::npos);
    if (fs::exists("/dev/zero")) {  // a device never reads, even with the opt-in
        SideFilePolicy any;
        any.allow_any_path = true;
        auto device = read_side_file("/dev/zero", source, any);
        ASSERT_FALSE(device);
        EXPECT_NE(device.error().message.find("not a regular file"), std::string::npos);
    }
    std::error_code error;
    fs::create_symlink(dir / "secret.txt", dir / "model/link.png", error);
    if (!error) {  // symbolic links need a privilege on Windows
        auto link = read_side_file("link.png", source, {});
        ASSERT_FALSE(link);
        EXPECT_NE(link.error().message.find("through a link"), std::string::npos);
    }
}

// Defect C2: a Cast whose File nodes name host files must not make `convert` embed them, read a
// device until memory runs out, or block on standard input.
TEST(SideFiles, ConvertToDmfEmbedsNoHostFilesUnlessAllowed) {
    fs::path dir = layout("side-cli");
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    const char* paths[] = {"/etc/passwd", "/dev/zero", "/dev/stdin", "../secret.txt", "tex/a.png"};
    for (const char* path : paths) {
        cast::Material material = model.add_material();
        material.set_name(fs::path(path).filename().string());
        cast::File file = material.add_file(path);
        material.set_slot("albedo", file);
    }
    auto bytes = cast::write_to_buffer(document);
    ASSERT_TRUE(bytes);
    write_bytes(dir / "model/scene.cast", *bytes);

    auto result = run_cli(in_dir(dir, "convert {model/scene.cast} {out.dmf} < /dev/null"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::byte> out = read_bytes(dir / "out.dmf");
    std::string text(reinterpret_cast<const char*>(out.data()), out.size());
    EXPECT_EQ(text.find("SECRET"), std::string::npos);
    EXPECT_EQ(text.find("root:"), std::string::npos);
    EXPECT_NE(result.err.find("--allow-any-path"), std::string::npos) << result.err;
    Diagnostics warnings;
    auto model_back = dmf::read(out, "out.dmf", warnings);
    ASSERT_TRUE(model_back);
    ASSERT_EQ(model_back->textures.size(), 5u);
    EXPECT_EQ(model_back->textures[4].png, (std::vector<std::byte>{std::byte{'A'}}));

    result = run_cli(in_dir(dir,
                            "convert {model/scene.cast} {any.dmf} --allow-any-path "
                            "< /dev/null"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    out = read_bytes(dir / "any.dmf");
    text.assign(reinterpret_cast<const char*>(out.data()), out.size());
    EXPECT_NE(text.find("SECRET"), std::string::npos);
}

// Issue 29 item 3: the check is made on what was opened. A folder link swapped between an
// inside folder and an outside one while the file is read (2 of 400 conversions embedded the
// outside file when the path was checked and then opened).
TEST(SideFiles, AFolderLinkSwappedWhileReadingNeverLeadsOutside) {
    fs::path dir = layout("side-race");
    write_text(dir / "model/real_tex/a.png", "A");
    write_text(dir / "outside/a.png", "SECRET");
    fs::remove_all(dir / "model/tex");  // a folder in layout(): a link to one here
    std::error_code error;
    fs::create_directory_symlink("real_tex", dir / "model/tex", error);
    if (error) GTEST_SKIP() << "symbolic links need a privilege here";
    std::atomic<bool> done{false};
    std::thread swapper([&] {
        const fs::path targets[] = {dir / "outside", "real_tex"};
        for (int i = 0; i < 1000000 && !done; ++i) {
            std::error_code ignored;
            fs::create_directory_symlink(targets[i % 2], dir / "model/tex.next", ignored);
            fs::rename(dir / "model/tex.next", dir / "model/tex", ignored);  // atomic swap
        }
    });
    int inside = 0;
    int outside = 0;
    for (int i = 0; i < 4000; ++i) {
        const std::string text = text_of(read_side_file("tex/a.png", dir / "model/scene.cast", {}));
        inside += text == "A";
        outside += text == "SECRET";
    }
    done = true;
    swapper.join();
    EXPECT_EQ(outside, 0);
    EXPECT_GT(inside, 0);
}

std::string text_of(const Expected<std::shared_ptr<const platform::MappedFile>>& held) {
    if (!held) return held.error().message;
    const std::span<const std::byte> bytes = (*held)->bytes();
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// <dir>/in/sub/scene.cast naming tex.png beside it ("INSIDE-BYTES"), and <dir>/outside, a
// folder holding a tex.png of its own ("OUTSIDE-BYTES").
fs::path swap_layout(const std::string& name) {
    fs::path dir = fs::absolute(temp_dir(name));
    cast::Document document;
    cast::Material material = document.add_root().add_model().add_material();
    material.set_slot("albedo", material.add_file("tex.png"));
    auto bytes = cast::write_to_buffer(document);
    EXPECT_TRUE(bytes);
    fs::create_directories(dir / "in/sub");
    write_bytes(dir / "in/sub/scene.cast", *bytes);
    write_text(dir / "in/sub/tex.png", "INSIDE-BYTES");
    write_text(dir / "outside/tex.png", "OUTSIDE-BYTES");
    return dir;
}

// in/sub swapped for a link to the outside folder: what an attacker does between a conversion's
// read of its input and the read of the textures the input names. False when links cannot be
// made here. On Windows the folder castkit holds cannot be renamed at all: nothing is swapped.
bool swap_for_link(const fs::path& dir, const fs::path& target) {
    std::error_code error;
    fs::rename(dir / "in/sub", dir / "in/sub-was", error);
    if (error) return true;
    fs::create_directory_symlink(target, dir / "in/sub", error);
    return !error;
}

// Issue 57 item 5: the folder was checked as it was when the texture was read, so a sub-folder
// swapped for a link after its input was read led the texture outside (95-123 of ~300 folder
// runs). The context holds the folder open from before the input is read, and the texture is
// opened beneath that descriptor: the swap is made deterministically between the two here.
TEST(SideFiles, AFolderSwappedForALinkAfterItsSourceWasOpenedLeadsNowhere) {
    for (const bool absolute : {true, false}) {
        const fs::path dir = swap_layout(absolute ? "side-swap-absolute" : "side-swap-relative");
        const Context context = formats::context_for(dir / "in/sub/scene.cast");
        if (!swap_for_link(dir, absolute ? dir / "outside" : fs::path("../outside")))
            GTEST_SKIP() << "symbolic links need a privilege here";
        EXPECT_EQ(text_of(formats::read_side_file(context, "tex.png")), "INSIDE-BYTES");
        auto found = formats::resolve_side_file(context, "tex.png");
        ASSERT_TRUE(found) << found.error().to_string();
        EXPECT_EQ(text_of(formats::map_side_file(context, *found)), "INSIDE-BYTES");
    }
}

// The same swap between reading a Cast and writing it as DMF (which embeds its textures), as a
// conversion (batch::convert, `castkit convert`) does it: the output embeds the texture of the
// folder the input was read from, never the outside one.
TEST(SideFiles, AConversionEmbedsTheTexturesOfTheFolderItsInputWasReadFrom) {
    const fs::path dir = swap_layout("side-swap-convert");
    const fs::path input = dir / "in/sub/scene.cast";
    const ReadContext read = formats::context_for(input);
    Diagnostics diagnostics;
    auto document = formats::read_file(cast_format(), input, read, diagnostics);
    ASSERT_TRUE(document) << document.error().to_string();
    if (!swap_for_link(dir, dir / "outside")) GTEST_SKIP() << "symbolic links need a privilege";
    // The read context as the write's, its folder held with it (batch::convert copies them).
    WriteContext write = read;
    write.name = "out.dmf";
    auto written =
        formats::write_file(*format_by_name("dmf"), *document, dir / "out.dmf", write, diagnostics);
    ASSERT_TRUE(written) << written.error().to_string();
    const std::vector<std::byte> out = read_bytes(dir / "out.dmf");
    const std::string text(reinterpret_cast<const char*>(out.data()), out.size());
    EXPECT_EQ(text.find("OUTSIDE-BYTES"), std::string::npos);
    EXPECT_NE(text.find("INSIDE-BYTES"), std::string::npos);
}

// Links inside the folder are followed while they stay inside it, one part at a time beneath
// the folder's descriptor; one that leads above it, or to an absolute path outside it, is
// refused, and a FIFO is refused without being waited on.
TEST(SideFiles, LinksAreFollowedBeneathTheFolderOnlyWhileTheyStayInIt) {
    const fs::path dir = fs::absolute(layout("side-walk"));
    std::error_code error;
    fs::create_symlink("tex/a.png", dir / "model/alias.png", error);
    if (error) GTEST_SKIP() << "symbolic links need a privilege here";
    fs::create_symlink("../tex/a.png", dir / "model/tex/round.png");
    fs::create_symlink(dir / "model/tex/a.png", dir / "model/absolute.png");
    fs::create_directory_symlink("..", dir / "model/up");
    fs::create_symlink("../../secret.txt", dir / "model/tex/escape.png");
    const fs::path source = dir / "model/scene.cast";
    EXPECT_EQ(text_of(read_side_file("alias.png", source, {})), "A");
    EXPECT_EQ(text_of(read_side_file("tex/round.png", source, {})), "A");
    EXPECT_EQ(text_of(read_side_file("absolute.png", source, {})), "A");
    for (const char* out : {"up/secret.txt", "up/model/tex/a.png", "tex/escape.png"}) {
        auto refused = read_side_file(out, source, {});
        ASSERT_FALSE(refused) << out;
        EXPECT_NE(refused.error().message.find("leads outside"), std::string::npos)
            << refused.error().message;
    }
#ifndef _WIN32
    ASSERT_EQ(run_shell("mkfifo " + quoted(dir / "model/pipe.png")), 0);
    auto pipe = read_side_file("pipe.png", source, {});
    ASSERT_FALSE(pipe);
    EXPECT_NE(pipe.error().message.find("not a regular file"), std::string::npos);
#endif
}

// A glTF whose buffer names `buffer` (36 bytes: three positions), as text.
std::string gltf_naming(const std::string& buffer) {
    return nlohmann::json{{"asset", {{"version", "2.0"}}},
                          {"buffers", {{{"uri", buffer}, {"byteLength", 36}}}},
                          {"bufferViews", {{{"buffer", 0}, {"byteLength", 36}}}},
                          {"accessors",
                           {{{"bufferView", 0},
                             {"componentType", 5126},
                             {"count", 3},
                             {"type", "VEC3"},
                             {"min", {-1e30, -1e30, -1e30}},
                             {"max", {1e30, 1e30, 1e30}}}}},
                          {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 0}}}}}}}}},
                          {"nodes", {{{"mesh", 0}}}},
                          {"scenes", {{{"nodes", {0}}}}},
                          {"scene", 0}}
        .dump();
}

bool file_holds(const fs::path& path, const std::string& text) {
    if (!fs::exists(path)) return false;
    const std::vector<std::byte> bytes = read_bytes(path);
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()).find(text) !=
           std::string::npos;
}

// A command prefix that makes `dir` the working folder (cmd.exe changes the drive too only
// with /d: the test's folder is on C:, the build tree under Wine on Z:).
std::string cd_to(const fs::path& dir) {
#ifdef _WIN32
    return "cd /d " + quoted(dir) + " && ";
#else
    return "cd " + quoted(dir) + " && ";
#endif
}

// Issue 29 item 4: bytes read without a folder (standard input) resolve no side files, though
// the working folder holds the file named (a service converting uploads leaked its .env).
TEST(SideFiles, StandardInputReadsNoSideFilesFromTheWorkingFolder) {
    fs::path dir = temp_dir("side-stdin");
    write_text(dir / ".env", "API_KEY=hunter2-and-36-bytes-of-it!!");  // 36 bytes
    write_text(dir / "x.gltf", gltf_naming(".env"));
    const std::string cd = cd_to(dir);
    CommandResult result = run_cli_in(cd, "convert - out.glb --from gltf < x.gltf");
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(result.err.find("no folder"), std::string::npos) << result.err;
    EXPECT_FALSE(file_holds(dir / "out.glb", "hunter2"));
    // The same file named by its path reads its buffer beside it.
    result = run_cli_in(cd, "convert x.gltf named.glb");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(file_holds(dir / "named.glb", "hunter2"));
}

// A Cast from standard input naming a texture in the working folder: not embedded unless the
// caller names a folder (--textures DIR).
TEST(SideFiles, StandardInputReadsTexturesOnlyFromAFolderTheCallerNames) {
    fs::path dir = temp_dir("side-stdin-texture");
    fs::copy_file(fixtures() / "gltf/real/BoxTexcoords-glTF/texture.png", dir / "wall.png");
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Material material = model.add_material();
    material.set_name("wall");
    cast::File file = material.add_file("wall.png");
    material.set_slot("albedo", file);
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    mesh.set_material(material);
    auto bytes = cast::write_to_buffer(document);
    ASSERT_TRUE(bytes);
    write_bytes(dir / "scene.cast", *bytes);
    const std::string cd = cd_to(dir);
    CommandResult result = run_cli_in(cd, "convert - plain.glb --from cast < scene.cast");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("no folder"), std::string::npos) << result.err;
    const nlohmann::json plain = gltf_json(dir / "plain.glb");  // kept: the loop views into it
    for (const nlohmann::json& image : plain["images"])
        EXPECT_FALSE(image.contains("bufferView")) << image.dump();  // a reference, not read
    result = run_cli_in(cd, "convert - named.glb --from cast --textures . < scene.cast");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json images = gltf_json(dir / "named.glb")["images"];
    ASSERT_EQ(images.size(), 1u);
    EXPECT_TRUE(images[0].contains("bufferView"));
}

}  // namespace
}  // namespace castkit::side_files_test
