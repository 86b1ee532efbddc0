// K3D: a hand-assembled golden file (the docs/k3d.md layout), round trips through Cast, and
// malformed input.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/k3d.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "../test_support.hpp"
#include "cli_command.hpp"
#include "k3d_golden.hpp"
#include "mutations.hpp"

namespace castkit::test::k3d_test {
namespace {

k3d::Model read_golden() {
    Diagnostics warnings;
    auto model = k3d::read(golden_k3d(), "golden.k3d", warnings);
    EXPECT_TRUE(model) << (model ? "" : model.error().to_string());
    EXPECT_TRUE(warnings.empty());
    return model ? *model : k3d::Model{};
}

TEST(K3d, ReadsTheHandAssembledHeader) {
    k3d::Model model = read_golden();
    EXPECT_EQ(model.exporter_type, 1u);
    EXPECT_EQ(model.exporter_version, 1);
    EXPECT_EQ(model.extents.max, glm::vec3(1, 1, 0));
    EXPECT_EQ(model.center, glm::vec3(0.5f, 0.5f, 0));
    EXPECT_EQ(model.inverse_global_transform, glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0)));
}

TEST(K3d, ReadsSkinnedVerticesAndIndices) {
    k3d::Model model = read_golden();
    ASSERT_EQ(model.submeshes.size(), 1u);
    const k3d::Submesh& mesh = model.submeshes[0];
    EXPECT_EQ(model.string(mesh.name_id), "tri");
    EXPECT_EQ(model.string(mesh.material_name_id), "mat");
    EXPECT_EQ(mesh.type, k3d::MeshType::Skinned);
    ASSERT_EQ(mesh.vertices.size(), 3u);
    EXPECT_EQ(mesh.vertices[1].position, glm::vec3(1, 0, 0));
    EXPECT_EQ(mesh.vertices[1].texcoord, glm::vec2(1, 0));
    EXPECT_EQ(mesh.vertices[2].colour, glm::vec4(0, 1, 0, 0.5f));
    EXPECT_EQ(mesh.vertices[2].tangent, glm::vec4(1, 0, 0, 1));
    EXPECT_EQ(mesh.vertices[0].weights, glm::vec4(1, 0, 0, 0));
    EXPECT_EQ(mesh.indices, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(K3d, ReadsBonesNodesAndChannelKeysWithTimes) {
    k3d::Model model = read_golden();
    ASSERT_EQ(model.bones.size(), 1u);
    EXPECT_EQ(model.string(model.bones[0].name_id), "child");
    EXPECT_EQ(model.bones[0].offset[3], glm::vec4(0, -1.5f, 0, 1));
    ASSERT_EQ(model.nodes.size(), 2u);
    EXPECT_EQ(model.nodes[0].parent, k3d::kInvalidId);
    EXPECT_EQ(model.nodes[1].parent, 0);
    EXPECT_EQ(model.string(model.nodes[1].name_id), "child");
    ASSERT_EQ(model.animations.size(), 1u);
    const k3d::Animation& walk = model.animations[0];
    EXPECT_EQ(model.string(walk.name_id), "walk");
    EXPECT_EQ(walk.duration, 10.0f);
    EXPECT_EQ(walk.ticks_per_second, 30.0f);
    ASSERT_EQ(walk.channels.size(), 1u);
    const k3d::Channel& channel = walk.channels[0];
    ASSERT_EQ(channel.positions.size(), 2u);
    EXPECT_EQ(channel.positions[1].value, glm::vec3(0, 1, 0));
    EXPECT_EQ(channel.positions[1].time, 10.0f);
    ASSERT_EQ(channel.rotations.size(), 1u);
    EXPECT_EQ(channel.rotations[0].value, glm::vec4(0, 0, 0.6f, 0.8f));
    EXPECT_EQ(channel.rotations[0].time, 5.0f);
    EXPECT_TRUE(channel.scales.empty());
}

TEST(K3d, WriterReproducesTheGoldenBytes) {
    auto bytes = k3d::write_to_buffer(read_golden());
    ASSERT_TRUE(bytes);
    EXPECT_EQ(*bytes, golden_k3d());
}

// Compares two models by meaning: names resolved through each one's string table, matrices
// within float rounding of decomposition.
void expect_same_model(const k3d::Model& a, const k3d::Model& b) {
    auto near = [](const glm::mat4& x, const glm::mat4& y) {
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                if (std::abs(x[c][r] - y[c][r]) > 1e-6f) return false;
        return true;
    };
    EXPECT_EQ(a.extents, b.extents);
    EXPECT_EQ(a.center, b.center);
    EXPECT_TRUE(near(a.inverse_global_transform, b.inverse_global_transform));
    ASSERT_EQ(a.submeshes.size(), b.submeshes.size());
    for (std::size_t i = 0; i < a.submeshes.size(); ++i) {
        const k3d::Submesh &x = a.submeshes[i], &y = b.submeshes[i];
        EXPECT_EQ(a.string(x.name_id), b.string(y.name_id));
        EXPECT_EQ(a.string(x.material_name_id), b.string(y.material_name_id));
        EXPECT_EQ(x.type, y.type);
        EXPECT_EQ(x.center, y.center);
        EXPECT_EQ(x.extents, y.extents);
        EXPECT_EQ(x.vertices, y.vertices);
        EXPECT_EQ(x.indices, y.indices);
    }
    ASSERT_EQ(a.bones.size(), b.bones.size());
    for (std::size_t i = 0; i < a.bones.size(); ++i) {
        EXPECT_EQ(a.string(a.bones[i].name_id), b.string(b.bones[i].name_id));
        EXPECT_TRUE(near(a.bones[i].offset, b.bones[i].offset)) << "bone " << i;
    }
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        EXPECT_EQ(a.string(a.nodes[i].name_id), b.string(b.nodes[i].name_id));
        EXPECT_EQ(a.nodes[i].parent, b.nodes[i].parent);
        EXPECT_TRUE(near(a.nodes[i].local, b.nodes[i].local)) << "node " << i;
    }
    ASSERT_EQ(a.animations.size(), b.animations.size());
    for (std::size_t i = 0; i < a.animations.size(); ++i) {
        const k3d::Animation &x = a.animations[i], &y = b.animations[i];
        EXPECT_EQ(a.string(x.name_id), b.string(y.name_id));
        EXPECT_EQ(x.duration, y.duration);
        EXPECT_EQ(x.ticks_per_second, y.ticks_per_second);
        ASSERT_EQ(x.channels.size(), y.channels.size());
        for (std::size_t c = 0; c < x.channels.size(); ++c) {
            EXPECT_EQ(a.string(x.channels[c].name_id), b.string(y.channels[c].name_id));
            EXPECT_EQ(x.channels[c].positions, y.channels[c].positions);
            EXPECT_EQ(x.channels[c].rotations, y.channels[c].rotations);
            EXPECT_EQ(x.channels[c].scales, y.channels[c].scales);
        }
    }
}

k3d::Model through_cast(const k3d::Model& model, Diagnostics& warnings) {
    auto document = k3d::to_cast(model, "in.k3d", warnings);
    EXPECT_TRUE(document) << (document ? "" : document.error().to_string());
    if (!document) return {};
    auto bytes = cast::write_to_buffer(*document);  // through real Cast bytes
    EXPECT_TRUE(bytes);
    auto reread = read_cast(std::move(*bytes));
    EXPECT_TRUE(reread);
    auto back = k3d::from_cast(*reread, warnings);
    EXPECT_TRUE(back) << (back ? "" : back.error().to_string());
    return back ? *back : k3d::Model{};
}

TEST(K3d, RoundTripThroughCastKeepsEveryValue) {
    k3d::Model golden = read_golden();
    Diagnostics warnings;
    k3d::Model back = through_cast(golden, warnings);
    for (const auto& w : warnings) ADD_FAILURE() << w.to_string();
    expect_same_model(back, golden);
}

TEST(K3d, RotatedNodesComeBackWithinFloatRounding) {
    k3d::Model model = read_golden();
    glm::mat4 rotated = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(0, 0.5f, 0)),
                                    glm::radians(90.0f), glm::vec3(0, 0, 1));
    model.nodes[1].local = rotated;
    model.bones[0].offset = glm::inverse(model.nodes[0].local * rotated);
    Diagnostics warnings;
    k3d::Model back = through_cast(model, warnings);
    EXPECT_TRUE(warnings.empty());
    expect_same_model(back, model);
}

TEST(K3d, ToCastFlipsVAndMapsSkinWeightsToSkeletonBones) {
    Diagnostics warnings;
    auto document = k3d::to_cast(read_golden(), "in.k3d", warnings);
    ASSERT_TRUE(document);
    cast::Model model = document->models().at(0);
    cast::Mesh mesh = model.meshes().at(0);
    EXPECT_EQ(mesh.uv_layer(0)[2], glm::vec2(0, 0));  // K3D (0,1) bottom-left → Cast (0,0)
    EXPECT_EQ(mesh.uv_layer(0)[0], glm::vec2(0, 1));
    EXPECT_EQ(mesh.weight_bones()[0], 1u);  // K3D bone 0 is node 1 "child"
    std::vector<cast::Bone> bones = model.skeleton().bones();
    ASSERT_EQ(bones.size(), 2u);
    EXPECT_EQ(bones[1].world_position(), glm::vec3(0, 1.5f, 0));
    EXPECT_FALSE(bones[1].node().find("k3d.noBind"));
    // Node 0 has no K3D bone: its world is its rest pose, marked as no bind pose.
    EXPECT_EQ(bones[0].world_position(), bones[0].local_position());
    ASSERT_TRUE(bones[0].node().find("k3d.noBind"));
    EXPECT_EQ(bones[1].parent_index(), 0);
    cast::Curve rq = document->animations().at(0).curves().at(3);
    EXPECT_EQ(rq.key_property(), "rq");
    EXPECT_EQ(rq.key_frames()[0], 5u);
    EXPECT_EQ(document->animations().at(0).framerate(), 30.0f);
}

TEST(K3d, KeysBetweenTicksAreResampledWithAWarning) {
    k3d::Model model = read_golden();
    model.animations[0].channels[0].positions = {{glm::vec3(0), 0.0f}, {glm::vec3(0, 3, 0), 1.5f}};
    Diagnostics warnings;
    auto document = k3d::to_cast(model, "in.k3d", warnings);
    ASSERT_TRUE(document);
    ASSERT_FALSE(warnings.empty());
    EXPECT_NE(warnings[0].message.find("resampled"), std::string::npos) << warnings[0].message;
    cast::Curve ty = document->animations().at(0).curves().at(1);
    EXPECT_EQ(ty.key_property(), "ty");
    ASSERT_EQ(ty.key_frames().size(), 3u);  // frames 0, 1, 2
    EXPECT_FLOAT_EQ(ty.float_values()[1], 2.0f);
    EXPECT_FLOAT_EQ(ty.float_values()[2], 3.0f);  // the last key holds
}

TEST(K3d, CastToK3dToCastKeepsWhatK3dHolds) {
    Diagnostics warnings;
    auto first = k3d::to_cast(read_golden(), "in.k3d", warnings);
    ASSERT_TRUE(first);
    auto model = k3d::from_cast(*first, warnings);
    ASSERT_TRUE(model);
    auto second = k3d::to_cast(*model, "out.k3d", warnings);
    ASSERT_TRUE(second);
    auto a = cast::write_to_buffer(*first), b = cast::write_to_buffer(*second);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->size(), b->size());
    EXPECT_EQ(*a, *b);
}

TEST(K3d, EveryTruncationIsAnError) {
    for_each_truncation(golden_k3d(), [](std::span<const std::byte> cut, const std::string& what) {
        Diagnostics warnings;
        auto model = k3d::read(cut, "cut.k3d", warnings);
        EXPECT_FALSE(model) << what;
    });
}

TEST(K3d, BitFlipsNeverCrash) {
    std::size_t failures = 0;
    for_each_bit_flip(golden_k3d(), [&](std::span<const std::byte> flipped, const std::string&) {
        Diagnostics warnings;
        auto model = k3d::read(flipped, "flip.k3d", warnings);
        if (!model) {
            ++failures;
            EXPECT_FALSE(model.error().message.empty());
            return;
        }
        auto document = k3d::to_cast(*model, "flip.k3d", warnings);  // must not crash either
        (void)document;
    });
    EXPECT_GT(failures, 0u);
}

TEST(K3d, ErrorsNameTheSectionAndOffset) {
    std::vector<std::byte> bytes = golden_k3d();
    bytes[0x84] = std::byte{9};  // the submesh guard
    Diagnostics warnings;
    auto model = k3d::read(bytes, "bad.k3d", warnings);
    ASSERT_FALSE(model);
    EXPECT_EQ(model.error().offset, 0x84u);
    EXPECT_EQ(model.error().path, "submeshes");
    EXPECT_EQ(model.error().to_string().rfind("bad.k3d", 0), 0u) << model.error().to_string();
}

TEST(K3d, AChannelOffsetPastTheBufferIsAnError) {
    std::vector<std::byte> bytes = golden_k3d();
    HandBytes huge;
    huge.u32(1000);
    // The channel section starts at 713; the rotation offset follows guard, ids, position
    // count and offset, and rotation count.
    std::memcpy(bytes.data() + 713 + 4 + 4 + 8 + 4, huge.bytes.data(), 4);
    Diagnostics warnings;
    auto model = k3d::read(bytes, "bad.k3d", warnings);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("channel buffer"), std::string::npos)
        << model.error().message;
}

TEST(K3d, CliConvertsToCastAndBack) {
    auto dir = temp_dir("k3d-cli");
    write_bytes(dir / "in.k3d", golden_k3d());
    auto to_cast = run_cli(in_dir(dir, "convert {in.k3d} {mid.cast}"));
    ASSERT_EQ(to_cast.exit_code, 0) << to_cast.err;
    auto back = run_cli(in_dir(dir, "convert {mid.cast} {out.k3d}"));
    ASSERT_EQ(back.exit_code, 0) << back.err;
    Diagnostics warnings;
    auto model = k3d::read(read_bytes(dir / "out.k3d"), "out.k3d", warnings);
    ASSERT_TRUE(model);
    expect_same_model(*model, read_golden());
    auto info = run_cli(in_dir(dir, "info {in.k3d}"));
    EXPECT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find("mesh"), std::string::npos) << info.out;
    auto dump = run_cli(in_dir(dir, "dump {in.k3d}"));
    EXPECT_EQ(dump.exit_code, 0) << dump.err;
    EXPECT_NE(dump.out.find("walk"), std::string::npos);
}

}  // namespace
}  // namespace castkit::test::k3d_test
