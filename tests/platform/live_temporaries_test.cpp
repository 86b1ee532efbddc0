// The record of temporary files that an interruption removes (src/platform/live_temporaries.hpp):
// what a signal handler removes, and that nothing is created once it has begun.
#include "../../src/platform/live_temporaries.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace castkit::live_temporaries_test {
namespace {

// The platform's own path characters: each implementation defines the record's pause for
// those alone (char on POSIX, wchar_t on Windows).
using Char = std::filesystem::path::value_type;
using Temporaries = platform::detail::LiveTemporaries<Char>;

std::basic_string<Char> native(const char* path) { return std::filesystem::path(path).native(); }

// A remove_all callback that collects the paths it is given, as narrow text.
auto collect_into(std::vector<std::string>& removed) {
    return
        [&removed](const Char* path) { removed.push_back(std::filesystem::path(path).string()); };
}

TEST(LiveTemporaries, RemovalTakesEveryRecordedPathOnceAndNotTheForgottenOnes) {
    auto temporaries = std::make_unique<Temporaries>();
    const std::optional<int> kept = temporaries->add(native("out/a.glb.castkit-1"));
    temporaries->created();
    const std::optional<int> committed = temporaries->add(native("out/b.glb.castkit-2"));
    temporaries->created();
    ASSERT_TRUE(kept && committed);
    temporaries->forget(*committed);
    std::vector<std::string> removed;
    temporaries->remove_all(collect_into(removed));
    EXPECT_EQ(removed, std::vector<std::string>{"out/a.glb.castkit-1"});
}

// The race of issue 45 item 7 that CI met once in 12 x 60 files: a worker recorded and created
// its temporary after the handler's last pass, and the process ended before the worker could see
// it ending. Once removal has begun, add() refuses, so no file is created that nobody removes.
TEST(LiveTemporaries, NothingIsRecordedOnceRemovalHasBegun) {
    auto temporaries = std::make_unique<Temporaries>();
    std::vector<std::string> removed;
    temporaries->remove_all(collect_into(removed));
    EXPECT_FALSE(temporaries->add(native("out/late.glb.castkit-3")).has_value());
    EXPECT_TRUE(removed.empty());
}

// A creation under way when removal begins is waited for: the handler's last pass removes what
// the creator recorded, and a second creator arriving meanwhile is refused.
TEST(LiveTemporaries, RemovalWaitsForACreationUnderWayAndRefusesTheNext) {
    auto temporaries = std::make_unique<Temporaries>();
    ASSERT_TRUE(temporaries->add(native("out/under-way.glb.castkit-4")).has_value());
    std::vector<std::string> removed;
    std::thread handler([&] { temporaries->remove_all(collect_into(removed)); });
    while (!temporaries->ending()) std::this_thread::yield();
    EXPECT_FALSE(temporaries->add(native("out/next.glb.castkit-5")).has_value());
    temporaries->created();
    handler.join();
    EXPECT_EQ(removed, std::vector<std::string>{"out/under-way.glb.castkit-4"});
}

}  // namespace
}  // namespace castkit::live_temporaries_test
