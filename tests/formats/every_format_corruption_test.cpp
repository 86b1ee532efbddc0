// Damaged input through every reader of the registry (issue 19 item 4): every truncation (or 500
// spread ones for big files) and 1,000 random single-bit flips of a valid file of each format,
// plus, for the JSON formats, what bit flips rarely make (numbers out of range, NaN and
// Infinity, deep nesting, invalid UTF-8, duplicate keys). Each input must either fail with a
// diagnostic naming the file, a byte offset and a path, or read into a document that writes
// as Cast and reads back. Nothing crashes (the sanitizer build checks that) and nothing hangs.
#include <gtest/gtest.h>

#include <castkit/registry.hpp>
#include <random>
#include <string>
#include <vector>

#include "../cli/character.hpp"

namespace castkit::test::every_format_corruption_test {
namespace {

struct Sample {
    std::string format;
    std::vector<std::byte> bytes;
};

// A valid file of `format`: the skinned character, or for SEAnim its animation.
std::vector<std::byte> sample_bytes(const std::string& format) {
    const cast::Document document =
        format == "seanim" ? character_animation("walk", {"root", "spine", "head"}) : character();
    const FormatInfo* info = format_by_name(format);
    BufferSink sink;
    Context context;
    context.name = "sample." + format;
    Diagnostics warnings;
    auto written = formats::write(*info, document, sink, context, warnings);
    if (!written) throw std::runtime_error(written.error().to_string());
    return std::move(sink.bytes);
}

std::vector<std::string> every_format() {
    std::vector<std::string> names;
    for (const FormatInfo& format : all_formats())
        if (format.read != nullptr) names.emplace_back(format.name);  // not FBX: written only
    return names;
}

// Reads `bytes` as `format`; returns an empty string when the outcome is acceptable, otherwise
// what is wrong with it.
std::string check(const std::string& format, std::span<const std::byte> bytes) {
    Context context;
    context.name = "damaged." + format;
    Diagnostics warnings;
    auto document = formats::read(*format_by_name(format), {bytes, nullptr}, context, warnings);
    if (!document) {
        const Diagnostic& d = document.error();
        if (d.file != context.name) return "the error names no file: " + d.to_string();
        if (d.offset == Diagnostic::kNoOffset) return "the error names no offset: " + d.to_string();
        if (d.path.empty()) return "the error names no path: " + d.to_string();
        if (d.rule.empty()) return "the error has no id: " + d.to_string();
        return {};
    }
    BufferSink sink;
    auto written = formats::write(*format_by_name("cast"), *document, sink, {}, warnings);
    if (!written) return "read, but does not write as Cast: " + written.error().to_string();
    auto back = formats::read(*format_by_name("cast"), {sink.bytes, nullptr}, {}, warnings);
    if (!back) return "its Cast does not read back: " + back.error().to_string();
    return {};
}

class EveryFormatCorruption : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryFormatCorruption, EveryTruncationFailsCleanlyOrReads) {
    const std::vector<std::byte> original = sample_bytes(GetParam());
    ASSERT_EQ(check(GetParam(), original), "");
    const std::size_t step = std::max<std::size_t>(1, original.size() / 500);
    int failures = 0;
    for (std::size_t size = 0; size < original.size() && failures < 5; size += step)
        if (std::string problem = check(GetParam(), std::span(original).first(size));
            !problem.empty()) {
            ADD_FAILURE() << "truncated to " << size << " of " << original.size() << ": "
                          << problem;
            ++failures;
        }
}

TEST_P(EveryFormatCorruption, ThousandRandomBitFlipsFailCleanlyOrRead) {
    const std::vector<std::byte> original = sample_bytes(GetParam());
    std::mt19937 random(20261123);
    std::uniform_int_distribution<std::size_t> byte(0, original.size() - 1);
    std::uniform_int_distribution<int> bit(0, 7);
    int failures = 0;
    for (int i = 0; i < 1000 && failures < 5; ++i) {
        std::vector<std::byte> flipped = original;
        const std::size_t at = byte(random);
        const int which = bit(random);
        flipped[at] ^= static_cast<std::byte>(1 << which);
        if (std::string problem = check(GetParam(), flipped); !problem.empty()) {
            ADD_FAILURE() << "bit " << which << " of byte " << at << ": " << problem;
            ++failures;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, EveryFormatCorruption, ::testing::ValuesIn(every_format()),
                         [](const auto& info) {
                             std::string name = info.param;
                             std::erase(name, '-');
                             return name;
                         });

// JSON that bit flips rarely make, spliced into a valid file of each JSON format in place of
// its first number (or wrapping the whole document, for nesting).
class JsonSpecials : public ::testing::TestWithParam<std::string> {};

std::vector<std::byte> bytes_of(const std::string& text) {
    const auto* data = reinterpret_cast<const std::byte*>(text.data());
    return {data, data + text.size()};
}

TEST_P(JsonSpecials, HostileValuesFailCleanlyOrRead) {
    const std::vector<std::byte> original = sample_bytes(GetParam());
    const std::string text(reinterpret_cast<const char*>(original.data()), original.size());
    const std::size_t number = text.find_first_of("0123456789", text.find(':'));
    ASSERT_NE(number, std::string::npos);
    const std::size_t number_end = text.find_first_not_of("0123456789.eE+-", number);
    auto with_value = [&](const std::string& value) {
        return text.substr(0, number) + value + text.substr(number_end);
    };
    std::vector<std::pair<std::string, std::string>> inputs = {
        {"1e999", with_value("1e999")},
        {"-1e999", with_value("-1e999")},
        {"1e-999", with_value("1e-999")},
        {"NaN", with_value("NaN")},
        {"Infinity", with_value("Infinity")},
        {"-Infinity", with_value("-Infinity")},
        {"2^64", with_value("18446744073709551616")},
        {"-2^63-1", with_value("-9223372036854775809")},
        {"invalid UTF-8",
         text.substr(0, text.find('"') + 1) + "\xff\xfe\xc3" + text.substr(text.find('"') + 1)},
        {"duplicate keys", "{" + text.substr(1, text.rfind('}') - 1) + "," +
                               text.substr(1, text.rfind('}') - 1) + "}"},
        {"100,000 deep", std::string(100000, '[') + std::string(100000, ']')},
        {"100,000 deep in the document", text.substr(0, text.rfind('}')) +
                                             ",\"deep\":" + std::string(100000, '[') +
                                             std::string(100000, ']') + "}"},
        {"empty", ""},
        {"a bare string", "\"castkit\""},
    };
    for (const auto& [what, input] : inputs)
        EXPECT_EQ(check(GetParam(), bytes_of(input)), "") << what;
}

INSTANTIATE_TEST_SUITE_P(Formats, JsonSpecials, ::testing::Values("dmf-json", "gltf"),
                         [](const auto& info) {
                             std::string name = info.param;
                             std::erase(name, '-');
                             return name;
                         });

// A 100 MB string value: read or refused without copying it more than a few times (the memory
// limit of the sanitizer build would catch a blow-up).
TEST(JsonSpecials, AHundredMegabyteStringFailsCleanlyOrReads) {
    for (const std::string format : {"dmf-json", "gltf"}) {
        std::string text = "{\"asset\":{\"version\":\"2.0\"},\"name\":\"";
        text.append(100u << 20, 'a');
        text += "\"}";
        EXPECT_EQ(check(format, bytes_of(text)), "") << format;
    }
}

}  // namespace
}  // namespace castkit::test::every_format_corruption_test
