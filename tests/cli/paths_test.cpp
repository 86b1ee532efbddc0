// The CLI with the files users have, on every system and under Wine for Windows: names with
// non-ASCII letters and spaces (UTF-8 on the command line, wide-character file APIs underneath
// on Windows), backslash separators on Windows, binary output and standard input/output that
// keep every byte (no CR before LF, no stop at 0x1A), and replacing a file that another
// process is reading (the write succeeds or fails clearly; the file is never half written).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../test_support.hpp"

namespace castkit::test::paths_test {
namespace {

// A path quoted for the shell, as UTF-8 (run_cli takes UTF-8 on every system).
std::string quoted(const std::filesystem::path& path) {
    const std::u8string text = path.u8string();
    return fmt::format("\"{}\"", std::string(text.begin(), text.end()));
}

std::string utf8(const std::u8string& text) { return std::string(text.begin(), text.end()); }

std::filesystem::path character() {
    return std::filesystem::path(CASTKIT_SOURCE_DIR) / "examples" / "data" / "character.cast";
}

// A reference file whose bytes include CR LF, lone CR and LF, 0x1A and NUL.
std::filesystem::path awkward_bytes() {
    return fixtures() / "cast" / "reference" / "gen_7_11.cast";
}

std::vector<std::string> entries(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.push_back(utf8(entry.path().filename().u8string()));
    std::sort(names.begin(), names.end());
    return names;
}

TEST(CliPaths, NonAsciiLettersAndSpacesInFolderAndFileNames) {
    const auto dir = temp_dir("paths-unicode") / u8"dossier été 日本";
    std::filesystem::create_directories(dir);
    const auto in = dir / u8"modèle ü 日本.cast";
    const auto out = dir / u8"sortie ü 日本.semodel";
    std::filesystem::copy_file(character(), in);

    CommandResult converted = run_cli("convert " + quoted(in) + " " + quoted(out));
    ASSERT_EQ(converted.exit_code, 0) << converted.err;
    // The same conversion from a plain name gives the same bytes.
    const auto plain = temp_dir("paths-plain");
    ASSERT_EQ(
        run_cli("convert " + quoted(character()) + " " + quoted(plain / "plain.semodel")).exit_code,
        0);
    EXPECT_EQ(read_bytes(out), read_bytes(plain / "plain.semodel"));
    EXPECT_EQ(entries(dir), (std::vector<std::string>{utf8(u8"modèle ü 日本.cast"),
                                                      utf8(u8"sortie ü 日本.semodel")}));

    // Messages name the file as it was given, in UTF-8.
    CommandResult info = run_cli("info " + quoted(out));
    EXPECT_EQ(info.exit_code, 0) << info.err;
    CommandResult missing = run_cli("info " + quoted(dir / u8"absent ü 日本.cast"));
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_NE(missing.err.find(utf8(u8"absent ü 日本.cast")), std::string::npos) << missing.err;
}

TEST(CliPaths, BackslashSeparatorsOnWindows) {
#ifndef _WIN32
    GTEST_SKIP() << "a backslash is a file-name character outside Windows";
#else
    const auto dir = temp_dir("paths-backslash");
    std::filesystem::create_directories(dir / "sub folder");
    std::filesystem::copy_file(character(), dir / "sub folder" / "in.cast");
    std::string base = utf8(dir.u8string());
    std::replace(base.begin(), base.end(), '/', '\\');
    CommandResult result = run_cli("convert \"" + base + "\\sub folder\\in.cast\" \"" + base +
                                   "\\sub folder\\out.cast\"");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(read_bytes(dir / "sub folder" / "out.cast"), read_bytes(character()));
#endif
}

TEST(CliPaths, BinaryFilesAndStandardStreamsKeepEveryByte) {
    const auto in = awkward_bytes();
    const auto dir = temp_dir("paths-binary");
    ASSERT_EQ(run_cli("convert " + quoted(in) + " " + quoted(dir / "file.cast")).exit_code, 0);
    EXPECT_EQ(read_bytes(dir / "file.cast"), read_bytes(in));
    // Standard input to standard output (which run_cli sends to a file).
    CommandResult piped = run_cli("convert - - < " + quoted(in));
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    const std::vector<std::byte> original = read_bytes(in);
    ASSERT_EQ(piped.out.size(), original.size());
    EXPECT_EQ(std::memcmp(piped.out.data(), original.data(), original.size()), 0);
    // A binary format written to standard output (wave.cast holds an animation).
    const auto wave = std::filesystem::path(CASTKIT_SOURCE_DIR) / "examples" / "data" / "wave.cast";
    ASSERT_EQ(run_cli("convert " + quoted(wave) + " " + quoted(dir / "a.seanim")).exit_code, 0);
    CommandResult to_stdout = run_cli("convert " + quoted(wave) + " - --to seanim");
    ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
    const std::vector<std::byte> expected = read_bytes(dir / "a.seanim");
    ASSERT_EQ(to_stdout.out.size(), expected.size());
    EXPECT_EQ(std::memcmp(to_stdout.out.data(), expected.data(), expected.size()), 0);
}

TEST(CliPaths, ReplacingAFileAnotherProcessIsReading) {
    const auto dir = temp_dir("paths-held-open");
    const auto out = dir / "held.cast";
    std::filesystem::copy_file(awkward_bytes(), out);
    const std::vector<std::byte> old_bytes = read_bytes(out);
    std::ifstream reader(out, std::ios::binary);
    ASSERT_TRUE(reader.is_open());
    char first = 0;
    reader.read(&first, 1);  // the reader has started

    CommandResult result = run_cli("convert " + quoted(character()) + " " + quoted(out));
    if (result.exit_code == 0) {
        EXPECT_EQ(read_bytes(out), read_bytes(character()));
    } else {
        // Windows refuses to replace a file opened without delete sharing: a clear failure.
        EXPECT_EQ(result.exit_code, 1);
        EXPECT_NE(result.err.find("held.cast"), std::string::npos) << result.err;
        EXPECT_EQ(read_bytes(out), old_bytes);
    }
    // The character's images travel with it (docs/workflows.md, "Textures").
    EXPECT_EQ(entries(dir), (std::vector<std::string>{"held.cast", "textures"}));
    // Either way the reader goes on reading the file it opened, whole.
    std::string rest((std::istreambuf_iterator<char>(reader)), std::istreambuf_iterator<char>());
    EXPECT_EQ(rest.size() + 1, old_bytes.size());
}

}  // namespace
}  // namespace castkit::test::paths_test
