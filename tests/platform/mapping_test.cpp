// What parsers may do with a mapped file beyond its bytes: read the zeros after its end up to the
// end of its last page (readable_past_end), and give back pages they have passed (release_pages).
#include <gtest/gtest.h>

#include <vector>

#include "../../src/platform/platform.hpp"
#include "../test_support.hpp"

namespace castkit::mapping_test {
namespace {

std::shared_ptr<const platform::MappedFile> map_bytes(const std::filesystem::path& path,
                                                      std::size_t size) {
    std::vector<std::byte> bytes(size);
    for (std::size_t i = 0; i < size; ++i) bytes[i] = std::byte(i * 7 + 1);
    test::write_bytes(path, bytes);
    auto mapped = platform::map_file(path);
    EXPECT_TRUE(mapped);
    return mapped ? *mapped : nullptr;
}

TEST(PlatformMapping, TheLastPageOfAMappingIsReadableAndZeroPastTheEnd) {
    const auto dir = test::temp_dir("platform_mapping_tail");
    auto mapped = map_bytes(dir / "small.bin", 100);
    ASSERT_TRUE(mapped);
    const std::span<const std::byte> bytes = mapped->bytes();
    const std::size_t readable = platform::readable_past_end(bytes);
    // Pages are at least 4 KiB on every platform castkit runs on.
    EXPECT_GE(readable, 4096u - 100u);
    const volatile std::byte* tail = bytes.data() + bytes.size();
    for (std::size_t i = 0; i < readable; ++i) ASSERT_EQ(std::byte{tail[i]}, std::byte{0}) << i;
}

TEST(PlatformMapping, AMappingThatEndsOnAPageBoundaryHasNothingPastTheEnd) {
    const auto dir = test::temp_dir("platform_mapping_boundary");
    auto mapped = map_bytes(dir / "64k.bin", 65536);  // a multiple of every page size in use
    ASSERT_TRUE(mapped);
    EXPECT_EQ(platform::readable_past_end(mapped->bytes()), 0u);
    // A part that ends inside the mapping may read on to the mapping's end.
    EXPECT_EQ(platform::readable_past_end(mapped->bytes().subspan(0, 1000)), 65536u - 1000u);
}

TEST(PlatformMapping, MemoryThatIsNotAMappingHasNothingPastTheEnd) {
    std::vector<std::byte> heap(5000);
    EXPECT_EQ(platform::readable_past_end(heap), 0u);
    EXPECT_EQ(platform::readable_past_end({}), 0u);
}

TEST(PlatformMapping, ReleasedPagesReadBackTheSameBytes) {
    const auto dir = test::temp_dir("platform_mapping_release");
    const std::size_t size = 5 * 65536 + 123;
    auto mapped = map_bytes(dir / "pages.bin", size);
    ASSERT_TRUE(mapped);
    const std::span<const std::byte> bytes = mapped->bytes();
    std::uint64_t sum = 0;
    for (std::byte b : bytes) sum += std::to_integer<unsigned>(b);  // every page resident
    platform::release_pages(bytes.subspan(1000, 3 * 65536));
    for (std::size_t i = 0; i < size; ++i) ASSERT_EQ(bytes[i], std::byte(i * 7 + 1)) << i;
    EXPECT_GT(sum, 0u);
}

TEST(PlatformMapping, ReleasingMemoryThatIsNotAMappingKeepsItsBytes) {
    std::vector<std::byte> heap(4 * 65536, std::byte{0x5A});
    platform::release_pages(heap);
    for (std::byte b : heap) ASSERT_EQ(b, std::byte{0x5A});
}

}  // namespace
}  // namespace castkit::mapping_test
