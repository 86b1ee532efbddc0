// One non-finite rule for every format but Cast (docs/diagnostics.md, "Before every write"): a
// NaN or an infinity in a position, a bone's rest, a key or a constraint's weight is refused with
// output.non-finite and nothing is written; one in a normal, a UV or a weight is left out with an
// output.non-finite warning. Either way no non-finite float reaches the output. Each
// case prints its figures (exit, findings, non-finite floats in the output read back) for the
// record.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "../anim/scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::non_finite_write_test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kMeshFormats = {"glb", "gltf", "semodel", "dmf", "dmf-json", "k3d"};
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Where the non-finite value is planted.
enum class Plant { None, Position, Normal, Uv, Weight, Rest, Key, ConstraintWeight };

// A quad on a two-bone skeleton ("root", "child") with a translation curve on "child" and a
// point constraint of "child" on "root"; `bad` replaces one value where `plant` says.
cast::Document planted(Plant plant, float bad) {
    AnimScene scene;
    scene.bone("root");
    cast::Bone child = scene.bone("child", 0, {0, plant == Plant::Rest ? bad : 1.0f, 0});
    scene.curve("child", "tx", {0, 10}, {0.0f, plant == Plant::Key ? bad : 1.0f});
    cast::Constraint constraint = scene.skeleton.add_constraint();
    constraint.set_constraint_type(cast::ConstraintType::Point);
    constraint.set_constraint_bone(child);
    constraint.set_target_bone(scene.skeleton.bones().at(0));
    constraint.set_weight(plant == Plant::ConstraintWeight ? bad : 0.5f);
    cast::Mesh mesh = scene.model.add_mesh();
    std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    std::vector<glm::vec3> normals(4, glm::vec3(0, 0, 1));
    std::vector<glm::vec2> uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    std::vector<float> weights = {1, 1, 1, 1};
    if (plant == Plant::Position) positions[2].y = bad;
    if (plant == Plant::Normal) normals[1].z = bad;
    if (plant == Plant::Uv) uvs[3].x = bad;
    if (plant == Plant::Weight) weights[2] = bad;
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    EXPECT_TRUE(mesh.set_uv_layer(0, uvs));
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3});
    EXPECT_TRUE(mesh.set_weights(1, std::vector<std::uint32_t>{0, 0, 1, 1}, weights));
    return std::move(scene.document);
}

// The NaN and infinite floats (components of f, v2, v3, v4 and d) of `node`'s tree.
std::size_t non_finite_floats(const cast::Node& node) {
    std::size_t count = 0;
    for (const cast::Property& property : node.properties) {
        const auto bytes = property.bytes();
        if (property.type() == cast::PropertyType::Double) {
            for (std::size_t i = 0; i + 8 <= bytes.size(); i += 8) {
                double value;
                std::memcpy(&value, bytes.data() + i, 8);
                count += !std::isfinite(value);
            }
            continue;
        }
        const bool floats = property.type() == cast::PropertyType::Float ||
                            property.type() == cast::PropertyType::Vector2 ||
                            property.type() == cast::PropertyType::Vector3 ||
                            property.type() == cast::PropertyType::Vector4;
        for (std::size_t i = 0; floats && i + 4 <= bytes.size(); i += 4) {
            float value;
            std::memcpy(&value, bytes.data() + i, 4);
            count += !std::isfinite(value);
        }
    }
    for (const cast::Node& child : node.children()) count += non_finite_floats(child);
    return count;
}

// The NaN and infinite floats of the file `path` written as `format`, read back (the readers
// keep every float as stored; the text formats would have written "nan", "inf" or null).
std::size_t non_finite_floats(const fs::path& path, const std::string& format) {
    Diagnostics warnings;
    auto document =
        formats::read_file(*format_by_name(format), path, formats::context_for(path), warnings);
    EXPECT_TRUE(document) << path << ": " << document.error().to_string();
    std::size_t count = 0;
    if (document)
        for (const cast::Node& root : document->roots()) count += non_finite_floats(root);
    return count;
}

struct Outcome {
    bool written = false;
    std::vector<Diagnostic> findings;  // output.non-finite ones
    std::size_t non_finite = 0;        // in every file written
    std::string file;                  // what the findings name
};

// Writes `document` as `format` into a fresh folder; what came of it.
Outcome write_as(const cast::Document& document, const std::string& format,
                 const std::string& case_name) {
    const fs::path dir = temp_dir(fmt::format("non-finite-{}-{}", case_name, format));
    const FormatInfo& info = *format_by_name(format);
    const fs::path path = dir / fmt::format("out{}", info.extensions.front());
    Diagnostics diagnostics;
    auto written =
        formats::write_file(info, document, path, formats::context_for(path), diagnostics);
    Outcome outcome;
    outcome.written = written.has_value();
    for (const Diagnostic& d : diagnostics)
        if (d.rule == "output.non-finite") outcome.findings.push_back(d);
    if (!written) outcome.findings.push_back(written.error());
    if (fs::exists(path)) outcome.non_finite = non_finite_floats(path, format);
    if (!outcome.findings.empty()) outcome.file = outcome.findings.front().file;
    const auto ids =
        std::count_if(outcome.findings.begin(), outcome.findings.end(),
                      [](const Diagnostic& d) { return d.rule == "output.non-finite"; });
    fmt::print(
        "[figures] {} as {}: {}, {} output.non-finite findings, {} non-finite floats "
        "written\n",
        case_name, format, written ? "written" : "refused: " + written.error().rule, ids,
        outcome.non_finite);
    return outcome;
}

// The clean document's outputs read back, each with every part the planted ones have.
TEST(NonFiniteWrite, TheCleanDocumentWritesNoNonFiniteFloat) {
    const cast::Document clean = planted(Plant::None, 0.0f);
    for (const std::string& format : kMeshFormats) {
        const Outcome outcome = write_as(clean, format, "clean");
        EXPECT_TRUE(outcome.written) << format;
        EXPECT_TRUE(outcome.findings.empty()) << format;
        EXPECT_EQ(outcome.non_finite, 0u) << format;
    }
}

void expect_refused(Plant plant, float bad, const std::string& case_name,
                    const std::vector<std::string>& formats) {
    const cast::Document document = planted(plant, bad);
    for (const std::string& format : formats) {
        const Outcome outcome = write_as(document, format, case_name);
        EXPECT_FALSE(outcome.written) << case_name << " as " << format;
        EXPECT_EQ(outcome.non_finite, 0u) << case_name << " as " << format;
        if (outcome.findings.empty()) {  // every format is tried, so that each one's figures print
            ADD_FAILURE() << case_name << " as " << format << ": no finding";
            continue;
        }
        EXPECT_EQ(outcome.findings.back().rule, "output.non-finite") << case_name << " " << format;
        EXPECT_EQ(outcome.findings.back().severity, Severity::Error);
        EXPECT_NE(outcome.findings.back().file.find("out"), std::string::npos);
    }
}

void expect_left_out(Plant plant, float bad, const std::string& case_name) {
    const cast::Document document = planted(plant, bad);
    for (const std::string& format : kMeshFormats) {
        const Outcome outcome = write_as(document, format, case_name);
        EXPECT_TRUE(outcome.written) << case_name << " as " << format;
        EXPECT_EQ(outcome.non_finite, 0u) << case_name << " as " << format;
        if (outcome.findings.size() != 1u) {
            ADD_FAILURE() << case_name << " as " << format << ": " << outcome.findings.size()
                          << " findings";
            continue;
        }
        EXPECT_EQ(outcome.findings[0].severity, Severity::Warning);
        EXPECT_EQ(outcome.findings[0].path, "root[0]/model[0]/mesh[0]");
        EXPECT_NE(outcome.findings[0].file.find("out"), std::string::npos);
    }
}

TEST(NonFiniteWrite, APositionThatIsNotANumberIsRefusedInEveryFormat) {
    expect_refused(Plant::Position, kNaN, "nan-position", kMeshFormats);
    expect_refused(Plant::Position, kInf, "inf-position", kMeshFormats);
    expect_refused(Plant::Position, -kInf, "minus-inf-position", kMeshFormats);
}

TEST(NonFiniteWrite, ARestThatIsNotANumberIsRefusedInEveryFormat) {
    expect_refused(Plant::Rest, kNaN, "nan-rest", kMeshFormats);
}

TEST(NonFiniteWrite, ANormalUvOrWeightThatIsNotANumberIsLeftOutInEveryFormat) {
    expect_left_out(Plant::Normal, kInf, "inf-normal");
    expect_left_out(Plant::Uv, kNaN, "nan-uv");
    expect_left_out(Plant::Weight, kNaN, "nan-weight");
}

TEST(NonFiniteWrite, AKeyOrConstraintWeightThatIsNotANumberIsRefused) {
    expect_refused(Plant::Key, kNaN, "nan-key", {"glb", "gltf", "seanim", "dmf", "k3d"});
    expect_refused(Plant::ConstraintWeight, kNaN, "nan-constraint-weight", kMeshFormats);
}

// Cast keeps what it is given: the NaN is written and read back as it was.
TEST(NonFiniteWrite, CastKeepsTheFloatAsItIs) {
    const cast::Document document = planted(Plant::Position, kNaN);
    const Outcome outcome = write_as(document, "cast", "nan-position");
    EXPECT_TRUE(outcome.written);
    EXPECT_TRUE(outcome.findings.empty());
    EXPECT_GT(outcome.non_finite, 0u);
}

}  // namespace
}  // namespace castkit::test::non_finite_write_test
