// The files a document carries in memory (cast::Document::embedded, docs/document-model.md,
// "Embedded files"): their names, their ownership through clone and move.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>

#include "../test_support.hpp"

namespace castkit::test {
namespace {

cast::SharedBytes owned(std::string_view text) {
    const auto* data = reinterpret_cast<const std::byte*>(text.data());
    auto bytes = std::make_shared<const std::vector<std::byte>>(data, data + text.size());
    return {cast::Bytes(*bytes), bytes};
}

std::vector<std::byte> bytes_of(cast::Bytes bytes) { return {bytes.begin(), bytes.end()}; }

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

}  // namespace
}  // namespace castkit::test
