// The JSON writer: valid JSON for any bytes (docs/json.md), nlohmann's layout when indenting,
// and streaming into a sink that reports failures.
#include <gtest/gtest.h>

#include <castkit/json.hpp>
#include <limits>
#include <nlohmann/json.hpp>

namespace castkit::json::writer_test {
namespace {

std::string quoted(std::string_view text) {
    std::string out;
    append_string(out, text);
    return out;
}

TEST(JsonWriter, ValidUtf8IsCopied) {
    EXPECT_EQ(quoted("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
              "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

TEST(JsonWriter, InvalidBytesAreReadAsLatin1) {
    EXPECT_EQ(quoted("caf\xe9"), "\"caf\\u00e9\"");
    EXPECT_EQ(nlohmann::json::parse(quoted("caf\xe9")).get<std::string>(), "caf\xc3\xa9");
}

TEST(JsonWriter, MalformedSequencesAreEscapedByteByByte) {
    EXPECT_EQ(quoted("\xc0\xaf"), "\"\\u00c0\\u00af\"");             // overlong '/'
    EXPECT_EQ(quoted("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\"");  // a UTF-16 surrogate
    EXPECT_EQ(quoted("\xf4\x90\x80\x80"), "\"\\u00f4\\u0090\\u0080\\u0080\"");  // past U+10FFFF
    EXPECT_EQ(quoted("\xe2\x82"), "\"\\u00e2\\u0082\"");                        // cut short
    EXPECT_EQ(quoted("\xc3("), "\"\\u00c3(\"");                                 // bad continuation
}

TEST(JsonWriter, EveryByteStringParses) {
    // All 2-byte strings over the bytes that matter to UTF-8 decoding.
    for (int a = 0; a < 256; ++a)
        for (int b : {0x00, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xff}) {
            const char bytes[2] = {static_cast<char>(a), static_cast<char>(b)};
            const std::string text = quoted(std::string_view(bytes, 2));
            EXPECT_TRUE(nlohmann::json::accept(text)) << a << " " << b << ": " << text;
        }
}

TEST(JsonWriter, ControlCharactersAndQuotesAreEscaped) {
    EXPECT_EQ(quoted("a\"b\\c\n\t\x01"), R"("a\"b\\c\n\t\u0001")");
}

TEST(JsonWriter, IndentedOutputMatchesNlohmannsLayout) {
    std::string out;
    Writer writer(out, 2);
    writer.begin_object();
    writer.key("a");
    writer.integer(-1);
    writer.key("b");
    writer.begin_array();
    writer.boolean(true);
    writer.null();
    writer.begin_object();
    writer.end_object();
    writer.begin_array();
    writer.end_array();
    writer.end_array();
    writer.key("c");
    writer.string("x");
    writer.end_object();
    const nlohmann::ordered_json expected = nlohmann::ordered_json::parse(out);
    EXPECT_EQ(out, expected.dump(2));
}

TEST(JsonWriter, NumbersReadBackAndNonFiniteValuesAreStrings) {
    std::string out;
    Writer writer(out);
    writer.begin_array();
    writer.number(0.1f);
    writer.number(1e300);
    writer.number(std::numeric_limits<float>::quiet_NaN());
    writer.number(-std::numeric_limits<double>::infinity());
    writer.unsigned_integer(std::numeric_limits<std::uint64_t>::max());
    writer.end_array();
    EXPECT_EQ(out, "[0.1,1e+300,\"nan\",\"-inf\",18446744073709551615]");
}

// A sink that accepts `limit` bytes, then fails.
class FullSink final : public Sink {
  public:
    explicit FullSink(std::size_t limit) : limit_(limit) {}
    Expected<void> write(std::span<const std::byte> data) override {
        if (written_ + data.size() > limit_) {
            Diagnostic full;
            full.message = "disk full";
            return make_error(std::move(full));
        }
        written_ += data.size();
        return {};
    }

  private:
    std::size_t limit_, written_ = 0;
};

TEST(JsonWriter, StreamsIntoASinkAndReportsItsFailure) {
    BufferSink buffer;
    Writer streamed(buffer);
    streamed.begin_array();
    for (int i = 0; i < 100000; ++i) streamed.string("element");
    streamed.end_array();
    ASSERT_TRUE(streamed.finish());
    const auto parsed = nlohmann::json::parse(
        std::string(reinterpret_cast<const char*>(buffer.bytes.data()), buffer.bytes.size()));
    EXPECT_EQ(parsed.size(), 100000u);

    FullSink full(1000);
    Writer failing(full);
    failing.begin_array();
    for (int i = 0; i < 100000; ++i) failing.string("element");
    failing.end_array();
    auto finished = failing.finish();
    ASSERT_FALSE(finished);
    EXPECT_EQ(finished.error().message, "disk full");
}

}  // namespace
}  // namespace castkit::json::writer_test
