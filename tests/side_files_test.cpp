// The policy for files a document names: inside the source file's folder and the folders the
// user names, regular files only, size-bounded; everything else only with the user's opt-in.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/side_files.hpp>
#include <fstream>
#include <string>

#include "formats/cli_command.hpp"
#include "test_support.hpp"

namespace castkit {
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
        cast::File file = material.add_file();
        file.set_path(path);
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

    result = run_cli(in_dir(dir, "convert {model/scene.cast} {any.dmf} --allow-any-path "
                                 "< /dev/null"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    out = read_bytes(dir / "any.dmf");
    text.assign(reinterpret_cast<const char*>(out.data()), out.size());
    EXPECT_NE(text.find("SECRET"), std::string::npos);
}

}  // namespace
}  // namespace castkit
