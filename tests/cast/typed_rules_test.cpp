// The rules the typed views and builders follow: the spec's defaults (rule 14), flags (rule 9),
// legacy colours (rule 15), hash links and new hashes (rule 12), writer integer widths (rule 11),
// duplicate names (rule 7), and edits that keep what a view does not know.
#include <gtest/gtest.h>

#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>

#include "typed_scene.hpp"

namespace castkit::test::typed_rules_test {
namespace {

using namespace castkit::cast;

PropertyType stored_type(const ConstNodeView& view, std::string_view name) {
    const Property* p = view.node().find(name);
    EXPECT_NE(p, nullptr) << name;
    return p != nullptr ? p->type() : PropertyType::String;
}

// Rule 14: what each view returns when the property is absent.
TEST(TypedApi, SpecDefaultsApplyWhenPropertiesAreAbsent) {
    Document built;
    Root root = built.add_root();
    Model model = root.add_model();
    Skeleton skeleton = model.add_skeleton();
    skeleton.add_bone();
    skeleton.add_ik_handle();
    for (ConstraintType type :
         {ConstraintType::Point, ConstraintType::Orient, ConstraintType::Scale})
        skeleton.add_constraint().set_constraint_type(type);
    skeleton.add_constraint();  // no type
    model.add_mesh();
    model.add_blend_shape();
    model.add_material().add_color();
    Animation animation = root.add_animation();
    animation.add_curve();
    animation.add_curve_mode_override();
    Document document = reread(built);

    Model m = document.models().at(0);
    Bone bone = m.skeleton().bones().at(0);
    EXPECT_TRUE(bone.segment_scale_compensate());
    EXPECT_EQ(bone.parent_index(), -1);
    EXPECT_FALSE(bone.name());
    IKHandle ik = m.skeleton().ik_handles().at(0);
    EXPECT_FALSE(ik.use_target_rotation());
    EXPECT_FALSE(ik.target_offset());
    EXPECT_FALSE(ik.start_bone());
    auto constraints = m.skeleton().constraints();
    ASSERT_EQ(constraints.size(), 4u);
    EXPECT_EQ(constraints[0].custom_offset(), glm::vec4(0, 0, 0, 0));
    EXPECT_EQ(constraints[1].custom_offset(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(glm::vec3(constraints[2].custom_offset()), glm::vec3(1, 1, 1));
    for (const Constraint& c : constraints) {
        EXPECT_FALSE(c.maintain_offset());
        EXPECT_FALSE(c.skip_x());
        EXPECT_FALSE(c.skip_y());
        EXPECT_FALSE(c.skip_z());
        EXPECT_FALSE(c.weight());
    }
    Mesh mesh = m.meshes().at(0);
    EXPECT_EQ(mesh.skinning_method_name(), "linear");
    EXPECT_EQ(mesh.uv_layer_count(), 0u);
    EXPECT_EQ(mesh.color_layer_count(), 0u);
    EXPECT_TRUE(mesh.color_layer(0).empty());
    EXPECT_EQ(mesh.max_weight_influence(), 0u);
    EXPECT_FALSE(mesh.material());
    EXPECT_EQ(m.blend_shapes().at(0).target_weight_scale(), 1.0f);
    EXPECT_EQ(m.materials().at(0).colors().at(0).color_space_name(), "srgb");
    Animation a = document.animations().at(0);
    // The builders give fr and m (builder_defaults_test.cpp); a file read may lack them.
    a.node().remove("fr");
    a.curves().at(0).node().remove("m");
    EXPECT_FALSE(a.looping());
    EXPECT_FALSE(a.framerate());
    EXPECT_EQ(a.curves().at(0).additive_blend_weight(), 1.0f);
    EXPECT_FALSE(a.curves().at(0).mode_name());
    CurveModeOverride o = a.curve_mode_overrides().at(0);
    EXPECT_FALSE(o.override_translation());
    EXPECT_FALSE(o.override_rotation());
    EXPECT_FALSE(o.override_scale());
}

// Rule 9: any non-zero byte is true.
TEST(TypedApi, NonZeroFlagsAreTrue) {
    Document document;
    Bone bone = document.add_root().add_model().add_skeleton().add_bone();
    bone.node().set(make_integer("ssc", PropertyType::Byte, 0).value());
    EXPECT_FALSE(bone.segment_scale_compensate());
    bone.node().set(make_integer("ssc", PropertyType::Byte, 7).value());
    EXPECT_TRUE(bone.segment_scale_compensate());
}

// Rule 15: `vc` is layer 0 when `cl` is absent.
TEST(TypedApi, LegacyVcIsLayerZeroOnlyWithoutCl) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    const std::array<std::uint32_t, 1> red = {0xFF0000FF};
    mesh.node().set(make_integers("vc", PropertyType::Integer32, red).value());
    EXPECT_EQ(mesh.color_layer_count(), 1u);
    EXPECT_EQ(mesh.color_layer(0).at(0), glm::vec4(1, 0, 0, 1));
    const std::array<glm::vec4, 1> green = {glm::vec4(0, 1, 0, 1)};
    EXPECT_TRUE(mesh.set_color_layer(0, green));  // writes c0 and cl = 1: vc no longer counts
    EXPECT_EQ(mesh.color_layer_count(), 1u);
    EXPECT_EQ(mesh.color_layer(0).at(0), glm::vec4(0, 1, 0, 1));
    EXPECT_NE(mesh.node().find("vc"), nullptr);
}

// Rule 12: links resolve among the named siblings and only to the node type they name.
TEST(TypedApi, HashLinksResolveOnlyAmongSiblingsOfTheRightType) {
    Document document = every_node_type_scene();
    Root root = document.root_nodes().at(0);
    Model other = root.add_model();
    Material foreign = other.add_material();
    Mesh mesh = document.models().at(0).meshes().at(0);
    mesh.set_material(foreign);  // a material of another model
    EXPECT_FALSE(mesh.material());
    EXPECT_EQ(mesh.material_hash(), foreign.hash());
    BlendShape smile = document.models().at(0).blend_shapes().at(0);
    mesh.set_hash_link("m", smile.hash());  // a sibling, but not a Material
    EXPECT_FALSE(mesh.material());
    mesh.set_hash_link("m", 0xDEADBEEF);
    EXPECT_FALSE(mesh.material());
    EXPECT_FALSE(Material());
}

// Rule 12: new hashes count up from the reference base and skip hashes already in the file.
TEST(TypedApi, NewHashesAreDeterministicAndUnique) {
    constexpr std::uint64_t kBase = 0x534E495752545250;
    Document fresh;
    EXPECT_EQ(fresh.add_root().hash(), kBase);
    EXPECT_EQ(fresh.root_nodes().at(0).add_model().hash(), kBase + 1);

    Document built;
    built.insert(std::make_unique<Node>(NodeId::Root, kBase))
        .add_child(std::make_unique<Node>(NodeId::Model, kBase + 1));
    Document document = reread(built);
    Model added = document.root_nodes().at(0).add_model();
    EXPECT_EQ(added.hash(), kBase + 2);
}

// Rule 11: the writer helpers pick the smallest of b/h/i for index buffers; counts are `b`,
// the bone parent is `i`, and an explicit type is kept.
TEST(TypedApi, WriterHelpersChooseIntegerWidthsPerRule11) {
    Document document;
    Model model = document.add_root().add_model();
    Mesh mesh = model.add_mesh();
    auto faces_type = [&](std::uint32_t maximum) {
        const std::array<std::uint32_t, 3> faces = {0, maximum, 1};
        mesh.set_faces(faces);
        return stored_type(mesh, "f");
    };
    EXPECT_EQ(faces_type(255), PropertyType::Byte);
    EXPECT_EQ(faces_type(256), PropertyType::Short);
    EXPECT_EQ(faces_type(65535), PropertyType::Short);
    EXPECT_EQ(faces_type(65536), PropertyType::Integer32);
    EXPECT_EQ(mesh.faces()[1], 65536u);

    const std::array<glm::vec2, 1> uv = {glm::vec2(0)};
    const std::array<std::uint32_t, 1> colour = {0};
    const std::array<std::uint32_t, 2> bones = {0, 300};
    const std::array<float, 2> weights = {0.5f, 0.5f};
    EXPECT_TRUE(mesh.set_uv_layer(3, uv));
    EXPECT_TRUE(mesh.set_color_layer_packed(1, colour));
    EXPECT_TRUE(mesh.set_weights(2, bones, weights));
    EXPECT_EQ(stored_type(mesh, "ul"), PropertyType::Byte);
    EXPECT_EQ(mesh.uv_layer_count(), 4u);
    EXPECT_EQ(stored_type(mesh, "cl"), PropertyType::Byte);
    EXPECT_EQ(mesh.color_layer_count(), 2u);
    EXPECT_EQ(stored_type(mesh, "c1"), PropertyType::Integer32);
    EXPECT_EQ(stored_type(mesh, "mi"), PropertyType::Byte);
    EXPECT_EQ(stored_type(mesh, "wb"), PropertyType::Short);

    Bone bone = model.add_skeleton().add_bone();
    bone.set_parent_index(3);
    EXPECT_EQ(stored_type(bone, "p"), PropertyType::Integer32);
    bone.set_parent_index(-1);
    EXPECT_EQ(load<std::uint32_t>(bone.node().find("p")->bytes().data()), 0xFFFFFFFFu);

    BlendShape shape = model.add_blend_shape();
    const std::array<std::uint32_t, 1> vertex = {70000};
    const std::array<glm::vec3, 1> target = {glm::vec3(1)};
    shape.set_targets(vertex, target);
    EXPECT_EQ(stored_type(shape, "vi"), PropertyType::Integer32);

    Hair hair = model.add_hair();
    const std::array<std::uint32_t, 1> segments = {3};
    hair.set_segments(segments);
    EXPECT_EQ(stored_type(hair, "se"), PropertyType::Byte);

    Curve curve = document.root_nodes().at(0).add_animation().add_curve();
    const std::array<std::uint32_t, 2> frames = {0, 1000};
    curve.set_key_frames(frames);
    EXPECT_EQ(stored_type(curve, "kb"), PropertyType::Short);

    const std::array<std::uint32_t, 3> small = {0, 1, 2};
    mesh.node().set(make_integers("f", PropertyType::Integer32, small).value());
    EXPECT_EQ(stored_type(mesh, "f"), PropertyType::Integer32);
    Document copy = reread(document);
    EXPECT_EQ(copy.models().at(0).meshes().at(0).faces().stored_type(), PropertyType::Integer32);
}

// Rule 7: duplicates are all kept; getters and setters act on the last one.
TEST(TypedApi, DuplicateNamesKeepAllAndTheLastWins) {
    Document document;
    Model model = document.add_root().add_model();
    model.node().properties.push_back(make_string("n", "first"));
    model.node().properties.push_back(make_string("n", "second"));
    EXPECT_EQ(model.name(), "second");
    model.set_name("third");
    ASSERT_EQ(model.node().properties.size(), 2u);
    EXPECT_EQ(model.node().properties[0].string(), "first");
    EXPECT_EQ(model.node().properties[1].string(), "third");
    Document copy = reread(document);
    EXPECT_EQ(copy.models().at(0).name(), "third");
    EXPECT_EQ(copy.models().at(0).node().properties.size(), 2u);
    EXPECT_EQ(model.node().remove("n"), 2u);
    EXPECT_FALSE(model.name());
}

// Editing through a view replaces one property in place; properties no view knows, unknown
// child nodes and property order all survive.
TEST(TypedApi, EditingThroughViewsKeepsUnknownProperties) {
    Document document;
    Model model = document.add_root().add_model();
    model.node().properties.push_back(make_string("custom", "tool data"));
    model.set_name("before");
    model.node().properties.push_back(make_value<double>("zz", 4.5));
    model.node().add_child(std::make_unique<Node>(0x11223344u, 77));
    Document edited = reread(document);
    Model m = edited.models().at(0);
    m.set_name("after");
    m.set_scale({3, 3, 3});
    Document copy = reread(edited);
    const Node& node = copy.models().at(0).node();
    ASSERT_EQ(node.properties.size(), 4u);
    EXPECT_EQ(node.properties[0].name(), "custom");
    EXPECT_EQ(node.properties[0].string(), "tool data");
    EXPECT_EQ(node.properties[1].string(), "after");
    EXPECT_EQ(node.properties[2].number(0), 4.5);
    EXPECT_EQ(node.properties[3].name(), "s");
    ASSERT_EQ(node.children().size(), 1u);
    EXPECT_EQ(node.children()[0].id, 0x11223344u);
    EXPECT_EQ(node.children()[0].hash(), 77u);
}

// Views of absent properties have no data; copying from them copies nothing (the sanitizer
// build once caught a memcpy from null here, found by the fuzzer).
TEST(TypedApi, EmptyViewsCopyNothing) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    EXPECT_TRUE(mesh.faces().to_vector().empty());
    EXPECT_TRUE(mesh.positions().to_vector().empty());
    EXPECT_TRUE(mesh.uv_layer(0).to_vector().empty());
    std::array<std::uint32_t, 2> indices = {7, 7};
    mesh.weight_bones().copy_to(indices);
    EXPECT_EQ(indices[0], 7u);
    std::array<glm::vec3, 1> positions = {glm::vec3(5)};
    mesh.normals().copy_to(positions);
    EXPECT_EQ(positions[0], glm::vec3(5));
}

// An empty array is a property with ArrayLength 0 and no payload (built from an empty span,
// whose data pointer may be null).
TEST(TypedApi, EmptyArraysAreWrittenAndReadBack) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.set_positions({});
    mesh.set_faces({});
    Document copy = reread(document);
    Mesh again = copy.models().at(0).meshes().at(0);
    ASSERT_NE(again.node().find("vp"), nullptr);
    EXPECT_EQ(again.node().find("vp")->count(), 0u);
    EXPECT_EQ(again.vertex_count(), 0u);
    EXPECT_EQ(again.faces().stored_type(), PropertyType::Byte);
    EXPECT_EQ(again.face_count(), 0u);
}

// A NUL inside a name (a K3D or glTF string may hold one) used to be written whole: readers
// stopped at it and misread the rest as the next property. The name now ends at the NUL.
TEST(TypedApi, StringsEndAtTheirFirstNul) {
    Document document;
    Material material = document.add_root().add_model().add_material();
    material.set_name(std::string_view("l\x14\0f", 4));
    material.set_type("pbr");
    Document copy = reread(document);
    const Material again = copy.models().at(0).materials().at(0);
    EXPECT_EQ(again.name(), std::optional<std::string_view>("l\x14"));
    EXPECT_EQ(again.type(), std::optional<std::string_view>("pbr"));
}

// A type mismatch reads as absent rather than as garbage.
TEST(TypedApi, GettersIgnorePropertiesOfTheWrongType) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.node().set(make_integer("n", PropertyType::Integer32, 5).value());
    const std::array<glm::vec4, 1> v4 = {glm::vec4(1)};
    mesh.node().set(make_array<glm::vec4>("vp", v4));
    mesh.node().set(make_string("f", "not faces"));
    EXPECT_FALSE(mesh.name());
    EXPECT_EQ(mesh.vertex_count(), 0u);
    EXPECT_EQ(mesh.face_count(), 0u);
}

}  // namespace
}  // namespace castkit::test::typed_rules_test
