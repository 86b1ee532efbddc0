// `castkit validate`: exit codes, text and JSON output, --strict, and the rule table
// docs/validate.md shows (it must hold exactly what --list-rules prints).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/validate.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "../../test_support.hpp"

namespace castkit::test::validate_cli_test {
namespace {

std::string edge(const char* name) {
    return fmt::format("\"{}\"", (fixtures() / "cast" / "edge" / name).string());
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(ValidateCli, CleanFileExitsZero) {
    auto result = run_cli("validate " + edge("triangle.cast"));
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    EXPECT_NE(result.out.find("triangle.cast: valid: 0 errors, 0 warnings, 0 info"),
              std::string::npos)
        << result.out;
}

TEST(ValidateCli, WarningsAloneExitZeroAndStrictMakesThemErrors) {
    auto relaxed = run_cli("validate " + edge("trailing-bytes.cast"));
    EXPECT_EQ(relaxed.exit_code, 0);
    EXPECT_NE(relaxed.out.find("warning: 8 bytes after the last root [cast.trailing]"),
              std::string::npos)
        << relaxed.out;
    auto strict = run_cli("validate --strict " + edge("trailing-bytes.cast"));
    EXPECT_EQ(strict.exit_code, 1);
    EXPECT_NE(strict.out.find("invalid: 1 error"), std::string::npos) << strict.out;
}

TEST(ValidateCli, ErrorsExitOne) {
    auto result = run_cli("validate " + edge("triangle.cast") + " " + edge("non-root-top.cast"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.out.find("offset 0x10: model[0]: a top-level node must be a Root, not a Model "
                              "[structure.top-level]"),
              std::string::npos)
        << result.out;
}

// One condition has one id everywhere: the reader's (as `dump` prints it), not "cast.read",
// which is left to the Cast reader's findings without a finer id.
TEST(ValidateCli, UnreadableFileKeepsTheReadersId) {
    auto result = run_cli("validate " + edge("bad-magic.cast"));
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.out.find("not a cast file (bad magic) [cast.bad-magic]"), std::string::npos)
        << result.out;
    auto json = nlohmann::json::parse(run_cli("validate --json " + edge("truncated.cast")).out);
    const auto& finding = json["files"][0]["diagnostics"][0];
    EXPECT_EQ(finding["rule"], "cast.truncated");
    EXPECT_NE(finding["rule"], "cast.read");
    EXPECT_EQ(finding["severity"], "error");
    EXPECT_EQ(finding["path"], "root[0]/model[0]/mesh[0]");
    EXPECT_NE(run_cli("dump " + edge("truncated.cast")).err.find("[cast.truncated]"),
              std::string::npos);
}

TEST(ValidateCli, UsageErrorsExitTwo) {
    EXPECT_EQ(run_cli("validate").exit_code, 2);
    EXPECT_EQ(run_cli("validate --no-such-flag " + edge("triangle.cast")).exit_code, 2);
}

TEST(ValidateCli, JsonFollowsTheDocumentedSchema) {
    auto result = run_cli("validate --json " + edge("triangle.cast") + " " +
                          edge("non-root-top.cast") + " " + edge("flags-set.cast"));
    EXPECT_EQ(result.exit_code, 1);
    auto report = nlohmann::json::parse(result.out);
    EXPECT_EQ(report["valid"], false);
    EXPECT_EQ(report["errors"], 1);
    EXPECT_EQ(report["warnings"], 1);
    EXPECT_EQ(report["infos"], 0);
    ASSERT_EQ(report["files"].size(), 3u);
    EXPECT_EQ(report["files"][0]["valid"], true);
    EXPECT_TRUE(report["files"][0]["diagnostics"].empty());
    const auto& finding = report["files"][1]["diagnostics"][0];
    EXPECT_EQ(finding["severity"], "error");
    EXPECT_EQ(finding["rule"], "structure.top-level");
    EXPECT_EQ(finding["path"], "model[0]");
    EXPECT_EQ(finding["offset"], 16);
    EXPECT_EQ(finding["message"], "a top-level node must be a Root, not a Model");
    const auto& flags = report["files"][2]["diagnostics"][0];
    EXPECT_EQ(flags["rule"], "cast.flags");
    EXPECT_EQ(flags["path"], "");
}

TEST(ValidateCli, ValidatePagesTableIsTheRuleTable) {
    auto table = run_cli("validate --list-rules");
    ASSERT_EQ(table.exit_code, 0);
    EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'),
              cast::validation_rules().size() + 2);
    std::string page = slurp(std::filesystem::path(CASTKIT_SOURCE_DIR) / "docs" / "validate.md");
    EXPECT_NE(page.find(table.out), std::string::npos)
        << "docs/validate.md must contain the output of `castkit validate --list-rules`:\n"
        << table.out;
}

TEST(ValidateRules, IdsAreUniqueAndEveryRuleHasATest) {
    std::string tests;
    for (const auto& entry : std::filesystem::directory_iterator(
             std::filesystem::path(CASTKIT_SOURCE_DIR) / "tests" / "cast" / "validate"))
        tests += slurp(entry.path());
    std::set<std::string_view> ids;
    for (const cast::ValidationRule& rule : cast::validation_rules()) {
        EXPECT_TRUE(ids.insert(rule.id).second) << rule.id << " twice";
        EXPECT_EQ(cast::find_validation_rule(rule.id), &rule);
        // A test names the rule as the one it expects: only(…, "id") or an EdgeCase.
        const std::string quoted = fmt::format("\"{}\"", rule.id);
        EXPECT_NE(tests.find(quoted), std::string::npos) << rule.id << " has no test";
    }
    EXPECT_EQ(cast::find_validation_rule("no.such-rule"), nullptr);
}

}  // namespace
}  // namespace castkit::test::validate_cli_test
