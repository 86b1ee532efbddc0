// The shared fixtures: every reference file validates with exactly the warnings its content
// deserves (random weights that do not sum to 1, degenerate random faces, unknown node ids),
// and the edge files give the reader's format-level findings as diagnostics.
#include <gtest/gtest.h>

#include <castkit/cast/validate.hpp>
#include <map>

#include "../../test_support.hpp"

namespace castkit::test::fixtures_test {
namespace {

using RuleCounts = std::map<std::string, std::size_t>;

// Every finding of each rule, those only counted (Diagnostics::suppressed) too.
RuleCounts count_rules(const Diagnostics& diagnostics) {
    RuleCounts counts;
    for (const Diagnostic& d : diagnostics) ++counts[d.rule];
    for (const Diagnostics::Suppressed& more : diagnostics.suppressed())
        counts[more.rule] += more.count;
    return counts;
}

// The reader's findings, then the validator's, in one sink, as `castkit validate` shows them.
Diagnostics validate_file(const std::filesystem::path& path) {
    Diagnostics findings;
    auto document = cast::open(path, findings);
    EXPECT_TRUE(document.has_value()) << path;
    if (!document) return {};
    cast::validate(*document, findings);
    return findings;
}

// Findings per file, counted independently from the fixtures' JSON: one mesh.degenerate-face
// per mesh with a face holding two equal indices, one mesh.weight-sum per mesh whose vertices'
// weights do not sum to 1, one structure.unknown-node per unregistered node id. Files not
// listed validate clean.
const std::map<std::string, RuleCounts> kExpected = {
    {"gen_7_11.cast",
     {{"mesh.degenerate-face", 5}, {"mesh.weight-sum", 3}, {"structure.unknown-node", 1}}},
    {"gen_7_14.cast", {{"mesh.degenerate-face", 1}, {"structure.unknown-node", 1}}},
    {"gen_7_15.cast", {{"structure.unknown-node", 1}}},
    {"gen_7_16.cast", {{"mesh.degenerate-face", 2}}},
    {"gen_7_17.cast", {{"mesh.degenerate-face", 1}, {"mesh.weight-sum", 1}}},
    {"gen_7_18.cast", {{"mesh.degenerate-face", 4}, {"mesh.weight-sum", 6}}},
    {"gen_7_19.cast", {{"mesh.degenerate-face", 2}, {"mesh.weight-sum", 2}}},
    {"gen_7_20.cast", {{"mesh.degenerate-face", 2}, {"mesh.weight-sum", 1}}},
    {"gen_7_21.cast", {{"mesh.degenerate-face", 3}}},
    // Models without a Skeleton and curves naming no blend shape: nothing they key can move.
    {"gen_7_22.cast", {{"animation.unbound-curve", 7}, {"structure.unknown-node", 1}}},
    {"gen_7_23.cast",
     {{"animation.unbound-curve", 1}, {"mesh.degenerate-face", 2}, {"structure.unknown-node", 1}}},
    {"gen_7_24.cast", {{"animation.unbound-curve", 10}, {"mesh.degenerate-face", 2}}},
    {"gen_7_28.cast", {{"structure.unknown-node", 1}}},
    {"gen_7_29.cast", {{"mesh.degenerate-face", 2}, {"mesh.weight-sum", 1}}},
    {"gen_7_30.cast", {{"mesh.degenerate-face", 2}, {"mesh.weight-sum", 1}}},
    {"gen_7_31.cast", {{"mesh.degenerate-face", 4}, {"mesh.weight-sum", 3}}},
    {"gen_7_32.cast", {{"mesh.degenerate-face", 2}, {"mesh.weight-sum", 2}}},
    {"gen_7_34.cast", {{"mesh.degenerate-face", 4}, {"mesh.weight-sum", 2}}},
    {"gen_7_35.cast", {{"mesh.degenerate-face", 3}, {"mesh.weight-sum", 2}}},
    {"gen_7_37.cast", {{"mesh.degenerate-face", 3}, {"mesh.weight-sum", 2}}},
    {"gen_7_38.cast", {{"mesh.degenerate-face", 2}}},
    {"gen_7_39.cast", {{"mesh.degenerate-face", 4}, {"mesh.weight-sum", 3}}},
    {"gen_7_6.cast", {{"structure.unknown-node", 1}}},
    {"gen_7_7.cast", {{"mesh.degenerate-face", 1}, {"mesh.weight-sum", 1}}},
};

TEST(ValidateFixtures, ReferenceFilesHaveNoErrorsAndOnlyDeservedWarnings) {
    std::size_t files = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(fixtures() / "cast" / "reference")) {
        if (entry.path().extension() != ".cast") continue;
        ++files;
        const std::string name = entry.path().filename().string();
        Diagnostics findings = validate_file(entry.path());
        EXPECT_FALSE(has_severity(findings, Severity::Error)) << name;
        auto expected = kExpected.find(name);
        EXPECT_EQ(count_rules(findings),
                  expected == kExpected.end() ? RuleCounts{} : expected->second)
            << name;
    }
    EXPECT_EQ(files, 37u);
}

struct EdgeCase {
    const char* file;
    const char* rule;  // the only rule reported
};

class ValidateEdge : public ::testing::TestWithParam<EdgeCase> {};

TEST_P(ValidateEdge, ReportsExactlyItsRule) {
    const EdgeCase& edge = GetParam();
    Diagnostics findings = validate_file(fixtures() / "cast" / "edge" / edge.file);
    ASSERT_EQ(findings.size(), 1u) << edge.file;
    EXPECT_EQ(findings[0].rule, edge.rule);
    EXPECT_EQ(findings[0].severity, cast::find_validation_rule(edge.rule)->severity);
}

INSTANTIATE_TEST_SUITE_P(
    Edge, ValidateEdge,
    ::testing::Values(EdgeCase{"non-root-top.cast", "structure.top-level"},
                      EdgeCase{"nodesize-too-small.cast", "cast.nodesize"},
                      EdgeCase{"nodesize-past-end.cast", "cast.nodesize"},
                      EdgeCase{"trailing-bytes.cast", "cast.trailing"},
                      EdgeCase{"flags-set.cast", "cast.flags"},
                      EdgeCase{"unknown-property-type.cast", "cast.unknown-property-type"},
                      EdgeCase{"duplicate-property.cast", "property.duplicate"},
                      EdgeCase{"string-count-0.cast", "property.string-count"},
                      EdgeCase{"string-count-2.cast", "property.string-count"}),
    [](const auto& info) {
        std::string name = info.param.file;
        name = name.substr(0, name.find('.'));
        std::erase(name, '-');
        return name;
    });

TEST(ValidateFixtures, CleanEdgeFiles) {
    for (const char* file :
         {"triangle.cast", "legacy-vc.cast", "no-roots.cast", "bone-parent-minus-one.cast"}) {
        Diagnostics findings = validate_file(fixtures() / "cast" / "edge" / file);
        EXPECT_TRUE(findings.empty())
            << file << ": " << (findings.empty() ? "" : findings[0].to_string());
    }
}

// One sink through the read and the check: the reader's finding stays first; a sink passed to
// validate() alone holds the validator's findings only.
TEST(ValidateFixtures, TheReadersFindingsComeFirstInTheSinkTheyShare) {
    Diagnostics findings;
    auto document = cast::open(fixtures() / "cast" / "edge" / "trailing-bytes.cast", findings);
    ASSERT_TRUE(document.has_value());
    cast::validate(*document, findings);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].rule, "cast.trailing");
    EXPECT_TRUE(validation_findings(*document).empty());
}

TEST(ValidateFixtures, OpaqueNodeIsNotMissingItsRequiredProperties) {
    // The opaque model keeps 'n' and hides the rest: nothing may be called missing.
    Diagnostics findings =
        validate_file(fixtures() / "cast" / "edge" / "unknown-property-type.cast");
    for (const Diagnostic& d : findings) EXPECT_NE(d.rule, "property.required") << d.to_string();
}

}  // namespace
}  // namespace castkit::test::fixtures_test
