// Cast → glTF → Cast: geometry, weights, skeleton and the evaluated animation (bone world
// matrices and blend weights at every frame) come back within 1e-5.
#include <fmt/format.h>

#include <castkit/formats/gltf.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <map>

#include "gltf_scene.hpp"

namespace castkit::test::round_trip_test {
namespace {

// Per vertex, bone name → weight (normalised, zero weights and repeats merged).
std::vector<std::map<std::string, float>> weights_by_name(const cast::ConstModel& model,
                                                          const cast::ConstMesh& mesh) {
    std::vector<cast::ConstBone> bones = model.skeleton().bones();
    const std::uint32_t influences = mesh.max_weight_influence();
    std::vector<std::map<std::string, float>> out(mesh.vertex_count());
    for (std::size_t v = 0; v < out.size(); ++v) {
        float sum = 0.0f;
        for (std::uint32_t i = 0; i < influences; ++i)
            sum += mesh.weight_values()[v * influences + i];
        for (std::uint32_t i = 0; i < influences; ++i) {
            const float w = mesh.weight_values()[v * influences + i];
            if (w > 0.0f)
                out[v][std::string(*bones[mesh.weight_bones()[v * influences + i]].name())] +=
                    w / sum;
        }
    }
    return out;
}

void expect_matrix(const glm::mat4& actual, const glm::mat4& expected, const std::string& what) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            EXPECT_NEAR(actual[c][r], expected[c][r], 1e-5f)
                << what << " [" << c << "][" << r << "]";
}

glm::mat4 model_matrix(const cast::ConstModel& model) {
    anim::Transform t;
    t.translation = model.position().value_or(glm::vec3(0.0f));
    t.rotation = cast::quat_from_xyzw(model.rotation().value_or(glm::vec4(0, 0, 0, 1)));
    t.scale = model.scale().value_or(glm::vec3(1.0f));
    return anim::to_matrix(t);
}

class GltfRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(GltfRoundTrip, GeometryWeightsSkeletonAndPosesSurvive) {
    AnimScene original;
    build_full_scene(original);
    original.build();
    const std::filesystem::path dir = temp_dir(std::string("gltf-round-trip-") + (GetParam() + 1));
    const std::filesystem::path file = dir / (std::string("hero") + GetParam());
    Diagnostics warnings;
    ASSERT_TRUE(gltf::write(original.document, file,
                            {.binary = std::string(GetParam()) == ".glb",
                             .textures = TextureMode::Reference},
                            warnings)
                    .has_value());
    auto read = gltf::open(file, warnings);
    ASSERT_TRUE(read.has_value()) << read.error().to_string();
    cast::Document& back = *read;

    EXPECT_EQ(*back.root_nodes()[0].metadata()[0].up_axis_name(), "z");
    ASSERT_EQ(back.models().size(), 1u);
    cast::Model model = back.models()[0];
    expect_matrix(model_matrix(model), model_matrix(original.model), "model transform");

    // Geometry.
    cast::Mesh before = original.model.meshes()[0], after = model.meshes()[0];
    ASSERT_EQ(after.vertex_count(), before.vertex_count());
    EXPECT_EQ(after.faces().to_vector(), before.faces().to_vector());
    for (std::size_t v = 0; v < before.vertex_count(); ++v) {
        expect_vec3(after.positions()[v], before.positions()[v]);
        expect_vec3(after.normals()[v], glm::normalize(before.normals()[v]));
        expect_vec3(after.tangents()[v], before.tangents()[v]);
        for (std::uint32_t layer = 0; layer < 2; ++layer)
            EXPECT_EQ(after.uv_layer(layer)[v], before.uv_layer(layer)[v]);
        EXPECT_EQ(after.color_layer(0)[v], before.color_layer(0)[v]);
        EXPECT_EQ(after.color_layer(1)[v], before.color_layer(1)[v]);
    }
    EXPECT_TRUE(after.color_layer_is_packed(0));
    cast::BlendShape smile = model.blend_shapes()[0];
    EXPECT_EQ(*smile.name(), "smile");
    EXPECT_EQ(smile.vertex_indices().to_vector(), (std::vector<std::uint32_t>{1, 4}));
    expect_vec3(smile.vertex_positions()[1], glm::vec3(0, 2, -0.5f));
    EXPECT_EQ(*after.material().slot_file("albedo").path(), "textures/body albedo.png");
    EXPECT_EQ(*after.material().slot_file("gloss").path(), "textures/body_gloss.png");

    // Weights, by bone name.
    auto weights_before = weights_by_name(original.model, before),
         weights_after = weights_by_name(model, after);
    for (std::size_t v = 0; v < weights_before.size(); ++v) {
        ASSERT_EQ(weights_after[v].size(), weights_before[v].size()) << "vertex " << v;
        for (auto& [bone, weight] : weights_before[v])
            EXPECT_NEAR(weights_after[v][bone], weight, 1e-6f) << "vertex " << v << " " << bone;
    }

    // Skeleton and animation: bone world matrices and blend weights at every frame.
    Diagnostics reports;
    auto skeleton = anim::build_skeleton(model.skeleton(), reports);
    ASSERT_TRUE(skeleton.has_value());
    ASSERT_EQ(skeleton->names(), original.compiled_skeleton.names());
    ASSERT_EQ(back.animations().size(), 1u);
    auto animation = anim::build_animation(back.animations()[0], *skeleton,
                                           anim::binding_targets(model), reports);
    ASSERT_TRUE(animation.has_value());
    EXPECT_EQ(animation->notification_tracks()[0].frames, (std::vector<float>{3, 7}));
    for (float frame = 0.0f; frame <= 10.0f; frame += 1.0f) {
        Pose expected = original.sample(frame);
        std::vector<anim::Transform> locals(skeleton->bone_count());
        std::vector<float> weights(animation->blend_shapes().size());
        anim::SamplingJob job{.animation = &*animation,
                              .skeleton = &*skeleton,
                              .frame = frame,
                              .locals = locals,
                              .blend_shape_weights = weights};
        ASSERT_TRUE(job.run().has_value());
        std::vector<glm::mat4> worlds(skeleton->bone_count());
        anim::LocalToWorldJob world_job{.skeleton = &*skeleton, .locals = locals, .worlds = worlds};
        ASSERT_TRUE(world_job.run().has_value());
        const std::vector<glm::mat4> expected_worlds = original.worlds(expected);
        for (std::size_t bone = 0; bone < worlds.size(); ++bone)
            expect_matrix(worlds[bone], expected_worlds[bone],
                          fmt::format("frame {} bone {}", frame, skeleton->names()[bone]));
        ASSERT_EQ(animation->blend_shapes(), original.compiled.blend_shapes());
        for (std::size_t s = 0; s < weights.size(); ++s)
            EXPECT_NEAR(weights[s], expected.weights[s], 1e-5f) << "frame " << frame;
    }
}

INSTANTIATE_TEST_SUITE_P(Containers, GltfRoundTrip, ::testing::Values(".glb", ".gltf"));

TEST(GltfCli, ConvertWritesAndReadsGltf) {
    AnimScene scene;
    build_full_scene(scene);
    const std::filesystem::path dir = temp_dir("gltf-cli");
    ASSERT_TRUE(cast::write(scene.document, dir / "hero.cast").has_value());
    // Double quotes: the one quoting both sh and cmd.exe (Windows, under Wine) understand.
    auto quoted = [](const std::filesystem::path& path) {
        return fmt::format("\"{}\"", path.string());
    };
    CommandResult to_glb =
        run_cli("convert " + quoted(dir / "hero.cast") + " " + quoted(dir / "hero.glb"));
    EXPECT_EQ(to_glb.exit_code, 0) << to_glb.err;
    CommandResult back =
        run_cli("convert " + quoted(dir / "hero.glb") + " " + quoted(dir / "back.cast"));
    EXPECT_EQ(back.exit_code, 0) << back.err;
    CommandResult info = run_cli("info " + quoted(dir / "back.cast"));
    EXPECT_NE(info.out.find("hero"), std::string::npos) << info.out;
    CommandResult inlined = run_cli("convert --inline-instances " + quoted(dir / "hero.cast") +
                                    " " + quoted(dir / "inlined.gltf"));
    EXPECT_EQ(inlined.exit_code, 0) << inlined.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "inlined.bin"));
}

}  // namespace
}  // namespace castkit::test::round_trip_test
