// The hand-made edge files: each test asserts what fixtures/cast/edge/EXPECT.tsv says about its
// file, and CoversEveryLineOfExpectTsv fails when EXPECT.tsv lists a file no test here checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <fstream>
#include <set>
#include <string_view>

#include "../test_support.hpp"

namespace castkit::test::edge_fixtures_test {
namespace {

using namespace castkit::cast;

// The files the tests below check; edge() refuses any other name.
constexpr std::array<std::string_view, 18> kCovered = {
    "triangle.cast",
    "unknown-property-type.cast",
    "string-count-0.cast",
    "string-count-2.cast",
    "nodesize-too-small.cast",
    "nodesize-past-end.cast",
    "version-2.cast",
    "flags-set.cast",
    "trailing-bytes.cast",
    "truncated.cast",
    "huge-array-claim.cast",
    "duplicate-property.cast",
    "bad-magic.cast",
    "empty.cast",
    "no-roots.cast",
    "non-root-top.cast",
    "bone-parent-minus-one.cast",
    "legacy-vc.cast",
};

std::filesystem::path edge(std::string_view name) {
    EXPECT_NE(std::find(kCovered.begin(), kCovered.end(), name), kCovered.end()) << name;
    return fixtures() / "cast" / "edge" / std::string(name);
}

// The document, its reader's warnings added to `warnings`.
Document open_ok(std::string_view name, Diagnostics& warnings) {
    auto document = open(edge(name), warnings);
    EXPECT_TRUE(document) << document.error().to_string();
    if (!document) return Document();
    return std::move(*document);
}

Document open_ok(std::string_view name) {
    Diagnostics warnings;  // looked at by the tests that pass their own
    return open_ok(name, warnings);
}

Diagnostic open_error(std::string_view name) {
    Diagnostics warnings;
    auto document = open(edge(name), warnings);
    EXPECT_FALSE(document) << name << " was read";
    if (document) return {};
    EXPECT_EQ(std::filesystem::path(document.error().file).filename(), name);
    return document.error();
}

void expect_byte_identical_rewrite(const Document& document, std::string_view name) {
    auto written = write_to_buffer(document);
    ASSERT_TRUE(written);
    EXPECT_EQ(*written, read_bytes(edge(name)));
}

std::vector<std::string> rules(const Diagnostics& warnings) {
    std::vector<std::string> out;
    for (const Diagnostic& d : warnings) out.push_back(d.rule);
    return out;
}

std::uint32_t u32_at(const std::vector<std::byte>& bytes, std::size_t offset) {
    return load<std::uint32_t>(bytes.data() + offset);
}

// A rewrite of a file whose root NodeSize is wrong: only the root's NodeSize changes, to the
// content's size, and the result reads without warnings.
void expect_nodesize_corrected(std::string_view name) {
    Diagnostics warnings;
    Document document = open_ok(name, warnings);
    ASSERT_EQ(rules(warnings), std::vector<std::string>{"cast.nodesize"});
    EXPECT_EQ(warnings[0].offset, 0x14u);
    EXPECT_EQ(warnings[0].path, "root[0]");
    auto original = read_bytes(edge(name));
    auto written = write_to_buffer(document);
    ASSERT_TRUE(written);
    ASSERT_EQ(written->size(), original.size());
    EXPECT_EQ(u32_at(*written, 0x14), original.size() - 16);
    EXPECT_NE(u32_at(original, 0x14), original.size() - 16);
    for (std::size_t i = 0; i < original.size(); ++i)
        if (i < 0x14 || i >= 0x18) {
            EXPECT_EQ((*written)[i], original[i]) << "byte " << i;
        }
    Diagnostics reread_warnings;
    auto reread = read(*written, "", reread_warnings);
    ASSERT_TRUE(reread);
    EXPECT_TRUE(reread_warnings.empty());
}

TEST(EdgeFixtures, CoversEveryLineOfExpectTsv) {
    std::ifstream in(fixtures() / "cast" / "edge" / "EXPECT.tsv");
    ASSERT_TRUE(in);
    std::set<std::string> listed;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) listed.insert(line.substr(0, line.find('\t')));
    EXPECT_EQ(listed.size(), kCovered.size());
    for (const std::string& name : listed)
        EXPECT_NE(std::find(kCovered.begin(), kCovered.end(), name), kCovered.end())
            << "EXPECT.tsv lists " << name << " but no test checks it";
    for (const auto& entry : std::filesystem::directory_iterator(fixtures() / "cast" / "edge"))
        if (entry.path().extension() == ".cast") {
            EXPECT_TRUE(listed.contains(entry.path().filename().string()))
                << entry.path().filename() << " is not in EXPECT.tsv";
        }
}

TEST(EdgeFixtures, TriangleReadsAsRootModelMesh) {
    Diagnostics warnings;
    Document document = open_ok("triangle.cast", warnings);
    EXPECT_TRUE(warnings.empty());
    auto models = document.models();
    ASSERT_EQ(models.size(), 1u);
    EXPECT_EQ(models[0].name(), "Triangle");
    auto meshes = models[0].meshes();
    ASSERT_EQ(meshes.size(), 1u);
    EXPECT_EQ(meshes[0].vertex_count(), 3u);
    EXPECT_EQ(meshes[0].positions()[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(meshes[0].faces().stored_type(), PropertyType::Byte);
    EXPECT_EQ(meshes[0].faces().to_vector(), (std::vector<std::uint32_t>{0, 1, 2}));
    expect_byte_identical_rewrite(document, "triangle.cast");
}

TEST(EdgeFixtures, UnknownPropertyTypeKeepsTheRestOfTheNodeOpaque) {
    Diagnostics warnings;
    Document document = open_ok("unknown-property-type.cast", warnings);
    ASSERT_EQ(rules(warnings), std::vector<std::string>{"cast.unknown-property-type"});
    const Diagnostic& warning = warnings[0];
    EXPECT_EQ(warning.offset, 0x4eu);
    EXPECT_EQ(warning.path, "root[0]/model[0]");
    // EXPECT.tsv calls the type 0x7171; the file's bytes are 'q' 0x00, which is 0x0071.
    EXPECT_NE(warning.message.find("'zz'"), std::string::npos) << warning.message;
    EXPECT_NE(warning.message.find("0x0071"), std::string::npos) << warning.message;

    ASSERT_EQ(document.roots().size(), 1u);
    Node& root = document.roots()[0];
    ASSERT_EQ(root.children().size(), 2u);
    Node& model = root.children()[0];
    EXPECT_EQ(model.hash(), 0x201u);
    ASSERT_EQ(model.properties.size(), 1u);
    EXPECT_EQ(model.properties[0].string(), "kept");
    EXPECT_TRUE(model.children().empty());
    auto original = read_bytes(edge("unknown-property-type.cast"));
    const std::size_t model_end = 0x28 + u32_at(original, 0x28 + 4);  // model at 0x28
    ASSERT_EQ(model.opaque().size(), model_end - 0x4e);
    EXPECT_TRUE(std::equal(model.opaque().begin(), model.opaque().end(), original.begin() + 0x4e));

    Node& metadata = root.children()[1];
    EXPECT_EQ(metadata.hash(), 0x203u);
    EXPECT_EQ(view_of<ConstMetadata>(std::as_const(metadata)).author(), "still read");
    expect_byte_identical_rewrite(document, "unknown-property-type.cast");
}

// Editing a node with an opaque tail: new properties go before the tail and new children after
// it, and the header counts cover both, so other readers still find every property and child.
TEST(EdgeFixtures, EditsToANodeWithAnOpaqueTailAreWrittenAndCounted) {
    Document document = open_ok("unknown-property-type.cast");
    ASSERT_EQ(document.roots().size(), 1u);
    ASSERT_EQ(document.roots()[0].children().size(), 2u);
    Model model = view_of<Model>(document.roots()[0].children()[0]);
    model.set_scale({2, 2, 2});
    model.add_skeleton().add_bone().set_name("added");
    auto written = write_to_buffer(document);
    ASSERT_TRUE(written);
    EXPECT_EQ(written->size(), file_size(document));
    // The model now stores n, s, then zz and the one property after it inside the tail:
    // 4 properties; and the mesh inside the tail plus the new skeleton: 2 children.
    EXPECT_EQ(u32_at(*written, 0x28 + 16), 4u);
    EXPECT_EQ(u32_at(*written, 0x28 + 20), 2u);
    Diagnostics reread_warnings;
    auto reread = read(*written, "", reread_warnings);
    ASSERT_TRUE(reread) << reread.error().to_string();
    ASSERT_EQ(rules(reread_warnings), std::vector<std::string>{"cast.unknown-property-type"});
    ASSERT_EQ(reread->roots()[0].children().size(), 2u);
    const Node& model_again = reread->roots()[0].children()[0];
    ASSERT_EQ(model_again.properties.size(), 2u);
    EXPECT_EQ(model_again.properties[1].name(), "s");
    EXPECT_EQ(model_again.opaque().size(),
              model.node().opaque().size() + model.node().children()[0].computed_size());
    EXPECT_EQ(view_of<ConstMetadata>(std::as_const(reread->roots()[0].children()[1])).author(),
              "still read");
}

TEST(EdgeFixtures, StringCountZeroHoldsNoString) {
    Diagnostics warnings;
    Document document = open_ok("string-count-0.cast", warnings);
    EXPECT_TRUE(warnings.empty());
    Metadata metadata = document.root_nodes().at(0).metadata().at(0);
    const Property* a = metadata.node().find("a");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->count(), 0u);
    EXPECT_EQ(a->size(), 0u);
    EXPECT_TRUE(a->bytes().empty());
    EXPECT_FALSE(metadata.author().has_value());
    EXPECT_EQ(metadata.software(), "castkit");
    expect_byte_identical_rewrite(document, "string-count-0.cast");
}

TEST(EdgeFixtures, StringCountTwoHoldsTwoStrings) {
    Document document = open_ok("string-count-2.cast");
    Metadata metadata = document.root_nodes().at(0).metadata().at(0);
    const Property* a = metadata.node().find("a");
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(a->size(), 2u);
    EXPECT_EQ(a->string(0), "first");
    EXPECT_EQ(a->string(1), "second");
    EXPECT_EQ(metadata.up_axis_name(), "z");
    expect_byte_identical_rewrite(document, "string-count-2.cast");
}

TEST(EdgeFixtures, NodeSizeTooSmallWarnsAndRewriteCorrectsIt) {
    expect_nodesize_corrected("nodesize-too-small.cast");
}

TEST(EdgeFixtures, NodeSizePastEndWarnsAndRewriteCorrectsIt) {
    expect_nodesize_corrected("nodesize-past-end.cast");
    Diagnostics warnings;
    Document document = open_ok("nodesize-past-end.cast", warnings);
    EXPECT_NE(warnings.at(0).message.find("past the end of the file"), std::string::npos);
}

TEST(EdgeFixtures, Version2IsAnErrorNamingTheVersion) {
    Diagnostic error = open_error("version-2.cast");
    EXPECT_EQ(error.offset, 4u);
    EXPECT_NE(error.message.find("unsupported version 2"), std::string::npos) << error.message;
}

TEST(EdgeFixtures, FlagsSetWarnsAndKeepsTheFlags) {
    Diagnostics warnings;
    Document document = open_ok("flags-set.cast", warnings);
    ASSERT_EQ(rules(warnings), std::vector<std::string>{"cast.flags"});
    EXPECT_EQ(warnings[0].offset, 12u);
    EXPECT_NE(document.flags, 0u);
    EXPECT_EQ(document.models().size(), 1u);
    expect_byte_identical_rewrite(document, "flags-set.cast");
}

TEST(EdgeFixtures, TrailingBytesWarnAndAreKept) {
    Diagnostics warnings;
    Document document = open_ok("trailing-bytes.cast", warnings);
    ASSERT_EQ(rules(warnings), std::vector<std::string>{"cast.trailing"});
    EXPECT_NE(warnings[0].message.find("8 bytes after the last root"), std::string::npos);
    EXPECT_EQ(document.trailing.size(), 8u);
    expect_byte_identical_rewrite(document, "trailing-bytes.cast");
}

TEST(EdgeFixtures, TruncatedNamesThePropertyAndNode) {
    Diagnostic error = open_error("truncated.cast");
    // The file ends 5 bytes into the header of the mesh's third property (the `b` faces):
    // the name 'f' is past the end, so the message names the property by position and type.
    EXPECT_EQ(error.offset, 0xaau);
    EXPECT_EQ(error.path, "root[0]/model[0]/mesh[0]");
    EXPECT_EQ(error.rule, "cast.truncated");
    EXPECT_NE(error.message.find("property 3 of 3"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("'b'"), std::string::npos) << error.message;
}

TEST(EdgeFixtures, HugeArrayClaimIsRefusedBeforeAllocating) {
    Diagnostic error = open_error("huge-array-claim.cast");
    EXPECT_EQ(error.path, "root[0]/model[0]/mesh[0]");
    EXPECT_EQ(error.offset, 0x5cu);
    EXPECT_EQ(error.rule, "cast.count-past-end");
    EXPECT_NE(error.message.find("property 'vp' claims 2147483647 v3 values"), std::string::npos)
        << error.message;
    EXPECT_NE(error.message.find("the node has 12 bytes left"), std::string::npos) << error.message;
}

TEST(EdgeFixtures, DuplicatePropertiesAreKeptAndTheLastWins) {
    Document document = open_ok("duplicate-property.cast");
    Model model = document.models().at(0);
    ASSERT_EQ(model.node().properties.size(), 2u);
    EXPECT_EQ(model.node().properties[0].string(), "first");
    EXPECT_EQ(model.node().properties[1].string(), "last");
    EXPECT_EQ(model.name(), "last");
    expect_byte_identical_rewrite(document, "duplicate-property.cast");
}

TEST(EdgeFixtures, BadMagicIsNotACastFile) {
    Diagnostic error = open_error("bad-magic.cast");
    EXPECT_EQ(error.offset, 0u);
    EXPECT_EQ(error.rule, "cast.bad-magic");
}

TEST(EdgeFixtures, EmptyFileIsATruncatedHeader) {
    Diagnostic error = open_error("empty.cast");
    EXPECT_EQ(error.rule, "cast.truncated");
    EXPECT_EQ(error.offset, 0u);
}

TEST(EdgeFixtures, NoRootsIsAValidFile) {
    Diagnostics warnings;
    Document document = open_ok("no-roots.cast", warnings);
    EXPECT_TRUE(document.roots().empty());
    EXPECT_TRUE(warnings.empty());
    expect_byte_identical_rewrite(document, "no-roots.cast");
}

TEST(EdgeFixtures, NonRootTopNodeIsReadAsIs) {
    // Reading succeeds; reporting that a top-level node must be a Root is validation's job.
    Document document = open_ok("non-root-top.cast");
    ASSERT_EQ(document.roots().size(), 1u);
    EXPECT_TRUE(document.roots()[0].is(NodeId::Model));
    EXPECT_TRUE(document.root_nodes().empty());
    EXPECT_EQ(document.roots()[0].find("n")->string(), "orphan");
    expect_byte_identical_rewrite(document, "non-root-top.cast");
}

TEST(EdgeFixtures, BoneParentMinusOneIsNoParent) {
    Document document = open_ok("bone-parent-minus-one.cast");
    auto bones = document.models().at(0).skeleton().bones();
    ASSERT_EQ(bones.size(), 2u);
    EXPECT_EQ(bones[0].name(), "root");
    EXPECT_EQ(bones[0].parent_index(), -1);
    EXPECT_EQ(bones[1].name(), "child");
    EXPECT_EQ(bones[1].parent_index(), 0);
    EXPECT_TRUE(bones[0].segment_scale_compensate());
    EXPECT_TRUE(bones[1].segment_scale_compensate());
    expect_byte_identical_rewrite(document, "bone-parent-minus-one.cast");
}

TEST(EdgeFixtures, LegacyVcIsColourLayerZero) {
    Document document = open_ok("legacy-vc.cast");
    Mesh mesh = document.models().at(0).meshes().at(0);
    EXPECT_EQ(mesh.color_layer_count(), 1u);
    EXPECT_TRUE(mesh.color_layer_is_packed(0));
    auto colours = mesh.color_layer(0);
    ASSERT_EQ(colours.size(), 3u);
    EXPECT_EQ(colours[0], glm::vec4(1, 0, 0, 1));
    EXPECT_EQ(colours[1], glm::vec4(0, 1, 0, 1));
    EXPECT_EQ(colours[2], glm::vec4(0, 0, 1, 128.0f / 255.0f));
    EXPECT_NEAR(colours[2].a, 0.502f, 0.0005f);
    expect_byte_identical_rewrite(document, "legacy-vc.cast");
}

}  // namespace
}  // namespace castkit::test::edge_fixtures_test
