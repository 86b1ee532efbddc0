// The FBX writer: the records castkit writes, read back by a reader of the test's own
// (fbx_reader.hpp): header, version and footer, the sections in order, the objects of the hero
// with its walk and idle (bones, clusters, blend shapes, stacks), their links, the values of a
// small scene (polygon indices, V flipped, Euler degrees, key times in FBX ticks), the losses
// named, and the refusal to read FBX.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/formats/fbx.hpp>
#include <castkit/registry.hpp>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <set>

#include "../anim/scene.hpp"
#include "../test_support.hpp"
#include "fbx_reader.hpp"

namespace castkit::test::fbx_test {
namespace {

namespace fs = std::filesystem;
using fbx_reader::Node;

constexpr double kTicksPerSecond = 46186158000.0;

fbx_reader::File write_and_read(const cast::Document& document, Diagnostics& warnings) {
    BufferSink sink;
    WriteContext context;
    context.name = "test.fbx";
    auto written = fbx::write(document, sink, context, warnings);
    EXPECT_TRUE(written) << (written ? "" : written.error().to_string());
    return fbx_reader::read(sink.bytes);
}

bool has_rule(const Diagnostics& warnings, std::string_view rule) {
    for (const Diagnostic& d : warnings)
        if (d.rule == rule) return true;
    return false;
}

// A triangle under a two-bone skeleton, skinned to "child", with a UV layer, a blend shape and a
// walk of "child": 90° about Z at frame 10, translation x 0 → 2.
cast::Document small_scene() {
    AnimScene scene;
    scene.model.set_name("thing");
    scene.bone("root");
    scene.bone("child", 0, {0, 1, 0});
    scene.rotation("child", {0, 10}, {glm::vec4(0, 0, 0, 1), axis_angle_xyzw({0, 0, 1}, 90)});
    scene.curve("child", "tx", {0, 10}, {0.0f, 2.0f});
    scene.animation.set_name("walk");
    cast::Mesh mesh = scene.model.add_mesh();
    mesh.set_name("tri");
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    EXPECT_TRUE(mesh.set_uv_layer(0, std::vector<glm::vec2>{{0, 0}, {1, 0.25f}, {0, 1}}));
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    EXPECT_TRUE(
        mesh.set_weights(1, std::vector<std::uint32_t>{1, 1, 1}, std::vector<float>{1, 1, 1}));
    cast::BlendShape shape = scene.model.add_blend_shape();
    shape.set_name("smile");
    shape.set_base_shape(mesh);
    shape.set_targets(std::vector<std::uint32_t>{2}, std::vector<glm::vec3>{{0, 3, 0}});
    cast::Hair hair = scene.model.add_hair();
    hair.set_segments(std::vector<std::uint32_t>{1});
    hair.set_particles(std::vector<glm::vec3>{{0, 0, 0}, {0, 1, 0}});
    return std::move(scene.document);
}

TEST(Fbx, HeaderVersionAndFooterAreFbx74) {
    Diagnostics warnings;
    const fbx_reader::File file = write_and_read(small_scene(), warnings);
    EXPECT_EQ(file.version, 7400u);
    EXPECT_EQ(file.footer_version, 7400u);
    std::vector<std::string> names;
    for (const Node& n : file.top) names.push_back(n.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"FBXHeaderExtension", "FileId", "CreationTime", "Creator",
                                        "GlobalSettings", "Documents", "References", "Definitions",
                                        "Objects", "Connections", "Takes"}));
    EXPECT_EQ(file.section("FBXHeaderExtension").child("FBXVersion")->get<std::int32_t>(0), 7400);
}

TEST(Fbx, GlobalSettingsSayTheUpAxisAndUnits) {
    cast::Document document = small_scene();
    document.root_nodes()[0].add_metadata().set_up_axis(cast::Axis::Z);
    BufferSink sink;
    WriteContext context;
    Diagnostics warnings;
    ASSERT_TRUE(fbx::write(document, sink, context, warnings, {.units = scene::Units::Metres}));
    const fbx_reader::File file = fbx_reader::read(sink.bytes);
    const Node& settings = file.section("GlobalSettings");
    EXPECT_EQ(settings.property70("UpAxis")->get<std::int32_t>(4), 2);
    EXPECT_EQ(settings.property70("FrontAxis")->get<std::int32_t>(4), 1);
    EXPECT_EQ(settings.property70("FrontAxisSign")->get<std::int32_t>(4), -1);
    EXPECT_EQ(settings.property70("UnitScaleFactor")->get<double>(4), 100.0);
    EXPECT_EQ(settings.property70("CustomFrameRate")->get<double>(4), 30.0);
}

// The units the Metadata states (what `convert --units` records) reach UnitScaleFactor; a file
// that states none is taken as centimetres.
TEST(Fbx, UnitScaleFactorIsTheUnitsTheMetadataStates) {
    const auto unit_scale = [](std::optional<cast::Units> said) {
        cast::Document document = small_scene();
        if (said) document.root_nodes()[0].add_metadata().set_units(*said);
        BufferSink sink;
        Diagnostics warnings;
        EXPECT_TRUE(fbx::write(document, sink, WriteContext{}, warnings));
        return fbx_reader::read(sink.bytes)
            .section("GlobalSettings")
            .property70("UnitScaleFactor")
            ->get<double>(4);
    };
    EXPECT_DOUBLE_EQ(unit_scale(cast::Units::Inches), 2.54);
    EXPECT_DOUBLE_EQ(unit_scale(cast::Units::Metres), 100.0);
    EXPECT_DOUBLE_EQ(unit_scale(std::nullopt), 1.0);
}

TEST(Fbx, TrianglesEndInANegatedIndexAndVIsFlipped) {
    Diagnostics warnings;
    const fbx_reader::File file = write_and_read(small_scene(), warnings);
    const auto meshes = fbx_reader::objects(file, "Geometry", "Mesh");
    ASSERT_EQ(meshes.size(), 1u);
    EXPECT_EQ(meshes[0]->child("PolygonVertexIndex")->get<std::vector<std::int32_t>>(0),
              (std::vector<std::int32_t>{0, 1, -3}));
    EXPECT_EQ(meshes[0]->child("Vertices")->get<std::vector<double>>(0),
              (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0}));
    const Node* uv = meshes[0]->child("LayerElementUV");
    ASSERT_NE(uv, nullptr);
    EXPECT_EQ(uv->child("UV")->get<std::vector<double>>(0),
              (std::vector<double>{0, 1, 1, 0.75, 0, 0}));
    ASSERT_NE(meshes[0]->child("Layer"), nullptr);
}

TEST(Fbx, ClustersBindTheSkinAndShapesStoreDeltas) {
    Diagnostics warnings;
    const fbx_reader::File file = write_and_read(small_scene(), warnings);
    const auto clusters = fbx_reader::objects(file, "Deformer", "Cluster");
    ASSERT_EQ(clusters.size(), 2u);  // one per bone, weighted or not
    const Node& child = *clusters[1];
    EXPECT_EQ(child.child("Indexes")->get<std::vector<std::int32_t>>(0),
              (std::vector<std::int32_t>{0, 1, 2}));
    EXPECT_EQ(child.child("Weights")->get<std::vector<double>>(0), (std::vector<double>{1, 1, 1}));
    // TransformLink: the bone's world matrix at bind (translation y 1, column-major).
    const auto& link = child.child("TransformLink")->get<std::vector<double>>(0);
    EXPECT_EQ(link[13], 1.0);
    const auto& transform = child.child("Transform")->get<std::vector<double>>(0);
    EXPECT_EQ(transform[13], -1.0);
    EXPECT_EQ(clusters[0]->child("Indexes"), nullptr);
    const auto shapes = fbx_reader::objects(file, "Geometry", "Shape");
    ASSERT_EQ(shapes.size(), 1u);
    EXPECT_EQ(shapes[0]->child("Indexes")->get<std::vector<std::int32_t>>(0),
              (std::vector<std::int32_t>{2}));
    EXPECT_EQ(shapes[0]->child("Vertices")->get<std::vector<double>>(0),
              (std::vector<double>{0, 2, 0}));
    EXPECT_EQ(fbx_reader::objects(file, "Deformer", "BlendShapeChannel").size(), 1u);
    EXPECT_EQ(fbx_reader::objects(file, "Pose", "BindPose").size(), 1u);
}

TEST(Fbx, CurvesKeyTicksLinearlyAndRotationsInDegrees) {
    Diagnostics warnings;
    const fbx_reader::File file = write_and_read(small_scene(), warnings);
    EXPECT_EQ(fbx_reader::objects(file, "AnimationStack", "").size(), 1u);
    std::map<std::string, std::vector<float>> last_values;
    std::vector<std::int64_t> translation_times;
    const auto by_id = fbx_reader::objects_by_id(file);
    // Curves by the axis and curve node they feed.
    for (const Node& c : file.section("Connections").children) {
        if (c.get<std::string>(0) != "OP") continue;
        const Node* from = by_id.at(c.get<std::int64_t>(1));
        const Node* to = by_id.at(c.get<std::int64_t>(2));
        if (from->name != "AnimationCurve") continue;
        const std::string node_name = to->get<std::string>(1).substr(0, 1);
        const std::string key = node_name + c.get<std::string>(3);
        last_values[key] = from->child("KeyValueFloat")->get<std::vector<float>>(0);
        if (key == "Td|X")
            translation_times = from->child("KeyTime")->get<std::vector<std::int64_t>>(0);
    }
    // x from 0 to 2 linearly: two keys are exact, at 0 and 10/30 s.
    EXPECT_EQ(translation_times,
              (std::vector<std::int64_t>{0, static_cast<std::int64_t>(kTicksPerSecond / 3)}));
    ASSERT_FALSE(last_values["Rd|Z"].empty());
    EXPECT_NEAR(last_values["Rd|Z"].back(), 90.0f, 1e-4f);
    // A turn about one axis is linear in its Euler angle: the two ends are exact.
    EXPECT_EQ(last_values["Rd|Z"].size(), 2u);
}

TEST(Fbx, EveryLossIsNamed) {
    Diagnostics warnings;
    write_and_read(small_scene(), warnings);
    EXPECT_TRUE(has_rule(warnings, "fbx.hair"));
}

TEST(Fbx, AnAnimationAloneIsWrittenOnItsOwnSkeleton) {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Animation animation = root.add_animation();
    animation.set_name("wave");
    cast::Bone bone = animation.add_skeleton().add_bone();
    bone.set_name("arm");
    bone.set_parent_index(-1);
    cast::Curve curve = animation.add_curve();
    curve.set_node_name("arm");
    curve.set_key_property(cast::KeyProperty::TranslationY);
    curve.set_key_frames(std::vector<std::uint32_t>{0, 5});
    curve.set_float_values(std::vector<float>{0.0f, 1.0f});
    Diagnostics warnings;
    const fbx_reader::File file = write_and_read(document, warnings);
    EXPECT_EQ(fbx_reader::objects(file, "Model", "LimbNode").size(), 1u);
    EXPECT_EQ(fbx_reader::objects(file, "Model", "Null").size(), 1u);
    EXPECT_EQ(fbx_reader::objects(file, "AnimationStack", "").size(), 1u);
    EXPECT_FALSE(has_rule(warnings, "fbx.animation"));
}

TEST(Fbx, KeysFarApartPastTheSampleBudgetAreRefused) {
    AnimScene scene;
    scene.bone("root");
    scene.curve("root", "tx", {0, 100000}, {0.0f, 1.0f});
    BufferSink sink;
    Diagnostics warnings;
    auto written = fbx::write(scene.document, sink, {}, warnings, {.max_samples = 10000});
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().rule, "fbx.sample-limit");
    EXPECT_NE(written.error().message.find("10000"), std::string::npos) << written.error().message;
    EXPECT_TRUE(sink.bytes.empty());
}

TEST(Fbx, AFilePastItsByteBudgetIsRefusedNamingIt) {
    BufferSink sink;
    Diagnostics warnings;
    auto written = fbx::write(small_scene(), sink, {}, warnings, {.max_bytes = 1024});
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().rule, "fbx.size-budget");
    EXPECT_NE(written.error().message.find("1024"), std::string::npos) << written.error().message;
    EXPECT_TRUE(sink.bytes.empty());
}

// A model file of one triangle of material "stone" placed three times (one of them moved, one
// turned a quarter about Z and doubled) and a file of two meshes and a hair placed twice.
void write_map(const fs::path& dir, int rocks) {
    fs::create_directories(dir / "models");
    const auto add_triangle = [](cast::Model model, std::string_view name) {
        cast::Mesh mesh = model.add_mesh();
        mesh.set_name(name);
        mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
        mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
        return mesh;
    };
    cast::Document rock;
    cast::Model rock_model = rock.add_root().add_model();
    cast::Mesh mesh = add_triangle(rock_model, "rock");
    cast::Material stone = rock_model.add_material();
    stone.set_name("stone");
    stone.set_slot("diffuse", stone.add_file("rock.png"));
    mesh.set_material(stone);
    ASSERT_TRUE(cast::write(rock, dir / "models" / "rock.cast"));
    cast::Document pair;
    cast::Model pair_model = pair.add_root().add_model();
    add_triangle(pair_model, "left");
    add_triangle(pair_model, "right");
    cast::Hair hair = pair_model.add_hair();
    hair.set_segments(std::vector<std::uint32_t>{1});
    hair.set_particles(std::vector<glm::vec3>{{0, 0, 0}, {0, 1, 0}});
    ASSERT_TRUE(cast::write(pair, dir / "models" / "pair.cast"));
    cast::Document map;
    cast::Root root = map.add_root();
    for (int i = 0; i < rocks; ++i) {
        cast::Instance instance = root.add_instance();
        instance.set_reference_file(instance.add_file("models/rock.cast"));
        if (i == 1) instance.set_position({10, 0, 0});
        if (i == 2) {
            instance.set_name("boulder");
            const glm::quat quarter = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
            instance.set_rotation({quarter.x, quarter.y, quarter.z, quarter.w});
            instance.set_scale({2, 2, 2});
        }
    }
    for (int i = 0; i < 2; ++i) {
        cast::Instance instance = root.add_instance();
        instance.set_reference_file(instance.add_file("models/pair.cast"));
    }
    ASSERT_TRUE(cast::write(map, dir / "map.cast"));
}

Expected<void> write_map_fbx(const fs::path& dir, BufferSink& sink, Diagnostics& warnings,
                             const fbx::ExportOptions& options = {}) {
    auto map = cast::open(dir / "map.cast", warnings);
    EXPECT_TRUE(map);
    WriteContext context;
    context.name = "map.fbx";
    context.base = dir;
    return fbx::write(*map, sink, context, warnings, options);
}

std::string object_name(const Node& object) {
    const std::string& full = object.get<std::string>(1);
    return full.substr(0, full.find('\0'));
}

glm::dvec3 lcl(const Node& model, std::string_view property) {
    const Node* p = model.property70(property);
    EXPECT_NE(p, nullptr) << property;
    if (p == nullptr) return glm::dvec3(0.0);
    return {p->get<double>(4), p->get<double>(5), p->get<double>(6)};
}

TEST(Fbx, AMapWritesAModelPerInstanceSharingEachFilesGeometry) {
    const fs::path dir = temp_dir("fbx-map");
    write_map(dir, 3);
    BufferSink sink;
    Diagnostics warnings;
    auto written = write_map_fbx(dir, sink, warnings);
    ASSERT_TRUE(written) << written.error().to_string();
    const fbx_reader::File file = fbx_reader::read(sink.bytes);
    // Three rocks of one mesh and two pairs of two: 7 Models over 3 Geometries, one Material.
    const auto models = fbx_reader::objects(file, "Model", "Mesh");
    const auto geometries = fbx_reader::objects(file, "Geometry", "Mesh");
    ASSERT_EQ(models.size(), 7u);
    ASSERT_EQ(geometries.size(), 3u);
    EXPECT_EQ(fbx_reader::objects(file, "Material", "").size(), 1u);
    std::map<std::int64_t, std::string> model_names;
    for (const Node* model : models) model_names[model->get<std::int64_t>(0)] = object_name(*model);
    std::map<std::string, std::multiset<std::string>> users;  // geometry name: its Models
    std::map<std::int64_t, std::string> geometry_names;
    for (const Node* g : geometries) geometry_names[g->get<std::int64_t>(0)] = object_name(*g);
    std::size_t at_root = 0, materials = 0;
    for (const Node& c : file.section("Connections").children) {
        if (c.get<std::string>(0) != "OO") continue;
        const std::int64_t child = c.get<std::int64_t>(1), parent = c.get<std::int64_t>(2);
        if (geometry_names.contains(child) && model_names.contains(parent))
            users[geometry_names[child]].insert(model_names[parent]);
        if (model_names.contains(child) && parent == 0) ++at_root;
        if (model_names.contains(parent) && !geometry_names.contains(child)) ++materials;
    }
    EXPECT_EQ(users["rock"], (std::multiset<std::string>{"rock.0", "rock.1", "boulder.2"}));
    EXPECT_EQ(users["left"], (std::multiset<std::string>{"pair.3.0", "pair.4.0"}));
    EXPECT_EQ(users["right"], (std::multiset<std::string>{"pair.3.1", "pair.4.1"}));
    EXPECT_EQ(at_root, 7u);
    EXPECT_EQ(materials, 3u);  // the rocks' stone
    for (const Node* model : models) {
        const std::string name = object_name(*model);
        const glm::dvec3 t = lcl(*model, "Lcl Translation"), r = lcl(*model, "Lcl Rotation"),
                         s = lcl(*model, "Lcl Scaling");
        const glm::dvec3 want_t = name == "rock.1" ? glm::dvec3(10, 0, 0) : glm::dvec3(0.0);
        const glm::dvec3 want_r = name == "boulder.2" ? glm::dvec3(0, 0, 90) : glm::dvec3(0.0);
        const glm::dvec3 want_s = name == "boulder.2" ? glm::dvec3(2.0) : glm::dvec3(1.0);
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_NEAR(t[axis], want_t[axis], 1e-5) << name;
            EXPECT_NEAR(r[axis], want_r[axis], 1e-3) << name;
            EXPECT_NEAR(s[axis], want_s[axis], 1e-5) << name;
        }
    }
    // The rock's image, beside rock.cast, is named from the map's folder.
    const auto videos = fbx_reader::objects(file, "Video", "Clip");
    ASSERT_EQ(videos.size(), 1u);
    EXPECT_EQ(videos[0]->child("RelativeFilename")->get<std::string>(0), "models/rock.png");
    // The pair's hair is named once, as what an instance file loses; nothing says "instances".
    EXPECT_TRUE(has_rule(warnings, "fbx.instance-dropped"));
    EXPECT_FALSE(has_rule(warnings, "fbx.instance-refused"));
    EXPECT_FALSE(has_rule(warnings, "fbx.instances"));
}

std::string text_of(const fs::path& file) {
    const std::vector<std::byte> bytes = read_bytes(file);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

void write_text(const fs::path& file, std::string_view text) {
    const auto* first = reinterpret_cast<const std::byte*>(text.data());
    write_bytes(file, std::vector<std::byte>(first, first + text.size()));
}

// A map converted into another folder: the images its instance files name are copied there (by
// the path the FBX names them), or, with --texture-mode embed, inside the Video and not copied.
TEST(Fbx, AMapWrittenElsewhereTakesItsInstancesImages) {
    const fs::path dir = temp_dir("fbx-map-images");
    write_map(dir, 2);
    const std::string png = "\x89PNG rock pixels";
    write_text(dir / "models" / "rock.png", png);
    fs::create_directories(dir / "out");
    fs::create_directories(dir / "embedded");
    CommandResult run = run_cli(fmt::format("convert \"{}\" -o \"{}\"", (dir / "map.cast").string(),
                                            (dir / "out" / "map.fbx").string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(text_of(dir / "out" / "models" / "rock.png"), png);
    const fbx_reader::File copied = fbx_reader::read(read_bytes(dir / "out" / "map.fbx"));
    auto videos = fbx_reader::objects(copied, "Video", "Clip");
    ASSERT_EQ(videos.size(), 1u);
    EXPECT_EQ(videos[0]->child("RelativeFilename")->get<std::string>(0), "models/rock.png");
    EXPECT_EQ(videos[0]->child("Content"), nullptr);

    run =
        run_cli(fmt::format("convert \"{}\" -o \"{}\" --texture-mode embed",
                            (dir / "map.cast").string(), (dir / "embedded" / "map.fbx").string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_FALSE(fs::exists(dir / "embedded" / "models"));
    const fbx_reader::File embedded = fbx_reader::read(read_bytes(dir / "embedded" / "map.fbx"));
    videos = fbx_reader::objects(embedded, "Video", "Clip");
    ASSERT_EQ(videos.size(), 1u);
    ASSERT_NE(videos[0]->child("Content"), nullptr);
    EXPECT_EQ(videos[0]->child("Content")->get<std::string>(0), png);
}

// --texture-mode embed: each image once, its bytes in its Video's Content; one that cannot be
// found stays a reference, named by a warning.
TEST(Fbx, EmbeddingKeepsEachImageInsideItsVideo) {
    const fs::path dir = temp_dir("fbx-embed");
    const std::string png = "\x89PNG skin";
    write_text(dir / "skin.png", png);
    cast::Document document = small_scene();
    cast::Model model = document.root_nodes().front().models().front();
    for (const char* image : {"skin.png", "missing.png"}) {
        cast::Material material = model.add_material();
        material.set_name(image);
        material.set_slot("albedo", material.add_file(image));
    }
    model.meshes().front().set_material(model.materials()[0]);
    cast::Mesh second = model.add_mesh();
    second.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    second.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    second.set_material(model.materials()[1]);
    BufferSink sink;
    WriteContext context;
    context.name = "embed.fbx";
    context.base = dir;
    context.options.textures = TextureMode::Embed;
    Diagnostics warnings;
    ASSERT_TRUE(fbx::write(document, sink, context, warnings));
    std::map<std::string, const Node*> videos;
    const fbx_reader::File file = fbx_reader::read(sink.bytes);
    for (const Node* video : fbx_reader::objects(file, "Video", "Clip"))
        videos[video->child("RelativeFilename")->get<std::string>(0)] = video;
    ASSERT_EQ(videos.size(), 2u);
    ASSERT_NE(videos["skin.png"]->child("Content"), nullptr);
    EXPECT_EQ(videos["skin.png"]->child("Content")->get<std::string>(0), png);
    EXPECT_EQ(videos["missing.png"]->child("Content"), nullptr);
    EXPECT_TRUE(has_rule(warnings, "texture.not-found"));
    EXPECT_FALSE(has_rule(warnings, "fbx.texture-embed"));
}

// A camp file placing the rock twice (once 5 up), placed twice by the map (once 100 along x),
// and a file that places itself: the camp's rocks are four Models of the rock's one Geometry,
// each where both placements put it; the loop is refused as a cycle, not followed.
TEST(Fbx, NestedInstancesPlaceTheFilesTheyNameInsideTheirs) {
    const fs::path dir = temp_dir("fbx-map-nested");
    write_map(dir, 0);
    cast::Document camp;
    cast::Root camp_root = camp.add_root();
    for (int i = 0; i < 2; ++i) {
        cast::Instance rock = camp_root.add_instance();
        rock.set_reference_file(rock.add_file("rock.cast"));  // beside camp.cast
        if (i == 1) rock.set_position({0, 5, 0});
    }
    cast::Instance loop = camp_root.add_instance();
    loop.set_reference_file(loop.add_file("camp.cast"));
    ASSERT_TRUE(cast::write(camp, dir / "models" / "camp.cast"));
    cast::Document map;
    cast::Root root = map.add_root();
    for (int i = 0; i < 2; ++i) {
        cast::Instance instance = root.add_instance();
        instance.set_reference_file(instance.add_file("models/camp.cast"));
        if (i == 1) instance.set_position({100, 0, 0});
    }
    ASSERT_TRUE(cast::write(map, dir / "map.cast"));
    BufferSink sink;
    Diagnostics warnings;
    auto written = write_map_fbx(dir, sink, warnings);
    ASSERT_TRUE(written) << written.error().to_string();
    const fbx_reader::File file = fbx_reader::read(sink.bytes);
    EXPECT_EQ(fbx_reader::objects(file, "Geometry", "Mesh").size(), 1u);
    std::multiset<std::pair<double, double>> places;  // x, y of each Model
    for (const Node* model : fbx_reader::objects(file, "Model", "Mesh")) {
        const glm::dvec3 t = lcl(*model, "Lcl Translation");
        places.insert({std::round(t.x), std::round(t.y)});
    }
    EXPECT_EQ(places,
              (std::multiset<std::pair<double, double>>{{0, 0}, {0, 5}, {100, 0}, {100, 5}}));
    bool cycle = false;
    for (const Diagnostic& d : warnings)
        cycle = cycle ||
                (d.rule == "fbx.instance-refused" && d.message.find("cycle") != std::string::npos);
    EXPECT_TRUE(cycle);
    EXPECT_FALSE(has_rule(warnings, "fbx.instance-dropped"));
}

TEST(Fbx, AnInstanceThatCannotBeReadIsNamedAndTheRestWritten) {
    const fs::path dir = temp_dir("fbx-map-refused");
    write_map(dir, 3);
    fs::remove(dir / "models" / "pair.cast");
    BufferSink sink;
    Diagnostics warnings;
    auto written = write_map_fbx(dir, sink, warnings);
    ASSERT_TRUE(written) << written.error().to_string();
    EXPECT_EQ(fbx_reader::objects(fbx_reader::read(sink.bytes), "Model", "Mesh").size(), 3u);
    EXPECT_TRUE(has_rule(warnings, "fbx.instance-refused"));
}

TEST(Fbx, AMapPastItsByteBudgetIsRefusedNamingIt) {
    const fs::path dir = temp_dir("fbx-map-budget");
    write_map(dir, 2000);  // 2,000 Models of a triangle: past 200 kB in Models alone
    BufferSink sink;
    Diagnostics warnings;
    auto written = write_map_fbx(dir, sink, warnings, {.max_bytes = 200000});
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().rule, "fbx.size-budget");
    EXPECT_NE(written.error().message.find("instance Models"), std::string::npos)
        << written.error().message;
    EXPECT_NE(written.error().message.find("200000"), std::string::npos);
    EXPECT_TRUE(sink.bytes.empty());
    // Within it, the same map is written.
    BufferSink enough;
    ASSERT_TRUE(write_map_fbx(dir, enough, warnings, {.max_bytes = 4000000}));
    EXPECT_EQ(fbx_reader::objects(fbx_reader::read(enough.bytes), "Model", "Mesh").size(), 2004u);
}

TEST(Fbx, ReadingAnFbxFileNamesTheFormatsCastkitReads) {
    const fs::path dir = temp_dir("fbx_read_refused");
    const fs::path out = dir / "hero.fbx";
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero/hero.cast";
    ASSERT_EQ(run_cli(fmt::format("convert \"{}\" \"{}\"", hero.string(), out.string())).exit_code,
              0);
    const CommandResult info = run_cli(fmt::format("info \"{}\"", out.string()));
    EXPECT_EQ(info.exit_code, 2);
    EXPECT_NE(info.err.find("castkit writes fbx but does not read it"), std::string::npos)
        << info.err;
    EXPECT_NE(info.err.find("castkit reads: cast (.cast), seanim"), std::string::npos) << info.err;
    // The library's read refuses it too, naming what it reads.
    Diagnostics warnings;
    const std::vector<std::byte> bytes = read_bytes(out);
    auto read =
        formats::read(*format_by_name("fbx"), {bytes, nullptr}, {.name = "hero.fbx"}, warnings);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().rule, "registry.write-only");
    EXPECT_NE(read.error().message.find("it reads cast, seanim"), std::string::npos);
}

TEST(Fbx, TheHeroWithWalkAndIdleHasItsObjects) {
    const fs::path dir = temp_dir("fbx_hero");
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    const CommandResult run =
        run_cli(fmt::format("convert \"{}\" \"{}\" \"{}\" -o \"{}\"", (hero / "hero.cast").string(),
                            (hero / "hero_walk.cast").string(), (hero / "hero_idle.cast").string(),
                            (dir / "hero.fbx").string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const fbx_reader::File file = fbx_reader::read(read_bytes(dir / "hero.fbx"));
    EXPECT_EQ(fbx_reader::objects(file, "Model", "LimbNode").size(), 21u);
    EXPECT_EQ(fbx_reader::objects(file, "NodeAttribute", "LimbNode").size(), 21u);
    EXPECT_EQ(fbx_reader::objects(file, "Deformer", "Cluster").size(), 21u);
    EXPECT_EQ(fbx_reader::objects(file, "Deformer", "BlendShapeChannel").size(), 2u);
    EXPECT_EQ(fbx_reader::objects(file, "Geometry", "Shape").size(), 2u);
    EXPECT_EQ(fbx_reader::objects(file, "AnimationStack", "").size(), 2u);
    EXPECT_EQ(fbx_reader::objects(file, "Video", "Clip").size(), 1u);
    EXPECT_TRUE(fs::exists(dir / "hero_albedo.png"));
    // Every connection links objects that exist (0: the scene's root).
    const auto by_id = fbx_reader::objects_by_id(file);
    for (const Node& c : file.section("Connections").children) {
        EXPECT_TRUE(by_id.count(c.get<std::int64_t>(1)));
        const std::int64_t parent = c.get<std::int64_t>(2);
        EXPECT_TRUE(parent == 0 || by_id.count(parent));
    }
    // Definitions count what Objects holds.
    std::map<std::string, int> counts;
    for (const Node& object : file.section("Objects").children) counts[object.name] += 1;
    for (const Node* type : file.section("Definitions").all("ObjectType")) {
        const std::string& name = type->get<std::string>(0);
        if (name == "GlobalSettings") continue;
        EXPECT_EQ(type->child("Count")->get<std::int32_t>(0), counts[name]) << name;
    }
    EXPECT_EQ(file.section("Takes").all("Take").size(), 2u);
}

TEST(Fbx, AFolderOfAModelAndFiftySeAnimsConvertsInOneCommand) {
    const fs::path dir = temp_dir("fbx_folder");
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    fs::create_directories(dir / "model");
    fs::create_directories(dir / "anims");
    fs::copy_file(hero / "hero.cast", dir / "model/hero.cast");
    fs::copy_file(hero / "hero_albedo.png", dir / "model/hero_albedo.png");
    for (int i = 0; i < 50; ++i)
        fs::copy_file(hero / (i % 2 == 0 ? "hero_walk.seanim" : "hero_idle.seanim"),
                      dir / fmt::format("anims/move{:02}.seanim", i));
    const CommandResult run = run_cli(
        fmt::format("convert \"{}\" -o \"{}\" --to fbx --anims \"{}\"", (dir / "model").string(),
                    (dir / "out").string(), (dir / "anims").string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const fbx_reader::File file = fbx_reader::read(read_bytes(dir / "out/hero.fbx"));
    const auto stacks = fbx_reader::objects(file, "AnimationStack", "");
    EXPECT_EQ(stacks.size(), 50u);
    std::set<std::string> names;
    for (const Node* stack : stacks) names.insert(stack->get<std::string>(1));
    EXPECT_EQ(names.size(), 50u);  // each its own stack
    EXPECT_EQ(fbx_reader::objects(file, "Model", "LimbNode").size(), 21u);
}

}  // namespace
}  // namespace castkit::test::fbx_test
