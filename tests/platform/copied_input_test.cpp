// read_input(path, InputMode::Copy), what a long-running process (Python, `castkit view`) holds
// its files with: the file read into memory once and closed, so another program may cut it
// short, rewrite or replace it without changing the bytes held or killing the process, and
// holding it keeps nothing of the file (no mapping, no descriptor, no lease).
#include <gtest/gtest.h>

#include <castkit/registry.hpp>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../test_support.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace castkit::copied_input_test {
namespace {

std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
    std::vector<std::byte> bytes(size);
    for (std::size_t i = 0; i < size; ++i) bytes[i] = std::byte((i * 131 + seed) >> 3);
    return bytes;
}

bool same_bytes(std::span<const std::byte> a, std::span<const std::byte> b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

#ifdef __linux__
// Whether this process maps `path`.
bool maps_file(const std::filesystem::path& path) {
    std::ifstream maps("/proc/self/maps");
    const std::string name = std::filesystem::canonical(path).string();
    for (std::string line; std::getline(maps, line);)
        if (line.ends_with(name)) return true;
    return false;
}

// How many descriptors this process has open.
std::size_t open_descriptors() {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
        ++count;
    return count;
}
#endif

class CopiedInput : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::temp_dir("copied_input");
        path_ = dir_ / "scene.cast";
        original_ = pattern(3 * 65536 + 17, 5);
        test::write_bytes(path_, original_);
    }
    formats::Input read() const {
        auto input = formats::read_input(path_, formats::InputMode::Copy);
        EXPECT_TRUE(input) << (input ? "" : input.error().message);
        return input ? *input : formats::Input{};
    }
    std::filesystem::path dir_, path_;
    std::vector<std::byte> original_;
};

TEST_F(CopiedInput, ReadsTheFileAndKeepsNothingOfIt) {
#ifdef __linux__
    const std::size_t descriptors = open_descriptors();
#endif
    const formats::Input input = read();
    EXPECT_TRUE(same_bytes(input.bytes, original_));
#ifdef __linux__
    EXPECT_FALSE(maps_file(path_)) << "read into memory, not mapped";
    EXPECT_EQ(open_descriptors(), descriptors) << "the file is closed once read";
#endif
}

TEST_F(CopiedInput, NamesAMissingFileInItsError) {
    auto input = formats::read_input(dir_ / "absent.cast", formats::InputMode::Copy);
    ASSERT_FALSE(input);
    EXPECT_NE(input.error().to_string().find("absent.cast"), std::string::npos);
}

#ifndef _WIN32
// Another program cuts the file short and rewrites it, with no wait (a lease made such writers
// wait), and the bytes held stay: touching a mapping's lost pages would be SIGBUS.
TEST_F(CopiedInput, KeepsItsBytesWhenAnotherProgramCutsTheFileShortAndRewritesIt) {
    const formats::Input input = read();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // the other program: cut to 3 bytes and rewrite with other bytes
        const int fd = ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_NONBLOCK);
        const char other[] = "abc";
        ::_exit(fd >= 0 && ::write(fd, other, 3) == 3 ? 0 : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer was held back";
    EXPECT_EQ(std::filesystem::file_size(path_), 3u);
    EXPECT_TRUE(same_bytes(input.bytes, original_));
}

// A read-only open with O_TRUNC truncates the file too (Linux), which broke no lease.
TEST_F(CopiedInput, KeepsItsBytesWhenAReadOnlyOpenTruncatesTheFile) {
    const formats::Input input = read();
    const int fd = ::open(path_.c_str(), O_RDONLY | O_TRUNC);
    ASSERT_GE(fd, 0);
    ::close(fd);
    EXPECT_TRUE(same_bytes(input.bytes, original_));
}

// A forked child holds the same bytes while the parent cuts the file short at once.
TEST_F(CopiedInput, AForkedChildKeepsItsBytesWhenTheFileIsCutShortAtOnce) {
    const formats::Input input = read();
    int done[2];
    ASSERT_EQ(::pipe(done), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        char c = 0;
        (void)!::read(done[0], &c, 1);  // the parent has cut the file short
        ::_exit(same_bytes(input.bytes, original_) ? 0 : 1);
    }
    std::filesystem::resize_file(path_, 3);
    const char c = 0;
    ASSERT_EQ(::write(done[1], &c, 1), 1);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    EXPECT_TRUE(same_bytes(input.bytes, original_));
    ::close(done[0]);
    ::close(done[1]);
}
#endif

TEST_F(CopiedInput, KeepsTheOldBytesWhenTheFileIsReplacedOrCutByAThread) {
    const formats::Input input = read();
    test::write_bytes(dir_ / "new.cast", pattern(100, 9));
    std::filesystem::rename(dir_ / "new.cast", path_);
    std::thread([&] { std::filesystem::resize_file(path_, 0); }).join();
    EXPECT_TRUE(same_bytes(input.bytes, original_));
}

// More documents held than a process has descriptors (1,019 was the limit with one each).
TEST_F(CopiedInput, ThousandsHeldAtOnceNeedNoDescriptors) {
    const std::vector<std::byte> small = pattern(1000, 3);
    test::write_bytes(path_, small);
    std::vector<formats::Input> held;
    for (int i = 0; i < 2000; ++i) held.push_back(read());
    for (const auto& input : held) ASSERT_TRUE(same_bytes(input.bytes, small));
    std::ifstream still_opens(path_, std::ios::binary);
    EXPECT_TRUE(still_opens.good());
}

}  // namespace
}  // namespace castkit::copied_input_test
