// Issue 30: what a program written against the public headers alone may get wrong, and what
// castkit does then: refuse with a clear error, answer empty, or (for a bug the caller can
// always avoid, such as reading the value of an error) stop with a message, never corrupt
// memory and never write a file its own reader rejects.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <castkit/cast/values.hpp>
#include <castkit/expected.hpp>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../death_test.hpp"
#include "../test_support.hpp"

namespace castkit::test::misuse_test {
namespace {

Expected<int> failing() {
    Diagnostic error;
    error.file = "x.cast";
    error.rule = "test.rule";
    error.message = "it failed";
    return make_error(error);
}

// Item 9: value() on an error threw std::bad_variant_access in Release, though castkit promises
// never to throw; it now names the misuse and the error, and aborts, in every build.
TEST(ExpectedMisuse, ValueOfAnErrorStopsWithTheErrorNotAnException) {
    START_DEATH_TEST();
    // (Plain patterns: Windows' gtest matches with its simple regex, without brackets.)
    EXPECT_DEATH((void)failing().value(), "value\\(\\) called on an error");
    EXPECT_DEATH((void)failing().value(), "it failed");
    const Expected<int> error = failing();
    EXPECT_DEATH((void)*error, "value\\(\\) called on an error");
    EXPECT_DEATH((void)Expected<int>(3).error(), "error\\(\\) called on a value");
    EXPECT_DEATH((void)Expected<void>().error(), "error\\(\\) called on success");
}

TEST(ExpectedMisuse, ValueAndErrorAnswerWhenTheyExist) {
    Expected<int> three(3);
    EXPECT_EQ(three.value(), 3);
    EXPECT_EQ(*three, 3);
    EXPECT_EQ(failing().error().message, "it failed");
    EXPECT_EQ(failing().error().severity, Severity::Error);
}

// A root with one model whose mesh gets `property`: the smallest tree a property can sit in.
cast::Document document_with(cast::Property property) {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.node().set(std::move(property));
    return document;
}

bool reports(const Diagnostics& findings, std::string_view rule) {
    for (const Diagnostic& d : findings)
        if (d.rule == rule) return true;
    return false;
}

// The writer refuses `document` with `rule` through every route (buffer, sink-backed file,
// path) and leaves no file behind; validate() reports the same rule.
void expect_refused_everywhere(const cast::Document& document, std::string_view rule,
                               std::string_view path) {
    auto buffer = cast::write_to_buffer(document);
    ASSERT_FALSE(buffer);
    EXPECT_EQ(buffer.error().rule, rule) << buffer.error().to_string();
    EXPECT_EQ(buffer.error().path, path);
    const auto dir = temp_dir("misuse_write");
    auto written = cast::write(document, dir / "out.cast");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().rule, rule);
    EXPECT_FALSE(std::filesystem::exists(dir / "out.cast"));
    EXPECT_TRUE(std::filesystem::is_empty(dir));  // no temporary left either
    EXPECT_TRUE(reports(validation_findings(document), rule));
}

// Items 2 and 6: a count of 1000 over a one-element payload was built, written and then refused
// by the reader (cast.count-past-end), and validate said nothing. The constructors now stop on
// it, naming what disagrees; make_property returns it as an error
// (BuilderNarrowing.MakePropertyChecksTheCountAgainstThePayload).
TEST(PropertyMisuse, ACountThatDisagreesWithThePayloadStopsWithAMessage) {
    START_DEATH_TEST();
    const std::vector<std::byte> one_float(4);
    EXPECT_DEATH(cast::Property(cast::PropertyType::Float, "xx", 1000, one_float),
                 "'xx' says it holds 1000 f values \\(4000 bytes\\) but its payload has 4 bytes; "
                 "make_property");
    // Fewer elements than the payload holds would shift every later byte: stopped too.
    EXPECT_DEATH(cast::Property(cast::PropertyType::Float, "xx", 1, std::vector<std::byte>(8)),
                 "holds 1 f values");
    // A view of bytes the caller owns is held to the same rule.
    EXPECT_DEATH(cast::Property(cast::PropertyType::Vector3, "vp", 2,
                                cast::SharedBytes{cast::Bytes(one_float), nullptr}),
                 "'vp' says it holds 2");
}

// Item 6: a name over 65,535 bytes had its length cut to 16 bits; the file read back as a
// different document with no warning.
TEST(WriterMisuse, ANameOverSixteenBitsIsRefused) {
    cast::Document document = document_with(cast::make_value<float>(std::string(70000, 'n'), 1.0f));
    expect_refused_everywhere(document, "property.payload", "root[0]/model[0]/mesh[0]");
    // 65,535 bytes fit, and read back as written.
    document = document_with(cast::make_value<float>(std::string(65535, 'n'), 1.0f));
    auto bytes = cast::write_to_buffer(document);
    ASSERT_TRUE(bytes) << bytes.error().to_string();
    auto back = read_cast(std::move(*bytes));
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_NE(back->models().at(0).meshes().at(0).node().find(std::string(65535, 'n')), nullptr);
}

TEST(PropertyMisuse, StringsAndTypeIdsTheReaderCannotTakeStopWithAMessage) {
    START_DEATH_TEST();
    const std::vector<std::byte> two_strings{std::byte{'a'}, std::byte{0}, std::byte{'b'},
                                             std::byte{0}};
    EXPECT_DEATH(cast::Property(cast::PropertyType::String, "n", 1, two_strings),
                 "not that many NUL-terminated strings");
    EXPECT_DEATH(cast::Property(cast::PropertyType::String, "n", 1, std::vector{std::byte{'a'}}),
                 "not that many NUL-terminated strings");
    EXPECT_DEATH(
        cast::Property(static_cast<cast::PropertyType>(0x7777), "q", 1, std::vector<std::byte>(4)),
        "type id 30583, which no Cast reader knows");
    // What agrees builds: two strings counted as two, an empty payload as none.
    EXPECT_EQ(cast::Property(cast::PropertyType::String, "n", 2, two_strings).string(1), "b");
    EXPECT_EQ(cast::Property(cast::PropertyType::Float, "e", 0, std::vector<std::byte>()).size(),
              0u);
}

// Item 9: a null node in the public vectors crashed write() and validate(). The tree is no
// longer a public vector: the members that add nodes refuse a null one, so none can be there.
TEST(TreeMisuse, ANullNodeCannotEnterTheTree) {
    START_DEATH_TEST();
    cast::Document document;
    cast::Node& model = document.add_root().add_model().node();
    EXPECT_DEATH(model.add_child(std::unique_ptr<cast::Node>()), "add_child was given a null node");
    EXPECT_DEATH(document.insert(nullptr), "insert was given a null node");
    auto free_tree = std::make_unique<cast::Node>(cast::NodeId::Root, 1);
    EXPECT_DEATH(free_tree->add_child(std::unique_ptr<cast::Node>()), "null node");
}

// Issue 45 item 6: a node given one of its ancestors as a child made a loop, after which
// document() walked up forever.
TEST(TreeMisuse, ANodeCannotTakeItselfOrAnAncestorAsAChild) {
    START_DEATH_TEST();
    cast::Document document;
    document.add_root().add_model();
    std::unique_ptr<cast::Node> root = document.take_root(0);
    cast::Node& model = root->children()[0];
    cast::Node* top = root.get();
    EXPECT_DEATH(model.add_child(std::move(root)), "one of its ancestors");
    EXPECT_DEATH(top->add_child(std::unique_ptr<cast::Node>(top)), "the node itself");
}

TEST(TreeMisuse, AParentFromAnotherDocumentIsRefused) {
    START_DEATH_TEST();
    cast::Document first, second;
    cast::Node& foreign = second.add_root().node();
    first.add_root();
    EXPECT_DEATH(first.insert(std::make_unique<cast::Node>(cast::NodeId::Model, 1), &foreign),
                 "not in this document");
    EXPECT_DEATH(first.adopt(foreign, &foreign), "not in this document");
}

// A scene as every from-scratch program makes it: hashes from the reference base.
cast::Document material_scene() {
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Material material = model.add_material();
    material.set_name("skin");
    material.set_type("pbr");
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    mesh.set_material(material);
    return document;
}

// Item 2: cloning a model into another document kept every hash, so two from-scratch scenes
// merged gave nodes with the same hashes (validate: hash.duplicate). adopt() re-hashes the copy
// from its new document and its links follow; insert() re-hashes only what collides.
TEST(TreeMisuse, AdoptAndInsertKeepHashesUniqueAndLinksWhole) {
    cast::Document target = material_scene();
    const cast::Document source = material_scene();
    cast::Node& root = target.roots()[0];
    cast::Node& adopted = target.adopt(source.roots()[0].children()[0], &root);
    cast::Document other = material_scene();
    cast::Node& inserted = target.insert(other.take_root(0));

    const HashTally tally = tally_hashes(target);
    EXPECT_EQ(tally.nodes, 11u);  // 2 roots, 3 models, 3 materials, 3 meshes
    EXPECT_EQ(tally.hashes.size(), tally.nodes);
    // No hash.duplicate, no mesh.material naming nothing.
    for (const Diagnostic& d : validation_findings(target)) {
        ADD_FAILURE() << d.to_string();
    }
    // Each copied mesh names the copied material beside it, by its new hash.
    auto copied = cast::view_of<cast::ConstModel>(std::as_const(adopted));
    EXPECT_EQ(copied.meshes().at(0).material().name(), "skin");
    EXPECT_EQ(copied.meshes().at(0).material().hash(), copied.materials().at(0).hash());
    EXPECT_NE(copied.materials().at(0).hash(), source.models().at(0).materials().at(0).hash());
    auto moved = cast::view_of<cast::ConstRoot>(std::as_const(inserted)).models().at(0);
    EXPECT_EQ(moved.meshes().at(0).material().hash(), moved.materials().at(0).hash());
}

// Issue 45 item 6: a mesh moved or copied into another document without its material kept the
// material's hash, which in the new document named whatever node had it (here that document's
// own material, from the same reference base): silent corruption. The link is now cut and
// reported; a move inside one document, or a tree built on its own, keeps its links.
TEST(TreeMisuse, ALinkOutOfASubtreeFromAnotherDocumentIsCutAndReported) {
    cast::Document source = material_scene();
    cast::Document target = material_scene();
    target.models().at(0).materials().at(0).set_name("another material");
    cast::Node& target_model = target.roots()[0].children()[0];
    const cast::Node& source_mesh = source.roots()[0].children()[0].children()[1];
    ASSERT_TRUE(source_mesh.is(cast::NodeId::Mesh));

    Diagnostics adopting;
    cast::Node& copied = target.adopt(source_mesh, &target_model, &adopting);
    Diagnostics inserting;
    cast::Node& moved =
        target.insert(source.roots()[0].children()[0].take_child(1), &target_model, &inserting);
    for (const Diagnostics* findings : {&adopting, &inserting}) {
        ASSERT_EQ(findings->size(), 1u);
        const Diagnostic& cut = *findings->begin();
        EXPECT_EQ(cut.rule, "cast.link-cut");
        EXPECT_EQ(cut.severity, Severity::Warning);
        EXPECT_NE(cut.message.find("link 'm'"), std::string::npos) << cut.message;
    }
    EXPECT_EQ(adopting.begin()->path, "root[0]/model[0]/mesh[1]");
    EXPECT_EQ(inserting.begin()->path, "root[0]/model[0]/mesh[2]");
    for (const cast::Node* mesh : {&copied, &moved}) {
        EXPECT_EQ(mesh->find("m"), nullptr);
        EXPECT_EQ(cast::view_of<cast::ConstMesh>(*mesh).material().name(), std::nullopt);
    }
    // The target's own mesh still names its own material.
    EXPECT_EQ(target.models().at(0).meshes().at(0).material().name(), "another material");
}

TEST(TreeMisuse, LinksOutOfASubtreeMovedInsideItsDocumentOrBuiltOnItsOwnAreKept) {
    cast::Document document = material_scene();
    const std::uint64_t material = document.models().at(0).materials().at(0).hash();
    cast::Model second = document.root_nodes().at(0).add_model();
    std::unique_ptr<cast::Node> mesh = document.roots()[0].children()[0].take_child(1);
    Diagnostics findings;
    cast::Node& moved = document.insert(std::move(mesh), &second.node(), &findings);
    auto built = std::make_unique<cast::Node>(cast::NodeId::Mesh, document.next_hash());
    built->set(cast::make_value<std::uint64_t>("m", material));
    cast::Node& joined = document.insert(std::move(built), &second.node(), &findings);
    EXPECT_EQ(findings.size(), 0u);
    for (const cast::Node* kept : {&moved, &joined}) {
        ASSERT_NE(kept->find("m"), nullptr);
        EXPECT_EQ(kept->find("m")->integer(0), material);
    }
}

// Insertion keeps the hashes the document does not use yet: a file's own hashes survive being
// moved into an empty document, byte for byte.
TEST(TreeMisuse, InsertKeepsHashesThatDoNotCollide) {
    cast::Document source = material_scene();
    const auto before = cast::write_to_buffer(source);
    ASSERT_TRUE(before);
    cast::Document target;
    target.insert(source.take_root(0));
    const auto after = cast::write_to_buffer(target);
    ASSERT_TRUE(after);
    EXPECT_EQ(*after, *before);
}

// The counter read the tree once, so hashes that entered it later (a subtree inserted, a hash
// set by hand) could be handed out again.
TEST(TreeMisuse, TheCounterSeesHashesThatEnterTheTreeLater) {
    constexpr std::uint64_t kBase = cast::HashCounter::kBase;
    cast::Document document;
    cast::Root root = document.add_root();  // kBase; the counter has read the tree now
    auto subtree = std::make_unique<cast::Node>(cast::NodeId::Model, kBase + 1);
    subtree->add_child(std::make_unique<cast::Node>(cast::NodeId::Mesh, kBase + 2));
    root.node().add_child(std::move(subtree));
    cast::Model model = root.add_model();
    EXPECT_EQ(model.hash(), kBase + 3);
    cast::Mesh mesh = model.add_mesh();
    EXPECT_EQ(mesh.hash(), kBase + 4);
    mesh.node().set_hash(kBase + 6);
    EXPECT_EQ(model.add_mesh().hash(), kBase + 5);
    EXPECT_EQ(model.add_mesh().hash(), kBase + 7);
}

// A tree of its own (no document) still gets hashes unused in it, and keeps them when it joins
// an empty document.
TEST(TreeMisuse, ATreeOfItsOwnNumbersItsNewNodes) {
    auto root = std::make_unique<cast::Node>(cast::NodeId::Root, cast::HashCounter::kBase);
    cast::Node& model = root->add_child(cast::NodeId::Model);
    cast::Node& mesh = model.add_child(cast::NodeId::Mesh);
    EXPECT_EQ(model.hash(), cast::HashCounter::kBase + 1);
    EXPECT_EQ(mesh.hash(), cast::HashCounter::kBase + 2);
    EXPECT_EQ(mesh.parent(), &model);
    EXPECT_EQ(mesh.document(), nullptr);
    cast::Document document;
    document.insert(std::move(root));
    EXPECT_EQ(mesh.document(), &document);
    EXPECT_EQ(mesh.hash(), cast::HashCounter::kBase + 2);
}

// Taking a node out leaves a tree of its own behind: no parent, no document; views of it
// still work, and new nodes under it no longer draw from the document.
TEST(TreeMisuse, TakenNodesLeaveTheirDocument) {
    cast::Document document = material_scene();
    cast::Model model = document.models().at(0);
    std::unique_ptr<cast::Node> taken = document.roots()[0].take_child(0);
    ASSERT_NE(taken, nullptr);
    EXPECT_EQ(taken->parent(), nullptr);
    EXPECT_EQ(taken->document(), nullptr);
    EXPECT_EQ(model.meshes().size(), 1u);
    EXPECT_EQ(model.meshes().at(0).material().name(), "skin");
    EXPECT_TRUE(document.models().empty());
    EXPECT_EQ(document.roots()[0].take_child(5), nullptr);
    EXPECT_EQ(document.take_root(3), nullptr);
}

// What the writer accepts, its reader reads back as the same tree: every builder's output.
TEST(WriterMisuse, BuiltPropertiesOfEveryTypeReadBack) {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    for (cast::PropertyType type : {cast::PropertyType::Byte, cast::PropertyType::Short,
                                    cast::PropertyType::Integer32, cast::PropertyType::Integer64})
        mesh.node().set(
            cast::make_integer(fmt::format("i{}", static_cast<int>(type)), type, 7).value());
    mesh.node().set(cast::make_string("s", "text"));
    mesh.node().set(cast::make_value<double>("d", 2.5));
    mesh.node().set(cast::make_value<glm::vec2>("v2", {1, 2}));
    mesh.node().set(cast::make_value<glm::vec3>("v3", {1, 2, 3}));
    mesh.node().set(cast::make_value<glm::vec4>("v4", {1, 2, 3, 4}));
    EXPECT_FALSE(reports(validation_findings(document), "property.payload"));
    auto bytes = cast::write_to_buffer(document);
    ASSERT_TRUE(bytes) << bytes.error().to_string();
    auto back = read_cast(*bytes);
    ASSERT_TRUE(back) << back.error().to_string();
    auto again = cast::write_to_buffer(*back);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *bytes);
}

// Item 4: the view a lookup returns when it finds nothing segfaulted on any member call.
TEST(EmptyViews, AnswerEmptyWhenRead) {
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Mesh mesh = model.add_mesh();
    cast::Skeleton skeleton = model.skeleton();  // none
    EXPECT_FALSE(skeleton);
    EXPECT_TRUE(skeleton.bones().empty());
    EXPECT_TRUE(skeleton.constraints().empty());
    EXPECT_FALSE(skeleton.bone_by_hash(1));
    EXPECT_EQ(skeleton.hash(), 0u);
    const cast::ConstMaterial material = mesh.material();  // no `m`
    EXPECT_FALSE(material);
    EXPECT_FALSE(material.name().has_value());
    EXPECT_FALSE(material.slot_file("diffuse"));
    const cast::ConstModel const_model = model;
    EXPECT_TRUE(const_model.skeleton().bones().empty());
    EXPECT_TRUE(cast::ConstMesh().positions().to_vector().empty());
}

TEST(EmptyViews, ChangingOneStopsWithAMessageNotASegfault) {
    START_DEATH_TEST();
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    EXPECT_DEATH(model.skeleton().add_bone(), "add\\(\\) called on an empty view");
    EXPECT_DEATH(model.skeleton().node(), "node\\(\\) called on an empty view");
    EXPECT_DEATH(cast::Material().set_name("x"), "called on an empty view");
}

// Item 5: `ul` and `cl` are bytes, so set_uv_layer(255) stored 0 layers and
// set_color_layer(300) 45; now a layer over 254 is refused and nothing changes.
TEST(BuilderNarrowing, LayersPastTheByteCountAreRefused) {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    const std::vector<glm::vec2> uvs(1);
    const std::vector<glm::vec4> rgba(1);
    auto uv = mesh.set_uv_layer(255, uvs);
    ASSERT_FALSE(uv);
    EXPECT_EQ(uv.error().rule, "cast.layer-index");
    auto colour = mesh.set_color_layer(300, rgba);
    ASSERT_FALSE(colour);
    EXPECT_EQ(colour.error().rule, "cast.layer-index");
    EXPECT_FALSE(mesh.set_color_layer_packed(255, std::vector<std::uint32_t>(1)));
    EXPECT_TRUE(mesh.node().properties.empty());  // nothing changed
    ASSERT_TRUE(mesh.set_uv_layer(254, uvs));
    EXPECT_EQ(mesh.uv_layer_count(), 255u);
    ASSERT_TRUE(mesh.set_color_layer(254, rgba));
    EXPECT_EQ(mesh.color_layer_count(), 255u);
}

// Item 5: make_integer(Byte, 300) stored 44. Now a value the type cannot hold, or a type that
// is not an integer, is an error naming the value; what fits is stored as it stands.
TEST(BuilderNarrowing, IntegerBuildersRefuseValuesTheirTypeCannotHold) {
    auto wide = cast::make_integer("mi", cast::PropertyType::Byte, 300);
    ASSERT_FALSE(wide);
    EXPECT_EQ(wide.error().rule, "cast.value-width");
    EXPECT_NE(wide.error().message.find("300"), std::string::npos) << wide.error().message;
    EXPECT_NE(wide.error().message.find("255"), std::string::npos) << wide.error().message;
    EXPECT_FALSE(cast::make_integer("h", cast::PropertyType::Short, 65536));
    EXPECT_FALSE(cast::make_integer("i", cast::PropertyType::Integer32, 0x1'0000'0000));
    EXPECT_FALSE(cast::make_integer("f", cast::PropertyType::Float, 1));
    auto widest = cast::make_integer("l", cast::PropertyType::Integer64, ~std::uint64_t{0});
    ASSERT_TRUE(widest);
    EXPECT_EQ(widest->integer(0), ~std::uint64_t{0});
    ASSERT_TRUE(cast::make_integer("mi", cast::PropertyType::Byte, 255));
    EXPECT_EQ(cast::make_integer("mi", cast::PropertyType::Byte, 255).value().integer(0), 255u);

    const std::vector<std::uint32_t> values = {1, 70000, 2};
    auto shorts = cast::make_integers("f", cast::PropertyType::Short, values);
    ASSERT_FALSE(shorts);
    EXPECT_EQ(shorts.error().rule, "cast.value-width");
    EXPECT_NE(shorts.error().message.find("70000"), std::string::npos) << shorts.error().message;
    EXPECT_FALSE(cast::make_integers("f", cast::PropertyType::Vector3, values));
    auto ints = cast::make_integers("f", cast::PropertyType::Integer32, values);
    ASSERT_TRUE(ints);
    EXPECT_EQ(ints->integer(1), 70000u);
}

// Item 2: a property over raw bytes is checked as the writer checks it when built through
// make_property: a count the payload does not hold is an error, not a file the reader refuses.
TEST(BuilderNarrowing, MakePropertyChecksTheCountAgainstThePayload) {
    auto past =
        cast::make_property(cast::PropertyType::Float, "xx", 1000, std::vector<std::byte>(4));
    ASSERT_FALSE(past);
    EXPECT_EQ(past.error().rule, "property.payload");
    EXPECT_NE(past.error().message.find("1000"), std::string::npos) << past.error().message;
    EXPECT_FALSE(cast::make_property(cast::PropertyType::String, "n", 1,
                                     {std::byte{'a'}, std::byte{0}, std::byte{'b'}, std::byte{0}}));
    EXPECT_FALSE(cast::make_property(static_cast<cast::PropertyType>(0x7777), "q", 1,
                                     std::vector<std::byte>(4)));
    auto fits =
        cast::make_property(cast::PropertyType::Vector2, "u0", 2, std::vector<std::byte>(16));
    ASSERT_TRUE(fits);
    EXPECT_EQ(fits->size(), 2u);
    auto strings =
        cast::make_property(cast::PropertyType::String, "n", 2,
                            {std::byte{'a'}, std::byte{0}, std::byte{'b'}, std::byte{0}});
    ASSERT_TRUE(strings);
    EXPECT_EQ(strings->string(1), "b");
}

// Item 5: set_key_property and set_constraint_type took any text ("banana"); they take enums
// now (a string does not compile: CompileFail.ValueMisuse*), stored as the spec's names.
TEST(BuilderNarrowing, KeyPropertiesAndConstraintTypesAreStoredByTheirSpecNames) {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Constraint constraint = root.add_model().add_skeleton().add_constraint();
    cast::Curve curve = root.add_animation().add_curve();
    const std::pair<cast::KeyProperty, std::string_view> keys[] = {
        {cast::KeyProperty::TranslationX, "tx"}, {cast::KeyProperty::TranslationY, "ty"},
        {cast::KeyProperty::TranslationZ, "tz"}, {cast::KeyProperty::Rotation, "rq"},
        {cast::KeyProperty::ScaleX, "sx"},       {cast::KeyProperty::ScaleY, "sy"},
        {cast::KeyProperty::ScaleZ, "sz"},       {cast::KeyProperty::BlendShape, "bs"},
        {cast::KeyProperty::Visibility, "vb"}};
    for (const auto& [key, name] : keys) {
        curve.set_key_property(key);
        EXPECT_EQ(curve.key_property(), name);
        EXPECT_EQ(cast::key_property_from_name(name), key);
    }
    EXPECT_EQ(cast::key_property_from_name("banana"), std::nullopt);
    const std::pair<cast::ConstraintType, std::string_view> types[] = {
        {cast::ConstraintType::Point, "pt"},
        {cast::ConstraintType::Orient, "or"},
        {cast::ConstraintType::Scale, "sc"}};
    for (const auto& [type, name] : types) {
        constraint.set_constraint_type(type);
        EXPECT_EQ(constraint.constraint_type(), name);
        EXPECT_EQ(cast::constraint_type_from_name(name), type);
    }
    EXPECT_EQ(cast::constraint_type_from_name("aim"), std::nullopt);
}

// An enum value made by a cast names no text: a programming error, stopped with a message.
TEST(BuilderNarrowing, AKeyPropertyOutsideTheEnumStopsWithAMessage) {
    START_DEATH_TEST();
    cast::Document document;
    cast::Curve curve = document.add_root().add_animation().add_curve();
    EXPECT_DEATH(curve.set_key_property(static_cast<cast::KeyProperty>(40)),
                 "40 is not a KeyProperty");
    EXPECT_DEATH((void)cast::constraint_type_name(static_cast<cast::ConstraintType>(3)),
                 "3 is not a ConstraintType");
}

// Issue 45 item 6: appending a Diagnostics to itself read the vector it was growing (a use after
// free once it reallocated). It now adds a copy of what it held.
TEST(DiagnosticsMisuse, AppendingItselfDoublesItsFindings) {
    Diagnostics diagnostics;
    for (int i = 0; i < 2; ++i)
        diagnostics.push_back(Diagnostic{Severity::Warning, "a.cast", Diagnostic::kNoOffset, "",
                                         "cast.read", fmt::format("w{}", i)});
    diagnostics.append(diagnostics);
    ASSERT_EQ(diagnostics.size(), 4u);
    EXPECT_EQ(diagnostics[2].message, "w0");
    EXPECT_EQ(diagnostics[3].message, "w1");
}

Diagnostic finding(Severity severity, std::string rule, std::string message) {
    return Diagnostic{severity, "a.gltf",        Diagnostic::kNoOffset,
                      "",       std::move(rule), std::move(message)};
}

// Issue 58 item 3: update() handed the change a reference into the vector the change then grew
// (a finding added for each one located), so the change wrote through it into freed memory. The
// change now works on a copy; what it adds comes after the findings it changed, unchanged.
TEST(DiagnosticsMisuse, AChangeMayAddToTheListItChanges) {
    Diagnostics diagnostics;
    for (int i = 0; i < 5; ++i)
        diagnostics.push_back(finding(Severity::Warning, fmt::format("gltf.w{}", i), "w"));
    diagnostics.update(0, [&](Diagnostic& d) {
        diagnostics.push_back(finding(Severity::Info, "gltf.note", "about " + d.rule));
        d.path = "/meshes/0";
    });
    ASSERT_EQ(diagnostics.size(), 10u);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(diagnostics[i].rule, fmt::format("gltf.w{}", i));
        EXPECT_EQ(diagnostics[i].path, "/meshes/0");
        EXPECT_EQ(diagnostics[5 + i].message, fmt::format("about gltf.w{}", i));
        EXPECT_EQ(diagnostics[5 + i].path, "");
    }
    EXPECT_EQ(diagnostics.count(Severity::Info), 5u);
    EXPECT_TRUE(diagnostics.suppressed().empty());
}

// ... and what it adds beyond the limit of its kind is counted, as push_back counts it.
TEST(DiagnosticsMisuse, AChangeThatAddsManyKeepsTheLimit) {
    Diagnostics diagnostics;
    for (int i = 0; i < 5; ++i) diagnostics.push_back(finding(Severity::Warning, "gltf.w", "w"));
    diagnostics.update(0, [&](Diagnostic& d) {
        for (int i = 0; i < 3; ++i)
            diagnostics.push_back(finding(Severity::Info, "gltf.note", "n"));
        d.offset = 7;
    });
    ASSERT_EQ(diagnostics.size(), 10u);
    EXPECT_EQ(diagnostics.count(Severity::Info), 15u);
    EXPECT_EQ(diagnostics[4].offset, 7u);
    ASSERT_EQ(diagnostics.suppressed().size(), 1u);
    EXPECT_EQ(diagnostics.suppressed()[0].count, 10u);
}

// Every kind as shown: the kept findings of each, and its summary's count (0 when none).
std::map<std::tuple<Severity, std::string>, std::pair<std::size_t, std::uint64_t>> kinds(
    const Diagnostics& diagnostics) {
    std::map<std::tuple<Severity, std::string>, std::pair<std::size_t, std::uint64_t>> out;
    for (const Diagnostic& d : diagnostics) ++out[{d.severity, d.rule}].first;
    for (const Diagnostics::Suppressed& more : diagnostics.suppressed())
        out[{more.severity, more.rule}].second += more.count;
    return out;
}

// Issue 58 item 3: promoting warnings to errors (validate --strict) made the kept warnings and
// errors of one rule a single kind of 10 kept findings, twice the limit. The first five stay,
// the other five are counted in the kind's one summary, and the counts are what they were.
TEST(DiagnosticsMisuse, PromotingKeepsTheLimitOfEachKind) {
    Diagnostics diagnostics;
    for (int i = 0; i < 7; ++i)
        diagnostics.push_back(finding(Severity::Warning, "cast.x", fmt::format("w{}", i)));
    for (int i = 0; i < 7; ++i)
        diagnostics.push_back(finding(Severity::Error, "cast.x", fmt::format("e{}", i)));
    diagnostics.promote(Severity::Warning, Severity::Error);
    EXPECT_EQ(diagnostics.count(Severity::Error), 14u);
    EXPECT_EQ(diagnostics.count(Severity::Warning), 0u);
    ASSERT_EQ(diagnostics.size(), Diagnostics::kKeptPerKind);
    for (std::size_t i = 0; i < diagnostics.size(); ++i)
        EXPECT_EQ(diagnostics[i].message, fmt::format("w{}", i));
    const std::vector<Diagnostic> shown = diagnostics.shown();
    ASSERT_EQ(shown.size(), 6u);
    EXPECT_EQ(shown.back().to_string(), "a.gltf: ... and 9 more [cast.x]");
    // Pushing one more of the kind counts it too: the tallies agree with what is kept.
    diagnostics.push_back(finding(Severity::Error, "cast.x", "e7"));
    EXPECT_EQ(diagnostics.size(), Diagnostics::kKeptPerKind);
    EXPECT_EQ(diagnostics.suppressed()[0].count, 10u);
}

// The same merge through update() (a change of rule) and name_unnamed() (the registry naming
// a plug-in's findings with no id by its catch-all, which the plug-in also used).
TEST(DiagnosticsMisuse, ChangingRulesKeepsTheLimitOfEachKind) {
    const auto both = [] {
        Diagnostics diagnostics;
        for (int i = 0; i < 5; ++i) diagnostics.push_back(finding(Severity::Warning, "", "a"));
        for (int i = 0; i < 5; ++i)
            diagnostics.push_back(finding(Severity::Warning, "gltf.read", "b"));
        diagnostics.push_back(finding(Severity::Warning, "gltf.read", "c"));
        return diagnostics;
    };
    using Shown = decltype(kinds(Diagnostics()));
    const Shown merged = {{{Severity::Warning, "gltf.read"}, {5u, 6u}}};
    Diagnostics updated = both();
    updated.update(0, [](Diagnostic& d) { d.rule = "gltf.read"; });
    EXPECT_EQ(kinds(updated), merged);
    Diagnostics named = both();
    named.name_unnamed(0, "gltf.read");
    EXPECT_EQ(kinds(named), merged);
    EXPECT_EQ(named.count(Severity::Warning), 11u);
}

}  // namespace
}  // namespace castkit::test::misuse_test
