// Structure and property rules, one test per rule, each on the clean scene with one thing broken.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "scene.hpp"

namespace castkit::test::structure_test {
namespace {

using namespace castkit::cast;

TEST(Validate, CleanSceneHasNoFindings) {
    Scene scene;
    EXPECT_TRUE(check(scene.document).empty()) << describe(check(scene.document));
    EXPECT_TRUE(check_in_memory(scene.document).empty());
}

TEST(ValidateStructure, TopLevelNodeMustBeRoot) {
    Scene scene;
    scene.document.insert(std::make_unique<Node>(NodeId::Model, 7));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "structure.top-level"));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].path, "model[0]");
    EXPECT_EQ(findings[0].severity, Severity::Error);
}

TEST(ValidateStructure, ParentMustBeAllowed) {
    Scene scene;
    // A Color belongs under a Material, not under a Model.
    Node& color = scene.model.node().add_child(std::make_unique<Node>(NodeId::Color, 7));
    color.set(make_value<glm::vec4>("rgba", glm::vec4(1, 1, 1, 1)));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "structure.parent"));
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/color[0]");
    EXPECT_NE(findings[0].message.find("Material"), std::string::npos) << findings[0].message;
}

// Issue 30 item 9: the messages said "a Animation"; titles take the article they are read with.
TEST(ValidateStructure, MessagesGiveEachTitleItsArticle) {
    Scene scene;
    scene.model.node().add_child(std::make_unique<Node>(NodeId::Animation, 7));
    std::size_t checked = 0;
    for (const Diagnostic& d : check(scene.document)) {
        if (d.rule == "structure.parent")
            EXPECT_EQ(d.message, "an Animation must be a child of a Root, not of a Model");
        else if (d.rule == "property.required")
            EXPECT_EQ(d.message.rfind("an Animation requires '", 0), 0u) << d.message;
        else
            continue;
        ++checked;
    }
    EXPECT_EQ(checked, 2u);  // its parent, and its required framerate
}

TEST(ValidateStructure, RootNestedUnderAModelIsMisplaced) {
    Scene scene;
    scene.model.node().add_child(std::make_unique<Node>(NodeId::Root, 7));
    EXPECT_TRUE(only(check(scene.document), "structure.parent"));
}

TEST(ValidateStructure, ModelHasAtMostOneSkeleton) {
    Scene scene;
    scene.model.add_skeleton();
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "structure.skeleton-count"));
    EXPECT_EQ(findings[0].path, "root[0]/model[0]");
    // A node finding points at the node header, which starts with the Model id "modl".
    auto bytes = write_to_buffer(scene.document);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes->data() + findings[0].offset), 4),
              "modl");
}

TEST(ValidateStructure, UnknownNodeIdIsAWarning) {
    Scene scene;
    Node& unknown = scene.root.node().add_child(std::make_unique<Node>(0x12345678u, 7));
    unknown.set(make_string("whatever", "kept"));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "structure.unknown-node"));
    EXPECT_EQ(findings[0].path, "root[0]/0x12345678[0]");
}

// What the writer would refuse: a name whose length does not fit 16 bits (a count the payload
// does not hold cannot be built: the Property constructors stop on it). check_in_memory, since
// the writer refuses to make the bytes check() reads back.
TEST(ValidateProperties, PayloadTheWriterCannotStore) {
    Scene scene;
    scene.mesh.node().set(make_value<float>(std::string(70000, 'n'), 1.0f));
    const Diagnostics findings = check_in_memory(scene.document);
    // The name is not one a Mesh defines either: an info (property.unknown) comes with it.
    const Diagnostics errors = findings.with_severity(Severity::Error);
    ASSERT_TRUE(only(errors, "property.payload")) << describe(findings);
    EXPECT_EQ(errors[0].path, "root[0]/model[0]/mesh[0]");
    EXPECT_NE(errors[0].message.find("70000"), std::string::npos);
}

TEST(ValidateProperties, RequiredPropertyMissing) {
    Scene scene;
    scene.bones[0].node().remove("n");
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "property.required"));
    EXPECT_EQ(findings[0].path, "root[0]/model[0]/skeleton[0]/bone[0]");
    EXPECT_NE(findings[0].message.find("'n'"), std::string::npos);
}

TEST(ValidateProperties, TypeMustBeAllowed) {
    Scene scene;
    scene.model.node().set(make_value<glm::vec4>("p", glm::vec4(0, 0, 0, 0)));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "property.type"));
    EXPECT_EQ(findings[0].message, "'p' is v4; a Model's 'p' must be v3");

    // The offset is the property header's: type 'v4' (file bytes "4v"), name size 1, count 1, "p".
    auto bytes = write_to_buffer(scene.document);
    ASSERT_TRUE(bytes.has_value());
    ASSERT_LT(findings[0].offset + 9, bytes->size());
    const char* header = reinterpret_cast<const char*>(bytes->data() + findings[0].offset);
    EXPECT_EQ(std::string(header, 2), "4v");
    EXPECT_EQ(header[2], 1);
    EXPECT_EQ(header[4], 1);
    EXPECT_EQ(header[8], 'p');
}

TEST(ValidateProperties, SingleValuedPropertyHoldsOneValue) {
    Scene scene;
    const std::vector<glm::vec3> two{{0, 0, 0}, {1, 1, 1}};
    scene.model.node().set(make_array<glm::vec3>("p", two));
    EXPECT_TRUE(only(check(scene.document), "property.single"));
}

// cast.py reads one string per `s` property, whatever ArrayLength says: 0 or 2 strings break it.
TEST(ValidateProperties, StringPropertyHoldsExactlyOneString) {
    for (std::string_view payload : {std::string_view("", 0), std::string_view("x\0y\0", 4)}) {
        Scene scene;
        const auto* bytes = reinterpret_cast<const std::byte*>(payload.data());
        const auto count =
            static_cast<std::uint32_t>(std::count(payload.begin(), payload.end(), '\0'));
        scene.metadata.node().set(Property(PropertyType::String, "a", count,
                                           std::vector<std::byte>(bytes, bytes + payload.size())));
        auto findings = check(scene.document);
        ASSERT_TRUE(only(findings, "property.string-count")) << count;
        EXPECT_EQ(findings[0].severity, Severity::Error);
        EXPECT_NE(findings[0].message.find("cast.py"), std::string::npos) << findings[0].message;
        EXPECT_NE(findings[0].message.find("Blender and Maya"), std::string::npos)
            << findings[0].message;
    }
}

// Python's strict UTF-8 decoder: overlong forms, surrogates, code points above U+10FFFF and cut
// sequences fail, in values and in property names; 2-, 3- and 4-byte characters pass.
TEST(ValidateProperties, NamesAndStringsAreUtf8) {
    Scene clean;
    clean.metadata.set_author("Ŝ 骨格 ボーン 🦴");
    clean.model.node().set(make_string("ñame", "x"));
    EXPECT_TRUE(only(check(clean.document), "property.unknown"));
    for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "ok\xE3\x81", "\xFF"}) {
        Scene value;
        value.metadata.set_author(bad);
        EXPECT_TRUE(only(check(value.document), "property.utf8")) << bad;
        Scene name;
        name.metadata.node().set(make_string(std::string("a") + bad, "x"));
        auto findings = check(name.document);
        EXPECT_EQ(std::count_if(findings.begin(), findings.end(),
                                [](const Diagnostic& d) { return d.rule == "property.utf8"; }),
                  1)
            << bad;
    }
}

TEST(ValidateProperties, EnumValueMustBeAllowed) {
    Scene scene;
    scene.mesh.set_string("sm", "dual");
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "property.enum"));
    EXPECT_EQ(findings[0].message, "'sm' is 'dual'; allowed: linear, quaternion");
}

TEST(ValidateProperties, EveryEnumIsChecked) {
    // sm, m (curve and override), kp, ct, cs, up, t: each with a value outside its set.
    auto broken = [](auto&& breaker) {
        Scene scene;
        breaker(scene);
        return check(scene.document);
    };
    EXPECT_TRUE(only(broken([](Scene& s) { s.rotation_curve.set_string("m", "absolut"); }),
                     "property.enum"));
    EXPECT_TRUE(only(broken([](Scene& s) { s.mode_override.set_string("m", "overwrite"); }),
                     "property.enum"));
    EXPECT_TRUE(
        only(broken([](Scene& s) { s.constraint.set_string("ct", "aim"); }), "property.enum"));
    EXPECT_TRUE(only(broken([](Scene& s) { s.tint.set_string("cs", "rec709"); }), "property.enum"));
    EXPECT_TRUE(only(broken([](Scene& s) { s.metadata.set_string("up", "Y"); }), "property.enum"));
    EXPECT_TRUE(only(broken([](Scene& s) { s.material.set_type("phong"); }), "property.enum"));
    // An unknown key property is only an enum finding: the value type cannot be judged.
    EXPECT_TRUE(only(broken([](Scene& s) { s.translation_curve.set_string("kp", "tw"); }),
                     "property.enum"));
}

TEST(ValidateProperties, DuplicateNameIsAWarning) {
    Scene scene;
    scene.metadata.node().properties.push_back(make_string("a", "second author"));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "property.duplicate"));
    ASSERT_EQ(findings.size(), 1u);
}

TEST(ValidateProperties, UnknownNameIsInfo) {
    Scene scene;
    scene.model.node().set(make_string("zz", "custom"));
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "property.unknown"));
    EXPECT_EQ(findings[0].severity, Severity::Info);
}

// The se.* and k3d.* properties castkit's SEAnim, SEModel and K3D readers write are castkit's
// own: no finding. One named so that castkit does not write on that node, or not as it writes
// it, is its own info, not property.unknown.
TEST(ValidateProperties, CastkitsOwnPropertiesAreNoFinding) {
    Scene own;
    own.model.node().set(make_value<std::uint16_t>("se.version", std::uint16_t{2}));
    own.model.node().set(make_value<std::uint8_t>("se.boneBlocks", std::uint8_t{1}));
    EXPECT_TRUE(check(own.document).empty()) << check(own.document).front().to_string();
    Scene elsewhere;
    elsewhere.model.node().set(make_value<std::uint8_t>("se.type", std::uint8_t{1}));
    auto findings = check(elsewhere.document);
    ASSERT_TRUE(only(findings, "property.castkit"));
    EXPECT_EQ(findings[0].severity, Severity::Info);
    Scene typed;
    typed.model.node().set(make_string("se.version", "2"));
    EXPECT_TRUE(only(check(typed.document), "property.castkit"));
}

TEST(ValidateProperties, NonFiniteFloatPointsAtTheElement) {
    Scene scene;
    std::vector<glm::vec3> normals(4, glm::vec3(0, 0, 1));
    normals[2].y = std::numeric_limits<float>::quiet_NaN();
    scene.mesh.set_normals(normals);
    auto findings = check(scene.document);
    ASSERT_TRUE(only(findings, "value.non-finite"));
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_NE(findings[0].message.find("element 2"), std::string::npos) << findings[0].message;

    // The offset is that of element 2 of 'vn' in the written file.
    auto bytes = write_to_buffer(scene.document);
    ASSERT_TRUE(bytes.has_value());
    const std::uint64_t element = findings[0].offset;
    ASSERT_LT(element + 12, bytes->size());
    float y;
    std::memcpy(&y, bytes->data() + element + 4, 4);
    EXPECT_TRUE(std::isnan(y));
}

TEST(ValidateOptions, StrictTurnsWarningsIntoErrors) {
    Scene scene;
    scene.metadata.node().properties.push_back(make_string("a", "second author"));
    auto relaxed = check(scene.document);
    auto strict = check(scene.document, {.strict = true});
    ASSERT_EQ(relaxed.size(), 1u);
    ASSERT_EQ(strict.size(), 1u);
    EXPECT_EQ(relaxed[0].severity, Severity::Warning);
    EXPECT_EQ(strict[0].severity, Severity::Error);
}

TEST(ValidateOptions, StrictLeavesInfoAlone) {
    Scene scene;
    scene.model.node().set(make_string("zz", "custom"));
    auto findings = check(scene.document, {.strict = true});
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].severity, Severity::Info);
}

}  // namespace
}  // namespace castkit::test::structure_test
