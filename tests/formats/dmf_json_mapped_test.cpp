// DMF JSON read from a mapped file: in place when the mapping's last page has room for simdjson's
// padding, through a padded copy when it has not (the file ends on or just before a page
// boundary). Both read the same model and report errors at the same byte offsets as reading the
// text from memory; a file of several MiB also has the pages the reader passed given back.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/formats/dmf.hpp>

#include "../../src/platform/platform.hpp"
#include "../test_support.hpp"
#include "dmf_golden.hpp"

namespace castkit::test::dmf_json_mapped_test {
namespace {

constexpr std::size_t kPadding = 64;  // SIMDJSON_PADDING

dmf::Model binary_golden() {
    Diagnostics warnings;
    auto model = dmf::read(golden_dmf(), "golden.dmf", warnings);
    EXPECT_TRUE(model);
    return model ? *model : dmf::Model{};
}

// `text` followed by spaces up to `size` bytes, written to `path`.
void write_padded(const std::filesystem::path& path, std::string text, std::size_t size) {
    EXPECT_LE(text.size(), size);
    text.resize(size, ' ');
    test::write_bytes(path, std::vector<std::byte>(
                                reinterpret_cast<const std::byte*>(text.data()),
                                reinterpret_cast<const std::byte*>(text.data()) + text.size()));
}

// How many bytes past the end of `path`'s mapping can be read: whether the reader can use it in
// place (at least kPadding) or copies it.
std::size_t room_after(const std::filesystem::path& path) {
    auto mapped = platform::map_file(path);
    EXPECT_TRUE(mapped);
    return mapped ? platform::readable_past_end((*mapped)->bytes()) : 0;
}

// Sizes around 64 KiB (a multiple of every page size in use) with and without room for the
// padding after the end of the file.
struct Sized {
    std::size_t size;
    bool in_place;
};
constexpr Sized kSizes[] = {
    {65536 - 100, true}, {65536 - kPadding, true}, {65536 - kPadding + 1, false}, {65536, false}};

TEST(DmfJsonMapped, InPlaceAndCopiedFilesReadTheSameModel) {
    const auto dir = temp_dir("dmf_json_mapped_model");
    for (const Sized& sized : kSizes) {
        const auto path = dir / fmt::format("golden-{}.dmf.json", sized.size);
        write_padded(path, golden_dmf_json(), sized.size);
        EXPECT_EQ(room_after(path) >= kPadding, sized.in_place) << sized.size;
        Diagnostics warnings;
        auto model = dmf::open_json(path, warnings);
        ASSERT_TRUE(model) << sized.size << ": " << model.error().to_string();
        EXPECT_EQ(*model, binary_golden()) << sized.size;
    }
}

TEST(DmfJsonMapped, InPlaceAndCopiedFilesNameTheSameErrorOffsets) {
    const auto dir = temp_dir("dmf_json_mapped_errors");
    const std::string golden = golden_dmf_json();
    const std::pair<std::string, std::string> breaks[] = {
        {"\"indices\": [0, 1, 2]", "\"indices\": [0, \"1\", 2]"},            // a type error
        {"\"fps\": 30", "\"fps\": 30.5"},                                    // not an integer
        {"\"rot\": [0, 0, 0.6, 0.8]}]}]", "\"rot\": [0, 0, 0.6, 0.8]}]}"}};  // not JSON
    for (const auto& [from, to] : breaks) {
        std::string text = golden;
        text.replace(text.find(from), from.size(), to);
        Diagnostics warnings;
        auto from_memory = dmf::read_json(text, "bad.dmf.json", warnings);
        ASSERT_FALSE(from_memory) << to;
        for (const Sized& sized : kSizes) {
            const auto path = dir / fmt::format("bad-{}.dmf.json", sized.size);
            write_padded(path, text, sized.size);
            auto from_file = dmf::open_json(path, warnings);
            ASSERT_FALSE(from_file) << to;
            EXPECT_EQ(from_file.error().offset, from_memory.error().offset) << to << sized.size;
            EXPECT_EQ(from_file.error().path, from_memory.error().path) << to << sized.size;
            EXPECT_EQ(from_file.error().message, from_memory.error().message) << to << sized.size;
        }
    }
}

// A model of `faces` faces over as many vertices: its JSON is about 300 bytes a face.
dmf::Model many_faces(std::uint32_t faces) {
    dmf::Model model = binary_golden();
    model.vertices.resize(faces, model.vertices[0]);
    for (std::uint32_t i = 0; i < faces; ++i)
        model.vertices[i].position = {float(i) * 0.25f, float(i % 7), -float(i)};
    const dmf::Face face = model.faces[0];
    model.faces.assign(faces, face);
    for (std::uint32_t i = 0; i < faces; ++i)
        model.faces[i].indices = {i, (i + 1) % faces, (i + 2) % faces};
    return model;
}

TEST(DmfJsonMapped, AFileOfManyMegabytesReadsAsItsText) {
    const auto dir = temp_dir("dmf_json_mapped_large");
    const dmf::Model model = many_faces(20000);
    auto text = dmf::write_json_text(model);
    ASSERT_TRUE(text);
    ASSERT_GT(text->size(), std::size_t{4} << 20);  // several release steps of 1 MiB
    const auto path = dir / "large.dmf.json";
    write_padded(path, *text, text->size());
    Diagnostics warnings;
    auto read = dmf::open_json(path, warnings);
    ASSERT_TRUE(read) << read.error().to_string();
    EXPECT_EQ(*read, model);

    // An error near the end, after the pages before it were given back.
    std::string bad = *text;
    const std::size_t last = bad.rfind("\"material\": 0");
    bad.replace(last, 13, "\"material\": \"0\"");
    write_padded(path, bad, bad.size());
    auto from_file = dmf::open_json(path, warnings);
    auto from_memory = dmf::read_json(bad, "large.dmf.json", warnings);
    ASSERT_FALSE(from_file);
    ASSERT_FALSE(from_memory);
    EXPECT_EQ(from_file.error().offset, last + 12);
    EXPECT_EQ(from_file.error().offset, from_memory.error().offset);
    EXPECT_EQ(from_file.error().path, "$.faces[19999].material");
}

}  // namespace
}  // namespace castkit::test::dmf_json_mapped_test
