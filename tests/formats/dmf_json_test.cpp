// DMF JSON: the hand-written golden JSON against the golden binary, JSON ↔ binary round trips,
// and errors that name the JSON path.
#include <gtest/gtest.h>

#include <castkit/formats/dmf.hpp>

#include "../test_support.hpp"
#include "dmf_golden.hpp"

namespace castkit::test::dmf_json_test {
namespace {

dmf::Model binary_golden() {
    Diagnostics warnings;
    auto model = dmf::read(golden_dmf(), "golden.dmf", warnings);
    EXPECT_TRUE(model);
    return model ? *model : dmf::Model{};
}

Diagnostic json_error(const std::string& text) {
    Diagnostics warnings;
    auto model = dmf::read_json(text, "bad.dmf.json", warnings);
    EXPECT_FALSE(model);
    return model ? Diagnostic{} : model.error();
}

// The golden JSON with `from` replaced by `to` (which must occur once).
std::string golden_with(const std::string& from, const std::string& to) {
    std::string text = golden_dmf_json();
    std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

TEST(DmfJson, HandWrittenJsonReadsToTheSameModelAsTheGoldenBinary) {
    Diagnostics warnings;
    auto model = dmf::read_json(golden_dmf_json(), "golden.dmf.json", warnings);
    ASSERT_TRUE(model) << model.error().to_string();
    EXPECT_EQ(*model, binary_golden());
}

TEST(DmfJson, JsonConvertsToTheGoldenBinaryBytes) {
    Diagnostics warnings;
    auto model = dmf::read_json(golden_dmf_json(), "golden.dmf.json", warnings);
    ASSERT_TRUE(model);
    auto bytes = dmf::write_to_buffer(*model);
    ASSERT_TRUE(bytes);
    EXPECT_EQ(*bytes, golden_dmf());
}

TEST(DmfJson, JsonToBinaryToJsonIsUnchanged) {
    auto text = dmf::write_json_text(binary_golden());
    ASSERT_TRUE(text);
    Diagnostics warnings;
    auto from_json = dmf::read_json(*text, "a.dmf.json", warnings);
    ASSERT_TRUE(from_json) << from_json.error().to_string();
    auto bytes = dmf::write_to_buffer(*from_json);
    ASSERT_TRUE(bytes);
    auto from_binary = dmf::read(*bytes, "a.dmf", warnings);
    ASSERT_TRUE(from_binary);
    auto again = dmf::write_json_text(*from_binary);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *text);
}

TEST(DmfJson, WriterUsesTheDocumentedNamesAndForms) {
    auto text = dmf::write_json_text(binary_golden());
    ASSERT_TRUE(text);
    for (const char* expected :
         {"\"verterices\": [", "\"verex_color\": [\"rgba(255, 255, 255, 1)\"",
          "\"rgba(0, 255, 0, 0.502)\"", "\"blend_src\": \"src_alpha\"", "\"wrap_s\": \"repeat\"",
          "\"time\": 0.033333335, \"scl\": [1, 2, 1]}", "\"flip_y\": true",
          "\"img\": \"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAAAAAAA\""})
        EXPECT_NE(text->find(expected), std::string::npos) << expected << "\n" << *text;
}

TEST(DmfJson, WrongTypeNamesTheJsonPath) {
    Diagnostic d = json_error(golden_with("{\"pos\": [1, 0, 0]", "{\"pos\": [1, 0, \"0\"]"));
    EXPECT_EQ(d.path, "$.verterices[1].pos[2]");
    EXPECT_EQ(d.message, "expected a number, found string");
    EXPECT_EQ(d.file, "bad.dmf.json");
}

TEST(DmfJson, MissingKeyNamesTheObject) {
    Diagnostic d = json_error(golden_with("\"indices\": [0, 1, 2],", ""));
    EXPECT_EQ(d.path, "$.faces[0]");
    EXPECT_EQ(d.message, "missing key \"indices\"");
}

TEST(DmfJson, WrongArrayLengthAndObjectTypeAreErrors) {
    Diagnostic d = json_error(golden_with("\"rot\": [0, 0, 0.6, 0.8]", "\"rot\": [0, 0, 0.6]"));
    EXPECT_EQ(d.path, "$.animations[0].tracks[2].rot");
    EXPECT_EQ(d.message, "expected 4 elements, found 3");
    Diagnostic e = json_error(golden_with("\"skeleton\": [", "\"skeleton\": [7, "));
    EXPECT_EQ(e.path, "$.skeleton[0]");
    EXPECT_EQ(e.message, "expected an object, found number");
}

TEST(DmfJson, UnknownEnumNameListsTheChoices) {
    Diagnostic d =
        json_error(golden_with("\"shader_type\": \"lambert\"", "\"shader_type\": \"toon\""));
    EXPECT_EQ(d.path, "$.materials[0].shader_type");
    EXPECT_EQ(d.message, "\"toon\" is not one of basic, lambert, phong");
}

TEST(DmfJson, OutOfRangeIntegersAndBadColoursAreErrors) {
    Diagnostic d = json_error(golden_with("\"fps\": 30", "\"fps\": 70000"));
    EXPECT_EQ(d.path, "$.animations[0].fps");
    Diagnostic e = json_error(golden_with("\"rgba(255,0,0,1)\"", "\"red\""));
    EXPECT_EQ(e.path, "$.faces[0].verex_color[1]");
    Diagnostic f = json_error(golden_with("\"indices\": [0, 1, 2]", "\"indices\": [0, 1, 9]"));
    EXPECT_EQ(f.path, "$.faces[0].indices");
    EXPECT_NE(f.message.find("vertex index 9"), std::string::npos);
}

TEST(DmfJson, MalformedImageDataIsAnError) {
    Diagnostic d = json_error(golden_with(kTinyPngBase64, "not*base64"));
    EXPECT_EQ(d.path, "$.textures[0].img");
}

TEST(DmfJson, NotJsonGivesTheByteOffset) {
    Diagnostic d = json_error("{\"format\": \"DASH\",, }");
    EXPECT_EQ(d.offset, 18u);
    EXPECT_EQ(d.path, "$");
}

TEST(DmfJson, FormatAndVersionAreChecked) {
    EXPECT_EQ(json_error(golden_with("\"DASH\"", "\"DMX\"")).path, "$.format");
    EXPECT_EQ(json_error(golden_with("\"1.5\"", "\"2.0\"")).path, "$.version");
}

TEST(DmfJson, NonFiniteFloatsCannotBeWritten) {
    dmf::Model model = binary_golden();
    model.bones[1].matrix[3][1] = std::numeric_limits<float>::infinity();
    auto text = dmf::write_json_text(model);
    ASSERT_FALSE(text);
    EXPECT_EQ(text.error().path, "$.skeleton[1].matrix[13]");
}

TEST(DmfJson, NegativeZeroSurvives) {
    dmf::Model model = binary_golden();
    model.vertices[0].position.x = -0.0f;
    auto text = dmf::write_json_text(model);
    ASSERT_TRUE(text);
    Diagnostics warnings;
    auto back = dmf::read_json(*text, "z.dmf.json", warnings);
    ASSERT_TRUE(back);
    EXPECT_TRUE(std::signbit(back->vertices[0].position.x));
}

TEST(DmfJson, DeepNestingIsAnErrorNotACrash) {
    std::string text(200000, '[');
    text += std::string(200000, ']');
    Diagnostic d = json_error(text);
    EXPECT_EQ(d.path, "$");
    EXPECT_EQ(d.message, "expected an object, found array");
}

TEST(DmfJson, TruncationsAndFlipsNeverCrash) {
    std::string text = golden_dmf_json();
    for (std::size_t n = 0; n < text.size(); ++n) {
        Diagnostics warnings;
        EXPECT_FALSE(dmf::read_json(std::string_view(text).substr(0, n), "cut.dmf.json", warnings))
            << n;
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::string flipped = text;
        flipped[i] = static_cast<char>(flipped[i] ^ 0x04);
        Diagnostics warnings;
        auto model = dmf::read_json(flipped, "flip.dmf.json", warnings);
        if (model) (void)dmf::to_cast(*model, "flip.dmf.json", warnings);
    }
}

}  // namespace
}  // namespace castkit::test::dmf_json_test
