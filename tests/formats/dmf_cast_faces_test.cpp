// Cast → DMF JSON with the faces made chunk by chunk while they are formatted
// (src/formats/dmf/cast_faces.hpp): the same bytes as from_cast's faces written by write_json, on
// one thread and two, across meshes of every shape; a float JSON cannot hold is left out before
// (docs/diagnostics.md, "Before every write").
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/document.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/registry.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "../../src/formats/dmf/cast_faces.hpp"
#include "../../src/formats/dmf/json_writer.hpp"

namespace castkit::test::dmf_cast_faces_test {
namespace {

using formats::Threads;

struct MeshPlan {
    std::uint32_t vertices = 0, triangles = 0;
    bool normals = true, uvs = true, colors = true;
    bool float_colors = false;        // a `v4` colour layer instead of a packed one
    std::uint32_t extra_indices = 0;  // a trailing partial triangle
};

// A model of several meshes, faces over many writer chunks (2048 faces), positions repeating so
// that vertices merge, some meshes missing normals, UVs or colours, one without a material.
cast::Document document_of(const std::vector<MeshPlan>& plans) {
    std::mt19937 random(11);
    auto unit = [&] { return static_cast<float>(random() % 1000) / 997.0f; };
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    cast::Material material = model.add_material();
    material.set_name("skin");
    for (std::size_t m = 0; m < plans.size(); ++m) {
        const MeshPlan& plan = plans[m];
        cast::Mesh mesh = model.add_mesh();
        std::vector<glm::vec3> positions(plan.vertices), normals(plan.vertices);
        std::vector<glm::vec2> uvs(plan.vertices);
        std::vector<std::uint32_t> colors(plan.vertices);
        std::vector<glm::vec4> float_colors(plan.vertices);
        for (std::uint32_t v = 0; v < plan.vertices; ++v) {
            positions[v] = {float(v % 97), float(v % 13), 0.5f};  // repeats: merged vertices
            normals[v] = {unit(), unit(), -unit()};
            uvs[v] = {unit(), unit()};
            colors[v] = static_cast<std::uint32_t>(random());
            float_colors[v] = {unit(), unit(), 1.5f, -0.25f};  // outside [0, 1]: clamped
        }
        std::vector<std::uint32_t> faces(3 * plan.triangles + plan.extra_indices);
        for (std::uint32_t& index : faces)
            index = static_cast<std::uint32_t>(random() % plan.vertices);
        mesh.set_positions(positions);
        if (plan.normals) mesh.set_normals(normals);
        if (plan.uvs) {
            EXPECT_TRUE(mesh.set_uv_layer(0, uvs));
        }
        if (plan.colors && plan.float_colors) {
            EXPECT_TRUE(mesh.set_color_layer(0, float_colors));
        }
        if (plan.colors && !plan.float_colors) {
            EXPECT_TRUE(mesh.set_color_layer_packed(0, colors));
        }
        mesh.set_faces(faces);
        if (m % 2 == 0) mesh.set_material(material);
    }
    return document;
}

const std::vector<MeshPlan> kMeshes = {
    {.vertices = 3000, .triangles = 5000},
    {.vertices = 10, .triangles = 0},  // no faces: nothing to make
    {.vertices = 700, .triangles = 1, .extra_indices = 2},
    {.vertices = 5000, .triangles = 4100, .normals = false, .colors = false},
    {.vertices = 40, .triangles = 30, .uvs = false},
    {.vertices = 300, .triangles = 900, .float_colors = true},
};

std::string text_of(const BufferSink& sink) {
    return std::string(reinterpret_cast<const char*>(sink.bytes.data()), sink.bytes.size());
}

// What write_json writes of from_cast's model, the faces all made first.
std::string made_first(const cast::Document& document, const dmf::ConvertOptions& options) {
    Diagnostics warnings;
    auto model = dmf::from_cast(document, warnings, options);
    EXPECT_TRUE(model) << model.error().to_string();
    auto text = dmf::write_json_text(*model);
    EXPECT_TRUE(text) << text.error().to_string();
    return *text;
}

TEST(DmfCastFaces, FacesMadeWhileWritingGiveTheSameBytes) {
    const cast::Document document = document_of(kMeshes);
    for (bool flip_v : {true, false}) {
        dmf::ConvertOptions options;
        options.flip_v = flip_v;
        const std::string expected = made_first(document, options);
        Diagnostics warnings;
        auto apart = dmf::from_cast_faces_apart(document, warnings, options);
        ASSERT_TRUE(apart);
        EXPECT_TRUE(apart->model.faces.empty());
        EXPECT_EQ(apart->faces.size(), 5000u + 1 + 4100 + 30 + 900);
        for (Threads threads : {Threads::one, Threads::automatic}) {
            BufferSink sink;
            ASSERT_TRUE(dmf::write_json(apart->model, apart->faces, sink, threads));
            EXPECT_EQ(text_of(sink), expected) << "flip_v " << flip_v;
        }
    }
}

TEST(DmfCastFaces, AnyRangeIsTheSameAsTheFacesFromCast) {
    const cast::Document document = document_of(kMeshes);
    Diagnostics warnings;
    auto all = dmf::from_cast(document, warnings);
    auto apart = dmf::from_cast_faces_apart(document, warnings, {});
    ASSERT_TRUE(all && apart);
    ASSERT_EQ(all->faces.size(), apart->faces.size());
    std::mt19937 random(3);
    for (int round = 0; round < 200; ++round) {
        const std::size_t first = random() % all->faces.size();
        const std::size_t count = random() % (all->faces.size() - first + 1);
        std::vector<dmf::Face> made(count);
        apart->faces.make(first, made);
        ASSERT_TRUE(std::equal(made.begin(), made.end(),
                               all->faces.begin() + static_cast<std::ptrdiff_t>(first)))
            << "faces " << first << " to " << first + count;
    }
}

TEST(DmfCastFaces, ColoursPackedOrFloatBecomeTheSameBytes) {
    for (bool float_colors : {false, true}) {
        const cast::Document document =
            document_of({{.vertices = 50, .triangles = 40, .float_colors = float_colors}});
        const cast::ConstMesh mesh = document.models().at(0).meshes().at(0);
        const std::vector<glm::vec4> layer = mesh.color_layer(0);
        const std::vector<std::uint32_t> indices = mesh.faces().to_vector();
        Diagnostics warnings;
        auto model = dmf::from_cast(document, warnings);
        ASSERT_TRUE(model);
        ASSERT_EQ(model->faces.size(), 40u);
        for (std::size_t f = 0; f < 40; ++f)
            for (std::size_t c = 0; c < 3; ++c) {
                const glm::vec4 rgba = glm::clamp(layer[indices[3 * f + c]], 0.0f, 1.0f);
                EXPECT_EQ(model->faces[f].colors[c], glm::u8vec4(glm::round(rgba * 255.0f)))
                    << "face " << f << " corner " << c << (float_colors ? " (float)" : "");
            }
    }
}

// The first mesh's face indices replaced by `faces`.
cast::Document with_faces(std::vector<std::uint32_t> faces) {
    cast::Document document = document_of({{.vertices = 10, .triangles = 2}});
    document.models().at(0).meshes().at(0).set_faces(faces);
    return document;
}

TEST(DmfCastFaces, AFaceIndexPastTheVerticesLeavesOutItsTriangle) {
    Diagnostics warnings;
    auto model = dmf::from_cast(with_faces({0, 1, 2, 3, 12, 10, 4}), warnings);
    ASSERT_TRUE(model) << model.error().to_string();
    EXPECT_EQ(model->faces.size(), 1u);
    const auto finding = std::find_if(warnings.begin(), warnings.end(), [](const Diagnostic& d) {
        return d.rule == "output.face-index";
    });
    ASSERT_NE(finding, warnings.end());
    EXPECT_EQ(finding->path, "root[0]/model[0]/mesh[0]");
    // Past the last whole triangle, an index makes no face, and no finding.
    Diagnostics trailing_warnings;
    auto trailing = dmf::from_cast(with_faces({0, 1, 2, 3, 4, 5, 99}), trailing_warnings);
    ASSERT_TRUE(trailing) << trailing.error().to_string();
    EXPECT_EQ(trailing->faces.size(), 2u);
    for (const Diagnostic& d : trailing_warnings) {
        EXPECT_FALSE(d.rule.starts_with("output.")) << d.rule;
    }
}

// The registry's DMF JSON writer: its bytes, or its error.
Expected<std::string> through_registry(const cast::Document& document) {
    BufferSink sink;
    WriteContext context;
    context.name = "out.dmf.json";
    Diagnostics warnings;
    auto written = formats::write(*format_by_name("dmf-json"), document, sink, context, warnings);
    if (!written) return make_error(written.error());
    return text_of(sink);
}

TEST(DmfCastFaces, TheRegistryWritesTheSameBytes) {
    const cast::Document document = document_of(kMeshes);
    auto text = through_registry(document);
    ASSERT_TRUE(text) << text.error().to_string();
    EXPECT_EQ(*text, made_first(document, {}));
}

// A NaN normal on vertex `vertex` of the first mesh.
cast::Document with_nan_normal(std::uint32_t vertex, bool referenced) {
    cast::Document document = document_of({{.vertices = 100, .triangles = 3000}});
    cast::Mesh mesh = document.models().at(0).meshes().at(0);
    std::vector<glm::vec3> normals = mesh.normals().to_vector();
    std::vector<std::uint32_t> faces = mesh.faces().to_vector();
    for (std::uint32_t& index : faces)
        if (!referenced && index == vertex) index = (vertex + 1) % 100;
    normals[vertex].y = std::numeric_limits<float>::quiet_NaN();
    mesh.set_normals(normals);
    mesh.set_faces(faces);
    return document;
}

// A NaN normal never reaches the faces: the check before every write leaves the normals out
// (output.non-finite, docs/diagnostics.md), and the registry writes what from_cast makes.
TEST(DmfCastFaces, ANonFiniteNormalIsLeftOutBeforeTheFacesAreMade) {
    const cast::Document document = with_nan_normal(42, true);
    BufferSink sink;
    WriteContext context;
    context.name = "out.dmf.json";
    Diagnostics warnings;
    ASSERT_TRUE(formats::write(*format_by_name("dmf-json"), document, sink, context, warnings));
    EXPECT_EQ(text_of(sink), made_first(document, {}));
    const auto finding = std::find_if(warnings.begin(), warnings.end(), [](const Diagnostic& d) {
        return d.rule == "output.non-finite";
    });
    ASSERT_NE(finding, warnings.end());
    EXPECT_EQ(finding->file, "out.dmf.json");
    EXPECT_EQ(finding->path, "root[0]/model[0]/mesh[0]");
}

TEST(DmfCastFaces, ANonFiniteNormalNoFaceUsesIsNotWritten) {
    const cast::Document document = with_nan_normal(42, false);
    auto text = through_registry(document);
    ASSERT_TRUE(text) << text.error().to_string();
    EXPECT_EQ(*text, made_first(document, {}));
}

}  // namespace
}  // namespace castkit::test::dmf_cast_faces_test
