// Mesh, BlendShape and Hair rules, one test per rule.
#include <gtest/gtest.h>

#include "scene.hpp"

namespace castkit::test::mesh_test {
namespace {

using namespace castkit::cast;

std::vector<std::uint32_t> indices(std::initializer_list<std::uint32_t> values) { return values; }

TEST(ValidateMesh, PerVertexBufferHasTheVertexCount) {
    Scene scene;
    const std::vector<glm::vec3> three(3, glm::vec3(0, 0, 1));
    scene.mesh.set_tangents(three);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.vertex-count"));
    EXPECT_EQ(findings[0].message, "'vt' has 3 elements but 'vp' has 4 vertices");
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/mesh[0]");
}

TEST(ValidateMesh, UVAndColourLayersAreCheckedToo) {
    Scene scene;
    const std::vector<glm::vec2> five(5);
    EXPECT_TRUE(scene.mesh.set_uv_layer(0, five));
    const std::vector<std::uint32_t> two{1, 2};
    EXPECT_TRUE(scene.mesh.set_color_layer_packed(0, two));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.vertex-count"));
    EXPECT_EQ(findings.size(), 2u);
}

TEST(ValidateMesh, LayerCountMatchesLayersPresent) {
    {
        Scene scene;  // ul says 2, only u0 exists
        scene.mesh.node().set(make_integer("ul", PropertyType::Byte, 2).value());
        auto findings = check(scene.document);
        ASSERT_TRUE(only(findings, "mesh.layer-count"));
        EXPECT_EQ(findings[0].message, "'ul' is 2 but 'u1' is missing");
    }
    {
        Scene scene;  // c1 present beyond cl = 1
        const std::vector<std::uint32_t> colors(4, 0xFFFFFFFFu);
        scene.mesh.node().set(make_integers("c1", PropertyType::Integer32, colors).value());
        EXPECT_TRUE(only(check(scene.document), "mesh.layer-count"));
    }
    {
        Scene scene;  // u0 without ul
        scene.mesh.node().remove("ul");
        EXPECT_TRUE(only(check(scene.document), "mesh.layer-count"));
    }
}

TEST(ValidateMesh, WeightsHoldVertexCountTimesInfluences) {
    Scene scene;
    const std::vector<float> seven{0.5f, 0.5f, 0.25f, 0.75f, 1.0f, 0.0f, 1.0f};
    scene.mesh.node().set(make_array<float>("wv", seven));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.weights"));
    EXPECT_EQ(findings[0].message, "'wv' has 7 entries; 4 vertices × mi 2 needs 8");
}

TEST(ValidateMesh, WeightsNeedMaximumInfluence) {
    Scene scene;
    scene.mesh.node().remove("mi");
    EXPECT_TRUE(only(check(scene.document), "mesh.weights"));
}

TEST(ValidateMesh, WeightBoneExistsInTheSkeleton) {
    Scene scene;
    scene.mesh.node().set(make_indices("wb", indices({0, 1, 1, 2, 2, 0, 0, 3})));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.weight-bone"));
    EXPECT_NE(findings[0].message.find("element 7 = 3"), std::string::npos) << findings[0].message;
}

TEST(ValidateMesh, WeightedMeshNeedsASkeleton) {
    Scene scene;
    scene.model.node().take_children_if([](const cast::Node& c) { return c.is(NodeId::Skeleton); });
    // The curves would name bones that are gone (animation.unbound-curve): not this test's point.
    scene.animation.node().take_children_if(
        [](const cast::Node& c) { return c.is(NodeId::Curve) || c.is(NodeId::CurveModeOverride); });
    EXPECT_TRUE(only(check(scene.document), "mesh.weight-bone"));
}

TEST(ValidateMesh, WeightSumFarFromOneIsAWarning) {
    Scene scene;
    const std::vector<float> values{0.5f, 0.5f, 0.3f, 0.3f, 1.0f, 0.0f, 0.9f, 0.2f};
    scene.mesh.node().set(make_array<float>("wv", values));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.weight-sum"));
    EXPECT_EQ(findings[0].message,
              "2 of 4 vertices have weights summing far from 1 (first: vertex 1 sums to 0.6)");
}

TEST(ValidateMesh, FaceBufferLengthIsAMultipleOfThree) {
    Scene scene;
    scene.mesh.set_faces(indices({0, 1, 2, 3}));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.face-length"));
}

TEST(ValidateMesh, FaceIndexBelowVertexCountWithElementOffset) {
    Scene scene;
    scene.mesh.set_faces(indices({0, 1, 2, 0, 2, 4}));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.face-index"));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].message,
              "'f' holds 1 index not below the vertex count 4 (first: element 5 = 4)");
    auto bytes = write_to_buffer(scene.document);
    ASSERT_TRUE(bytes.has_value());
    // The faces are stored as bytes (rule 11), so the offset points at the byte 4, after 0 and 2.
    EXPECT_EQ(std::to_integer<int>((*bytes)[findings[0].offset]), 4);
    EXPECT_EQ(std::to_integer<int>((*bytes)[findings[0].offset - 1]), 2);
}

TEST(ValidateMesh, FaceIndicesInEveryStoredWidth) {
    for (PropertyType type : {PropertyType::Byte, PropertyType::Short, PropertyType::Integer32}) {
        Scene scene;
        scene.mesh.node().set(make_integers("f", type, indices({0, 1, 2, 0, 2, 200})).value());
        auto findings = check(scene.document);
        ASSERT_TRUE(only(findings, "mesh.face-index")) << type_name(type);
    }
}

TEST(ValidateMesh, DegenerateFacesAreCountedAsAWarning) {
    Scene scene;
    scene.mesh.set_faces(indices({0, 1, 2, 0, 2, 2, 3, 3, 3}));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "mesh.degenerate-face"));
    EXPECT_EQ(findings[0].message,
              "2 of 3 faces are degenerate (two equal indices; first: face 1)");
}

TEST(ValidateMesh, MaterialResolvesToAMaterialOfTheModel) {
    {
        Scene scene;
        scene.mesh.node().set(make_value<std::uint64_t>("m", kNoSuchHash));
        auto findings = check(scene.document);
        ASSERT_TRUE(only(findings, "mesh.material"));
        EXPECT_EQ(findings[0].message,
                  "'m' = 0xdeadbeef00000001 names no Material among the Model's children");
    }
    {
        Scene scene;
        scene.mesh.node().set(make_value<std::uint64_t>("m", scene.skeleton.hash()));
        auto findings = check(scene.document);
        ASSERT_TRUE(only(findings, "mesh.material"));
        EXPECT_NE(findings[0].message.find("names a Skeleton, not a Material"), std::string::npos);
    }
}

TEST(ValidateBlendShape, BaseResolvesToAMeshOfTheModel) {
    Scene scene;
    scene.blend_shape.node().set(make_value<std::uint64_t>("b", scene.material.hash()));
    EXPECT_TRUE(only(check(scene.document), "blendshape.base"));
}

TEST(ValidateBlendShape, IndicesAndPositionsPairUp) {
    Scene scene;
    const std::vector<glm::vec3> three(3);
    scene.blend_shape.node().set(make_array<glm::vec3>("vp", three));
    EXPECT_TRUE(only(check(scene.document), "blendshape.length"));
}

TEST(ValidateBlendShape, IndicesBelowTheBaseVertexCount) {
    Scene scene;
    scene.blend_shape.node().set(make_indices("vi", indices({1, 9})));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "blendshape.index"));
    EXPECT_NE(findings[0].message.find("element 1 = 9"), std::string::npos);
}

TEST(ValidateHair, ParticlesAreSegmentsPlusOnePerStrand) {
    Scene scene;
    const std::vector<glm::vec3> four(4);
    scene.hair.set_particles(four);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "hair.particles"));
    EXPECT_EQ(findings[0].message, "'pt' has 4 particles; 2 strands of segments + 1 need 5");
}

TEST(ValidateHair, MaterialResolves) {
    Scene scene;
    scene.hair.node().set(make_value<std::uint64_t>("m", kNoSuchHash));
    EXPECT_TRUE(only(check(scene.document), "hair.material"));
}

}  // namespace
}  // namespace castkit::test::mesh_test
