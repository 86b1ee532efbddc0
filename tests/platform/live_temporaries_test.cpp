// The record of temporary files that an interruption removes (src/platform/live_temporaries.hpp):
// what a signal handler removes, and that nothing is created once it has begun.
#include "../../src/platform/live_temporaries.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace castkit::live_temporaries_test {
namespace {

using Temporaries = platform::detail::LiveTemporaries<char>;

TEST(LiveTemporaries, RemovalTakesEveryRecordedPathOnceAndNotTheForgottenOnes) {
    auto temporaries = std::make_unique<Temporaries>();
    const std::optional<int> kept = temporaries->add("out/a.glb.castkit-1");
    temporaries->created();
    const std::optional<int> committed = temporaries->add("out/b.glb.castkit-2");
    temporaries->created();
    ASSERT_TRUE(kept && committed);
    temporaries->forget(*committed);
    std::vector<std::string> removed;
    temporaries->remove_all([&](const char* path) { removed.emplace_back(path); });
    EXPECT_EQ(removed, std::vector<std::string>{"out/a.glb.castkit-1"});
}

// The race of issue 45 item 7 that CI met once in 12 x 60 files: a worker recorded and created
// its temporary after the handler's last pass, and the process ended before the worker could see
// it ending. Once removal has begun, add() refuses, so no file is created that nobody removes.
TEST(LiveTemporaries, NothingIsRecordedOnceRemovalHasBegun) {
    auto temporaries = std::make_unique<Temporaries>();
    std::vector<std::string> removed;
    temporaries->remove_all([&](const char* path) { removed.emplace_back(path); });
    EXPECT_FALSE(temporaries->add("out/late.glb.castkit-3").has_value());
    EXPECT_TRUE(removed.empty());
}

// A creation under way when removal begins is waited for: the handler's last pass removes what
// the creator recorded, and a second creator arriving meanwhile is refused.
TEST(LiveTemporaries, RemovalWaitsForACreationUnderWayAndRefusesTheNext) {
    auto temporaries = std::make_unique<Temporaries>();
    ASSERT_TRUE(temporaries->add("out/under-way.glb.castkit-4").has_value());
    std::vector<std::string> removed;
    std::thread handler(
        [&] { temporaries->remove_all([&](const char* path) { removed.emplace_back(path); }); });
    while (!temporaries->ending()) std::this_thread::yield();
    EXPECT_FALSE(temporaries->add("out/next.glb.castkit-5").has_value());
    temporaries->created();
    handler.join();
    EXPECT_EQ(removed, std::vector<std::string>{"out/under-way.glb.castkit-4"});
}

}  // namespace
}  // namespace castkit::live_temporaries_test
