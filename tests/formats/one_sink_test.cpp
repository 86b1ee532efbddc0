// One Diagnostics sink, passed explicitly, through a read, a check and a write (issue 30 item
// 3): each step adds its findings after those already there, and nothing any step finds is
// dropped on the way, not even the warnings of a file a writer reads for itself.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/gltf.hpp>
#include <castkit/registry.hpp>
#include <string>
#include <vector>

#include "../test_support.hpp"

namespace castkit::test::one_sink_test {
namespace {

std::vector<std::string> rules_of(const Diagnostics& diagnostics) {
    std::vector<std::string> rules;
    for (const Diagnostic& d : diagnostics) rules.push_back(d.rule);
    return rules;
}

// A triangle whose third face index is past its three vertices.
cast::Document broken_triangle() {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 5});
    return document;
}

TEST(OneSink, ReadValidateAndWriteAddTheirFindingsInOrder) {
    const std::filesystem::path dir = temp_dir("one-sink-order");
    Diagnostics sink;
    const std::filesystem::path trailing = fixtures() / "cast" / "edge" / "trailing-bytes.cast";
    auto document =
        formats::read_file(*format_by_name("cast"), trailing, formats::context_for(trailing), sink);
    ASSERT_TRUE(document) << document.error().to_string();
    cast::validate(*document, sink);
    BufferSink bytes;
    ASSERT_TRUE(formats::write(*format_by_name("glb"), broken_triangle(), bytes,
                               WriteContext{.name = "out.glb"}, sink));
    EXPECT_EQ(rules_of(sink), (std::vector<std::string>{"cast.trailing", "output.face-index"}));
    EXPECT_EQ(sink[0].file, trailing.string());
    EXPECT_EQ(sink[1].file, "out.glb");
    EXPECT_EQ(sink[1].path, "root[0]/model[0]/mesh[0]");
}

// A file merged into a glTF export (--inline-instances) is read by the writer; its reader's
// warnings reach the writer's sink, named by that file. They used to be dropped.
TEST(OneSink, AnInlinedInstanceReportsItsReadersWarnings) {
    const std::filesystem::path dir = temp_dir("one-sink-instance");
    std::vector<std::byte> prop = read_bytes(fixtures() / "cast" / "edge" / "triangle.cast");
    prop.resize(prop.size() + 8, std::byte{0});  // 8 bytes after the last root
    write_bytes(dir / "prop.cast", prop);
    cast::Document scene;
    cast::Instance instance = scene.add_root().add_instance();
    cast::File file = instance.add_file("prop.cast");
    instance.set_reference_file(file);
    Diagnostics sink;
    ASSERT_TRUE(gltf::write(scene, dir / "scene.glb", {.inline_instances = true}, sink));
    ASSERT_EQ(rules_of(sink), std::vector<std::string>{"cast.trailing"});
    EXPECT_EQ(std::filesystem::path(sink[0].file).filename(), "prop.cast");
}

}  // namespace
}  // namespace castkit::test::one_sink_test
