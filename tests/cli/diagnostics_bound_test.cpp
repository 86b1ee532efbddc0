// Diagnostics stay bounded (docs/diagnostics.md, "How many are kept"): of each kind (severity,
// file, rule id) the first Diagnostics::kKeptPerKind are kept and printed, the rest are counted
// in one "... and N more" line, in `castkit info`, `convert`, `validate` (text and JSON), a
// folder's --report and the library's lists; and a 1 MB file of 41,665 findings is read in
// tens of megabytes, not gigabytes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/validate.hpp>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"

namespace castkit::test::diagnostics_bound_test {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kRoots = 40000;
constexpr const char* kRule = "cast.unknown-property-type";
constexpr std::size_t kKept = Diagnostics::kKeptPerKind;

void put_u16(std::vector<std::byte>& out, std::uint16_t value) {
    for (int i = 0; i < 2; ++i) out.push_back(std::byte((value >> (8 * i)) & 0xff));
}
void put_u32(std::vector<std::byte>& out, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) out.push_back(std::byte((value >> (8 * i)) & 0xff));
}
void put_u64(std::vector<std::byte>& out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) out.push_back(std::byte((value >> (8 * i)) & 0xff));
}

// The Cast header: magic "cast", version 1, the root count, flags 0.
std::vector<std::byte> cast_header(std::uint32_t roots) {
    std::vector<std::byte> out;
    put_u32(out, 0x74736163);  // "cast"
    put_u32(out, 1);
    put_u32(out, roots);
    put_u32(out, 0);
    return out;
}

// A Root node header: id "root", NodeSize, a unique hash, one property, no children.
void put_root_header(std::vector<std::byte>& out, std::uint32_t node_size, std::uint64_t hash) {
    put_u32(out, 0x746f6f72);  // "root"
    put_u32(out, node_size);
    put_u64(out, hash);
    put_u32(out, 1);
    put_u32(out, 0);
}

// `roots` Roots of 32 bytes, each with one property of the unknown type 0x7171 (1.28 MB for
// 40,000): one cast.unknown-property-type warning per root.
std::vector<std::byte> unknown_types(std::uint32_t roots) {
    std::vector<std::byte> out = cast_header(roots);
    for (std::uint32_t i = 0; i < roots; ++i) {
        put_root_header(out, 32, i + 1);
        put_u16(out, 0x7171);  // the type
        put_u16(out, 0);       // name size
        put_u32(out, 0);       // array length
    }
    return out;
}

// 41,665 Roots of 24 bytes in under 1 MB, each claiming a property its NodeSize leaves no room
// for: the property header read is the next root's, of unknown type "ro" with a name of
// 0x746f bytes ("ot"), 29 KB of the roots after it. Each warning quoted that name in full:
// 41,665 of them took 2.4 GB for `info` and 4.3 GB for `validate`.
[[maybe_unused]] std::vector<std::byte> unknown_types_with_long_names() {
    constexpr std::uint32_t kRootsInOneMegabyte = 41665;
    std::vector<std::byte> out = cast_header(kRootsInOneMegabyte);
    for (std::uint32_t i = 0; i < kRootsInOneMegabyte; ++i) put_root_header(out, 24, i + 1);
    out.resize(out.size() + 8);  // the last root's property header: type 0, also unknown
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::size_t count_containing(const std::vector<std::string>& lines, const std::string& part) {
    std::size_t count = 0;
    for (const std::string& line : lines) count += line.find(part) != std::string::npos;
    return count;
}

// The kept lines of the rule and the one summary, last, with the exact number left out.
void expect_bounded_lines(const std::string& text, const std::string& file) {
    const std::vector<std::string> lines = lines_of(text);
    const std::string rule = fmt::format("[{}]", kRule);
    EXPECT_EQ(count_containing(lines, rule), kKept + 1) << text.substr(0, 2000);
    EXPECT_EQ(count_containing(lines, "more ["), 1u) << text.substr(0, 2000);
    EXPECT_EQ(count_containing(lines, fmt::format("{}: warning: ... and {} more {}", file,
                                                  kRoots - kKept, rule)),
              1u)
        << text.substr(0, 2000);
}

class DiagnosticsBound : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = temp_dir("diagnostics-bound");
        write_bytes(dir_ / "many.cast", unknown_types(kRoots));
    }
    fs::path dir_;
};

TEST_F(DiagnosticsBound, InfoPrintsTheFirstFewOfAKindAndCountsTheRest) {
    const CommandResult result = run_cli(in_dir(dir_, "info {many.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err.substr(0, 2000);
    expect_bounded_lines(result.err, (dir_ / "many.cast").string());
}

TEST_F(DiagnosticsBound, ConvertPrintsTheFirstFewOfAKindAndCountsTheRest) {
    const CommandResult result = run_cli(in_dir(dir_, "convert {many.cast} {out.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err.substr(0, 2000);
    expect_bounded_lines(result.err, (dir_ / "many.cast").string());
    // Only the messages are bounded: every opaque node is written back.
    EXPECT_EQ(fs::file_size(dir_ / "out.cast"), fs::file_size(dir_ / "many.cast"));
}

TEST_F(DiagnosticsBound, ValidateTextCountsEveryFindingInItsSummary) {
    const CommandResult result = run_cli(in_dir(dir_, "validate {many.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_bounded_lines(result.out, (dir_ / "many.cast").string());
    EXPECT_NE(result.out.find(fmt::format("valid: 0 errors, {} warnings", kRoots)),
              std::string::npos)
        << result.out.substr(0, 2000);
}

TEST_F(DiagnosticsBound, ValidateJsonKeepsTheFirstFewAndCountsTheRest) {
    const CommandResult result = run_cli(in_dir(dir_, "validate --json {many.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out);
    EXPECT_EQ(report["warnings"], kRoots);
    const nlohmann::json& file = report["files"][0];
    EXPECT_EQ(file["warnings"], kRoots);
    const nlohmann::json& diagnostics = file["diagnostics"];
    ASSERT_EQ(diagnostics.size(), kKept + 1);
    for (const nlohmann::json& d : diagnostics) EXPECT_EQ(d["rule"], kRule);
    EXPECT_EQ(diagnostics.back()["message"], fmt::format("... and {} more", kRoots - kKept));
    EXPECT_EQ(file["suppressed"], nlohmann::json::parse(fmt::format(
                                      R"([{{"severity": "warning", "rule": "{}", "count": {}}}])",
                                      kRule, kRoots - kKept)));
}

TEST_F(DiagnosticsBound, StrictCountsTheSuppressedAsErrorsToo) {
    const CommandResult result = run_cli(in_dir(dir_, "validate --strict --json {many.cast}"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out);
    EXPECT_EQ(report["errors"], kRoots);
    EXPECT_EQ(report["warnings"], 0);
    EXPECT_EQ(report["files"][0]["suppressed"][0]["severity"], "error");
}

TEST_F(DiagnosticsBound, FolderReportKeepsTheFirstFewAndCountsTheRest) {
    const fs::path in = dir_ / "in";
    fs::create_directories(in);
    fs::rename(dir_ / "many.cast", in / "many.cast");
    const CommandResult result =
        run_cli(in_dir(dir_, "convert {in} -o {out} --to cast --quiet --report {report.json}"));
    ASSERT_EQ(result.exit_code, 0) << result.err.substr(0, 2000);
    const std::vector<std::byte> bytes = read_bytes(dir_ / "report.json");
    const nlohmann::json report = nlohmann::json::parse(
        std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    const nlohmann::json& warnings = report["files"][0]["warnings"];
    ASSERT_EQ(warnings.size(), kKept + 1) << warnings.dump().substr(0, 2000);
    std::string text;
    for (const nlohmann::json& warning : warnings) text += warning.get<std::string>() + "\n";
    expect_bounded_lines(text, fs::path(in / "many.cast").string());
}

TEST_F(DiagnosticsBound, TheLibraryKeepsTheFirstFewAndCountsTheRest) {
    Diagnostics warnings;
    auto document = cast::open(dir_ / "many.cast", warnings);
    ASSERT_TRUE(document) << document.error().to_string();
    ASSERT_EQ(warnings.size(), kKept);
    ASSERT_EQ(warnings.suppressed().size(), 1u);
    EXPECT_EQ(warnings.suppressed()[0].rule, kRule);
    EXPECT_EQ(warnings.suppressed()[0].count, kRoots - kKept);
    EXPECT_EQ(warnings.count(Severity::Warning), kRoots);
    const std::vector<Diagnostic> shown = warnings.shown();
    ASSERT_EQ(shown.size(), kKept + 1);
    EXPECT_EQ(shown.back().message, fmt::format("... and {} more", kRoots - kKept));
    // Findings without an id are one kind: bounded too.
    Diagnostics unnamed;
    for (int i = 0; i < 100; ++i) {
        Diagnostic finding;
        finding.message = fmt::format("finding {}", i);
        unnamed.push_back(std::move(finding));
    }
    EXPECT_EQ(unnamed.size(), kKept);
    unnamed.name_unnamed(0, "test.read");
    ASSERT_EQ(unnamed.suppressed().size(), 1u);
    EXPECT_EQ(unnamed.suppressed()[0].rule, "test.read");
    EXPECT_EQ(unnamed.suppressed()[0].count, 100 - kKept);
}

#if defined(__linux__) && !defined(CASTKIT_ADDRESS_SANITIZER) && !defined(__SANITIZE_THREAD__)
TEST(DiagnosticsBoundMemory, AMegabyteOfFindingsIsReadInTensOfMegabytes) {
    const fs::path dir = temp_dir("diagnostics-bound-memory");
    const fs::path file = dir / "long-names.cast";
    write_bytes(file, unknown_types_with_long_names());
    ASSERT_LT(fs::file_size(file), 1000000u);
    constexpr long kBoundKiB = 64 * 1024;
    for (const char* command : {"info", "validate"}) {
        const long peak = cli_peak({command, file.string()}).peak_kib;
        ASSERT_GT(peak, 0) << command;
        EXPECT_LT(peak, kBoundKiB) << command << " peaked at " << peak << " KiB";
    }
}
#endif

}  // namespace
}  // namespace castkit::test::diagnostics_bound_test
