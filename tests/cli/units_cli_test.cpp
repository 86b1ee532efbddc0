// A file's own units (Metadata `units`, docs/decisions.md rule 36) through the real command line
// (issue 62 item 2): the README's `--up z --units m` keeps the bundled hero's height, since its
// files say they are in metres; the recipe for a ripper's +Z-up inches gives the height in
// metres; and the units a conversion records are read back by the next one.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <limits>
#include <nlohmann/json.hpp>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"

namespace castkit::test::units_cli_test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr double kRelative = 1e-4;

fs::path hero(const std::string& file) {
    return fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero" / file;
}

std::size_t axis_index(cast::Axis up) { return static_cast<std::size_t>(up); }

// The span of `values` along one axis: its largest minus its smallest.
struct Span {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    void add(double v) {
        low = std::min(low, v);
        high = std::max(high, v);
    }
    double height() const { return high - low; }
};

// The height of every mesh of the Cast file `path` along `up`, at rest.
double mesh_height(const fs::path& path, cast::Axis up) {
    auto document = open_cast(path);
    EXPECT_TRUE(document.has_value()) << path;
    Span span;
    if (!document) return 0.0;
    for (const cast::ConstModel& model : document->models())
        for (const cast::ConstMesh& mesh : model.meshes())
            for (const glm::vec3& p : mesh.positions().to_vector()) span.add(p[axis_index(up)]);
    return span.height();
}

// The height of the skeleton along `up` at `frame`: the span of its bones' world positions as
// `castkit pose --model FILE --anim FILE --json` prints them.
double pose_height(const fs::path& model, const fs::path& anim, int frame, cast::Axis up) {
    const CommandResult result = run_cli(fmt::format("pose --model {} --anim {} --frame {} --json",
                                                     quoted(model), quoted(anim), frame));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    Span span;
    if (result.exit_code != 0) return 0.0;
    const json pose = json::parse(result.out);  // kept: its bones are walked below
    for (const json& bone : pose["bones"])
        span.add(bone["world"]["t"][axis_index(up)].get<double>());
    return span.height();
}

void expect_relative(double actual, double expected, const std::string& what) {
    EXPECT_NEAR(actual, expected, kRelative * std::abs(expected)) << what;
}

// The `units` of every Metadata of the Cast file `path`, as stored.
std::vector<std::string> said_units(const fs::path& path) {
    auto document = open_cast(path);
    EXPECT_TRUE(document.has_value()) << path;
    std::vector<std::string> out;
    if (!document) return out;
    for (const cast::ConstRoot& root : document->root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata())
            out.emplace_back(metadata.units_name().value_or("(none)"));
    return out;
}

CommandResult convert(const std::string& arguments) {
    CommandResult result = run_cli("convert " + arguments);
    EXPECT_EQ(result.exit_code, 0) << arguments << "\n" << result.err;
    return result;
}

TEST(UnitsCli, TheBundledHeroSaysItIsInMetres) {
    for (const char* file : {"hero.cast", "hero_walk.cast", "hero_idle.cast", "hero_rig.cast"})
        EXPECT_EQ(said_units(hero(file)), std::vector<std::string>{"m"}) << file;
    const CommandResult info = run_cli(fmt::format("info {}", quoted(hero("hero.cast"))));
    EXPECT_NE(info.out.find(", units 'm'\n"), std::string::npos) << info.out;
}

// README.md: `castkit convert examples/data/hero/hero.cast scratch/hero_z.cast --up z --units m`,
// with the walk: the same height standing, and at every frame of the walk, now along +Z.
TEST(UnitsCli, TheReadmeUnitsExampleKeepsTheWalkingHerosHeight) {
    const fs::path dir = temp_dir("units-readme");
    const CommandResult result =
        convert(fmt::format("{} {} -o {} --up z --units m", quoted(hero("hero.cast")),
                            quoted(hero("hero_walk.cast")), quoted(dir / "hero_z.cast")));
    EXPECT_EQ(result.err.find("axes.assumed"), std::string::npos) << result.err;
    const double standing = mesh_height(hero("hero.cast"), cast::Axis::Y);
    fmt::print("[figures] hero height {} m, after --up z --units m {} m\n", standing,
               mesh_height(dir / "hero_z.cast", cast::Axis::Z));
    EXPECT_GT(standing, 1.5);  // a person, not 1.8 cm
    expect_relative(mesh_height(dir / "hero_z.cast", cast::Axis::Z), standing, "mesh");
    for (int frame : {0, 8, 16, 24}) {
        const double before =
            pose_height(hero("hero.cast"), hero("hero_walk.cast"), frame, cast::Axis::Y);
        const double after =
            pose_height(dir / "hero_z.cast", dir / "hero_z.cast", frame, cast::Axis::Z);
        expect_relative(after, before, fmt::format("the skeleton at frame {}", frame));
    }
    EXPECT_EQ(said_units(dir / "hero_z.cast"), std::vector<std::string>{"m"});
}

// docs/workflows.md's recipe for a ripper's files: +Z up in inches, as a Cast file that says so
// and as an SEModel, which cannot (its units come from --from-units), to +Y up in metres.
TEST(UnitsCli, AZUpInchesFileConvertedWithTheRecipeHasItsHeightInMetres) {
    const fs::path dir = temp_dir("units-inches");
    const double metres = mesh_height(hero("hero.cast"), cast::Axis::Y);
    for (const char* name : {"hero_in.cast", "hero_in.semodel"}) {
        SCOPED_TRACE(name);
        convert(
            fmt::format("{} {} --up z --units in", quoted(hero("hero.cast")), quoted(dir / name)));
        const fs::path cast_copy = dir / (std::string(name) + ".cast");
        convert(fmt::format("{} {}", quoted(dir / name), quoted(cast_copy)));
        const double inches = mesh_height(cast_copy, cast::Axis::Z);
        expect_relative(inches * 0.0254, metres, "inches");

        const fs::path out = dir / (std::string(name) + ".m.cast");
        const CommandResult recipe = convert(fmt::format(
            "{} {} --from-up z --from-units in --up y --units m", quoted(dir / name), quoted(out)));
        EXPECT_EQ(recipe.err.find("axes.assumed"), std::string::npos) << recipe.err;
        expect_relative(mesh_height(out, cast::Axis::Y), inches * 0.0254, "metres");
        EXPECT_EQ(said_units(out), std::vector<std::string>{"m"});
    }
}

// A conversion records the units it scaled to, a Cast round trip keeps them, and the next
// conversion reads them: from inches to centimetres with no --from-units and no assumption.
TEST(UnitsCli, ARoundTripKeepsTheUnitsAndTheNextConversionReadsThem) {
    const fs::path dir = temp_dir("units-round-trip");
    convert(fmt::format("{} {} --units in", quoted(hero("hero.cast")), quoted(dir / "in.cast")));
    EXPECT_EQ(said_units(dir / "in.cast"), std::vector<std::string>{"in"});
    convert(in_dir(dir, "{in.cast} {again.cast}"));
    EXPECT_EQ(read_bytes(dir / "again.cast"), read_bytes(dir / "in.cast"));
    const CommandResult info = run_cli(in_dir(dir, "info {again.cast}"));
    EXPECT_NE(info.out.find("units 'in'"), std::string::npos) << info.out;

    const CommandResult next = convert(in_dir(dir, "{again.cast} {cm.cast} --units cm"));
    EXPECT_EQ(next.err.find("axes.assumed"), std::string::npos) << next.err;
    EXPECT_EQ(said_units(dir / "cm.cast"), std::vector<std::string>{"cm"});
    expect_relative(mesh_height(dir / "cm.cast", cast::Axis::Y),
                    100.0 * mesh_height(hero("hero.cast"), cast::Axis::Y), "centimetres");
}

// Kept +Z up (docs/workflows.md's ripper-to-Blender recipe), a file that said no up axis says +Z
// after: the next conversion must not read it as +Y.
TEST(UnitsCli, AFileKeptZUpFromAnUnsaidAxisSaysSo) {
    const fs::path dir = temp_dir("units-kept-z");
    convert(fmt::format("{} {} --up z --units in", quoted(hero("hero.cast")),
                        quoted(dir / "ripped.semodel")));
    convert(in_dir(dir,
                   "{ripped.semodel} {blender.cast} --from-up z --from-units in --up z "
                   "--units m"));
    auto document = open_cast(dir / "blender.cast");
    ASSERT_TRUE(document.has_value());
    const auto metadata = document->root_nodes()[0].metadata();
    ASSERT_EQ(metadata.size(), 1u);
    EXPECT_EQ(metadata[0].up_axis_name(), "z");
    EXPECT_EQ(metadata[0].units_name(), "m");
}

// glTF is in metres: a file that says other units is written as it is, with a warning saying
// how far off it reads; with --units m it is scaled and nothing is said.
TEST(UnitsCli, AGltfWriteOfAFileInOtherUnitsSaysHowFarOffItReads) {
    const fs::path dir = temp_dir("units-gltf");
    convert(fmt::format("{} {} --units cm", quoted(hero("hero.cast")), quoted(dir / "cm.cast")));
    const CommandResult as_is = convert(in_dir(dir, "{cm.cast} {as_is.glb}"));
    EXPECT_NE(as_is.err.find("the document says its lengths are in cm (Metadata `units`), but glb "
                             "files are in m: written as they are, they read 100 times their "
                             "size (convert --units m scales them) [axes.units-differ]"),
              std::string::npos)
        << as_is.err;
    const CommandResult scaled = convert(in_dir(dir, "{cm.cast} {scaled.glb} --units m"));
    EXPECT_EQ(scaled.err.find("axes.units-differ"), std::string::npos) << scaled.err;
    convert(in_dir(dir, "{scaled.glb} {back.cast}"));
    expect_relative(mesh_height(dir / "back.cast", cast::Axis::Y),
                    mesh_height(hero("hero.cast"), cast::Axis::Y), "through glTF");
}

// An SEAnim says no units; given its model (--model), it takes the model's.
TEST(UnitsCli, AnAnimationPlayedOnItsModelTakesTheModelsUnits) {
    const fs::path dir = temp_dir("units-model");
    const CommandResult result =
        convert(fmt::format("{} --model {} {} --units cm", quoted(hero("hero_walk.seanim")),
                            quoted(hero("hero.cast")), quoted(dir / "walk_cm.cast")));
    EXPECT_EQ(result.err.find("axes.assumed"), std::string::npos) << result.err;
    EXPECT_EQ(said_units(dir / "walk_cm.cast"), std::vector<std::string>{"cm"});
}

// A `units` that names no unit is not read as one: the assumption says what it found.
TEST(UnitsCli, AUnitsThatNamesNoUnitIsAssumedCentimetresWithAWarning) {
    const fs::path dir = temp_dir("units-unknown");
    cast::Document document;
    cast::Root root = document.add_root();
    root.add_metadata().set_string("units", "furlong");
    cast::Mesh mesh = root.add_model().add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    ASSERT_TRUE(cast::write(document, dir / "furlong.cast").has_value());
    const CommandResult result = convert(in_dir(dir, "{furlong.cast} {m.cast} --units m"));
    EXPECT_NE(result.err.find("says its units are 'furlong', which is none of mm, cm, m, in, ft: "
                              "assumed centimetres (--from-units sets them) [axes.assumed]"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(said_units(dir / "m.cast"), std::vector<std::string>{"m"});
    const CommandResult validated = run_cli(in_dir(dir, "validate {furlong.cast}"));
    EXPECT_NE(validated.out.find("'units' is 'furlong'; allowed: "), std::string::npos)
        << validated.out << validated.err;
}

}  // namespace
}  // namespace castkit::test::units_cli_test
