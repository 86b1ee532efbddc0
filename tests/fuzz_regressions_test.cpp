// Every input a fuzz harness once failed on, replayed through the harness's own checks
// (fuzz/harnesses.hpp) in the normal test suite. The inputs are copies of fuzz/regressions/
// <harness>/ in fixtures/fuzz-regressions/<harness>/; fixtures/fuzz-regressions/EXPECT.tsv says
// what each must do: fail with a named diagnostic id (`error <id>`), read (`reads`), or read and
// then be refused by a later step (`reads <id>`). Either way it breaks no invariant of its
// harness and ends (a minute is the hang guard, whatever the build).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>

#include "../fuzz/harnesses.hpp"
#include "test_support.hpp"

namespace castkit::test::fuzz_regressions_test {
namespace {

namespace fs = std::filesystem;

fs::path fixture_dir() { return fixtures() / "fuzz-regressions"; }

// "<harness>/<file>" → "reads" or "error <id>", from EXPECT.tsv (# starts a comment).
std::map<std::string, std::string> expectations() {
    std::map<std::string, std::string> out;
    std::ifstream in(fixture_dir() / "EXPECT.tsv");
    EXPECT_TRUE(in) << "no EXPECT.tsv in " << fixture_dir();
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        EXPECT_NE(tab, std::string::npos) << "EXPECT.tsv: no tab in '" << line << "'";
        if (tab != std::string::npos) out[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return out;
}

// "<harness>/<file>" for every file under `root`'s harness folders.
std::map<std::string, fs::path> inputs_under(const fs::path& root) {
    std::map<std::string, fs::path> out;
    if (!fs::is_directory(root)) return out;
    for (const auto& harness : fs::directory_iterator(root)) {
        if (!harness.is_directory()) continue;
        for (const auto& file : fs::directory_iterator(harness.path()))
            if (file.is_regular_file())
                out[harness.path().filename().string() + "/" + file.path().filename().string()] =
                    file.path();
    }
    return out;
}

bool is_harness(std::string_view name) {
    return std::find(std::begin(fuzz::kHarnesses), std::end(fuzz::kHarnesses), name) !=
           std::end(fuzz::kHarnesses);
}

void expect_refusal(const fuzz::Outcome& outcome, const std::string& id) {
    std::string seen;
    for (const Diagnostic& refusal : outcome.refusals) {
        if (refusal.rule == id) return;
        seen += "\n  " + refusal.to_string() + " [" + refusal.rule + "]";
    }
    ADD_FAILURE() << "no later step refused it with " << id << "; refusals:" << seen;
}

TEST(FuzzRegressions, EveryReproducerEndsAsExpectedInBoundedTime) {
    const auto expected = expectations();
    EXPECT_FALSE(expected.empty());
    for (const auto& [key, expectation] : expected) {
        SCOPED_TRACE(key);
        const std::string harness = key.substr(0, key.find('/'));
        ASSERT_TRUE(is_harness(harness)) << "no harness '" << harness << "'";
        const std::vector<std::byte> bytes = read_bytes(fixture_dir() / key);
        const auto start = std::chrono::steady_clock::now();
        const fuzz::Outcome outcome = fuzz::check(harness, cast::Bytes(bytes));
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        EXPECT_EQ(outcome.broken, "");
        // A hang guard, not a speed check (bench/ measures speed): the slowest reproducer takes
        // 0.3 s in Release and up to 5 s in the sanitizer build on a loaded 2-core machine,
        // while a regressed hang runs until the fuzzers' own timeout and far past it.
        EXPECT_LT(took.count(), 60.0);
        if (expectation.starts_with("reads")) {
            EXPECT_FALSE(outcome.error) << outcome.error->to_string();
            if (expectation.size() > 5) expect_refusal(outcome, expectation.substr(6));
        } else if (expectation.starts_with("error ")) {
            ASSERT_TRUE(outcome.error) << "read, but should fail with " << expectation.substr(6);
            EXPECT_EQ(outcome.error->rule, expectation.substr(6)) << outcome.error->to_string();
            EXPECT_FALSE(outcome.error->message.empty());
        } else {
            ADD_FAILURE() << "EXPECT.tsv: '" << expectation << "' is neither reads nor error <id>";
        }
    }
}

// The fixtures are the fuzzers' reproducers, byte for byte, and EXPECT.tsv lists each once.
TEST(FuzzRegressions, FixturesAreTheFuzzersReproducersAndAllListed) {
    const auto fixtures_found = inputs_under(fixture_dir());
    const auto reproducers = inputs_under(fs::path(CASTKIT_SOURCE_DIR) / "fuzz" / "regressions");
    std::vector<std::string> fixture_keys, reproducer_keys, listed_keys;
    for (const auto& [key, path] : fixtures_found) fixture_keys.push_back(key);
    for (const auto& [key, path] : reproducers) reproducer_keys.push_back(key);
    for (const auto& [key, expectation] : expectations()) listed_keys.push_back(key);
    EXPECT_EQ(fixture_keys, reproducer_keys);
    EXPECT_EQ(fixture_keys, listed_keys);
    for (const auto& [key, path] : fixtures_found) {
        if (reproducers.contains(key)) {
            EXPECT_EQ(read_bytes(path), read_bytes(reproducers.at(key))) << key;
        }
    }
}

}  // namespace
}  // namespace castkit::test::fuzz_regressions_test
