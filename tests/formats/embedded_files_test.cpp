// The files a document carries in memory (cast::Document::embedded, docs/document-model.md,
// "Embedded files"): their names, their ownership through clone and move, the glTF and DMF
// readers that fill them (a glb's image a view of the input), and the writers that keep them.
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/registry.hpp>
#include <castkit/sink.hpp>

#include "../test_support.hpp"
#include "io/base64.hpp"

namespace castkit::test::embedded_files_test {
namespace {

namespace fs = std::filesystem;

fs::path hero() { return fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero"; }

cast::SharedBytes owned(std::string_view text) {
    const auto* data = reinterpret_cast<const std::byte*>(text.data());
    auto bytes = std::make_shared<const std::vector<std::byte>>(data, data + text.size());
    return {cast::Bytes(*bytes), bytes};
}

std::vector<std::byte> bytes_of(cast::Bytes bytes) { return {bytes.begin(), bytes.end()}; }

std::size_t count_rule(const Diagnostics& diagnostics, std::string_view rule) {
    return static_cast<std::size_t>(
        std::count_if(diagnostics.begin(), diagnostics.end(),
                      [&](const Diagnostic& d) { return d.rule == rule; }));
}

// The paths of every material File of `document`.
std::vector<std::string> file_paths(const cast::Document& document) {
    std::vector<std::string> out;
    for (const cast::ConstModel& model : document.models())
        for (const cast::ConstMaterial& material : model.materials())
            for (const cast::ConstFile& file : material.files())
                out.emplace_back(file.path().value_or(""));
    return out;
}

// hero.glb read as `castkit info` reads it: mapped, no texture folder.
struct ReadGlb {
    formats::Input input;
    Expected<cast::Document> document;
    Diagnostics warnings;
};
ReadGlb read_hero_glb() {
    ReadGlb out{*formats::read_input(hero() / "hero.glb"), make_error(Diagnostic{}), {}};
    out.document = formats::read(*format_by_name("glb"), out.input,
                                 formats::context_for(hero() / "hero.glb"), out.warnings);
    return out;
}

TEST(EmbeddedFiles, NamesAreUniqueBlindToCaseAndTheSameBytesAreKeptOnce) {
    cast::EmbeddedFiles files;
    EXPECT_EQ(files.add("Skin.png", owned("one")), "Skin.png");
    EXPECT_EQ(files.add("skin.PNG", owned("one")), "Skin.png");
    EXPECT_EQ(files.add("skin.png", owned("two")), "skin-2.png");
    EXPECT_EQ(files.add("SKIN.png", owned("two")), "skin-2.png");
    EXPECT_EQ(files.add("skin.png", owned("three")), "skin-3.png");
    EXPECT_EQ(files.add("dir.d/plain", owned("one")), "dir.d/plain");
    EXPECT_EQ(files.add("dir.d/plain", owned("two")), "dir.d/plain-2");
    EXPECT_EQ(files.size(), 5u);
    ASSERT_NE(files.find("SKIN-2.PNG"), nullptr);
    EXPECT_EQ(bytes_of(files.find("SKIN-2.PNG")->bytes), bytes_of(owned("two").bytes));
    EXPECT_EQ(files.find("skin-4.png"), nullptr);
    std::vector<std::string> order;
    for (const cast::EmbeddedFile& file : files) order.push_back(file.name);
    EXPECT_EQ(order, (std::vector<std::string>{"Skin.png", "skin-2.png", "skin-3.png",
                                               "dir.d/plain", "dir.d/plain-2"}));
}

TEST(EmbeddedFiles, CloneAndMoveKeepThemAndACloneNeverBorrows) {
    const std::string text = "pixels";
    cast::Document document;
    const cast::Bytes borrowed(reinterpret_cast<const std::byte*>(text.data()), text.size());
    document.embedded.add("a.png", {borrowed, nullptr});
    document.embedded.add("b.png", owned("shared"));
    const cast::Document copy = document.clone();
    ASSERT_EQ(copy.embedded.size(), 2u);
    const cast::EmbeddedFile* a = copy.embedded.find("a.png");
    ASSERT_NE(a, nullptr);
    EXPECT_NE(a->bytes.owner, nullptr);
    EXPECT_NE(a->bytes.data(), borrowed.data());
    EXPECT_EQ(bytes_of(a->bytes), bytes_of(borrowed));
    EXPECT_EQ(copy.embedded.find("b.png")->bytes.owner,
              document.embedded.find("b.png")->bytes.owner);
    cast::Document moved = std::move(document);
    EXPECT_EQ(moved.embedded.size(), 2u);
    cast::Document assigned;
    assigned = std::move(moved);
    EXPECT_EQ(assigned.embedded.size(), 2u);
}

// Zero copy: the image is a view of the mapped glb that keeps the mapping alive, and the File
// names it; reading without a texture folder warns of nothing.
TEST(EmbeddedFiles, AGlbImageIsAViewOfTheInputNamedByItsFile) {
    ReadGlb read = read_hero_glb();
    ASSERT_TRUE(read.document) << read.document.error().to_string();
    EXPECT_TRUE(read.warnings.empty()) << read.warnings.begin()->to_string();
    ASSERT_EQ(read.document->embedded.size(), 1u);
    const cast::EmbeddedFile& image = *read.document->embedded.begin();
    EXPECT_EQ(image.name, "hero_image0.png");
    EXPECT_EQ(bytes_of(image.bytes), read_bytes(hero() / "hero_albedo.png"));
    EXPECT_GE(image.bytes.data(), read.input.data());
    EXPECT_LE(image.bytes.data() + image.bytes.size(), read.input.data() + read.input.size());
    EXPECT_EQ(image.bytes.owner, read.input.owner);
    EXPECT_EQ(file_paths(*read.document), std::vector<std::string>{"hero_image0.png"});
}

TEST(EmbeddedFiles, ADmfImageTravelsInTheDocumentWithoutAWarning) {
    for (const char* name : {"hero.dmf", "hero.dmf.json"}) {
        Diagnostics warnings;
        const FormatInfo* format = format_for_path(name);
        auto document = formats::read_file(*format, hero() / name,
                                           formats::context_for(hero() / name), warnings);
        ASSERT_TRUE(document) << document.error().to_string();
        EXPECT_TRUE(warnings.empty()) << name << ": " << warnings.begin()->to_string();
        ASSERT_EQ(document->embedded.size(), 1u) << name;
        EXPECT_EQ(document->embedded.begin()->name, "hero_albedo.png");
        EXPECT_EQ(bytes_of(document->embedded.begin()->bytes),
                  read_bytes(hero() / "hero_albedo.png"));
        EXPECT_EQ(file_paths(*document), std::vector<std::string>{"hero_albedo.png"});
    }
}

// Bytes in memory have no folder: a format that cannot embed says what it loses, one that can
// embeds the image.
TEST(EmbeddedFiles, WritingBytesNamesTheImagesAFormatCannotHold) {
    ReadGlb read = read_hero_glb();
    ASSERT_TRUE(read.document);
    for (const char* format : {"cast", "semodel"}) {
        BufferSink sink;
        Diagnostics warnings;
        ASSERT_TRUE(formats::write(*format_by_name(format), *read.document, sink, {}, warnings));
        EXPECT_EQ(count_rule(warnings, "texture.embedded-not-kept"), 1u) << format;
    }
    for (const char* format : {"glb", "dmf", "dmf-json"}) {
        BufferSink sink;
        Diagnostics warnings;
        ASSERT_TRUE(formats::write(*format_by_name(format), *read.document, sink, {}, warnings));
        EXPECT_EQ(count_rule(warnings, "texture.embedded-not-kept"), 0u) << format;
        // Byte for byte, as base64 text in the JSON form.
        std::vector<std::byte> image = read_bytes(hero() / "hero_albedo.png");
        if (std::string_view(format) == "dmf-json") {
            const std::string text = formats::base64_encode(image);
            image.assign(reinterpret_cast<const std::byte*>(text.data()),
                         reinterpret_cast<const std::byte*>(text.data()) + text.size());
        }
        EXPECT_NE(std::search(sink.bytes.begin(), sink.bytes.end(), image.begin(), image.end()),
                  sink.bytes.end())
            << format;
    }
}

// The library writes them beside a Cast file without being asked to place textures.
TEST(EmbeddedFiles, WriteFileWritesThemBesideACastFile) {
    const fs::path dir = temp_dir("embedded-files-write-file");
    ReadGlb read = read_hero_glb();
    ASSERT_TRUE(read.document);
    WriteContext context = formats::context_for(dir / "hero.cast");
    context.base = hero();
    Diagnostics warnings;
    ASSERT_TRUE(formats::write_file(*format_by_name("cast"), *read.document, dir / "hero.cast",
                                    context, warnings));
    EXPECT_TRUE(warnings.empty()) << warnings.begin()->to_string();
    EXPECT_EQ(read_bytes(dir / "hero_image0.png"), read_bytes(hero() / "hero_albedo.png"));
    auto written = open_cast(dir / "hero.cast");
    ASSERT_TRUE(written);
    EXPECT_EQ(file_paths(*written), std::vector<std::string>{"hero_image0.png"});
}

}  // namespace
}  // namespace castkit::test::embedded_files_test
