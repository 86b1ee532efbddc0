// Bad input for the SEAnim and SEModel readers, held to the Cast reader's bar: every truncation
// and every single-bit flip of real files either reads (and then converts to Cast and back to a
// writable file) or fails with an error naming the file and an offset inside it; counts that
// the data cannot hold fail before anything is allocated.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/formats/seanim.hpp>
#include <castkit/formats/semodel.hpp>

#include "hand_bytes.hpp"
#include "mutations.hpp"

namespace castkit::test::se_malformed_test {
namespace {

// A small animation touching every block, so mutations hit every parsing path quickly.
std::vector<std::byte> sample_seanim() {
    seanim::Animation a;
    a.header.type = 2;
    a.header.properties = seanim::kPrecisionHigh;
    for (int b = 0; b < 3; ++b) {
        seanim::Bone& bone = a.bones.emplace_back();
        bone.name = fmt::format("b{}", b);
        bone.locations = {{0, {1, 2, 3}}, {4, {4, 5, 6}}};
        bone.rotations = {{2, {0, 0, 0, 1}}};
        bone.scales = {{3, {1, 1, 1}}};
    }
    a.modifiers = {{1, 0}, {2, 3}};
    a.notes = {{1, "x"}, {3, "y"}};
    a.custom = std::vector<std::byte>(5, std::byte{7});
    a.blend_shapes = {{"s", {{0, {0.5f, 0, 0}}}}};
    seanim::canonicalize(a);
    return *seanim::write_to_buffer(a);
}

std::vector<std::byte> sample_semodel() {
    semodel::Model m;
    m.header.bone_presence = semodel::kGlobalMatrices | semodel::kLocalMatrices | semodel::kScales;
    m.header.mesh_presence =
        semodel::kUVs | semodel::kNormals | semodel::kColors | semodel::kWeights;
    m.bones = {{"root", 0, -1, {}, {0, 0, 0, 1}, {}, {0, 0, 0, 1}, {1, 1, 1}},
               {"child", 0, 0, {}, {0, 0, 0, 1}, {}, {0, 0, 0, 1}, {1, 1, 1}}};
    semodel::Mesh& mesh = m.meshes.emplace_back();
    mesh.uv_layer_count = 1;
    mesh.max_influence = 2;
    for (int v = 0; v < 4; ++v) {
        mesh.positions.push_back({float(v), 0, 0});
        mesh.uvs.push_back({0, float(v)});
        mesh.normals.push_back({0, 0, 1});
        mesh.colors.push_back({1, 2, 3, 4});
        mesh.weights.push_back({0, 0.5f});
        mesh.weights.push_back({1, 0.5f});
    }
    mesh.faces = {0, 1, 2, 2, 1, 3};
    mesh.material_indices = {0};
    m.materials = {{"mat", 1, "c.png", "n.png", ""}};
    semodel::canonicalize(m);
    return *semodel::write_to_buffer(m);
}

// Reads `bytes`; on success converts to Cast and back and writes, which must work unless a flip
// made a float NaN or infinite, which the conversion back refuses (output.non-finite).
template <class Format>
void read_or_fail_cleanly(std::span<const std::byte> bytes, const std::string& what) {
    Diagnostics warnings;
    auto native = Format::parse(bytes, "bad.file", warnings);
    if (!native) {
        const Diagnostic& e = native.error();
        EXPECT_EQ(e.file, "bad.file") << what;
        EXPECT_NE(e.offset, Diagnostic::kNoOffset) << what << ": " << e.to_string();
        EXPECT_LE(e.offset, bytes.size()) << what << ": " << e.to_string();
        EXPECT_FALSE(e.message.empty()) << what;
        return;
    }
    cast::Document document = Format::to_cast(*native, warnings).value();
    auto back = Format::from_cast(document, warnings);
    if (!back) {
        EXPECT_EQ(back.error().rule, "output.non-finite")
            << what << ": " << back.error().to_string();
        return;
    }
    auto written = Format::write_to_buffer(*back);
    EXPECT_TRUE(written) << what << ": " << written.error().to_string();
}

struct SEAnimFormat {
    static auto parse(std::span<const std::byte> b, std::string_view n, Diagnostics& w) {
        return seanim::read(b, n, w);
    }
    static auto to_cast(const seanim::Animation& a, Diagnostics& w) {
        return seanim::to_cast(a, w);
    }
    static auto from_cast(const cast::Document& d, Diagnostics& w) {
        return seanim::from_cast(d, w);
    }
    static auto write_to_buffer(const seanim::Animation& a) { return seanim::write_to_buffer(a); }
};
struct SEModelFormat {
    static auto parse(std::span<const std::byte> b, std::string_view n, Diagnostics& w) {
        return semodel::read(b, n, w);
    }
    static auto to_cast(const semodel::Model& m, Diagnostics& w) { return semodel::to_cast(m, w); }
    static auto from_cast(const cast::Document& d, Diagnostics& w) {
        return semodel::from_cast(d, w);
    }
    static auto write_to_buffer(const semodel::Model& m) { return semodel::write_to_buffer(m); }
};

template <class Format>
void truncations_and_bit_flips(const std::vector<std::byte>& original) {
    for_each_truncation(original, read_or_fail_cleanly<Format>);
    for_each_bit_flip(original, read_or_fail_cleanly<Format>);
}

TEST(SEAnimMalformed, EveryTruncationAndBitFlipFailsCleanlyOrConverts) {
    truncations_and_bit_flips<SEAnimFormat>(sample_seanim());
}

TEST(SEModelMalformed, EveryTruncationAndBitFlipFailsCleanlyOrConverts) {
    truncations_and_bit_flips<SEModelFormat>(sample_semodel());
}

TEST(SEAnimMalformed, HugeCountsFailBeforeAllocating) {
    HandBytes b;
    b.text("SEAnim")
        .u16(1)
        .u16(0x1C)
        .u8(0)
        .u8(0)
        .u8(seanim::kBoneLocation | seanim::kNotes)
        .u8(0)
        .u16(0);
    b.f32(30).u32(10).u32(0xFFFFFFFF).u8(0).hex({0, 0, 0}).u32(0xFFFFFFFF);
    Diagnostics warnings;
    auto a = seanim::read(b.bytes, "huge.seanim", warnings);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().offset, 0x18u);  // the boneCount field
    EXPECT_NE(a.error().message.find("4294967295 bones"), std::string::npos);
}

TEST(SEAnimMalformed, KeyCountBeyondTheDataFails) {
    HandBytes b;
    b.text("SEAnim").u16(1).u16(0x1C).u8(0).u8(0).u8(seanim::kBoneRotation).u8(0).u16(0);
    b.f32(30).u32(70000).u32(1).u8(0).hex({0, 0, 0}).u32(0);
    b.cstr("j").u8(0).u32(0xFFFFFF).u32(0).floats({0, 0, 0, 1});
    Diagnostics warnings;
    auto a = seanim::read(b.bytes, "keys.seanim", warnings);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().offset, 0x24u + 3);  // the rotation key count
}

TEST(SEAnimMalformed, ShortHeaderAndBadMagicAreErrors) {
    HandBytes b;
    b.text("SEAnim").u16(1).u16(0x10);
    Diagnostics warnings;
    auto a = seanim::read(b.bytes, "short.seanim", warnings);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().rule, "seanim.header-size");
    auto m = seanim::read(sample_semodel(), "model.semodel", warnings);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().offset, 0u);
    EXPECT_EQ(m.error().rule, "seanim.bad-magic");
}

TEST(SEModelMalformed, HugeVertexCountFailsBeforeAllocating) {
    HandBytes b;
    b.text("SEModel")
        .u16(1)
        .u16(20)
        .u8(semodel::kMeshes)
        .u8(0)
        .u8(0)
        .u32(0)
        .u32(1)
        .u32(0)
        .hex({0, 0, 0});
    b.u8(0).u8(0).u8(0).u32(0xFFFFFFFF).u32(1);
    Diagnostics warnings;
    auto m = semodel::read(b.bytes, "huge.semodel", warnings);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().offset, 0x1Du + 3);  // the vertexCount field of mesh 0
}

}  // namespace
}  // namespace castkit::test::se_malformed_test
