// validate() on whatever the reader accepts: reference files with bytes overwritten at random
// (deterministic seed) must validate without crashing, every finding naming a rule of the table.
#include <gtest/gtest.h>

#include <castkit/cast/validate.hpp>
#include <random>

#include "../../test_support.hpp"

namespace castkit::test::robustness_test {
namespace {

TEST(ValidateRobustness, MutatedReferenceFilesValidateWithTableRules) {
    std::mt19937 random(20261122);
    std::size_t validated = 0, findings = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(fixtures() / "cast" / "reference")) {
        if (entry.path().extension() != ".cast") continue;
        const std::vector<std::byte> original = read_bytes(entry.path());
        for (int round = 0; round < 40; ++round) {
            std::vector<std::byte> bytes = original;
            // Past the 16-byte header, so most mutations still read and reach the checks.
            std::uniform_int_distribution<std::size_t> where(16, bytes.size() - 1);
            for (int k = 0; k < 4; ++k)
                bytes[where(random)] = static_cast<std::byte>(random() & 0xFF);
            Diagnostics diagnostics;  // the reader's findings, then the validator's
            auto document = cast::read(std::move(bytes), "mutated.cast", diagnostics);
            if (!document) continue;
            ++validated;
            cast::validate(*document, diagnostics);
            for (const Diagnostic& d : diagnostics) {
                ++findings;
                ASSERT_NE(cast::find_validation_rule(d.rule), nullptr) << d.to_string();
                ASSERT_FALSE(d.message.empty());
            }
        }
    }
    // Most mutations land in payloads and still read; many of them break a rule.
    EXPECT_GT(validated, 500u);
    EXPECT_GT(findings, 200u);
}

}  // namespace
}  // namespace castkit::test::robustness_test
