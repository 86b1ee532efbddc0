// The format registry: bytes in, bytes out, one context carrying the name, the base folder for
// side files, the options and the warnings.
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/registry.hpp>
#include <set>

#include "../test_support.hpp"
#include "dmf_golden.hpp"

namespace castkit::test::registry_test {
namespace {

std::filesystem::path triangle() { return fixtures() / "cast" / "edge" / "triangle.cast"; }

TEST(FormatRegistry, GltfBuffersResolveAgainstTheContextsBase) {
    auto dir = temp_dir("registry-gltf-base");
    auto document = open_cast(triangle());
    ASSERT_TRUE(document);
    const FormatInfo& gltf = *format_by_name("gltf");
    Diagnostics warnings;
    ASSERT_TRUE(formats::write_file(gltf, *document, dir / "t.gltf",
                                    formats::context_for(dir / "t.gltf"), warnings));
    ASSERT_TRUE(std::filesystem::exists(dir / "t.bin"));
    const std::vector<std::byte> bytes = read_bytes(dir / "t.gltf");

    ReadContext beside{.name = "t.gltf", .base = dir};
    auto read = formats::read(gltf, {bytes, nullptr}, beside, warnings);
    ASSERT_TRUE(read) << read.error().to_string();
    EXPECT_EQ(read->models().size(), 1u);

    ReadContext elsewhere{.name = "t.gltf", .base = dir / "elsewhere"};
    auto missing = formats::read(gltf, {bytes, nullptr}, elsewhere, warnings);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().rule, "gltf.buffer-missing");
}

TEST(FormatRegistry, DmfWriterReadsNothingThroughTheSourceName) {
    auto dir = temp_dir("registry-dmf-source");
    Diagnostics warnings;
    auto golden = dmf::read(golden_dmf(), "golden", warnings);
    ASSERT_TRUE(golden);
    // A different DMF where the document says it came from: nothing may be taken from it.
    dmf::Model decoy = *golden;
    decoy.materials[0].face_side = dmf::kDouble;
    ASSERT_TRUE(dmf::write(decoy, dir / "decoy.dmf"));
    auto document = dmf::to_cast(*golden, "golden", warnings);
    ASSERT_TRUE(document);
    document->source_name = (dir / "decoy.dmf").string();

    BufferSink sink;
    WriteContext context{.name = "out.dmf"};
    ASSERT_TRUE(formats::write(*format_by_name("dmf"), *document, sink, context, warnings));
    auto written = dmf::read(sink.bytes, "out.dmf", warnings);
    ASSERT_TRUE(written);
    EXPECT_EQ(written->materials[0].face_side, golden->materials[0].face_side);
}

TEST(FormatRegistry, ReadersNameTheirInputAsTheContextSays) {
    std::vector<std::byte> junk(8, std::byte{0x55});
    for (const FormatInfo& format : all_formats()) {
        ReadContext context{.name = "named-input"};
        Diagnostics warnings;
        auto document = formats::read(format, {junk, nullptr}, context, warnings);
        ASSERT_FALSE(document) << format.name;
        EXPECT_EQ(document.error().file, "named-input") << format.name;
        EXPECT_FALSE(document.error().rule.empty()) << format.name;
    }
}

// format_for_bytes: the example files, one of every format castkit reads, are told from their
// bytes alone as from their extension; the two JSON formats apart by glTF's "asset" member.
TEST(FormatRegistry, EveryFormatIsToldFromItsBytes) {
    std::set<std::string_view> told;
    const auto examples = std::filesystem::path(CASTKIT_SOURCE_DIR) / "examples" / "data" / "hero";
    for (const auto& entry : std::filesystem::directory_iterator(examples)) {
        const FormatInfo* by_name = format_for_path(entry.path());
        if (by_name == nullptr) continue;  // images, a .gltf's buffer
        SCOPED_TRACE(entry.path().string());
        EXPECT_EQ(format_for_bytes(read_bytes(entry.path())), by_name);
        told.insert(by_name->name);
    }
    const auto all = all_formats();
    EXPECT_EQ(told.size(), static_cast<std::size_t>(std::count_if(
                               all.begin(), all.end(),
                               [](const FormatInfo& format) { return format.read != nullptr; })));
}

TEST(FormatRegistry, JsonIsGltfOnlyWithATopLevelAssetMember) {
    auto told = [](std::string_view text) -> std::string_view {
        const FormatInfo* format = format_for_bytes(std::as_bytes(std::span(text)));
        return format == nullptr ? std::string_view("none") : std::string_view(format->name);
    };
    EXPECT_EQ(told(" \n{\"asset\" : {\"version\": \"2.0\"}}"), "gltf");
    EXPECT_EQ(told("\xEF\xBB\xBF{\"scenes\": [], \"asset\": {}}"), "gltf");
    // "asset" as a value, nested, or inside another string is not glTF's member.
    EXPECT_EQ(told("{\"name\": \"asset\", \"format\": \"DASH\"}"), "dmf-json");
    EXPECT_EQ(told("{\"meshes\": [{\"asset\": 1}]}"), "dmf-json");
    EXPECT_EQ(told("{\"a\": \"x\\\"asset\\\": 1\"}"), "dmf-json");
    EXPECT_EQ(told(""), "none");
    EXPECT_EQ(told("not a model"), "none");
    EXPECT_EQ(told("[1, 2]"), "none");
}

}  // namespace
}  // namespace castkit::test::registry_test
