// Axes and units (issue 46 item 4): a document turned from +Y up to +Z up and scaled. The
// expectations are the similarity itself, computed here: every world point x becomes s·C·x
// with C the quarter turn about +X, so every bone's world matrix W becomes [C·W₃ₓ₃ | s·C·t] at
// every frame, whatever mode its curves play in.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/registry.hpp>
#include <castkit/scene/axis_change.hpp>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "../anim/scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::axes_test {
namespace {

namespace fs = std::filesystem;

// +Y up to +Z up: a quarter turn about +X, (x, y, z) → (x, −z, y).
const glm::mat3 kYToZ = glm::mat3_cast(glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0)));
constexpr float kScale = 2.5f;

glm::vec3 moved(const glm::vec3& p) { return kScale * (kYToZ * p); }

const FormatInfo& cast_format() { return *format_by_name("cast"); }

void turn_y_to_z(cast::Document& document, Diagnostics& diagnostics) {
    ASSERT_TRUE(formats::apply_axis_change(
        document, {.from_up = cast::Axis::Y, .to_up = cast::Axis::Z, .scale = kScale}, "scene",
        diagnostics));
}

// root (turned 30° about Z, at (1, 2, 3)), child, tip; curves of every mode on each.
void add_rig(AnimScene& scene) {
    scene.bone("root", -1, {1, 2, 3}, axis_angle_xyzw({0, 0, 1}, 30), {1, 2, 1});
    scene.bone("child", 0, {0, 1, 0}, axis_angle_xyzw({1, 0, 0}, 20));
    scene.bone("tip", 1, {0, 0.5f, 0.2f}, glm::vec4(0, 0, 0, 1), {1.5f, 1, 1});
    scene.curve("root", "tx", {0, 10}, {1, 4});
    scene.curve("root", "ty", {0, 5}, {2, -1});
    scene.curve("root", "tz", {0, 10}, {0.5f, 0.25f}, "relative");
    scene.rotation(
        "root", {0, 10},
        {axis_angle_xyzw({0, 1, 0}, 10), axis_angle_xyzw(glm::normalize(glm::vec3(1, 1, 0)), 80)});
    scene.rotation("child", {0, 10},
                   {axis_angle_xyzw({0, 0, 1}, 0), axis_angle_xyzw({0, 0, 1}, 45)}, "additive");
    scene.curve("child", "ty", {0, 10}, {0, 1}, "relative");
    scene.curve("tip", "tx", {0, 10}, {0.5f, -0.5f}, "additive");
    scene.curve("tip", "sy", {0, 10}, {1, 3});
}

// Every bone's world matrix at `frame`.
std::vector<glm::mat4> worlds_at(AnimScene& scene, float frame) {
    scene.build();
    return scene.worlds(scene.sample(frame));
}

void expect_moved_worlds(AnimScene& scene) {
    std::vector<std::vector<glm::mat4>> before;
    for (float frame : {0.0f, 2.5f, 5.0f, 10.0f}) before.push_back(worlds_at(scene, frame));
    Diagnostics diagnostics;
    turn_y_to_z(scene.document, diagnostics);
    EXPECT_TRUE(diagnostics.empty());
    std::size_t at = 0;
    for (float frame : {0.0f, 2.5f, 5.0f, 10.0f}) {
        const std::vector<glm::mat4> after = worlds_at(scene, frame);
        for (std::size_t bone = 0; bone < after.size(); ++bone) {
            SCOPED_TRACE(fmt::format("frame {}, bone {}", frame, bone));
            const glm::mat4& w = before[at][bone];
            expect_vec3(glm::vec3(after[bone][3]), moved(glm::vec3(w[3])), 1e-4f);
            const glm::mat3 basis = kYToZ * glm::mat3(w);
            for (int column = 0; column < 3; ++column)
                expect_vec3(glm::vec3(after[bone][column]), basis[column], 1e-4f);
        }
        ++at;
    }
}

TEST(AxisChange, EveryBoneAtEveryFrameMovesByTheTurnAndTheScale) {
    AnimScene scene;
    add_rig(scene);
    expect_moved_worlds(scene);
}

// An override makes the root's rotation keys relative (multiplied on the right of the rest,
// which turned): they stay as they are, and the pose still moves as a whole.
TEST(AxisChange, RotationKeysAnOverrideMakesRelativeStay) {
    AnimScene scene;
    add_rig(scene);
    scene.override_mode("root", "relative", false, true, false);
    const std::vector<glm::vec4> keys = scene.animation.curves()[3].quaternion_values().to_vector();
    expect_moved_worlds(scene);
    EXPECT_EQ(scene.animation.curves()[3].quaternion_values().to_vector(), keys);
}

// The values themselves, worked by hand: (x, y, z) → 2.5 · (x, −z, y).
TEST(AxisChange, MeshesRestsAndRootCurvesTakeTheTurnedValues) {
    AnimScene scene;
    add_rig(scene);
    cast::Mesh mesh = scene.model.add_mesh();
    const std::vector<glm::vec3> positions{{1, 2, 3}}, normals{{0, 1, 0}};
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    scene.document.root_nodes()[0].add_metadata().set_up_axis(cast::Axis::Y);
    Diagnostics diagnostics;
    turn_y_to_z(scene.document, diagnostics);
    expect_vec3(mesh.positions()[0], {2.5f, -7.5f, 5.0f});
    expect_vec3(mesh.normals()[0], {0, 0, 1});
    const std::vector<cast::Bone> bones = scene.skeleton.bones();
    expect_vec3(*bones[0].local_position(), {2.5f, -7.5f, 5.0f});
    expect_vec3(*bones[1].local_position(), {0, 2.5f, 0});  // a child: scaled, not turned
    expect_vec3(*bones[0].scale(), {1, 2, 1});              // bone frames keep their scales
    const std::vector<cast::Curve> curves = scene.animation.curves();
    // The root's ty curve now keys tz, and its tz curve keys −ty.
    EXPECT_EQ(curves[1].key_property(), "tz");
    EXPECT_EQ(curves[1].float_values().to_vector(), (std::vector<float>{5.0f, -2.5f}));
    EXPECT_EQ(curves[2].key_property(), "ty");
    EXPECT_EQ(curves[2].float_values().to_vector(), (std::vector<float>{-1.25f, -0.625f}));
    EXPECT_EQ(curves[5].float_values().to_vector(), (std::vector<float>{0.0f, 2.5f}));
    expect_same_rotation(
        cast::quat_from_xyzw(curves[3].quaternion_values()[0]),
        cast::xyzw_from_quat(glm::quat_cast(kYToZ) *
                             cast::quat_from_xyzw(axis_angle_xyzw({0, 1, 0}, 10))));
    EXPECT_EQ(scene.document.root_nodes()[0].metadata()[0].up_axis_name(), "z");
}

// The rests a glTF import carried (Metadata `gltf`) move with their bones; entries that are not
// numbers are left as they are, without an exception.
TEST(AxisChange, CarriedGltfRestsMoveWithTheirBonesAndOthersAreLeft) {
    AnimScene scene;
    const cast::Bone root = scene.bone("root", -1, {1, 2, 3});
    const std::string key = std::to_string(root.hash());
    nlohmann::json carried;
    carried["rest"][key] = {{"translation", {1, 2, 3}}, {"rotation", {0, 0, 0, 1}}};
    carried["rest"]["99"] = {{"translation", {"a", "b", "c"}}, {"rotation", {0, 0, 0, 1}}};
    cast::Metadata metadata = scene.document.root_nodes()[0].add_metadata();
    metadata.set_string("gltf", carried.dump());
    Diagnostics diagnostics;
    turn_y_to_z(scene.document, diagnostics);
    const nlohmann::json after = nlohmann::json::parse(*metadata.string("gltf"));
    const auto& t = after["rest"][key]["translation"];
    expect_vec3({t[0].get<float>(), t[1].get<float>(), t[2].get<float>()}, {2.5f, -7.5f, 5.0f});
    EXPECT_EQ(after["rest"]["99"], carried["rest"]["99"]);
}

// A point placed by p, r and s (a Model's or an Instance's): T · R · S · x.
glm::vec3 placed(const glm::vec3& p, const glm::vec4& r, const glm::vec3& s, const glm::vec3& x) {
    return p + cast::quat_from_xyzw(r) * (s * x);
}

TEST(AxisChange, ModelAndInstanceTransformsPlaceTheMovedContentWhereTheyPlacedItBefore) {
    AnimScene scene;
    const glm::vec3 p{1, 2, 3}, s{1, 2, 3}, x{0.5f, -1, 2};
    const glm::vec4 r = axis_angle_xyzw(glm::normalize(glm::vec3(1, 2, 0)), 40);
    scene.model.set_position(p);
    scene.model.set_rotation(r);
    scene.model.set_scale(s);
    cast::Instance instance = scene.document.root_nodes()[0].add_instance();
    instance.set_position(p);
    instance.set_rotation(r);
    instance.set_scale(s);
    Diagnostics diagnostics;
    turn_y_to_z(scene.document, diagnostics);
    const glm::vec3 expected = moved(placed(p, r, s, x));
    for (const cast::ConstNodeView& view :
         {cast::ConstNodeView(scene.model), cast::ConstNodeView(instance)})
        expect_vec3(placed(*view.vec3("p"), *view.vec4("r"), *view.vec3("s"), moved(x)), expected,
                    1e-4f);
}

// An animation file alone names bones no skeleton places: their translations scale, and a
// warning says they were not turned.
TEST(AxisChange, CurvesOfBonesNoSkeletonNamesAreScaledWithAWarning) {
    AnimScene scene;
    scene.curve("tag_origin", "tx", {0, 10}, {1, 2});
    Diagnostics diagnostics;
    turn_y_to_z(scene.document, diagnostics);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics.begin()->rule, "axes.no-skeleton");
    EXPECT_NE(diagnostics.begin()->message.find("tag_origin"), std::string::npos);
    EXPECT_EQ(diagnostics.begin()->file, "scene");
    EXPECT_EQ(scene.animation.curves()[0].float_values().to_vector(),
              (std::vector<float>{2.5f, 5.0f}));
}

TEST(AxisChange, ThePlanTakesTheFileThenTheFormatThenAssumesWithAWarning) {
    AnimScene tagged;
    tagged.document.root_nodes()[0].add_metadata().set_up_axis(cast::Axis::Z);
    Diagnostics diagnostics;
    auto same = scene::plan_axis_change(tagged.document, {.up = cast::Axis::Z},
                                        declared_axes(cast_format()), "a.cast", diagnostics);
    ASSERT_TRUE(same.has_value());
    EXPECT_EQ(same->from_up, cast::Axis::Z);
    EXPECT_TRUE(diagnostics.empty());

    AnimScene bare;
    auto assumed =
        scene::plan_axis_change(bare.document, {.up = cast::Axis::Z, .units = scene::Units::Metres},
                                declared_axes(cast_format()), "b.cast", diagnostics);
    ASSERT_TRUE(assumed.has_value());
    EXPECT_EQ(assumed->from_up, cast::Axis::Y);
    EXPECT_DOUBLE_EQ(assumed->scale, 0.01);
    ASSERT_EQ(diagnostics.size(), 2u);
    for (const Diagnostic& d : diagnostics) EXPECT_EQ(d.rule, "axes.assumed");

    Diagnostics none;
    auto gltf =
        scene::plan_axis_change(bare.document, {.units = scene::Units::Inches, .scale = 2.0},
                                declared_axes(*format_by_name("glb")), "c.glb", none);
    ASSERT_TRUE(gltf.has_value());
    EXPECT_DOUBLE_EQ(gltf->scale, 2.0 / 0.0254);
    EXPECT_TRUE(none.empty());

    auto refused = scene::plan_axis_change(bare.document, {.scale = 0.0},
                                           declared_axes(cast_format()), "d.cast", none);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().rule, "axes.scale");
}

// Rule 36: the units a Metadata says come after --from-units and before the format's; the change
// records the units asked for in every Metadata, and in a new one where a Root has none.
TEST(AxisChange, TheFilesUnitsArePlannedFromAndTheNewOnesRecorded) {
    AnimScene tagged;
    tagged.document.root_nodes()[0].add_metadata().set_units(cast::Units::Inches);
    Diagnostics diagnostics;
    auto planned =
        scene::plan_axis_change(tagged.document, {.units = cast::Units::Metres},
                                declared_axes(*format_by_name("glb")), "a.cast", diagnostics);
    ASSERT_TRUE(planned.has_value());
    EXPECT_DOUBLE_EQ(planned->scale, 0.0254);
    EXPECT_EQ(planned->to_units, cast::Units::Metres);
    EXPECT_TRUE(diagnostics.empty());
    auto overridden = scene::plan_axis_change(
        tagged.document, {.units = cast::Units::Metres, .from_units = cast::Units::Feet},
        declared_axes(cast_format()), "a.cast", diagnostics);
    ASSERT_TRUE(overridden.has_value());
    EXPECT_DOUBLE_EQ(overridden->scale, 0.3048);

    ASSERT_TRUE(formats::apply_axis_change(tagged.document, *planned, "a.cast", diagnostics));
    EXPECT_EQ(scene::said_units(tagged.document), cast::Units::Metres);
    AnimScene bare;
    bare.document.add_root();
    ASSERT_TRUE(formats::apply_axis_change(bare.document, *planned, "b.cast", diagnostics));
    for (const cast::Root& root : bare.document.root_nodes()) {
        ASSERT_EQ(root.metadata().size(), 1u);
        EXPECT_EQ(root.metadata()[0].units_name(), "m");
    }
    // A scale alone says nothing of units: a Metadata that had none still has none.
    AnimScene scaled;
    ASSERT_TRUE(formats::apply_axis_change(scaled.document, {.scale = 2.0}, "c.cast", diagnostics));
    EXPECT_TRUE(scaled.document.root_nodes()[0].metadata().empty());
    EXPECT_TRUE(diagnostics.empty());
}

// The command line: one file, and a folder, turned and scaled; --from-up needs --up.
TEST(AxisChangeCli, ConvertTurnsAndScalesOneFileAndAFolder) {
    const fs::path dir = temp_dir("axes-cli");
    const fs::path input = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/character.cast";
    auto original = open_cast(input);
    ASSERT_TRUE(original.has_value());
    const glm::vec3 first = original->models()[0].meshes()[0].positions()[0];

    // The bundled character says it is in metres (Metadata `units`): no assumption.
    CommandResult one = run_cli(fmt::format("convert \"{}\" \"{}\" --up z --units m --scale 2.5",
                                            input.string(), (dir / "one.cast").string()));
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(one.err.find("axes.assumed"), std::string::npos) << one.err;
    auto converted = open_cast(dir / "one.cast");
    ASSERT_TRUE(converted.has_value());
    expect_vec3(converted->models()[0].meshes()[0].positions()[0], moved(first), 1e-5f);

    fs::create_directories(dir / "in");
    fs::copy_file(input, dir / "in" / "character.cast");
    CommandResult folder =
        run_cli(fmt::format("convert \"{}\" -o \"{}\" --to cast --up z --from-units in --units m",
                            (dir / "in").string(), (dir / "out").string()));
    ASSERT_EQ(folder.exit_code, 0) << folder.err;
    auto batch = open_cast(dir / "out" / "character.cast");
    ASSERT_TRUE(batch.has_value());
    expect_vec3(batch->models()[0].meshes()[0].positions()[0], 0.0254f * (kYToZ * first), 1e-6f);

    EXPECT_EQ(run_cli(fmt::format("convert \"{}\" \"{}\" --from-up z", input.string(),
                                  (dir / "x.cast").string()))
                  .exit_code,
              2);
}

}  // namespace
}  // namespace castkit::test::axes_test
