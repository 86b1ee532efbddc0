// Hard to misuse: enumerated properties are set from enums and read back as enums (unknown
// stored text is kept and reported), builders refuse values the format cannot hold, and const
// documents hand out views that cannot write.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <type_traits>
#include <utility>

namespace castkit::test::typed_values_test {
namespace {

using namespace castkit::cast;

template <class View>
concept CanSetName = requires(View view) {
    view.set_name("x");
};
template <class View>
concept CanAddMesh = requires(View view) {
    view.add_mesh();
};

// A const document gives const views, which have no setters; a mutable view converts to one.
static_assert(
    std::is_same_v<decltype(std::declval<const Document&>().models()), std::vector<ConstModel>>);
static_assert(std::is_same_v<decltype(std::declval<const Document&>().animations()),
                             std::vector<ConstAnimation>>);
static_assert(
    std::is_same_v<decltype(std::declval<ConstModel>().meshes()), std::vector<ConstMesh>>);
static_assert(!CanSetName<ConstMesh> && CanSetName<Mesh>);
static_assert(!CanAddMesh<ConstModel> && CanAddMesh<Model>);
static_assert(std::is_convertible_v<Mesh, ConstMesh> && !std::is_convertible_v<ConstMesh, Mesh>);

Document one_mesh(Mesh& mesh) {
    Document document;
    mesh = document.add_root().add_model().add_mesh();
    const std::vector<glm::vec3> positions(2, glm::vec3(0.0f));
    mesh.set_positions(positions);
    return document;
}

Document reread(const Document& document) {
    auto bytes = write_to_buffer(document);
    EXPECT_TRUE(bytes);
    Diagnostics warnings;
    auto read_back = read(std::move(*bytes), "reread.cast", warnings);
    EXPECT_TRUE(read_back);
    EXPECT_TRUE(warnings.empty());
    return std::move(*read_back);
}

// Issue 12: `set_weights` stored the influence count in a byte, so 300 became 44.
TEST(Builders, SetWeightsRefusesInfluenceCountsAByteCannotHold) {
    Mesh mesh;
    Document document = one_mesh(mesh);
    const std::vector<std::uint32_t> bones(600, 0);
    const std::vector<float> values(600, 0.5f);
    auto refused = mesh.set_weights(300, bones, values);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().rule, "cast.weight-influences");
    EXPECT_EQ(mesh.node().find("mi"), nullptr);  // nothing written
    EXPECT_EQ(mesh.node().find("wb"), nullptr);
    EXPECT_EQ(mesh.max_weight_influence(), 0u);
}

TEST(Builders, SetWeightsStoresTheLargestByteValue) {
    Mesh mesh;
    Document document = one_mesh(mesh);
    const std::vector<std::uint32_t> bones(510, 1);
    const std::vector<float> values(510, 1.0f / 255.0f);
    ASSERT_TRUE(mesh.set_weights(255, bones, values));
    const Document back = reread(document);
    EXPECT_EQ(back.models().at(0).meshes().at(0).max_weight_influence(), 255u);
}

TEST(Builders, SetWeightsRefusesZeroInfluencesAndMismatchedSpans) {
    Mesh mesh;
    Document document = one_mesh(mesh);
    const std::vector<std::uint32_t> bones(4, 0);
    const std::vector<float> values(3, 1.0f);
    auto zero = mesh.set_weights(0, bones, bones.empty() ? values : std::span<const float>());
    ASSERT_FALSE(zero);
    EXPECT_EQ(zero.error().rule, "cast.weight-influences");
    auto mismatched = mesh.set_weights(2, bones, values);
    ASSERT_FALSE(mismatched);
    EXPECT_EQ(mismatched.error().rule, "cast.weight-count");
    EXPECT_EQ(mesh.node().find("mi"), nullptr);
}

TEST(Enums, SettersStoreTheSpecText) {
    Document document;
    Root root = document.add_root();
    Metadata metadata = root.add_metadata();
    metadata.set_up_axis(Axis::Z);
    Model model = root.add_model();
    Mesh mesh = model.add_mesh();
    mesh.set_skinning_method(SkinningMethod::Quaternion);
    Color color = model.add_material().add_color();
    color.set_color_space(ColorSpace::Linear);
    Animation animation = root.add_animation();
    Curve curve = animation.add_curve();
    curve.set_mode(CurveMode::Additive);
    CurveModeOverride override_node = animation.add_curve_mode_override();
    override_node.set_mode(CurveMode::Relative);

    const Document back = reread(document);
    ConstRoot read_root = back.root_nodes().at(0);
    EXPECT_EQ(read_root.metadata().at(0).up_axis_name(), "z");
    EXPECT_EQ(**read_root.metadata().at(0).up_axis(), Axis::Z);
    ConstModel read_model = read_root.models().at(0);
    EXPECT_EQ(read_model.meshes().at(0).skinning_method_name(), "quaternion");
    EXPECT_EQ(*read_model.meshes().at(0).skinning_method(), SkinningMethod::Quaternion);
    EXPECT_EQ(*read_model.materials().at(0).colors().at(0).color_space(), ColorSpace::Linear);
    ConstAnimation read_animation = read_root.animations().at(0);
    EXPECT_EQ(read_animation.curves().at(0).mode_name(), "additive");
    EXPECT_EQ(*read_animation.curves().at(0).mode(), CurveMode::Additive);
    EXPECT_EQ(**read_animation.curve_mode_overrides().at(0).mode(), CurveMode::Relative);
}

TEST(Enums, MissingValuesReadAsTheSpecDefaults) {
    Document document;
    Root root = document.add_root();
    Model model = root.add_model();
    Mesh mesh = model.add_mesh();
    Color color = model.add_material().add_color();
    Curve curve = root.add_animation().add_curve();
    curve.node().remove("m");  // the builder gives m (builder_defaults_test.cpp); a file may not
    Metadata metadata = root.add_metadata();
    EXPECT_EQ(*mesh.skinning_method(), SkinningMethod::Linear);
    EXPECT_EQ(*color.color_space(), ColorSpace::Srgb);
    EXPECT_EQ(*curve.mode(), CurveMode::Absolute);  // rule 22
    EXPECT_FALSE(curve.mode_name());
    EXPECT_FALSE(metadata.up_axis());
}

// Unknown text read from a file is kept (the generic node and a rewrite hold it unchanged); the
// typed getter says clearly that it names no known value.
TEST(Enums, UnknownStoredTextIsKeptAndReportedByTheTypedGetter) {
    Document document;
    Root root = document.add_root();
    Metadata metadata = root.add_metadata();
    metadata.set_string("up", "Y");
    Model model = root.add_model();
    Mesh mesh = model.add_mesh();
    mesh.set_string("sm", "dual");
    Color color = model.add_material().add_color();
    color.set_string("cs", "rec709");
    Animation animation = root.add_animation();
    animation.add_curve().set_string("m", "absolut");
    animation.add_curve_mode_override().set_string("m", "overwrite");

    const Document back = reread(document);
    ConstRoot read_root = back.root_nodes().at(0);
    auto up = read_root.metadata().at(0).up_axis();
    ASSERT_TRUE(up && !*up);
    EXPECT_EQ(up->error().rule, "cast.unknown-enum-value");
    EXPECT_NE(up->error().message.find("'Y'"), std::string::npos);
    ConstMesh read_mesh = read_root.models().at(0).meshes().at(0);
    EXPECT_EQ(read_mesh.skinning_method_name(), "dual");
    ASSERT_FALSE(read_mesh.skinning_method());
    EXPECT_NE(read_mesh.skinning_method().error().message.find("'dual'"), std::string::npos);
    EXPECT_FALSE(read_root.models().at(0).materials().at(0).colors().at(0).color_space());
    ConstAnimation read_animation = read_root.animations().at(0);
    EXPECT_EQ(read_animation.curves().at(0).mode_name(), "absolut");
    EXPECT_FALSE(read_animation.curves().at(0).mode());
    auto override_mode = read_animation.curve_mode_overrides().at(0).mode();
    ASSERT_TRUE(override_mode);
    EXPECT_FALSE(*override_mode);

    auto again = write_to_buffer(back);
    auto first = write_to_buffer(document);
    ASSERT_TRUE(again && first);
    EXPECT_EQ(*again, *first);
}

// Issue 12: the read-only entry points took `Document&`; they now read a const document.
TEST(ConstDocument, ReadOnlyFunctionsAcceptAConstDocument) {
    Mesh mesh;
    Document built = one_mesh(mesh);
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 5});  // vertex 5 does not exist
    const Document& document = built;
    EXPECT_NE(info_text(document, 0).find("1 model,"), std::string::npos);
    EXPECT_FALSE(dump_text(document).empty());
    std::string json;
    dump_json(document, json);
    EXPECT_FALSE(json.empty());
    Diagnostics findings;
    validate(document, findings);
    EXPECT_FALSE(findings.empty());
}

}  // namespace
}  // namespace castkit::test::typed_values_test
