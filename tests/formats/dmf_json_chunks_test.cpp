// The DMF JSON writer's big arrays, formatted in chunks on two threads (ordered_chunks.hpp): the
// same bytes as one thread, in order, and sink errors and exceptions reported as before.
#include <gtest/gtest.h>

#include <castkit/formats/dmf.hpp>
#include <random>
#include <stdexcept>

#include "../../src/formats/common/ordered_chunks.hpp"
#include "../../src/formats/dmf/json_writer.hpp"

namespace castkit::test::dmf_json_chunks_test {
namespace {

using formats::ChunkText;
using formats::Threads;

// Chunk i's text is "<i>;"; consumed texts are concatenated.
std::string chunks_in_order(std::size_t count, Threads threads, std::size_t stop_after = 0) {
    std::string out;
    std::size_t consumed = 0;
    formats::format_in_order(
        count, threads,
        [](std::size_t i, ChunkText& text) { fmt::format_to(fmt::appender(text), "{};", i); },
        [&](const ChunkText& text) {
            out.append(text.data(), text.size());
            return ++consumed != stop_after;
        });
    return out;
}

TEST(DmfJsonChunks, EveryChunkIsConsumedInOrderOnEitherPath) {
    std::string expected;
    for (int i = 0; i < 1000; ++i) expected += fmt::format("{};", i);
    EXPECT_EQ(chunks_in_order(1000, Threads::one), expected);
    EXPECT_EQ(chunks_in_order(1000, Threads::automatic), expected);
    EXPECT_EQ(chunks_in_order(0, Threads::automatic), "");
}

TEST(DmfJsonChunks, ConsumingStopsWhenAsked) {
    EXPECT_EQ(chunks_in_order(1000, Threads::one, 3), "0;1;2;");
    EXPECT_EQ(chunks_in_order(1000, Threads::automatic, 3), "0;1;2;");
}

TEST(DmfJsonChunks, AFormattingExceptionReachesTheCaller) {
    for (Threads threads : {Threads::one, Threads::automatic}) {
        std::size_t consumed = 0;
        auto run = [&] {
            formats::format_in_order(
                100, threads,
                [](std::size_t i, ChunkText&) {
                    if (i == 37) throw std::runtime_error("chunk 37");
                },
                [&](const ChunkText&) { return ++consumed > 0; });
        };
        EXPECT_THROW(run(), std::runtime_error);
        EXPECT_LE(consumed, 37u);
    }
}

// A model with every big array several chunks long, its floats random bit patterns.
dmf::Model big_model() {
    std::mt19937 random(7);
    auto real = [&] {
        const std::uint32_t bits = random() & 0xbfffffffu;  // exponent below 128: finite
        float v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    };
    auto byte = [&] { return static_cast<std::uint8_t>(random()); };
    dmf::Model model;
    model.materials.resize(3);
    model.bones.resize(400);
    for (std::size_t i = 0; i < model.bones.size(); ++i)
        model.bones[i].id = static_cast<std::int16_t>(i);
    model.vertices.resize(10000);
    for (dmf::Vertex& v : model.vertices) {
        v.position = {real(), real(), -0.0f};
        v.skin_index = {1, 0, 300, 399};
        v.skin_weight = {real(), 0.25f, 1e-5f, 1e16f};
    }
    model.faces.resize(9000);
    for (std::size_t i = 0; i < model.faces.size(); ++i) {
        dmf::Face& f = model.faces[i];
        f.material = static_cast<std::uint16_t>(i % 3);
        f.indices = {static_cast<std::uint32_t>(i), 9999, 0};
        for (std::size_t c = 0; c < 3; ++c) {
            f.colors[c] = {byte(), byte(), byte(), byte()};
            f.normals[c] = {real(), real(), real()};
            f.uvs[c] = {real(), real()};
        }
    }
    dmf::Animation animation;
    animation.name = "walk";
    animation.tracks.resize(5000);
    for (std::size_t i = 0; i < animation.tracks.size(); ++i) {
        dmf::Track& t = animation.tracks[i];
        t.bone = static_cast<std::int16_t>(i % 64);
        t.flags = static_cast<std::int16_t>(1 + i % 7);  // each of pos, rot, scl or several
        t.time = real();
        t.position = {real(), real(), real()};
        t.rotation = {real(), real(), real(), real()};
        t.scale = {real(), real(), real()};
    }
    model.animations.push_back(animation);
    return model;
}

std::string written(const dmf::Model& model, Threads threads) {
    BufferSink sink;
    auto ok = dmf::write_json(model, sink, threads);
    EXPECT_TRUE(ok);
    return std::string(reinterpret_cast<const char*>(sink.bytes.data()), sink.bytes.size());
}

TEST(DmfJsonChunks, OneThreadAndTwoWriteTheSameBytes) {
    const dmf::Model model = big_model();
    const std::string one = written(model, Threads::one);
    EXPECT_EQ(written(model, Threads::automatic), one);
    Diagnostics warnings;
    auto back = dmf::read_json(one, "big.dmf.json", warnings);
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(back->faces, model.faces);
    EXPECT_EQ(back->animations[0].tracks.size(), model.animations[0].tracks.size());
}

// A sink whose writes fail from the `from`th on, each with its own message.
class FailingSink final : public Sink {
  public:
    explicit FailingSink(int from) : from_(from) {}
    Expected<void> write(std::span<const std::byte>) override {
        if (++writes_ < from_) return {};
        Diagnostic d;
        d.message = fmt::format("write {} failed", writes_);
        return make_error(std::move(d));
    }

  private:
    int from_, writes_ = 0;
};

TEST(DmfJsonChunks, TheFirstSinkErrorIsReportedOnEitherPath) {
    const dmf::Model model = big_model();
    for (Threads threads : {Threads::one, Threads::automatic}) {
        for (int from : {1, 2, 5}) {
            FailingSink sink(from);
            auto ok = dmf::write_json(model, sink, threads);
            ASSERT_FALSE(ok);
            EXPECT_EQ(ok.error().message, fmt::format("write {} failed", from));
        }
    }
}

}  // namespace
}  // namespace castkit::test::dmf_json_chunks_test
