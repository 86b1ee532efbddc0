// The check before every write (docs/diagnostics.md, "Before every write"): one broken mesh
// written to glTF, SEModel, DMF (binary and JSON) and K3D gives the same findings and loses the
// same parts in each; with strict every format refuses it and writes nothing.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/formats/gltf.hpp>
#include <castkit/formats/k3d.hpp>
#include <castkit/formats/semodel.hpp>
#include <castkit/registry.hpp>
#include <castkit/sink.hpp>
#include <glm/geometric.hpp>
#include <limits>
#include <set>
#include <tuple>

#include "../test_support.hpp"

namespace castkit::test::write_check_test {
namespace {

const std::vector<std::string> kMeshFormats = {"glb", "gltf", "semodel", "dmf", "dmf-json", "k3d"};
const std::string kMeshPath = "root[0]/model[0]/mesh[0]";
// A UV no vertex has but those of the short UV layer.
const glm::vec2 kShortLayerUv(0.25f, 0.75f);

// What is broken in the test mesh.
struct Breaks {
    bool short_uvs = false;      // u0 holds 2 UVs for 4 vertices
    bool missing_bone = false;   // vertex 0 weighs 0.5 on bone 5 of a 2-bone skeleton
    bool bad_triangle = false;   // the third triangle names vertex 7
    bool short_weights = false;  // wb and wv hold 6 entries for 4 vertices × mi 2
};

// A quad (two triangles) on a two-bone skeleton ("root", "child"); vertex 0 at the origin weighs
// 0.5 on "root", vertex 2 at (1, 1, 0) weighs 1 on "child"; broken as `breaks` says.
cast::Document broken_quad(const Breaks& breaks) {
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Skeleton skeleton = model.add_skeleton();
    cast::Bone root = skeleton.add_bone();
    root.set_name("root");
    root.set_parent_index(-1);
    cast::Bone child = skeleton.add_bone();
    child.set_name("child");
    child.set_parent_index(0);
    child.set_local_position(glm::vec3(0, 1, 0));
    cast::Mesh mesh = model.add_mesh();
    const std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    mesh.set_positions(positions);
    mesh.set_normals(std::vector<glm::vec3>(4, glm::vec3(0, 0, 1)));
    const std::vector<glm::vec2> uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const std::vector<glm::vec2> short_uvs = {kShortLayerUv, kShortLayerUv};
    EXPECT_TRUE(mesh.set_uv_layer(0, breaks.short_uvs ? short_uvs : uvs));
    std::vector<std::uint32_t> faces = {0, 1, 2, 0, 2, 3};
    if (breaks.bad_triangle) faces.insert(faces.end(), {0, 3, 7});
    mesh.set_faces(faces);
    std::vector<std::uint32_t> bones = {0, breaks.missing_bone ? 5u : 0u, 0, 0, 1, 0, 1, 0};
    std::vector<float> values = {0.5f, breaks.missing_bone ? 0.5f : 0.0f, 1, 0, 1, 0, 1, 0};
    if (breaks.short_weights) bones.resize(6), values.resize(6);
    EXPECT_TRUE(mesh.set_weights(2, bones, values));
    return document;
}

std::filesystem::path output_for(const std::filesystem::path& dir, const std::string& format) {
    const std::string extension = format == "dmf-json" ? "dmf.json" : format;
    return dir / fmt::format("quad.{}", extension);
}

struct Written {
    Expected<void> result;
    Diagnostics warnings;
};
Written write_as(const cast::Document& document, const std::filesystem::path& path,
                 const std::string& format, bool strict) {
    WriteContext context = formats::context_for(path, {.strict = strict});
    Diagnostics warnings;
    auto result = formats::write_file(*format_by_name(format), document, path, context, warnings);
    return {std::move(result), std::move(warnings)};
}

// The findings of the check before writing: (severity, path, id) of each output.* one.
using Finding = std::tuple<Severity, std::string, std::string>;
std::vector<Finding> findings_of(const Diagnostics& warnings) {
    std::vector<Finding> out;
    for (const Diagnostic& d : warnings)
        if (d.rule.starts_with("output.")) out.emplace_back(d.severity, d.path, d.rule);
    return out;
}

cast::Document read_back(const std::filesystem::path& path, const std::string& format) {
    const ReadContext context = formats::context_for(path);
    Diagnostics warnings;
    auto document = formats::read_file(*format_by_name(format), path, context, warnings);
    EXPECT_TRUE(document) << format << ": " << document.error().to_string();
    return document ? std::move(*document) : cast::Document{};
}

// The names of the bones that vertices at `position` weigh on (weight above 0), over every
// mesh of the first model; fails when no vertex is there.
std::set<std::string> bones_weighing(const cast::Document& document, const glm::vec3& position) {
    const cast::ConstModel model = document.models().at(0);
    const std::vector<cast::ConstBone> skeleton = model.skeleton().bones();
    std::set<std::string> names;
    bool found = false;
    for (const cast::ConstMesh& mesh : model.meshes()) {
        const std::uint32_t influences = mesh.max_weight_influence();
        const auto bones = mesh.weight_bones();
        const auto values = mesh.weight_values();
        for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
            if (glm::distance(mesh.positions()[v], position) > 1e-5f) continue;
            found = true;
            for (std::size_t k = v * influences; k < (v + 1) * influences && k < values.size(); ++k)
                if (values[k] > 0.0f)
                    names.insert(bones[k] < skeleton.size()
                                     ? std::string(skeleton[bones[k]].name().value_or(""))
                                     : fmt::format("missing bone {}", bones[k]));
        }
    }
    EXPECT_TRUE(found) << "no vertex at " << position.x << ", " << position.y;
    return names;
}

std::size_t triangles(const cast::Document& document) {
    std::size_t count = 0;
    for (const cast::ConstMesh& mesh : document.models().at(0).meshes()) count += mesh.face_count();
    return count;
}

bool has_uv(const cast::Document& document, const glm::vec2& uv) {
    for (const cast::ConstMesh& mesh : document.models().at(0).meshes())
        for (std::uint32_t layer = 0; layer < mesh.uv_layer_count(); ++layer) {
            const auto uvs = mesh.uv_layer(layer);
            for (std::size_t v = 0; v < uvs.size(); ++v)
                if (glm::distance(uvs[v], uv) < 1e-5f) return true;
        }
    return false;
}

TEST(PreWrite, EveryFormatLeavesOutTheSameBrokenParts) {
    const cast::Document broken =
        broken_quad({.short_uvs = true, .missing_bone = true, .bad_triangle = true});
    const std::vector<Finding> expected = {{Severity::Warning, kMeshPath, "output.buffer-length"},
                                           {Severity::Warning, kMeshPath, "output.weight-bone"},
                                           {Severity::Warning, kMeshPath, "output.face-index"}};
    const std::filesystem::path dir = temp_dir("pre_write_formats");
    for (const std::string& format : kMeshFormats) {
        SCOPED_TRACE(format);
        const std::filesystem::path path = output_for(dir, format);
        Written written = write_as(broken, path, format, false);
        ASSERT_TRUE(written.result) << written.result.error().to_string();
        EXPECT_EQ(findings_of(written.warnings), expected);
        for (const Diagnostic& d : written.warnings)
            EXPECT_TRUE(!d.rule.starts_with("output.") || d.file == path.string()) << d.file;
        const cast::Document back = read_back(path, format);
        EXPECT_EQ(triangles(back), 2u);  // the triangle naming vertex 7 is gone, the quad is not
        // Vertex 0 keeps its weight on "root" without the one on the missing bone.
        EXPECT_EQ(bones_weighing(back, {0, 0, 0}), std::set<std::string>{"root"});
        EXPECT_EQ(bones_weighing(back, {1, 1, 0}), std::set<std::string>{"child"});
        EXPECT_FALSE(has_uv(back, kShortLayerUv));  // the short layer is gone whole, not padded
    }
    // The document given is not changed: the check repairs a copy.
    EXPECT_EQ(broken.models().at(0).meshes().at(0).face_count(), 3u);
}

TEST(PreWrite, ShortWeightBuffersAreLeftOutWhole) {
    const cast::Document broken = broken_quad({.short_weights = true});
    const std::filesystem::path dir = temp_dir("pre_write_weights");
    for (const std::string& format : kMeshFormats) {
        SCOPED_TRACE(format);
        const std::filesystem::path path = output_for(dir, format);
        Written written = write_as(broken, path, format, false);
        ASSERT_TRUE(written.result) << written.result.error().to_string();
        EXPECT_EQ(findings_of(written.warnings),
                  std::vector<Finding>({{Severity::Warning, kMeshPath, "output.buffer-length"}}));
        const cast::Document back = read_back(path, format);
        EXPECT_EQ(triangles(back), 2u);
        EXPECT_EQ(bones_weighing(back, {0, 0, 0}), std::set<std::string>{});
        EXPECT_EQ(bones_weighing(back, {1, 1, 0}), std::set<std::string>{});
    }
}

TEST(PreWrite, StrictRefusesEachBreakInEveryFormatAndWritesNothing) {
    const std::vector<std::pair<Breaks, std::string>> cases = {
        {{.short_uvs = true}, "output.buffer-length"},
        {{.short_weights = true}, "output.buffer-length"},
        {{.missing_bone = true}, "output.weight-bone"},
        {{.bad_triangle = true}, "output.face-index"}};
    const std::filesystem::path dir = temp_dir("pre_write_strict");
    for (const auto& [breaks, id] : cases) {
        const cast::Document broken = broken_quad(breaks);
        for (const std::string& format : kMeshFormats) {
            SCOPED_TRACE(format + " " + id);
            const std::filesystem::path path = output_for(dir, format);
            Written written = write_as(broken, path, format, true);
            ASSERT_FALSE(written.result);
            const Diagnostic& error = written.result.error();
            EXPECT_EQ(error.severity, Severity::Error);
            EXPECT_EQ(error.rule, id);
            EXPECT_EQ(error.path, kMeshPath);
            EXPECT_EQ(error.file, path.string());
            EXPECT_TRUE(findings_of(written.warnings).empty());
            EXPECT_FALSE(std::filesystem::exists(path));
        }
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir));  // no .bin, image or temporary file either
}

// gltf::write called directly runs the check as the registry's writers do.
TEST(PreWrite, GltfWriteCalledDirectlyChecksToo) {
    const cast::Document broken =
        broken_quad({.short_uvs = true, .missing_bone = true, .bad_triangle = true});
    const std::filesystem::path dir = temp_dir("pre_write_gltf_direct");
    Diagnostics warnings;
    ASSERT_TRUE(gltf::write(broken, dir / "quad.glb", {}, warnings));
    EXPECT_EQ(findings_of(warnings),
              std::vector<Finding>({{Severity::Warning, kMeshPath, "output.buffer-length"},
                                    {Severity::Warning, kMeshPath, "output.weight-bone"},
                                    {Severity::Warning, kMeshPath, "output.face-index"}}));
    EXPECT_EQ(triangles(read_back(dir / "quad.glb", "glb")), 2u);
}

// SEModel's, DMF's and K3D's from_cast called directly, not through the registry, run the same
// check: the same findings, and the files their models write lose the same parts.
TEST(PreWrite, EachFormatsFromCastCalledDirectlyChecksToo) {
    const cast::Document broken =
        broken_quad({.short_uvs = true, .missing_bone = true, .bad_triangle = true});
    const std::filesystem::path dir = temp_dir("pre_write_from_cast");
    using Convert =
        Expected<void> (*)(const cast::Document&, const std::filesystem::path&, Diagnostics&);
    const std::vector<std::pair<std::string, Convert>> formats = {
        {"semodel",
         [](const cast::Document& d, const std::filesystem::path& path, Diagnostics& w) {
             auto model = semodel::from_cast(d, w);
             return model ? semodel::write(*model, path) : make_error(model.error());
         }},
        {"dmf",
         [](const cast::Document& d, const std::filesystem::path& path, Diagnostics& w) {
             auto model = dmf::from_cast(d, w);
             return model ? dmf::write(*model, path) : make_error(model.error());
         }},
        {"k3d",
         [](const cast::Document& d, const std::filesystem::path& path, Diagnostics& w) {
             auto model = k3d::from_cast(d, w);
             return model ? k3d::write(*model, path) : make_error(model.error());
         }},
    };
    for (const auto& [format, convert] : formats) {
        SCOPED_TRACE(format);
        Diagnostics warnings;
        const std::filesystem::path path = output_for(dir, format);
        const Expected<void> written = convert(broken, path, warnings);
        ASSERT_TRUE(written) << written.error().to_string();
        EXPECT_EQ(findings_of(warnings),
                  std::vector<Finding>({{Severity::Warning, kMeshPath, "output.buffer-length"},
                                        {Severity::Warning, kMeshPath, "output.weight-bone"},
                                        {Severity::Warning, kMeshPath, "output.face-index"}}));
        const cast::Document back = read_back(path, format);
        EXPECT_EQ(triangles(back), 2u);
        EXPECT_EQ(bones_weighing(back, {0, 0, 0}), std::set<std::string>{"root"});
        EXPECT_FALSE(has_uv(back, kShortLayerUv));
    }
}

// Faces and weight bones stored as `l`, which the schema does not allow but the writers' views
// read, are checked as the writers read them: a bad triangle among them is left out too.
TEST(PreWrite, IndicesOfATypeTheSchemaRefusesAreCheckedAsWritersReadThem) {
    cast::Document broken = broken_quad({.missing_bone = true, .bad_triangle = true});
    cast::Mesh mesh = broken.models().at(0).meshes().at(0);
    const std::vector<std::uint32_t> faces = mesh.faces().to_vector();
    const std::vector<std::uint32_t> bones = mesh.weight_bones().to_vector();
    mesh.node().set(cast::make_integers("f", cast::PropertyType::Integer64, faces).value());
    mesh.node().set(cast::make_integers("wb", cast::PropertyType::Integer64, bones).value());
    const std::filesystem::path dir = temp_dir("pre_write_wide_indices");
    for (const std::string& format : kMeshFormats) {
        SCOPED_TRACE(format);
        const std::filesystem::path path = output_for(dir, format);
        Written written = write_as(broken, path, format, false);
        ASSERT_TRUE(written.result) << written.result.error().to_string();
        EXPECT_EQ(findings_of(written.warnings),
                  std::vector<Finding>({{Severity::Warning, kMeshPath, "output.weight-bone"},
                                        {Severity::Warning, kMeshPath, "output.face-index"}}));
        const cast::Document back = read_back(path, format);
        EXPECT_EQ(triangles(back), 2u);
        EXPECT_EQ(bones_weighing(back, {0, 0, 0}), std::set<std::string>{"root"});
    }
}

// A file an Instance names, merged into a glTF (FormatOptions::inline_instances, the default), is
// written too: its meshes are checked, named by that file, and under strict its finding refuses
// the whole write.
TEST(PreWrite, AnInlinedInstanceIsCheckedToo) {
    const std::filesystem::path dir = temp_dir("pre_write_instance");
    ASSERT_TRUE(cast::write(broken_quad({.bad_triangle = true}), dir / "prop.cast"));
    cast::Document scene;
    cast::Instance instance = scene.add_root().add_instance();
    cast::File file = instance.add_file("prop.cast");
    instance.set_reference_file(file);
    const FormatOptions inline_instances{.inline_instances = true};
    // --keep-instance-references: only named in extras, so nothing of it is checked.
    Diagnostics named;
    ASSERT_TRUE(formats::write_file(
        *format_by_name("glb"), scene, dir / "scene.glb",
        formats::context_for(dir / "scene.glb", {.inline_instances = false}), named));
    EXPECT_TRUE(findings_of(named).empty());
    for (const bool strict : {true, false}) {  // strict first: it must leave no file
        WriteContext context = formats::context_for(dir / "merged.glb", inline_instances);
        context.options.strict = strict;
        Diagnostics warnings;
        auto written = formats::write_file(*format_by_name("glb"), scene, dir / "merged.glb",
                                           context, warnings);
        const std::vector<Finding> found = findings_of(warnings);
        if (strict) {
            ASSERT_FALSE(written);
            EXPECT_EQ(written.error().rule, "output.face-index");
            EXPECT_EQ(std::filesystem::path(written.error().file).filename(), "prop.cast");
            EXPECT_TRUE(found.empty());
            EXPECT_FALSE(std::filesystem::exists(dir / "merged.glb"));
        } else {
            ASSERT_TRUE(written) << written.error().to_string();
            ASSERT_EQ(found,
                      std::vector<Finding>({{Severity::Warning, kMeshPath, "output.face-index"}}));
            for (const Diagnostic& d : warnings) {
                if (d.rule == "output.face-index") {
                    EXPECT_EQ(std::filesystem::path(d.file).filename(), "prop.cast");
                }
            }
            EXPECT_EQ(triangles(read_back(dir / "merged.glb", "glb")), 2u);
        }
    }
}

// Strict names every broken part in one run: the first finding is the error, the others are
// errors in the sink, in the order the check found them.
TEST(PreWrite, StrictReportsEveryFindingNotOnlyTheFirst) {
    const cast::Document broken =
        broken_quad({.short_uvs = true, .missing_bone = true, .bad_triangle = true});
    const std::filesystem::path dir = temp_dir("pre_write_strict_all");
    for (const std::string& format : kMeshFormats) {
        SCOPED_TRACE(format);
        Written written = write_as(broken, output_for(dir, format), format, true);
        ASSERT_FALSE(written.result);
        EXPECT_EQ(written.result.error().rule, "output.buffer-length");
        EXPECT_EQ(findings_of(written.warnings),
                  std::vector<Finding>({{Severity::Error, kMeshPath, "output.weight-bone"},
                                        {Severity::Error, kMeshPath, "output.face-index"}}));
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir));
}

TEST(PreWrite, AWholeMeshWritesAsItIsWithoutFindings) {
    const cast::Document whole = broken_quad({});
    for (const std::string& format : kMeshFormats) {
        BufferSink sink;
        WriteContext context{.name = "quad", .options = {.strict = true}};
        Diagnostics warnings;
        ASSERT_TRUE(formats::write(*format_by_name(format), whole, sink, context, warnings))
            << format;
        EXPECT_TRUE(findings_of(warnings).empty()) << format;
    }
}

// Only the triangles are written: indices after the last whole one are no finding, in any format.
TEST(PreWrite, IndicesAfterTheLastTriangleAreNoFinding) {
    cast::Document document = broken_quad({});
    document.models().at(0).meshes().at(0).set_faces(std::vector<std::uint32_t>{0, 1, 2, 9});
    for (const std::string& format : kMeshFormats) {
        BufferSink sink;
        WriteContext context{.name = "quad", .options = {.strict = true}};
        Diagnostics warnings;
        EXPECT_TRUE(formats::write(*format_by_name(format), document, sink, context, warnings))
            << format;
    }
}

// The later UV layers move down past a dropped one, so that no layer number is skipped (a glTF
// TEXCOORD_1 without TEXCOORD_0 is not read back).
TEST(PreWrite, LaterLayersMoveDownPastADroppedOne) {
    cast::Document document = broken_quad({});
    cast::Mesh mesh = document.models().at(0).meshes().at(0);
    ASSERT_TRUE(mesh.set_uv_layer(0, std::vector<glm::vec2>{kShortLayerUv}));
    const glm::vec2 kept(0.5f, 0.125f);
    ASSERT_TRUE(mesh.set_uv_layer(1, std::vector<glm::vec2>(4, kept)));
    const std::filesystem::path path = temp_dir("pre_write_layers") / "quad.glb";
    Written written = write_as(document, path, "glb", false);
    ASSERT_TRUE(written.result) << written.result.error().to_string();
    const cast::Document back = read_back(path, "glb");
    const cast::ConstMesh read = back.models().at(0).meshes().at(0);
    ASSERT_EQ(read.uv_layer_count(), 1u);
    EXPECT_EQ(read.uv_layer(0)[0], kept);
}

TEST(PreWrite, WeightsWithoutASkeletonAreLeftOut) {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    ASSERT_TRUE(
        mesh.set_weights(1, std::vector<std::uint32_t>{0, 0, 0}, std::vector<float>{1, 1, 1}));
    for (const std::string& format : kMeshFormats) {
        BufferSink sink;
        WriteContext context{.name = "rigid"};
        Diagnostics warnings;
        ASSERT_TRUE(formats::write(*format_by_name(format), document, sink, context, warnings))
            << format;
        EXPECT_EQ(findings_of(warnings),
                  std::vector<Finding>({{Severity::Warning, kMeshPath, "output.weight-bone"}}))
            << format;
    }
}

// `castkit convert --strict` through the real command line: exit 1, the finding's id on stderr,
// no output; without it, exit 0 with the warnings.
TEST(PreWrite, ConvertStrictRefusesThroughTheCommandLine) {
    const std::filesystem::path dir = temp_dir("pre_write_cli");
    ASSERT_TRUE(cast::write(broken_quad({.bad_triangle = true}), dir / "quad.cast"));
    const std::string in = fmt::format("\"{}\"", (dir / "quad.cast").string());
    const std::string out = fmt::format("\"{}\"", (dir / "quad.semodel").string());
    CommandResult strict = run_cli(fmt::format("convert --strict {} {}", in, out));
    EXPECT_EQ(strict.exit_code, 1) << strict.err;
    EXPECT_NE(strict.err.find(kMeshPath + ": 1 of 3 triangles name a vertex past the 4 vertices"),
              std::string::npos)
        << strict.err;
    EXPECT_NE(strict.err.find("[output.face-index]"), std::string::npos) << strict.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "quad.semodel"));
    CommandResult lenient = run_cli(fmt::format("convert {} {}", in, out));
    EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
    EXPECT_NE(lenient.err.find("warning: 1 of 3 triangles"), std::string::npos) << lenient.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "quad.semodel"));
}

// The check runs once per write, in the registry: formats::write checks, then hands the
// checked document to the format's own write (FormatInfo::write), which does not check it again.
// A NaN rest is what the check refuses; the format's write alone no longer refuses it as the
// check (glTF's JSON refuses it with an id of its own).
TEST(PreWrite, TheFormatsWriteLeavesTheCheckToTheRegistry) {
    cast::Document nan_rest = broken_quad({});
    nan_rest.root_nodes()[0].models()[0].skeleton().bones()[1].set_local_position(
        glm::vec3(0, std::numeric_limits<float>::quiet_NaN(), 0));
    for (const std::string name : {"glb", "gltf", "semodel", "dmf", "k3d"}) {
        SCOPED_TRACE(name);
        const FormatInfo& format = *format_by_name(name);
        const WriteContext context{.name = "nan." + name};
        BufferSink through_registry;
        Diagnostics checked;
        auto refused = formats::write(format, nan_rest, through_registry, context, checked);
        ASSERT_FALSE(refused);
        EXPECT_EQ(refused.error().rule, "output.non-finite");
        EXPECT_TRUE(findings_of(checked).empty());
        BufferSink alone;
        Diagnostics unchecked;
        auto written = format.write(nan_rest, alone, context, unchecked);
        EXPECT_TRUE(findings_of(unchecked).empty());
        if (!written) {
            EXPECT_FALSE(written.error().rule.starts_with("output.")) << written.error().rule;
        }
    }
}

// One broken mesh written as glb through formats::write_file and through `castkit convert`:
// its finding is given once.
TEST(PreWrite, OneBrokenMeshIsReportedOncePerWrite) {
    const std::filesystem::path dir = temp_dir("write_check_once");
    const cast::Document broken = broken_quad({.bad_triangle = true});
    const Written written = write_as(broken, dir / "quad.glb", "glb", false);
    ASSERT_TRUE(written.result) << written.result.error().to_string();
    EXPECT_EQ(findings_of(written.warnings),
              std::vector<Finding>({{Severity::Warning, kMeshPath, "output.face-index"}}));
    ASSERT_TRUE(cast::write(broken, dir / "quad.cast"));
    const CommandResult cli = run_cli(fmt::format(
        "convert \"{}\" \"{}\"", (dir / "quad.cast").string(), (dir / "cli.glb").string()));
    EXPECT_EQ(cli.exit_code, 0) << cli.err;
    std::size_t reported = 0;
    for (std::size_t at = cli.err.find("[output.face-index]"); at != std::string::npos;
         at = cli.err.find("[output.face-index]", at + 1))
        ++reported;
    EXPECT_EQ(reported, 1u) << cli.err;
}

}  // namespace
}  // namespace castkit::test::write_check_test
