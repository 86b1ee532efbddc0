// Issue 58 item 2: a hash link binds only inside its document. Two from-scratch documents draw
// their hashes from the same reference base, so a hash carried from one into the other names
// whatever node holds it there: a builder given a bone of another document resolved to 'neck',
// and a mesh that passed through a Model taken out of its scene bound to 'metal'. Builders now
// refuse a node of another document, and a subtree joining a tree taken from another document
// has its links out cut (and reported) as a move into a document already did.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "../death_test.hpp"
#include "../test_support.hpp"

namespace castkit::test::link_scope_test {
namespace {

// root / model / [material `material`, mesh linked to it, skeleton / [bone, bone `bone`]]: in
// every document made this way a node has the same hash as its counterpart in the others.
cast::Document scene(std::string_view material_name, std::string_view bone_name) {
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Material material = model.add_material();
    material.set_name(material_name);
    cast::Mesh mesh = model.add_mesh();
    mesh.set_material(material);
    cast::Skeleton skeleton = model.add_skeleton();
    skeleton.add_bone().set_name("hips");
    skeleton.add_bone().set_name(bone_name);
    return document;
}

cast::Node& model_node(cast::Document& document) { return document.roots()[0].children()[0]; }

// The name of the material the mesh `node` binds to, if any.
std::optional<std::string_view> material_of(const cast::Node& node) {
    return cast::view_of<cast::ConstMesh>(node).material().name();
}

std::size_t cuts(const Diagnostics& findings) {
    std::size_t count = 0;
    for (const Diagnostic& d : findings) count += d.rule == "cast.link-cut" ? 1 : 0;
    return count;
}

// ---- (a) builders ---------------------------------------------------------------------------

TEST(LinkScope, ABuilderGivenABoneOfAnotherDocumentStops) {
    START_DEATH_TEST();
    cast::Document here = scene("metal", "neck");
    cast::Document there = scene("wood", "head");
    cast::Skeleton skeleton = here.models().at(0).skeleton();
    const cast::ConstBone head = std::as_const(there).models().at(0).skeleton().bones().at(1);
    ASSERT_EQ(head.hash(), skeleton.bones().at(1).hash());  // the trap: one hash, two bones
    cast::IKHandle ik = skeleton.add_ik_handle();
    cast::Constraint constraint = skeleton.add_constraint();
    const char* refused = "another document";
    EXPECT_DEATH(ik.set_start_bone(head), refused);
    EXPECT_DEATH(ik.set_end_bone(head), refused);
    EXPECT_DEATH(ik.set_target_bone(head), refused);
    EXPECT_DEATH(ik.set_pole_vector_bone(head), refused);
    EXPECT_DEATH(ik.set_pole_bone(head), refused);
    EXPECT_DEATH(constraint.set_constraint_bone(head), refused);
    EXPECT_DEATH(constraint.set_target_bone(head), refused);
    // The probe as filed: nothing was linked, so nothing resolves to 'neck'.
    EXPECT_FALSE(ik.node().find("sb"));
    EXPECT_FALSE(ik.start_bone());
}

TEST(LinkScope, EveryOtherLinkSetterGivenANodeOfAnotherDocumentStops) {
    START_DEATH_TEST();
    cast::Document here = scene("metal", "neck");
    cast::Document there = scene("wood", "head");
    cast::Model model = here.models().at(0);
    const cast::ConstModel foreign = std::as_const(there).models().at(0);
    const char* refused = "another document";
    EXPECT_DEATH(model.meshes().at(0).set_material(foreign.materials().at(0)), refused);
    EXPECT_DEATH(model.add_hair().set_material(foreign.materials().at(0)), refused);
    EXPECT_DEATH(model.add_blend_shape().set_base_shape(foreign.meshes().at(0)), refused);
    cast::Material material = model.materials().at(0);
    cast::Document images;
    cast::File image = images.add_root().add_model().add_material().add_file("wood.png");
    EXPECT_DEATH(material.set_slot("albedo", image), refused);
    cast::Instance instance = here.root_nodes().at(0).add_instance();
    EXPECT_DEATH(instance.set_reference_file(image), refused);
    EXPECT_DEATH(instance.set_reference_file(cast::ConstFile()), "empty view");
    // The mesh still names its own material.
    EXPECT_EQ(model.meshes().at(0).material().name(), "metal");
}

TEST(LinkScope, BuildersLinkNodesOfTheirDocumentOrOfTheirOwnTree) {
    cast::Document here = scene("metal", "neck");
    cast::Skeleton skeleton = here.models().at(0).skeleton();
    cast::IKHandle ik = skeleton.add_ik_handle();
    ik.set_start_bone(skeleton.bones().at(1));
    EXPECT_EQ(ik.start_bone().name(), "neck");
    // Another root of the same document is the same document.
    cast::Instance instance = here.add_root().add_instance();
    cast::File file = here.root_nodes().at(0).models().at(0).materials().at(0).add_file("a.png");
    instance.set_reference_file(file);
    EXPECT_EQ(instance.node().find("rf")->integer(0), file.hash());
    // A tree of its own links inside itself.
    auto model = std::make_unique<cast::Node>(cast::NodeId::Model, 1);
    auto built = cast::view_of<cast::Model>(*model);
    cast::Material material = built.add_material();
    material.set_name("built");
    cast::Mesh mesh = built.add_mesh();
    mesh.set_material(material);
    EXPECT_EQ(mesh.material().name(), "built");
}

// ---- (b) a subtree that passes through a tree taken out of another document ----------------

// The probe as filed: a mesh of `there` ('wood') joins a Model taken out of `here`, beside
// 'metal', whose hash its link holds. On main it bound to 'metal' at once, and kept it when the
// Model went back into `here`.
TEST(LinkScope, AMeshJoiningAModelTakenOutOfAnotherDocumentLosesItsLink) {
    cast::Document here = scene("metal", "neck");
    cast::Document there = scene("wood", "head");
    std::unique_ptr<cast::Node> taken = here.roots()[0].take_child(0);
    Diagnostics findings;
    cast::Node& mesh = taken->add_child(model_node(there).take_child(1), &findings);
    EXPECT_EQ(material_of(mesh), std::nullopt);  // in the taken Model, beside 'metal'
    ASSERT_EQ(cuts(findings), 1u);
    EXPECT_EQ(findings.begin()->path, "model[0]/mesh[1]");
    EXPECT_EQ(mesh.find("m"), nullptr);
    // Back into its scene: still bound to nothing.
    const cast::Node& back = here.insert(std::move(taken), &here.roots()[0]);
    EXPECT_EQ(material_of(back.children()[3]), std::nullopt);
    EXPECT_EQ(material_of(back.children()[1]), "metal");  // the Model's own mesh
}

// Every way a mesh of `there` ('wood') reaches the side of `here`'s 'metal', whose hash its link
// holds, through a Model taken out of `here`: on main it left that Model with `here`'s serial,
// so `here` kept its link, and each way bound it to 'metal'.
TEST(LinkScope, AMeshTakenThroughAModelOfAnotherDocumentLosesItsLinkWhereverItGoes) {
    for (int way = 0; way < 4; ++way) {
        SCOPED_TRACE(way);
        cast::Document here = scene("metal", "neck");
        cast::Document there = scene("wood", "head");
        here.root_nodes().at(0).add_model();
        std::unique_ptr<cast::Node> taken = here.roots()[0].take_child(1);
        // Taken out of `there` with take_children_if this time.
        auto meshes = model_node(there).take_children_if(
            [](const cast::Node& node) { return node.is(cast::NodeId::Mesh); });
        ASSERT_EQ(meshes.size(), 1u);
        taken->add_child(std::move(meshes[0]));
        std::unique_ptr<cast::Node> mesh = taken->take_child(0);
        cast::Node& model = model_node(here);
        Diagnostics findings;
        const cast::Node* joined = nullptr;
        switch (way) {
            case 0:
                joined = &here.insert(std::move(mesh), &model, &findings);
                break;
            case 1:
                joined = &model.add_child(std::move(mesh), &findings);
                break;
            case 2:
                joined = &here.adopt(*mesh, &model, &findings);
                break;
            case 3: {  // through a clone of the Model it passed through
                auto holder = std::make_unique<cast::Node>(cast::NodeId::Model, 9);
                holder->add_child(std::move(mesh));
                joined = &here.adopt(holder->children()[0], &model, &findings);
                break;
            }
        }
        EXPECT_EQ(material_of(*joined), std::nullopt);
        EXPECT_EQ(joined->find("m"), nullptr);
    }
}

TEST(LinkScope, AModelHoldingAMeshOfAnotherDocumentIsCopiedOrMovedWithoutTheLink) {
    for (bool copy : {false, true}) {
        SCOPED_TRACE(copy ? "adopt" : "insert");
        cast::Document here = scene("metal", "neck");
        cast::Document there = scene("wood", "head");
        cast::Document third = scene("stone", "tail");
        std::unique_ptr<cast::Node> taken = here.roots()[0].take_child(0);
        taken->add_child(model_node(there).take_child(1));
        // In the third document the moved Model's 'metal' is in the subtree, so on main the
        // link counted as one inside it and was kept.
        cast::Node& root = third.roots()[0];
        const cast::Node& model =
            copy ? third.adopt(*taken, &root) : third.insert(std::move(taken), &root);
        EXPECT_EQ(material_of(model.children()[3]), std::nullopt);
        EXPECT_EQ(material_of(model.children()[1]), "metal");
    }
}

// A tree built in code holds no link of any document until a subtree joins it: then it is that
// subtree's, and what leaves it later carries that document's serial.
TEST(LinkScope, AMeshPassingThroughATreeBuiltInCodeKeepsItsDocument) {
    cast::Document here = scene("metal", "neck");
    cast::Document there = scene("wood", "head");
    auto holder = std::make_unique<cast::Node>(cast::NodeId::Model, 7);
    Diagnostics findings;
    holder->add_child(model_node(there).take_child(1), &findings);
    EXPECT_EQ(findings.size(), 0u);  // nothing to cut yet: it may go back
    std::unique_ptr<cast::Node> mesh = holder->take_child(0);
    cast::Node& moved = here.insert(std::move(mesh), &model_node(here), &findings);
    EXPECT_EQ(cuts(findings), 1u);
    EXPECT_EQ(material_of(moved), std::nullopt);
    // Back home through a tree built in code, its link is kept.
    auto home = std::make_unique<cast::Node>(cast::NodeId::Model, 7);
    home->add_child(model_node(here).take_child(1));
    cast::Node& back = here.insert(home->take_child(0), &model_node(here));
    EXPECT_EQ(material_of(back), "metal");
}

// Two documents' models under one taken Root share every hash; the joining one is renumbered
// on the way in, so its mesh still finds its own 'wood' wherever the Root goes.
TEST(LinkScope, AModelJoiningARootTakenOutOfAnotherDocumentKeepsItsOwnLinks) {
    cast::Document here = scene("metal", "neck");
    cast::Document there = scene("wood", "head");
    std::unique_ptr<cast::Node> root = here.take_root(0);
    Diagnostics findings;
    cast::Node& joined = root->add_child(there.roots()[0].take_child(0), &findings);
    EXPECT_EQ(findings.size(), 0u);
    EXPECT_EQ(material_of(joined.children()[1]), "wood");
    EXPECT_NE(joined.hash(), root->children()[0].hash());
    cast::Document fresh;
    const cast::Node& placed = fresh.insert(std::move(root));
    EXPECT_EQ(material_of(placed.children()[0].children()[1]), "metal");
    EXPECT_EQ(material_of(placed.children()[1].children()[1]), "wood");
    for (const Diagnostic& d : validation_findings(fresh))
        EXPECT_NE(d.rule, "mesh.material") << d.to_string();
}

}  // namespace
}  // namespace castkit::test::link_scope_test
