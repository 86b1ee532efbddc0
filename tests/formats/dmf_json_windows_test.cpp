// The DMF JSON reader's two ways through a text (src/formats/dmf/json_reader.hpp): windows of
// whole elements, each with its own small simdjson index, and one pass over the whole document.
// Texts several windows long, read both ways: the windows read what the one pass reads, or give
// up, whatever the spacing, the element sizes, the braces inside strings and the damage; errors
// are the one pass's.
#include <gtest/gtest.h>

#include <castkit/formats/dmf.hpp>
#include <random>
#include <string>

#include "../../src/formats/dmf/json_reader.hpp"

namespace castkit::test::dmf_json_windows_test {
namespace {

using dmf::json_reader::read_in_one_pass;
using dmf::json_reader::read_in_windows;

// A skinned, animated model whose faces alone are dozens of 64 KiB windows long as text.
dmf::Model model_of(std::size_t faces) {
    std::mt19937 random(11);
    auto real = [&] { return static_cast<float>(random() % 20000) / 7.0f - 1000.0f; };
    dmf::Model model;
    model.materials.resize(2);
    model.materials[0].name = "skin";
    model.materials[1].name = "cloth";
    model.bones.resize(8);
    for (std::size_t i = 0; i < model.bones.size(); ++i) {
        model.bones[i].id = static_cast<std::int16_t>(i);
        model.bones[i].name = "bone" + std::to_string(i);
        model.bones[i].parent = static_cast<std::int16_t>(i) - 1;
    }
    model.vertices.resize(faces / 2 + 3);
    for (dmf::Vertex& v : model.vertices) {
        v.position = {real(), real(), real()};
        v.skin_index = {0, 1, 7, -1};
        v.skin_weight = {0.5f, 0.25f, 0.25f, 0.0f};
    }
    model.faces.resize(faces);
    for (std::size_t i = 0; i < faces; ++i) {
        dmf::Face& f = model.faces[i];
        f.material = static_cast<std::uint16_t>(i % 2);
        for (std::size_t c = 0; c < 3; ++c) {
            f.indices[c] = static_cast<std::uint32_t>((i + c) % model.vertices.size());
            f.colors[c] = {static_cast<std::uint8_t>(i), 128, 255, 255};
            f.normals[c] = {real(), real(), real()};
            f.uvs[c] = {real(), real()};
        }
    }
    dmf::Animation animation;
    animation.name = "walk";
    animation.fps = 30;
    animation.duration = 2;
    for (std::size_t i = 0; i < 60; ++i) {
        dmf::Track t;
        t.bone = static_cast<std::int16_t>(i % 8);
        t.time = static_cast<float>(i) / 30.0f;
        t.flags = dmf::kPosition | dmf::kRotation;
        t.position = {real(), real(), real()};
        t.rotation = {0, 0, 0, 1};
        animation.tracks.push_back(t);
    }
    model.animations.push_back(animation);
    return model;
}

std::string text_of(const dmf::Model& model) {
    auto text = dmf::write_json_text(model);
    EXPECT_TRUE(text);
    return text ? *text : std::string();
}

// Every occurrence of `from` in `text` replaced by `to`.
std::string replaced(const std::string& text, std::string_view from, std::string_view to) {
    std::string out;
    std::size_t done = 0;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, done)) {
        out.append(text, done, at - done);
        out.append(to);
        done = at + from.size();
    }
    return out.append(text, done);
}

// Reads `text` both ways: the windows must read it (when `windows_read` says so) and agree with
// the one pass, which must read it too.
void expect_agree(const std::string& text, bool windows_read = true) {
    auto windows = read_in_windows(text, formats::Threads::automatic);
    auto one_pass = read_in_one_pass(text, "t.dmf.json");
    ASSERT_TRUE(one_pass) << one_pass.error().to_string();
    if (windows_read) {
        EXPECT_TRUE(windows.has_value());
    }
    if (windows) {
        EXPECT_TRUE(*windows == *one_pass);
    }
}

// The text of a model several MiB long, whose faces are read on two threads (the second from an
// element start guessed about halfway through the rest of the text).
const std::string& big_text() {
    static const std::string text = text_of(model_of(20000));
    return text;
}

TEST(DmfJsonWindows, ABigModelReadsTheSameBothWaysOnOneThreadOrTwo) {
    const dmf::Model model = model_of(20000);
    const std::string& text = big_text();
    ASSERT_GT(text.size(), std::size_t{6} << 20);  // past the 4 MiB that start a second thread
    for (auto threads : {formats::Threads::one, formats::Threads::automatic}) {
        auto windows = read_in_windows(text, threads);
        ASSERT_TRUE(windows.has_value());
        EXPECT_TRUE(*windows == model);
    }
    expect_agree(text);
    Diagnostics warnings;
    auto read = dmf::read_json(text, "big.dmf.json", warnings);
    ASSERT_TRUE(read) << read.error().to_string();
    EXPECT_TRUE(*read == model);
}

// The element the second thread starts from is a guess: a '{' after "}," past the middle of the
// text. Here the first such bytes lie in a string, or in an unknown key's array of faces that
// the second thread reads without an error, inside the face that spans the middle: the first
// thread never arrives there as an element's start, and drops what the second one read.
TEST(DmfJsonWindows, AWrongGuessOfTheSecondThreadIsDropped) {
    const std::string& text = big_text();
    const std::size_t first_face = text.find("{\"material\"");
    const std::size_t sample = text.find("{\"material\"", first_face + 1);
    const std::string face = text.substr(sample, text.find('}', sample) + 1 - sample);
    for (const std::string& inserted : {std::string(", \"note\": \"}, {\\\"x\\\": 1}\""),
                                        ", \"extra\": [{}, " + face + ", " + face + "]"}) {
        // Where the reader's guess starts looking once `inserted` is in, and the end of the face
        // that spans it, where `inserted` goes: the first '{' after the middle is then in it.
        const std::size_t middle = first_face + (text.size() + inserted.size() - first_face) / 2;
        const std::size_t spanning_end = text.rfind('}', text.find("{\"material\"", middle));
        ASSERT_GT(spanning_end, middle);
        std::string tricked = text;
        tricked.insert(spanning_end, inserted);
        expect_agree(tricked);
        auto one = read_in_windows(tricked, formats::Threads::one);
        auto two = read_in_windows(tricked, formats::Threads::automatic);
        ASSERT_TRUE(one.has_value() && two.has_value());
        EXPECT_TRUE(*one == *two);
    }
}

TEST(DmfJsonWindows, SpacingSpellingsAndVersionFormsReadTheSame) {
    const std::string text = text_of(model_of(4000));
    expect_agree(replaced(text, "},", "}\r\n\t ,\t\n"));
    expect_agree(replaced(replaced(text, "\n", ""), ", ", ","));  // no spaces between tokens
    expect_agree(replaced(text, "\"verterices\"", "\"vertices\""));
    expect_agree(replaced(text, "\"version\": \"1.5\"", "\"version\" :1.5"));
    expect_agree(replaced(text, "\"textures\": []", "\"textures\": [ \n ]"));
}

TEST(DmfJsonWindows, AnElementLongerThanAWindowIsReadWhole) {
    dmf::Model model = model_of(3000);
    dmf::Texture texture;
    texture.name = "big";
    texture.png.resize(700000);  // about 930 KB of base64: longer than several windows
    for (std::size_t i = 0; i < texture.png.size(); ++i)
        texture.png[i] = static_cast<std::byte>(i * 7919 % 251);
    texture.width = texture.height = 4;
    model.textures.push_back(texture);
    const std::string text = text_of(model);
    expect_agree(text);
    EXPECT_TRUE(*read_in_windows(text) == model);
}

TEST(DmfJsonWindows, BracesInStringsAndNestedObjectsReadTheSame) {
    // Unknown keys in every face: strings holding "}", "},{" and "}]", and arrays of objects,
    // so that windows end in the middle of some of them.
    const std::string text = text_of(model_of(6000));
    expect_agree(replaced(text, "\"material\":",
                          "\"note\": \"}, {\\\"a\\\": 1}]} }\", \"more\": [{\"x\": {}}, {}], "
                          "\"material\":"),
                 false);
    expect_agree(replaced(text, "\"material\":", "\"x\": [{}, {\"y\": [{}]}], \"material\":"));
}

// read_json reads a damaged text as the one pass alone reads it: the same model, or the same
// error (a reference error included, which the windows leave to the check after them).
void expect_same_reading(const std::string& text, int trial) {
    Diagnostics warnings;
    auto read = dmf::read_json(text, "d.dmf.json", warnings);
    auto one_pass = read_in_one_pass(text, "d.dmf.json");
    ASSERT_EQ(read.has_value(), one_pass.has_value()) << "trial " << trial;
    if (read) {
        ASSERT_TRUE(*read == *one_pass) << "trial " << trial;
    } else {
        ASSERT_EQ(read.error().to_string(), one_pass.error().to_string()) << "trial " << trial;
    }
}

TEST(DmfJsonWindows, DamagedTextsAreReadAsTheOnePassReadsThem) {
    const std::string text = text_of(model_of(3000));
    ASSERT_GT(text.size(), std::size_t{3} << 18);
    std::mt19937 random(5);
    const std::string_view bytes = "{}[],:\"\\ 09e-.x\x80";
    int windows_read = 0;
    for (int trial = 0; trial < 200; ++trial) {
        std::string damaged = text;
        if (trial % 4 == 0) {
            damaged.resize(random() % text.size());
        } else {
            for (int k = 0; k < 1 + trial % 3; ++k)
                damaged[random() % damaged.size()] = bytes[random() % bytes.size()];
        }
        if (read_in_windows(damaged)) ++windows_read;
        expect_same_reading(damaged, trial);
    }
    EXPECT_GT(windows_read, 0);  // some damage leaves valid text (a digit for a digit, say)
}

// A face index made larger than the vertices: the windows read the text, and the reference
// check after them refuses it as the one pass does, at the same offset.
TEST(DmfJsonWindows, ADamagedReferenceIsTheOnePassesError) {
    std::string text = text_of(model_of(3000));
    const std::size_t index = text.find("\"indices\": [", text.size() / 2) + 12;
    text.insert(index, "9");
    ASSERT_TRUE(read_in_windows(text).has_value());
    expect_same_reading(text, 0);
}

// The same on a text long enough for two threads, damaged near where the second one starts.
TEST(DmfJsonWindows, DamageWhereTheSecondThreadStartsIsReadAsTheOnePassReadsIt) {
    const std::string& text = big_text();
    const std::size_t faces = text.find("\"faces\": [");
    const std::size_t middle = faces + (text.size() - faces) / 2;
    std::mt19937 random(9);
    const std::string_view bytes = "{}[],:\" 0";
    for (int trial = 0; trial < 24; ++trial) {
        std::string damaged = text;
        damaged[middle + random() % 2048] = bytes[random() % bytes.size()];
        expect_same_reading(damaged, trial);
    }
}

TEST(DmfJsonWindows, ErrorsAreTheOnePassesWithTheirOffsets) {
    // A face index past the u32 range, in either thread's half of the faces: a parse error at
    // its byte.
    const std::string& text = big_text();
    for (const std::size_t from : {text.size() / 3, text.size() * 3 / 4}) {
        const std::size_t face = text.find("\"indices\": [", from);
        ASSERT_NE(face, std::string::npos);
        std::string bad = text;
        bad.replace(face + 12, 1, "4294967296, 0, 0], \"was\": [9");
        Diagnostics warnings;
        auto error = dmf::read_json(bad, "bad.dmf.json", warnings);
        ASSERT_FALSE(error);
        EXPECT_EQ(error.error().offset, face + 12);
        EXPECT_EQ(error.error().to_string(),
                  read_in_one_pass(bad, "bad.dmf.json").error().to_string());
    }
    // A face naming a vertex that does not exist: read, then refused with the faces' offset.
    dmf::Model model = model_of(6000);
    model.faces[4000].indices[1] = 99999999;
    const std::string dangling = text_of(model);
    ASSERT_TRUE(read_in_windows(dangling).has_value());
    Diagnostics warnings;
    auto refused = dmf::read_json(dangling, "bad.dmf.json", warnings);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().offset, dangling.find("\"faces\": [") + 9);
    EXPECT_EQ(refused.error().to_string(),
              read_in_one_pass(dangling, "bad.dmf.json").error().to_string());
}

}  // namespace
}  // namespace castkit::test::dmf_json_windows_test
