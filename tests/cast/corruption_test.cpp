// Damaged input: every truncation and every single-bit flip of a small fixture and of a generated
// file with every property type either fails with a diagnostic or reads into a document that
// writes out and reads back to the same bytes. Nothing crashes (the sanitizer build checks the
// "nothing" part), nothing hangs.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <chrono>

#include "../test_support.hpp"
#include "sample_documents.hpp"

namespace castkit::test::corruption_test {
namespace {

using namespace castkit::cast;

std::vector<std::byte> every_type_bytes() {
    auto bytes = write_to_buffer(every_property_type_document());
    EXPECT_TRUE(bytes);
    return bytes ? *bytes : std::vector<std::byte>{};
}

std::vector<std::byte> triangle_bytes() {
    return read_bytes(fixtures() / "cast" / "edge" / "triangle.cast");
}

// What a damaged buffer must do: fail with a located diagnostic, or read into a document whose
// rewrite is itself readable and rewrites to the same bytes (the writer's output is canonical).
// Returns true when it read.
bool check_damaged(const std::vector<std::byte>& bytes, const std::string& what) {
    Diagnostics warnings;
    auto document = read(Bytes(bytes), "damaged.cast", warnings, {.max_depth = 256});
    if (!document) {
        EXPECT_EQ(document.error().file, "damaged.cast") << what;
        EXPECT_NE(document.error().offset, Diagnostic::kNoOffset) << what;
        EXPECT_FALSE(document.error().message.empty()) << what;
        return false;
    }
    std::string text = dump_text(*document);
    std::string json;
    dump_json(*document, json);
    EXPECT_FALSE(text.empty());
    auto first = write_to_buffer(*document);
    if (!first) {
        ADD_FAILURE() << what << ": " << first.error().to_string();
        return true;
    }
    auto again = read_cast(Bytes(*first));
    if (!again) {
        ADD_FAILURE() << what << ": the rewrite does not read: " << again.error().to_string();
        return true;
    }
    auto second = write_to_buffer(*again);
    EXPECT_TRUE(second && *second == *first) << what << ": rewriting the rewrite changed it";
    return true;
}

struct Tally {
    int errors = 0;
    int reads = 0;
};

Tally truncate_everywhere(const std::vector<std::byte>& bytes) {
    Tally tally;
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        std::vector<std::byte> prefix(bytes.begin(),
                                      bytes.begin() + static_cast<std::ptrdiff_t>(size));
        check_damaged(prefix, "truncated to " + std::to_string(size)) ? ++tally.reads
                                                                      : ++tally.errors;
    }
    return tally;
}

Tally flip_every_bit(const std::vector<std::byte>& bytes) {
    Tally tally;
    for (std::size_t i = 0; i < bytes.size(); ++i)
        for (int bit = 0; bit < 8; ++bit) {
            std::vector<std::byte> damaged = bytes;
            damaged[i] ^= std::byte(1u << bit);
            bool read =
                check_damaged(damaged, "byte " + std::to_string(i) + " bit " + std::to_string(bit));
            read ? ++tally.reads : ++tally.errors;
        }
    return tally;
}

// Whole-byte patterns that single-bit flips never produce: zero, all ones, and the extremes
// that count fields overflow with.
Tally overwrite_every_byte(const std::vector<std::byte>& bytes) {
    Tally tally;
    for (std::size_t i = 0; i < bytes.size(); ++i)
        for (std::byte pattern :
             {std::byte{0x00}, std::byte{0xFF}, std::byte{0x7F}, std::byte{0x80}}) {
            std::vector<std::byte> damaged = bytes;
            damaged[i] = pattern;
            bool read = check_damaged(damaged, "byte " + std::to_string(i) + " = pattern");
            read ? ++tally.reads : ++tally.errors;
        }
    return tally;
}

TEST(Corruption, EveryTruncationOfTheTriangleIsAnError) {
    auto bytes = triangle_bytes();
    ASSERT_FALSE(bytes.empty());
    Tally tally = truncate_everywhere(bytes);
    // Every byte of a file without trailing data is needed: no prefix is a valid file.
    EXPECT_EQ(tally.errors, static_cast<int>(bytes.size()));
}

TEST(Corruption, EveryTruncationOfTheEveryTypeFileIsAnError) {
    auto bytes = every_type_bytes();
    ASSERT_GT(bytes.size(), 300u);
    Tally tally = truncate_everywhere(bytes);
    EXPECT_EQ(tally.errors, static_cast<int>(bytes.size()));
}

TEST(Corruption, EveryBitFlipOfTheTriangleFailsCleanlyOrReads) {
    Tally tally = flip_every_bit(triangle_bytes());
    // Both outcomes occur: flips in float payloads read, flips in magic or counts fail.
    EXPECT_GT(tally.errors, 0);
    EXPECT_GT(tally.reads, 0);
}

TEST(Corruption, EveryBitFlipOfTheEveryTypeFileFailsCleanlyOrReads) {
    Tally tally = flip_every_bit(every_type_bytes());
    EXPECT_GT(tally.errors, 0);
    EXPECT_GT(tally.reads, 0);
}

TEST(Corruption, EveryByteOverwriteOfBothFilesFailsCleanlyOrReads) {
    Tally triangle = overwrite_every_byte(triangle_bytes());
    Tally every_type = overwrite_every_byte(every_type_bytes());
    EXPECT_GT(triangle.errors + every_type.errors, 0);
    EXPECT_GT(triangle.reads + every_type.reads, 0);
}

TEST(Corruption, TheEveryTypeFileReadsBackAsBuilt) {
    auto bytes = every_type_bytes();
    Diagnostics warnings;
    auto document = read(Bytes(bytes), "every-type.cast", warnings);
    ASSERT_TRUE(document) << document.error().to_string();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rule, "cast.unknown-property-type");
    auto rewritten = write_to_buffer(*document);
    ASSERT_TRUE(rewritten);
    EXPECT_EQ(*rewritten, bytes);
}

// A file of NUL bytes can declare one string per byte; dumping them must stay linear (each
// string used to be found by rescanning the payload from its start).
TEST(Corruption, ManyEmptyStringsDumpInLinearTime) {
    constexpr std::uint32_t kStrings = 400000;
    Document document;
    Node& root = document.add_root().node();
    std::vector<std::byte> payload(kStrings, std::byte{0});
    payload[1] = std::byte{'x'};  // the second string is "x"
    payload.push_back(std::byte{0});
    root.properties.emplace_back(PropertyType::String, "a", kStrings, std::move(payload));
    auto bytes = write_to_buffer(document);
    ASSERT_TRUE(bytes);
    auto reread = read_cast(Bytes(*bytes));
    ASSERT_TRUE(reread) << reread.error().to_string();
    const auto start = std::chrono::steady_clock::now();
    std::string json;
    dump_json(*reread, json);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0);
    EXPECT_NE(json.find("\"values\":[\"\",\"x\",\"\","), std::string::npos);
    // kStrings quoted strings, one of them "x", separated by commas.
    const std::size_t begin = json.find("\"values\":[") + 10;
    EXPECT_EQ(json.find(']', begin) - begin, std::size_t{kStrings} * 3);
}

// Children with distinct ids each get a path index; counting them must not be quadratic, and
// the index of a repeated id stays right past the point where the counter changes strategy.
TEST(Corruption, ManyDistinctSiblingIdsReadInLinearTime) {
    constexpr std::uint32_t kChildren = 200000;
    Document document;
    Node& root = document.add_root().node();
    for (std::uint32_t i = 0; i < kChildren; ++i)
        root.add_child(std::make_unique<Node>(0x10000000u + i, i));
    root.add_child(std::make_unique<Node>(0x10000005u, 0))
        .properties.push_back(make_string("n", "last"));
    auto bytes = write_to_buffer(document);
    ASSERT_TRUE(bytes);
    bytes->pop_back();  // the last child's name loses its NUL
    const auto start = std::chrono::steady_clock::now();
    auto result = read_cast(Bytes(*bytes));
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().path, "root[0]/0x10000005[1]");
    // File header, root header, the children, the last child's header, property header, "n".
    EXPECT_EQ(result.error().offset, 16 + 24 + std::uint64_t{kChildren} * 24 + 24 + 8 + 1);
}

// Nodes nested past ReadOptions::max_depth are an error, not a stack overflow.
TEST(Corruption, DeepNestingIsAnError) {
    Document document;
    Node* node = &document.add_root().node();
    for (int depth = 1; depth < 300; ++depth)
        node = &node->add_child(std::make_unique<Node>(NodeId::Model, 0));
    auto bytes = write_to_buffer(document);
    ASSERT_TRUE(bytes);
    auto deep = read_cast(Bytes(*bytes));
    ASSERT_FALSE(deep);
    EXPECT_EQ(deep.error().rule, "cast.too-deep");
    Diagnostics warnings;
    auto allowed = read(Bytes(*bytes), "", warnings, {.max_depth = 300});
    EXPECT_TRUE(allowed);
}

// Counts that no remaining input could justify are refused before anything is reserved.
TEST(Corruption, ImpossibleCountsAreRefused) {
    auto bytes = triangle_bytes();
    ASSERT_EQ(bytes.size(), 182u);
    auto with_u32 = [&](std::size_t offset, std::uint32_t value) {
        auto damaged = bytes;
        std::memcpy(damaged.data() + offset, &value, 4);
        return read_cast(Bytes(damaged));
    };
    auto roots = with_u32(8, 0xFFFFFFFF);
    ASSERT_FALSE(roots);
    EXPECT_EQ(roots.error().rule, "cast.count-past-end");
    EXPECT_EQ(roots.error().offset, 8u);
    auto properties = with_u32(0x10 + 16, 0x40000000);
    ASSERT_FALSE(properties);
    EXPECT_EQ(properties.error().path, "root[0]");
    EXPECT_EQ(properties.error().rule, "cast.count-past-end");
    auto children = with_u32(0x10 + 20, 0x40000000);
    ASSERT_FALSE(children);
    EXPECT_EQ(children.error().rule, "cast.count-past-end");
    EXPECT_EQ(children.error().offset, 0x10u + 20);
}

}  // namespace
}  // namespace castkit::test::corruption_test
