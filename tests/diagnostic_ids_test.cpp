// Stable diagnostic ids: the table in docs/diagnostics.md and the sources agree, and every
// failure of every format reader carries a listed id.
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/validate.hpp>
#include <castkit/registry.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.hpp"

namespace castkit::test::diagnostic_ids_test {
namespace {

std::string slurp_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The ids in the first column of docs/diagnostics.md's table.
std::set<std::string> documented_ids() {
    std::set<std::string> ids;
    const std::regex row(R"(^\| `([a-z0-9.-]+)` \|)");
    std::istringstream lines(
        slurp_text(std::filesystem::path(CASTKIT_SOURCE_DIR) / "docs" / "diagnostics.md"));
    for (std::string line; std::getline(lines, line);) {
        std::smatch match;
        if (std::regex_search(line, match, row)) ids.insert(match[1]);
    }
    return ids;
}

// Every string literal in src/ and tools/ shaped like an id of castkit's own areas.
std::set<std::string> ids_in_sources() {
    std::set<std::string> ids;
    const std::regex literal(
        R"re("((?:cast|seanim|semodel|k3d|dmf|dmf-json|gltf|glb|fbx|obj|anim|io|texture|output|merge|axes|scene|registry)\.(?!hpp")[a-z0-9-]+)")re");
    for (const char* folder : {"src", "tools/castkit"})
        for (const auto& entry : std::filesystem::recursive_directory_iterator(
                 std::filesystem::path(CASTKIT_SOURCE_DIR) / folder)) {
            if (!entry.is_regular_file()) continue;
            const std::string text = slurp_text(entry.path());
            for (std::sregex_iterator it(text.begin(), text.end(), literal), end; it != end; ++it)
                ids.insert((*it)[1]);
        }
    return ids;
}

// Ids the sources build rather than spell: "<format>.read"/".write" for every registered format,
// "<format>.truncated" from the shared byte reader, the SE preamble's ids.
std::set<std::string> composed_ids() {
    std::set<std::string> ids;
    for (const FormatInfo& format : all_formats()) {
        ids.insert(std::string(format.name) + ".read");
        ids.insert(std::string(format.name) + ".write");
    }
    for (const char* format : {"seanim", "semodel", "k3d", "dmf"})
        ids.insert(std::string(format) + ".truncated");
    for (const char* format : {"seanim", "semodel"})
        for (const char* kind : {"bad-magic", "unknown-version", "header-size", "truncated"})
            ids.insert(std::string(format) + "." + kind);
    return ids;
}

TEST(DiagnosticIds, EveryIdInTheSourcesIsDocumented) {
    const std::set<std::string> documented = documented_ids();
    ASSERT_GT(documented.size(), 40u);
    for (const std::string& id : ids_in_sources())
        EXPECT_TRUE(documented.contains(id) || cast::find_validation_rule(id) != nullptr)
            << id << " is used in src/ but not listed in docs/diagnostics.md";
}

TEST(DiagnosticIds, EveryDocumentedIdIsProducedSomewhere) {
    const std::set<std::string> in_sources = ids_in_sources();
    const std::set<std::string> composed = composed_ids();
    for (const std::string& id : documented_ids())
        EXPECT_TRUE(in_sources.contains(id) || composed.contains(id))
            << id << " is listed in docs/diagnostics.md but nothing in src/ reports it";
}

TEST(DiagnosticIds, EveryTruncationOfEveryFormatFailsWithAListedId) {
    const std::set<std::string> documented = documented_ids();
    auto triangle = open_cast(fixtures() / "cast" / "edge" / "triangle.cast");
    ASSERT_TRUE(triangle);
    for (const FormatInfo& format : all_formats()) {
        if (format.name == "seanim") continue;  // holds no models; covered by its own tests
        BufferSink sink;
        WriteContext written;
        Diagnostics write_warnings;
        ASSERT_TRUE(formats::write(format, *triangle, sink, written, write_warnings))
            << format.name;
        const std::size_t size = sink.bytes.size();
        // Every prefix of the small files; about 300 evenly spaced ones of larger files.
        const std::size_t step = std::max<std::size_t>(1, size / 300);
        for (std::size_t length = 0; length < size; length += step) {
            std::vector<std::byte> prefix(sink.bytes.begin(), sink.bytes.begin() + length);
            ReadContext context{.name = "prefix"};
            Diagnostics warnings;
            auto document = formats::read(format, {prefix, nullptr}, context, warnings);
            for (const Diagnostic& warning : warnings)
                EXPECT_TRUE(documented.contains(warning.rule))
                    << format.name << " at " << length << ": " << warning.to_string();
            if (!document) {
                EXPECT_TRUE(documented.contains(document.error().rule))
                    << format.name << " at " << length << ": " << document.error().to_string();
            }
        }
    }
}

TEST(DiagnosticIds, ReadErrorsNameTheirKind) {
    std::vector<std::byte> not_a_file(64, std::byte{'x'});
    for (const auto& [name, id] :
         std::vector<std::pair<std::string, std::string>>{{"cast", "cast.bad-magic"},
                                                          {"seanim", "seanim.bad-magic"},
                                                          {"semodel", "semodel.bad-magic"},
                                                          {"gltf", "gltf.parse"}}) {
        ReadContext context{.name = "junk"};
        Diagnostics warnings;
        auto document =
            formats::read(*format_by_name(name), {not_a_file, nullptr}, context, warnings);
        ASSERT_FALSE(document) << name;
        EXPECT_EQ(document.error().rule, id) << document.error().to_string();
    }
    ReadContext context{.name = "short"};
    Diagnostics warnings;
    auto truncated = formats::read(*format_by_name("cast"),
                                   {std::span(not_a_file).first(3), nullptr}, context, warnings);
    ASSERT_FALSE(truncated);
    EXPECT_EQ(truncated.error().rule, "cast.truncated");
}

}  // namespace
}  // namespace castkit::test::diagnostic_ids_test
