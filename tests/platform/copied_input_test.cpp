// map_file_guarded: a document's file mapped while no one writes it, and its bytes kept whatever
// another program then does to the file (cut short, rewritten, replaced). On Linux the test
// first checks that the file really is mapped (/proc/self/maps names it), so the rest proves the
// lease and not a copy made up front.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../../src/platform/platform.hpp"
#include "../test_support.hpp"

#ifdef _WIN32
#include <process.h>
#define getpid _getpid
#else
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace castkit::guarded_map_test {
namespace {

std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
    std::vector<std::byte> bytes(size);
    for (std::size_t i = 0; i < size; ++i) bytes[i] = std::byte((i * 131 + seed) >> 3);
    return bytes;
}

#ifndef _WIN32
// Whether this process maps `path` (Linux; false elsewhere).
bool maps_file(const std::filesystem::path& path) {
    std::ifstream maps("/proc/self/maps");
    const std::string name = std::filesystem::canonical(path).string();
    for (std::string line; std::getline(maps, line);)
        if (line.size() >= name.size() && line.ends_with(name)) return true;
    return false;
}
#endif

// Whether the file system under `path` grants read leases (a local Linux file system does; a
// network or some container file systems may not, and then castkit reads files instead, which
// the tests of what is kept still check, but not that the file is mapped).
bool leases_granted([[maybe_unused]] const std::filesystem::path& path) {
#ifdef __linux__
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    const bool granted = ::fcntl(fd, F_SETLEASE, F_RDLCK) == 0;
    ::close(fd);
    return granted;
#else
    return false;
#endif
}

// How many leases this process holds (Linux's /proc/locks; 0 elsewhere).
int leases_held() {
    std::ifstream locks("/proc/locks");
    std::string pid(" ");  // (one + chain: GCC 12 warns wrongly of overlapping copies)
    pid.append(std::to_string(::getpid())).append(" ");
    int held = 0;
    for (std::string line; std::getline(locks, line);)
        if (line.find("LEASE") != std::string::npos && line.find(pid) != std::string::npos) ++held;
    return held;
}

bool same_bytes(std::span<const std::byte> a, std::span<const std::byte> b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

class GuardedMap : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::temp_dir("guarded_map");
        path_ = dir_ / "scene.cast";
        original_ = pattern(3 * 65536 + 17, 5);
        test::write_bytes(path_, original_);
    }
    std::filesystem::path dir_, path_;
    std::vector<std::byte> original_;
};

TEST_F(GuardedMap, ReadsTheFile) {
    auto mapped = platform::map_file_guarded(path_);
    ASSERT_TRUE(mapped) << mapped.error().message;
    EXPECT_TRUE(same_bytes((*mapped)->bytes(), original_));
#ifdef __linux__
    if (leases_granted(path_)) {
        EXPECT_TRUE(maps_file(path_)) << "mapped under a lease, not copied";
    }
#endif
}

TEST_F(GuardedMap, NamesAMissingFileInItsError) {
    auto mapped = platform::map_file_guarded(dir_ / "absent.cast");
    ASSERT_FALSE(mapped);
    EXPECT_NE(mapped.error().to_string().find("absent.cast"), std::string::npos);
}

#ifndef _WIN32
// Another program's open with O_TRUNC waits for the lease, which is given back once the pages are
// copied: the mapping keeps every byte and stops naming the file.
TEST_F(GuardedMap, KeepsItsBytesWhenAnotherProgramCutsTheFileShortAndRewritesIt) {
    auto mapped = platform::map_file_guarded(path_);
    ASSERT_TRUE(mapped);
    const std::span<const std::byte> bytes = (*mapped)->bytes();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // the other program: cut to 3 bytes and rewrite with other bytes
        const int fd = ::open(path_.c_str(), O_WRONLY | O_TRUNC);
        const char other[] = "abc";
        ::_exit(fd >= 0 && ::write(fd, other, 3) == 3 ? 0 : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(std::filesystem::file_size(path_), 3u);
    EXPECT_TRUE(same_bytes(bytes, original_));  // without the copy: SIGBUS past the first page
    EXPECT_FALSE(maps_file(path_));
}

// A thread of this process truncating the file: the signal is handled while the thread waits in
// open(), which then goes on.
TEST_F(GuardedMap, KeepsItsBytesWhenThisProcessTruncatesTheFile) {
    auto mapped = platform::map_file_guarded(path_);
    ASSERT_TRUE(mapped);
    std::thread([&] { std::filesystem::resize_file(path_, 0); }).join();
    EXPECT_TRUE(same_bytes((*mapped)->bytes(), original_));
}

// A forked child's mappings are its own copies, made as it starts: the parent cuts the file
// short at once, and its lease waits for the child's copy before letting the cut go through.
TEST_F(GuardedMap, AForkedChildKeepsItsBytesWhenTheFileIsCutShortAtOnce) {
    auto mapped = platform::map_file_guarded(path_);
    ASSERT_TRUE(mapped);
    int done[2];
    ASSERT_EQ(::pipe(done), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        char c = 0;
        (void)!::read(done[0], &c, 1);  // the parent has cut the file short
        ::_exit(same_bytes((*mapped)->bytes(), original_) ? 0 : 1);
    }
    std::filesystem::resize_file(path_, 3);
    const char c = 0;
    ASSERT_EQ(::write(done[1], &c, 1), 1);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    EXPECT_TRUE(same_bytes((*mapped)->bytes(), original_));
    ::close(done[0]);
    ::close(done[1]);
}

// A file replaced by a rename keeps its old bytes under the mapping with no copy: the old file
// lives on until unmapped.
TEST_F(GuardedMap, KeepsTheOldBytesWhenTheFileIsReplaced) {
    auto mapped = platform::map_file_guarded(path_);
    ASSERT_TRUE(mapped);
    test::write_bytes(dir_ / "new.cast", pattern(100, 9));
    std::filesystem::rename(dir_ / "new.cast", path_);
    EXPECT_TRUE(same_bytes((*mapped)->bytes(), original_));
}

// A file open for writing cannot be leased: it is read instead.
TEST_F(GuardedMap, AFileOpenForWritingIsReadAndStillRight) {
    const int writer = ::open(path_.c_str(), O_WRONLY);
    ASSERT_GE(writer, 0);
    auto mapped = platform::map_file_guarded(path_);
    ASSERT_TRUE(mapped);
    EXPECT_FALSE(maps_file(path_)) << "no lease while the file is open for writing";
    ::close(writer);
    EXPECT_TRUE(same_bytes((*mapped)->bytes(), original_));
}
#endif

TEST_F(GuardedMap, ManyMappingsComeAndGo) {
    for (int round = 0; round < 3; ++round) {
        std::vector<std::shared_ptr<const platform::MappedFile>> held;
        for (int i = 0; i < 50; ++i) {
            auto mapped = platform::map_file_guarded(path_);
            ASSERT_TRUE(mapped);
            held.push_back(*mapped);
        }
        for (const auto& m : held) EXPECT_TRUE(same_bytes(m->bytes(), original_));
        if (leases_granted(path_)) {
            EXPECT_EQ(leases_held(), 50);
        }
    }
    EXPECT_EQ(leases_held(), 0) << "every lease given back with its mapping";
}

}  // namespace
}  // namespace castkit::guarded_map_test
