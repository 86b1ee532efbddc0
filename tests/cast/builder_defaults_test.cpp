// The builders give every node they make the properties the spec requires, so a program that
// sets only what it means writes a file `castkit validate` accepts: a Material gets a name and
// the type "pbr", an Animation the framerate 30, a Curve the mode "absolute", and a File is
// made with its path (add_file(path): a File without one does not compile).
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <string>
#include <vector>

namespace castkit::test::builder_defaults_test {
namespace {

using namespace castkit::cast;

// The ids of every finding validate() gives `document`.
std::vector<std::string> finding_rules(const Document& document) {
    Diagnostics findings;
    validate(document, findings);
    std::vector<std::string> rules;
    for (const Diagnostic& d : findings.shown()) rules.push_back(d.rule);
    return rules;
}

TEST(BuilderDefaults, NodesBuiltWithoutTheirRequiredPropertiesGetThem) {
    Document document;
    Root root = document.add_root();
    Model model = root.add_model();
    Bone bone = model.add_skeleton().add_bone();
    bone.set_name("root");
    Material first = model.add_material();
    Material second = model.add_material();
    File albedo = first.add_file("textures/skin_albedo.png");
    first.set_slot("albedo", albedo);
    Animation animation = root.add_animation();
    Curve curve = animation.add_curve();
    curve.set_node_name("root");
    curve.set_key_property(KeyProperty::TranslationX);
    curve.set_key_frames(std::vector<std::uint32_t>{0, 10});
    curve.set_float_values(std::vector<float>{0.0f, 1.0f});

    EXPECT_EQ(first.name(), "material0");
    EXPECT_EQ(second.name(), "material1");
    EXPECT_EQ(first.type(), "pbr");
    EXPECT_EQ(albedo.path(), "textures/skin_albedo.png");
    EXPECT_EQ(animation.framerate(), 30.0f);
    EXPECT_EQ(curve.mode_name(), "absolute");
    EXPECT_EQ(finding_rules(document), std::vector<std::string>{});
}

// A value set after the builder's default replaces it in place: the node holds one of each.
TEST(BuilderDefaults, ASetValueReplacesTheDefault) {
    Document document;
    Root root = document.add_root();
    Material material = root.add_model().add_material();
    material.set_name("skin");
    material.set_type("lambert");
    Animation animation = root.add_animation();
    animation.set_framerate(60.0f);
    Curve curve = animation.add_curve();
    curve.set_mode(CurveMode::Additive);

    EXPECT_EQ(material.name(), "skin");
    EXPECT_EQ(material.type(), "lambert");
    EXPECT_EQ(material.node().properties.size(), 2u);
    EXPECT_EQ(animation.framerate(), 60.0f);
    EXPECT_EQ(curve.mode_name(), "additive");
    EXPECT_EQ(curve.node().properties.size(), 1u);
}

}  // namespace
}  // namespace castkit::test::builder_defaults_test
