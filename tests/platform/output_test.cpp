// Output paths of the platform layer that only large files take: payloads copied file to file
// from the mapping they were read from, and the size reservation of atomic files.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <numeric>

#include "../../src/platform/platform.hpp"
#include "../test_support.hpp"

namespace castkit::output_test {
namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
}

// A document whose payloads are large enough for the file-to-file copy (64 KiB and up) and
// start at odd offsets (names of odd lengths), with small properties between them.
cast::Document large_document() {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Model model = root.add_model();
    model.set_name("m");
    cast::Mesh mesh = model.add_mesh();
    std::vector<glm::vec3> positions(100'003);
    for (std::size_t i = 0; i < positions.size(); ++i)
        positions[i] = glm::vec3(float(i), 1.5f, -float(i));
    mesh.set_positions(positions);
    mesh.set_name("a mesh with an odd name");
    std::vector<std::uint32_t> faces(3 * 70'001);
    std::iota(faces.begin(), faces.end(), 0u);
    mesh.set_faces(faces);
    return document;
}

TEST(PlatformOutput, RewritingAMappedFileCopiesEveryPayloadExactly) {
    const auto dir = test::temp_dir("platform_output_rewrite");
    const cast::Document built = large_document();
    const std::vector<std::byte> expected = cast::write_to_buffer(built).value();
    ASSERT_GT(expected.size(), 2'000'000u);
    ASSERT_TRUE(cast::write(built, dir / "a.cast"));
    ASSERT_EQ(test::read_bytes(dir / "a.cast"), expected);

    auto opened = test::open_cast(dir / "a.cast");
    ASSERT_TRUE(opened);
    // Mix a payload owned in memory between payloads that view the mapping.
    std::vector<float> values(40'000, 0.25f);
    opened->models()[0].meshes()[0].node().set(cast::make_array<float>("wv", values));
    cast::Document mixed = std::move(*opened);
    ASSERT_TRUE(cast::write(mixed, dir / "b.cast"));
    EXPECT_EQ(test::read_bytes(dir / "b.cast"), cast::write_to_buffer(mixed).value());

    // Without the owned payload, the rewrite is the original file byte for byte.
    mixed.models()[0].meshes()[0].node().remove("wv");
    ASSERT_TRUE(cast::write(mixed, dir / "c.cast"));
    EXPECT_EQ(test::read_bytes(dir / "c.cast"), expected);
}

TEST(PlatformOutput, AReservationLongerThanTheDataIsCutAtCommit) {
    const auto dir = test::temp_dir("platform_output_reserve_long");
    auto file = platform::create_atomic_file(dir / "out.bin", 1 << 20);
    ASSERT_TRUE(file);
    ASSERT_TRUE((*file)->write(bytes_of("ten bytes!")));
    ASSERT_TRUE((*file)->commit());
    EXPECT_EQ(test::read_bytes(dir / "out.bin"), bytes_of("ten bytes!"));
}

TEST(PlatformOutput, WritingPastTheReservationKeepsEverything) {
    const auto dir = test::temp_dir("platform_output_reserve_short");
    std::string text(100'000, 'x');
    text += "end";
    auto file = platform::create_atomic_file(dir / "out.bin", 4);
    ASSERT_TRUE(file);
    ASSERT_TRUE((*file)->write(bytes_of(text)));
    ASSERT_TRUE((*file)->commit());
    EXPECT_EQ(test::read_bytes(dir / "out.bin"), bytes_of(text));
}

// A side file is created only where no file has its name: one another program writes after
// castkit looked (between SideOutputs' check and the rename) keeps its bytes, and the temporary
// goes away; with the name free, the data lands.
TEST(PlatformOutput, CommitIfAbsentNeverReplacesAFileThatAppearedMeanwhile) {
    const auto dir = test::temp_dir("platform_output_if_absent");
    const auto target = dir / "wall.png";
    auto file = platform::create_atomic_file(target);
    ASSERT_TRUE(file);
    ASSERT_TRUE((*file)->write(bytes_of("castkit's image")));
    test::write_bytes(target, bytes_of("the user's own"));
    auto committed = (*file)->commit_if_absent();
    ASSERT_TRUE(committed) << committed.error().to_string();
    EXPECT_FALSE(*committed);
    file->reset();
    EXPECT_EQ(test::read_bytes(target), bytes_of("the user's own"));
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
    EXPECT_EQ(entries, 1u) << "the temporary file is removed";

    auto fresh = platform::create_atomic_file(dir / "floor.png");
    ASSERT_TRUE(fresh);
    ASSERT_TRUE((*fresh)->write(bytes_of("castkit's image")));
    auto created = (*fresh)->commit_if_absent();
    ASSERT_TRUE(created);
    EXPECT_TRUE(*created);
    fresh->reset();
    EXPECT_EQ(test::read_bytes(dir / "floor.png"), bytes_of("castkit's image"));
}

// The name of the one temporary file in `dir` (an uncommitted atomic file's).
std::string temporary_name_in(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    return names.size() == 1 ? names[0] : "";
}

// castkit.batch tells its workers' temporaries from anyone else's by the run's tag: while a
// TemporaryTag lives, this thread's temporaries carry it (its letters and digits only), and the
// thread's previous tag, or none, comes back after it.
TEST(PlatformOutput, TemporariesCarryTheThreadsTagWhileItLives) {
    const auto dir = test::temp_dir("platform_output_tag");
    const auto temporary_name = [&dir] {
        auto file = platform::create_atomic_file(dir / "out.glb");
        EXPECT_TRUE(file);
        return temporary_name_in(dir);  // removed when `file` goes
    };
    EXPECT_TRUE(temporary_name().starts_with("out.glb.castkit-"));
    {
        const platform::TemporaryTag tag("run1/../x");
        EXPECT_TRUE(temporary_name().starts_with("out.glb.castkit-run1x-"));
        {
            const platform::TemporaryTag inner("two");
            EXPECT_TRUE(temporary_name().starts_with("out.glb.castkit-two-"));
        }
        EXPECT_TRUE(temporary_name().starts_with("out.glb.castkit-run1x-"));
    }
    const std::string untagged = temporary_name();
    EXPECT_FALSE(untagged.starts_with("out.glb.castkit-run1x-")) << untagged;
    EXPECT_EQ(temporary_name_in(dir), "");
}
}  // namespace
}  // namespace castkit::output_test
