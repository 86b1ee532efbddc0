// The OBJ writer (docs/obj.md): the exact text of a tiny mesh and its MTL, the MTL never over a
// file this run did not write, a map's Instances placed as objects within a byte budget, every
// loss named by its own id, and the documents that give nothing to write.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <glm/gtc/quaternion.hpp>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"

namespace castkit::test::obj_test {
namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& path) {
    const std::vector<std::byte> bytes = read_bytes(path);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::set<std::string> rules_of(const Diagnostics& diagnostics) {
    std::set<std::string> rules;
    for (const Diagnostic& d : diagnostics) rules.insert(d.rule);
    return rules;
}

// One triangle facing +Z with normals and UVs, its material's diffuse File `paint.png` and
// specular Color (0.5, 0.25, 0).
cast::Document tiny_document() {
    cast::Document document;
    cast::Model model = document.add_root().add_model();
    model.set_name("box");
    cast::Mesh mesh = model.add_mesh();
    mesh.set_name("tri");
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0.25f}});
    mesh.set_normals(std::vector<glm::vec3>{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}});
    EXPECT_TRUE(mesh.set_uv_layer(0, std::vector<glm::vec2>{{0, 0}, {1, 0}, {0, 0.75f}}));
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    cast::Material material = model.add_material();
    material.set_name("paint");
    material.set_slot("diffuse", material.add_file("paint.png"));
    cast::Color specular = material.add_color();
    specular.set_rgba({0.5f, 0.25f, 0.0f, 1.0f});
    material.set_slot("specular", specular);
    mesh.set_material(material);
    return document;
}

const FormatInfo& obj_format() { return *format_by_name("obj"); }

Expected<void> write_obj(const cast::Document& document, const fs::path& path,
                         Diagnostics& warnings) {
    return formats::write_file(obj_format(), document, path, formats::context_for(path), warnings);
}

constexpr std::string_view kTinyObj =
    "mtllib tiny.mtl\n"
    "o tri\n"
    "v 0 0 0\n"
    "v 1 0 0\n"
    "v 0 1 0.25\n"
    "vt 0 1\n"
    "vt 1 1\n"
    "vt 0 0.25\n"
    "vn 0 0 1\n"
    "vn 0 0 1\n"
    "vn 0 0 1\n"
    "g tri\n"
    "usemtl paint\n"
    "f 1/1/1 2/2/2 3/3/3\n";
constexpr std::string_view kTinyMtl =
    "newmtl paint\n"
    "map_Kd paint.png\n"
    "Ks 0.5 0.25 0\n";

TEST(ObjWriter, ATinyMeshIsWrittenAsThisExactText) {
    const fs::path dir = temp_dir("obj-golden");
    Diagnostics warnings;
    ASSERT_TRUE(write_obj(tiny_document(), dir / "tiny.obj", warnings));
    EXPECT_EQ(text_of(dir / "tiny.obj"), kTinyObj);
    EXPECT_EQ(text_of(dir / "tiny.mtl"), kTinyMtl);
    EXPECT_TRUE(warnings.empty()) << warnings.begin()->to_string();
}

TEST(ObjWriter, TheMtlNeverReplacesAFileThisRunDidNotWrite) {
    const fs::path dir = temp_dir("obj-mtl-kept");
    write_bytes(dir / "tiny.mtl", {std::byte{'m'}, std::byte{'i'}, std::byte{'n'}, std::byte{'e'}});
    Diagnostics warnings;
    ASSERT_TRUE(write_obj(tiny_document(), dir / "tiny.obj", warnings));
    EXPECT_EQ(text_of(dir / "tiny.mtl"), "mine");
    EXPECT_EQ(text_of(dir / "tiny-2.mtl"), kTinyMtl);
    EXPECT_TRUE(text_of(dir / "tiny.obj").starts_with("mtllib tiny-2.mtl\n"));
    EXPECT_TRUE(rules_of(warnings).contains("obj.mtl-renamed"));
    // Written again, the same bytes are found under the free name and reused: no tiny-3.mtl.
    Diagnostics again;
    ASSERT_TRUE(write_obj(tiny_document(), dir / "tiny.obj", again));
    EXPECT_FALSE(fs::exists(dir / "tiny-3.mtl"));
    EXPECT_TRUE(text_of(dir / "tiny.obj").starts_with("mtllib tiny-2.mtl\n"));
}

TEST(ObjWriter, ASinkThatIsNoFileGetsNoMtlAndSaysSo) {
    BufferSink sink;
    Diagnostics warnings;
    ASSERT_TRUE(
        formats::write(obj_format(), tiny_document(), sink, WriteContext{.name = "-"}, warnings));
    const std::string text(reinterpret_cast<const char*>(sink.bytes.data()), sink.bytes.size());
    std::string expected(kTinyObj);
    for (std::string_view line : {"mtllib tiny.mtl\n", "usemtl paint\n"})
        expected.erase(expected.find(line), line.size());
    EXPECT_EQ(text, expected);
    EXPECT_TRUE(rules_of(warnings).contains("obj.mtl-not-written"));
}

TEST(ObjWriter, AnEmptyDocumentIsAnEmptyFileWithoutMtl) {
    const fs::path dir = temp_dir("obj-empty");
    Diagnostics warnings;
    cast::Document empty;
    ASSERT_TRUE(write_obj(empty, dir / "empty.obj", warnings));
    EXPECT_EQ(text_of(dir / "empty.obj"), "");
    EXPECT_FALSE(fs::exists(dir / "empty.mtl"));
    cast::Document bare;
    bare.add_root().add_model().add_mesh();  // a mesh without positions
    ASSERT_TRUE(write_obj(bare, dir / "bare.obj", warnings));
    EXPECT_EQ(text_of(dir / "bare.obj"), "o model_0\ng model_0\n");
}

TEST(ObjWriter, ABrokenTriangleIsLeftOutAndANonFinitePositionRefused) {
    cast::Document document = tiny_document();
    document.root_nodes()[0].models()[0].meshes()[0].set_faces(
        std::vector<std::uint32_t>{0, 1, 2, 0, 1, 9});
    BufferSink sink;
    Diagnostics warnings;
    ASSERT_TRUE(
        formats::write(obj_format(), document, sink, WriteContext{.name = "x.obj"}, warnings));
    const std::string text(reinterpret_cast<const char*>(sink.bytes.data()), sink.bytes.size());
    EXPECT_EQ(std::count(text.begin(), text.end(), 'f'), 1) << text;
    EXPECT_TRUE(rules_of(warnings).contains("output.face-index"));
    document.root_nodes()[0].models()[0].meshes()[0].set_positions(
        std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, std::nanf(""), 0}});
    BufferSink refused;
    auto written =
        formats::write(obj_format(), document, refused, WriteContext{.name = "x.obj"}, warnings);
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().rule, "output.non-finite");
}

TEST(ObjWriter, ReadingAnObjIsRefusedWithItsId) {
    const std::string text = "v 0 0 0\n";
    Diagnostics warnings;
    auto document = formats::read(obj_format(), {std::as_bytes(std::span(text)), nullptr},
                                  ReadContext{.name = "x.obj"}, warnings);
    ASSERT_FALSE(document);
    EXPECT_EQ(document.error().rule, "registry.write-only");
    EXPECT_EQ(format_for_path("scene.OBJ"), &obj_format());
}

TEST(ObjWriter, EveryLossHasItsOwnId) {
    Diagnostics warnings;
    auto rig =
        cast::open(fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero/hero_rig.cast", warnings);
    ASSERT_TRUE(rig);
    BufferSink sink;
    ASSERT_TRUE(
        formats::write(obj_format(), *rig, sink, WriteContext{.name = "rig.obj"}, warnings));
    for (const char* rule : {"obj.skin-dropped", "obj.ik-dropped", "obj.constraint-dropped",
                             "obj.blend-shape-dropped", "obj.layer-dropped"})
        EXPECT_TRUE(rules_of(warnings).contains(rule)) << rule;

    cast::Document document;
    cast::Root root = document.add_root();
    cast::Model model = root.add_model();
    cast::Mesh mesh = model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    EXPECT_TRUE(mesh.set_uv_layer(0, std::vector<glm::vec2>(3)));
    EXPECT_TRUE(mesh.set_uv_layer(1, std::vector<glm::vec2>(3)));
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    model.add_hair();
    root.add_animation();
    Diagnostics losses;
    BufferSink more;
    ASSERT_TRUE(
        formats::write(obj_format(), document, more, WriteContext{.name = "x.obj"}, losses));
    for (const char* rule : {"obj.hair-dropped", "obj.animation-dropped", "obj.layer-dropped"})
        EXPECT_TRUE(rules_of(losses).contains(rule)) << rule;
    // The second UV layer is dropped, the first written.
    const std::string text(reinterpret_cast<const char*>(more.bytes.data()), more.bytes.size());
    EXPECT_NE(text.find("f 1/1 2/2 3/3\n"), std::string::npos) << text;
}

// A model file of one triangle beside a map placing it twice: moved, and turned and scaled.
void write_small_map(const fs::path& dir) {
    fs::create_directories(dir / "models");
    cast::Document model_file;
    cast::Mesh mesh = model_file.add_root().add_model().add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
    mesh.set_normals(std::vector<glm::vec3>{{1, 0, 0}, {1, 0, 0}, {1, 0, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    cast::Material stone = model_file.root_nodes()[0].models()[0].add_material();
    stone.set_name("stone");
    stone.set_slot("diffuse", stone.add_file("rock.png"));
    mesh.set_material(stone);
    write_bytes(dir / "models" / "rock.png", {std::byte{0x89}, std::byte{'P'}, std::byte{'N'}});
    ASSERT_TRUE(cast::write(model_file, dir / "models" / "rock.cast"));
    cast::Document map;
    cast::Root root = map.add_root();
    cast::Instance moved = root.add_instance();
    moved.set_reference_file(moved.add_file("models/rock.cast"));
    moved.set_position({10, 0, 0});
    cast::Instance turned = root.add_instance();
    turned.set_name("boulder");
    turned.set_reference_file(turned.add_file("models/rock.cast"));
    const glm::quat quarter = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
    turned.set_rotation({quarter.x, quarter.y, quarter.z, quarter.w});
    turned.set_scale({2, 2, 2});
    ASSERT_TRUE(cast::write(map, dir / "map.cast"));
}

TEST(ObjWriter, EveryInstanceOfAMapIsPlacedAsAnObject) {
    const fs::path dir = temp_dir("obj-map");
    write_small_map(dir);
    Diagnostics warnings;
    auto map = cast::open(dir / "map.cast", warnings);
    ASSERT_TRUE(map);
    ASSERT_TRUE(write_obj(*map, dir / "map.obj", warnings));
    const std::string text = text_of(dir / "map.obj");
    EXPECT_NE(text.find("o rock.0\nv 10 0 0\nv 11 0 0\nv 10 1 0\nvn 1 0 0\n"), std::string::npos)
        << text;
    // Turned a quarter about Z and doubled: x becomes y; the normal turns too and stays unit.
    EXPECT_NE(text.find("o boulder.1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("usemtl stone\nf 4//4 5//5 6//6\n"), std::string::npos) << text;
    const std::size_t second = text.find("o boulder.1\n");
    const std::string placed = text.substr(second);
    float x = 0, y = 0, z = 0;
    ASSERT_EQ(std::sscanf(placed.c_str() + placed.find("v ", 10), "v %f %f %f", &x, &y, &z), 3);
    EXPECT_NEAR(x, 0.0f, 1e-6f);
    ASSERT_EQ(std::sscanf(placed.c_str() + placed.find("\nv ", 14) + 1, "v %f %f %f", &x, &y, &z),
              3);
    EXPECT_NEAR(x, 0.0f, 1e-6f);
    EXPECT_NEAR(y, 2.0f, 1e-6f);
    ASSERT_EQ(std::sscanf(placed.c_str() + placed.find("vn "), "vn %f %f %f", &x, &y, &z), 3);
    EXPECT_NEAR(y, 1.0f, 1e-6f);
}

TEST(ObjCli, AMapsTexturesAreNamedBesideItOrCopiedBesideAnOutputElsewhere) {
    const fs::path dir = temp_dir("obj-map-textures");
    write_small_map(dir);
    CommandResult run = run_cli(in_dir(dir, "convert {map.cast} {map.obj}"));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(text_of(dir / "map.mtl"), "newmtl stone\nmap_Kd models/rock.png\n");
    fs::create_directories(dir / "out");
    run = run_cli(in_dir(dir, "convert {map.cast} {out/map.obj}"));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(text_of(dir / "out" / "map.mtl"), "newmtl stone\nmap_Kd models/rock.png\n");
    EXPECT_EQ(read_bytes(dir / "out" / "models" / "rock.png"),
              read_bytes(dir / "models" / "rock.png"));
    // A file of the user's where the copy would go keeps its bytes; the copy takes a free name.
    fs::create_directories(dir / "other" / "models");
    write_bytes(dir / "other" / "models" / "rock.png", {std::byte{'x'}});
    run = run_cli(in_dir(dir, "convert {map.cast} {other/map.obj}"));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_bytes(dir / "other" / "models" / "rock.png"), std::vector{std::byte{'x'}});
    EXPECT_EQ(text_of(dir / "other" / "map.mtl"), "newmtl stone\nmap_Kd models/rock-2.png\n");
    EXPECT_NE(run.err.find("[texture.renamed]"), std::string::npos) << run.err;
}

TEST(ObjWriter, AnInstanceThatCannotBeReadIsNamedAndSkipped) {
    const fs::path dir = temp_dir("obj-map-refused");
    write_small_map(dir);
    fs::remove(dir / "models" / "rock.cast");
    Diagnostics warnings;
    auto map = cast::open(dir / "map.cast", warnings);
    ASSERT_TRUE(map);
    ASSERT_TRUE(write_obj(*map, dir / "map.obj", warnings));
    EXPECT_EQ(text_of(dir / "map.obj"), "");
    EXPECT_TRUE(rules_of(warnings).contains("obj.instance-refused"));
}

TEST(ObjWriter, AMapPastItsBudgetIsRefusedNamingTheBudget) {
    const fs::path dir = temp_dir("obj-map-budget");
    fs::create_directories(dir / "models");
    // A model of 60,000 vertices (1.4 MB) placed 1,000 times: up to about 10 GB of text.
    cast::Document model_file;
    cast::Mesh mesh = model_file.add_root().add_model().add_mesh();
    std::vector<glm::vec3> positions(60000, glm::vec3(0.125f));
    std::vector<std::uint32_t> faces;
    for (std::uint32_t i = 0; i + 2 < positions.size(); i += 3)
        faces.insert(faces.end(), {i, i + 1, i + 2});
    mesh.set_positions(positions);
    mesh.set_normals(positions);
    mesh.set_faces(faces);
    ASSERT_TRUE(cast::write(model_file, dir / "models" / "big.cast"));
    cast::Document map;
    cast::Root root = map.add_root();
    for (int i = 0; i < 1000; ++i) {
        cast::Instance instance = root.add_instance();
        instance.set_reference_file(instance.add_file("models/big.cast"));
        instance.set_position({static_cast<float>(i), 0, 0});
    }
    ASSERT_TRUE(cast::write(map, dir / "map.cast"));
    const CommandResult run = run_cli(in_dir(dir, "convert {map.cast} {map.obj}"));
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.err.find("[obj.map-budget]"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("1024 MiB plus 256 per byte"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir / "map.obj"));
    EXPECT_FALSE(fs::exists(dir / "map.mtl"));
}

TEST(ObjCli, TheHeroConvertsWithItsTextureBesideTheObj) {
    const fs::path dir = temp_dir("obj-cli-hero");
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero/hero.cast";
    const CommandResult run =
        run_cli(fmt::format("convert {} {}", quoted(hero), quoted(dir / "out" / "hero.obj")));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find("[obj.layer-dropped]"), std::string::npos) << run.err;
    const std::string mtl = text_of(dir / "out" / "hero.mtl");
    EXPECT_NE(mtl.find("map_Kd hero_albedo.png\n"), std::string::npos) << mtl;
    EXPECT_EQ(read_bytes(dir / "out" / "hero_albedo.png"),
              read_bytes(hero.parent_path() / "hero_albedo.png"));
    const std::string obj = text_of(dir / "out" / "hero.obj");
    EXPECT_TRUE(obj.starts_with("mtllib hero.mtl\n"));
    EXPECT_EQ(std::count(obj.begin(), obj.end(), '\n'),
              1 + 2 + 1 + 3 * 3029 + static_cast<long>(std::count(obj.begin(), obj.end(), 'f')))
        << "lines: mtllib, o, g, usemtl, v/vt/vn per vertex, f per triangle";
    const CommandResult info = run_cli(in_dir(dir, "info {out/hero.obj}"));
    EXPECT_EQ(info.exit_code, 2);
    EXPECT_NE(info.err.find("castkit writes obj but does not read it"), std::string::npos)
        << info.err;
}

}  // namespace
}  // namespace castkit::test::obj_test
