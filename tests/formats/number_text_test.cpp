// number_text.hpp: floats laid out exactly as fmt::format("{}") lays them out, integers in
// decimal; edge values and a million random bit patterns.
#include "../../src/formats/common/number_text.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace castkit::test::number_text_test {
namespace {

std::string written(float v) {
    char text[formats::kFloatRoom];
    return std::string(text, formats::write_float(text, v));
}

// The first float whose text differs from fmt's, as "ours | fmt's"; empty when none does.
template <class Floats>
std::string first_difference(const Floats& values) {
    for (float v : values) {
        char expected[64];
        const std::string_view fmt_text(expected, fmt::format_to(expected, "{}", v));
        if (written(v) != fmt_text) return written(v) + " | " + std::string(fmt_text);
    }
    return "";
}

TEST(NumberText, EdgeFloatsAreWrittenAsFmtWritesThem) {
    std::vector<float> values = {0.0f,         -0.0f,        FLT_MAX,     -FLT_MAX,     FLT_MIN,
                                 -FLT_MIN,     FLT_TRUE_MIN, 1e16f,       9.999999e15f, 1e15f,
                                 123456789.0f, 16777216.0f,  16777217.0f, 0.1f,         1.0f / 3};
    // Powers of ten and their neighbours around fmt's thresholds (1e-4 and 1e16) and beyond.
    for (int e = -45; e <= 38; ++e) {
        for (float m : {1.0f, 1.5f, 9.999999f, 1.2345678f}) {
            const float v = static_cast<float>(m * std::pow(10.0, e));
            for (float x : {v, std::nextafter(v, 0.0f), std::nextafter(v, FLT_MAX)})
                values.insert(values.end(), {x, -x});
        }
    }
    // Every integer a float holds exactly.
    for (std::int32_t i = 0; i <= (1 << 24); i += 7) values.push_back(static_cast<float>(i));
    for (std::uint32_t bits = 1; bits < 4096; ++bits) {  // the smallest denormals
        float v;
        std::memcpy(&v, &bits, sizeof v);
        values.push_back(v);
    }
    EXPECT_EQ(first_difference(values), "");
    EXPECT_EQ(written(-0.0f), "-0");
    EXPECT_EQ(written(1e16f), "1e+16");
    EXPECT_EQ(written(0.0001f), "0.0001");
    EXPECT_EQ(written(1.5e-5f), "1.5e-05");
}

TEST(NumberText, RandomFloatBitPatternsAreWrittenAsFmtWritesThem) {
    std::mt19937 random(20240611);
    std::vector<float> values;
    while (values.size() < 1'000'000) {
        const std::uint32_t bits = random();
        float v;
        std::memcpy(&v, &bits, sizeof v);
        if (std::isfinite(v)) values.push_back(v);
    }
    EXPECT_EQ(first_difference(values), "");
}

TEST(NumberText, IntegersIncludingTheExtremes) {
    for (std::int64_t v :
         {std::int64_t{0}, std::int64_t{-1}, std::int64_t{65535},
          std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}) {
        char text[formats::kIntegerRoom];
        EXPECT_EQ(std::string(text, formats::write_integer(text, v)), fmt::format("{}", v));
    }
}

}  // namespace
}  // namespace castkit::test::number_text_test
