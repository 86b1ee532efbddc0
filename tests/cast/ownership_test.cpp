// Who owns what (document.hpp): a Document keeps alive every byte its nodes view, copies and
// clones keep their bytes alive on their own, and the hash counter moves with the document.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <memory>
#include <optional>

#include "../test_support.hpp"

namespace castkit::test::ownership_test {
namespace {

using namespace castkit::cast;

std::filesystem::path edge(const char* name) { return fixtures() / "cast" / "edge" / name; }

std::vector<glm::vec3> triangle_positions(const Node& root) {
    return view_of<ConstRoot>(root).models().at(0).meshes().at(0).positions().to_vector();
}

// Issue 12: a clone kept pointing into the source's memory map, so reading it after the source
// died was a use after free (a crash once the mapping is gone).
TEST(Ownership, CloneOutlivesTheMappedDocumentItCameFrom) {
    std::unique_ptr<Node> clone;
    std::vector<glm::vec3> expected;
    {
        auto source = open_cast(edge("triangle.cast"));
        ASSERT_TRUE(source) << source.error().to_string();
        expected = triangle_positions(source->roots()[0]);
        clone = source->roots()[0].clone();
    }
    ASSERT_EQ(expected.size(), 3u);
    EXPECT_EQ(triangle_positions(*clone), expected);
}

TEST(Ownership, CloneIntoAnotherDocumentOutlivesTheSource) {
    Document target;
    std::vector<glm::vec3> expected;
    {
        auto source = open_cast(edge("triangle.cast"));
        ASSERT_TRUE(source);
        expected = triangle_positions(source->roots()[0]);
        target.insert(source->roots()[0].clone());  // an empty target: hashes kept
    }
    auto written = write_to_buffer(target);
    ASSERT_TRUE(written);
    EXPECT_EQ(*written, read_bytes(edge("triangle.cast")));
    EXPECT_EQ(triangle_positions(target.roots()[0]), expected);
}

// read_cast(Bytes) borrows; a clone copies borrowed payloads, so it does not depend on the caller's
// buffer either.
TEST(Ownership, CloneOfABorrowingDocumentOutlivesTheBorrowedBytes) {
    auto bytes = std::make_unique<std::vector<std::byte>>(read_bytes(edge("triangle.cast")));
    auto source = read_cast(Bytes(*bytes));
    ASSERT_TRUE(source);
    const std::vector<glm::vec3> expected = triangle_positions(source->roots()[0]);
    std::unique_ptr<Node> clone = source->roots()[0].clone();
    source = Document();
    std::fill(bytes->begin(), bytes->end(), std::byte{0xCD});
    bytes.reset();
    EXPECT_EQ(triangle_positions(*clone), expected);
}

// Issue 45 item 6: Document::clone kept the bytes after the last root (rule 10) borrowed, so a
// clone of a read_cast(Bytes) document read freed memory once the caller's bytes were gone.
TEST(Ownership, DocumentCloneOwnsTheTrailingBytesOfABorrowingDocument) {
    const std::string tail = "TAIL1234";
    std::vector<std::byte> file = read_bytes(edge("triangle.cast"));
    for (char c : tail) file.push_back(std::byte(c));
    auto bytes = std::make_unique<std::vector<std::byte>>(file);
    std::optional<Document> clone;
    {
        auto source = read_cast(Bytes(*bytes));
        ASSERT_TRUE(source);
        ASSERT_EQ(source->trailing.size(), tail.size());
        clone = source->clone();
    }
    std::fill(bytes->begin(), bytes->end(), std::byte{0xCD});
    bytes.reset();
    auto written = write_to_buffer(*clone);
    ASSERT_TRUE(written);
    EXPECT_EQ(*written, file);
}

// Issue 30 item 9: a property copied out of a read_cast(Bytes) document kept viewing the caller's
// bytes, and read freed memory once they were gone.
TEST(Ownership, CopiedPropertyOfABorrowingDocumentOutlivesTheBorrowedBytes) {
    auto bytes = std::make_unique<std::vector<std::byte>>(read_bytes(edge("triangle.cast")));
    std::optional<Property> copy;
    std::vector<glm::vec3> expected;
    {
        auto source = read_cast(Bytes(*bytes));
        ASSERT_TRUE(source);
        ConstMesh mesh = std::as_const(*source).models().at(0).meshes().at(0);
        expected = mesh.positions().to_vector();
        copy = *mesh.node().find("vp");
    }
    std::fill(bytes->begin(), bytes->end(), std::byte{0xCD});
    bytes.reset();
    ASSERT_EQ(expected.size(), 3u);
    EXPECT_EQ(ArrayView<glm::vec3>::of(&*copy).to_vector(), expected);
}

TEST(Ownership, CopiedPropertyKeepsTheMappingAlive) {
    std::optional<Property> copy;
    std::vector<glm::vec3> expected;
    {
        auto source = open_cast(edge("triangle.cast"));
        ASSERT_TRUE(source);
        ConstMesh mesh = std::as_const(*source).models().at(0).meshes().at(0);
        expected = mesh.positions().to_vector();
        copy = *mesh.node().find("vp");
    }
    EXPECT_EQ(ArrayView<glm::vec3>::of(&*copy).to_vector(), expected);
}

TEST(Ownership, OpaqueTailOfACloneOutlivesTheSource) {
    std::unique_ptr<Node> clone;
    std::vector<std::byte> expected;
    {
        auto source = open_cast(edge("unknown-property-type.cast"));
        ASSERT_TRUE(source);
        clone = source->roots()[0].clone();
        auto written = write_to_buffer(*source);
        ASSERT_TRUE(written);
        expected = *written;
    }
    Document rebuilt;
    rebuilt.insert(std::move(clone));
    auto written = write_to_buffer(rebuilt);
    ASSERT_TRUE(written);
    EXPECT_EQ(*written, expected);
}

TEST(Ownership, MovedDocumentKeepsItsViewsValid) {
    auto source = open_cast(edge("triangle.cast"));
    ASSERT_TRUE(source);
    Mesh mesh = source->models().at(0).meshes().at(0);
    Document moved = std::move(*source);
    source = Document();  // the moved-from document dies first
    EXPECT_EQ(mesh.positions().size(), 3u);
    EXPECT_EQ(moved.models().at(0).meshes().at(0).hash(), mesh.hash());
}

// Issue 12: views held a Document*, so after a move, nodes added through an existing view drew
// hashes from the moved-from counter, and two new Models got the same hash.
TEST(HashCounter, ViewsMadeBeforeAMoveDrawFromTheDocumentTheNodesMovedTo) {
    Document original;
    Root root = original.add_root();
    Document moved = std::move(original);
    Model through_old_view = root.add_model();
    Model through_new_view = moved.root_nodes().at(0).add_model();
    EXPECT_NE(through_old_view.hash(), through_new_view.hash());
    EXPECT_NE(through_old_view.hash(), root.hash());
    EXPECT_NE(through_new_view.hash(), root.hash());
}

TEST(HashCounter, MoveAssignmentCarriesTheCounter) {
    Document original;
    Root root = original.add_root();
    Model first = root.add_model();
    Document target;
    target.add_root();  // a counter of its own, replaced by the assignment
    target = std::move(original);
    Model second = root.add_model();
    Model third = target.root_nodes().at(0).add_model();
    std::set<std::uint64_t> hashes{root.hash(), first.hash(), second.hash(), third.hash()};
    EXPECT_EQ(hashes.size(), 4u);
}

// Issue 30 item 1: a view kept a raw pointer to its document's counter. Moving a root into
// another document through the public vector, destroying the source, then adding through the
// old view was a heap-use-after-free (silent heap corruption in Release). A view now reaches
// the counter through its node's tree: the one of the document the node is in now.
TEST(HashCounter, AViewOutlivingItsDocumentDrawsFromTheDocumentItsNodeIsIn) {
    Document target;
    Model resident = target.add_root().add_model();
    std::optional<Model> survivor;
    {
        Document source;
        survivor = source.add_root().add_model();
        target.insert(source.take_root(0));
    }
    survivor->add_mesh();
    survivor->add_mesh();
    resident.add_mesh();
    const HashTally tally = tally_hashes(target);
    EXPECT_EQ(tally.nodes, 7u);  // two roots, two models, three meshes
    EXPECT_EQ(tally.hashes.size(), tally.nodes);
    EXPECT_EQ(target.models().at(1).meshes().size(), 2u);
    EXPECT_EQ(survivor->node().document(), &target);
}

TEST(HashCounter, NewNodesSkipHashesReadFromTheFile) {
    auto document = open_cast(edge("triangle.cast"));
    ASSERT_TRUE(document);
    std::set<std::uint64_t> stored;
    for (const Node& root : document->roots()) {
        stored.insert(root.hash());
        for (const Node& child : root.children()) stored.insert(child.hash());
    }
    Document moved = std::move(*document);
    Model added = moved.root_nodes().at(0).add_model();
    EXPECT_FALSE(stored.contains(added.hash()));
}

}  // namespace
}  // namespace castkit::test::ownership_test
