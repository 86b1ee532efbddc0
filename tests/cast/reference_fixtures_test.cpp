// Files written by the reference generator: each dumps equal to its .json (floats compared as
// float32) and rewrites byte for byte.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../test_support.hpp"

namespace castkit::test::reference_fixtures_test {
namespace {

using nlohmann::json;

std::vector<std::filesystem::path> reference_files() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(fixtures() / "cast" / "reference"))
        if (entry.path().extension() == ".cast") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// Non-finite floats are strings in the dump schema.
float as_float(const json& value) {
    if (value.is_string()) {
        std::string s = value.get<std::string>();
        if (s == "nan") return NAN;
        return s == "inf" ? INFINITY : -INFINITY;
    }
    return static_cast<float>(value.get<double>());
}

bool same_number(const json& a, const json& b) {
    float x = as_float(a), y = as_float(b);
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y;
}

// Structural equality where every floating-point number is compared as float32.
void expect_equal(const json& actual, const json& expected, const std::string& where) {
    if ((actual.is_number_float() || expected.is_number_float()) ||
        (actual.is_number() && expected.is_string()) ||
        (actual.is_string() && expected.is_number())) {
        EXPECT_TRUE(same_number(actual, expected)) << where << ": " << actual << " != " << expected;
        return;
    }
    ASSERT_EQ(actual.type(), expected.type()) << where << ": " << actual << " vs " << expected;
    if (actual.is_object()) {
        ASSERT_EQ(actual.size(), expected.size()) << where;
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            ASSERT_TRUE(actual.contains(it.key())) << where << " lacks " << it.key();
            expect_equal(actual[it.key()], it.value(), where + "." + it.key());
        }
    } else if (actual.is_array()) {
        ASSERT_EQ(actual.size(), expected.size()) << where;
        for (std::size_t i = 0; i < actual.size(); ++i)
            expect_equal(actual[i], expected[i], where + "[" + std::to_string(i) + "]");
    } else {
        EXPECT_EQ(actual, expected) << where;
    }
}

// The reference generator wrote each Bone's parent `p` as stored (a root's is 4294967295);
// castkit's dump prints it signed (-1), as the spec means it.
void sign_bone_parents(json& node) {
    if (node["id"] == "bone")
        for (json& p : node["properties"])
            if (p["name"] == "p" && p["type"] == "i")
                for (json& value : p["values"])
                    if (value.get<std::uint32_t>() > 0x7FFFFFFFu)
                        value = static_cast<std::int32_t>(value.get<std::uint32_t>());
    for (json& child : node["children"]) sign_bone_parents(child);
}

TEST(ReferenceFixtures, ThereAreFixturesToCheck) { EXPECT_GE(reference_files().size(), 30u); }

TEST(ReferenceFixtures, EveryFileDumpsEqualToItsJson) {
    for (const auto& path : reference_files()) {
        SCOPED_TRACE(path.filename().string());
        auto document = open_cast(path);
        ASSERT_TRUE(document) << document.error().to_string();
        std::string dumped;
        cast::dump_json(*document, dumped);
        auto expected_path = path;
        expected_path.replace_extension(".json");
        std::ifstream in(expected_path);
        json expected = json::parse(in);
        for (json& root : expected["roots"]) sign_bone_parents(root);
        expect_equal(json::parse(dumped), expected, path.filename().string());
    }
}

TEST(ReferenceFixtures, EveryFileRewritesByteForByte) {
    for (const auto& path : reference_files()) {
        SCOPED_TRACE(path.filename().string());
        Diagnostics warnings;
        auto document = cast::open(path, warnings);
        ASSERT_TRUE(document) << document.error().to_string();
        EXPECT_TRUE(warnings.empty()) << warnings.front().to_string();
        auto written = cast::write_to_buffer(*document);
        ASSERT_TRUE(written);
        EXPECT_EQ(*written, read_bytes(path));
    }
}

TEST(ReferenceFixtures, RewriteThroughTheFileWriterIsIdentical) {
    auto dir = temp_dir("reference-rewrite");
    for (const auto& path : reference_files()) {
        auto document = open_cast(path);
        ASSERT_TRUE(document);
        auto out = dir / path.filename();
        ASSERT_TRUE(cast::write(*document, out));
        EXPECT_EQ(read_bytes(out), read_bytes(path)) << path;
    }
}

}  // namespace
}  // namespace castkit::test::reference_fixtures_test
