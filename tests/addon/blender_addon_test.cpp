// What the official Blender add-on needs from a Cast file (blender_addon.hpp applies its
// rules): every SEModel, bundled example, glTF and DMF file in the tests, converted to Cast by
// the real `castkit convert`, imports; and the rules themselves catch what breaks the add-on.
#include "blender_addon.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/rest_pose.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/gltf.hpp>
#include <castkit/formats/semodel.hpp>

#include "../anim/scene.hpp"
#include "../formats/cli_command.hpp"
#include "../formats/dmf_golden.hpp"
#include "../formats/se_golden.hpp"
#include "../gltf/gltf_scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::blender_addon_test {
namespace {

// `castkit convert source out.cast` into `dir` (default: beside the source), then the add-on's
// rules on what it wrote; nullopt, with the CLI's message, when castkit refuses the source.
std::optional<std::vector<std::string>> convert(const std::filesystem::path& source,
                                                std::filesystem::path dir = {}) {
    if (dir.empty()) dir = source.parent_path();
    const std::filesystem::path out = dir / fmt::format("{}.cast", source.filename().string());
    CommandResult result = run_cli(fmt::format("convert {} {}", quoted(source), quoted(out)));
    if (result.exit_code != 0) {
        EXPECT_NE(result.err, "") << source;  // a refusal says why
        return std::nullopt;
    }
    auto document = open_cast(out);
    if (!document) return std::vector<std::string>{document.error().to_string()};
    return blender_addon_failures(*document);
}

// The same for a source castkit must convert.
std::vector<std::string> convert_and_check(const std::filesystem::path& source) {
    auto failures = convert(source);
    EXPECT_TRUE(failures) << source << " did not convert";
    return failures ? *failures : std::vector<std::string>{};
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

// Three bones in a chain, turned and moved, with the given SEModel bone blocks.
semodel::Model chain(std::uint8_t blocks) {
    semodel::Model m;
    m.header.bone_presence = blocks;
    const glm::vec4 turn = axis_angle_xyzw(glm::normalize(glm::vec3(1, 2, 3)), 40);
    const glm::quat q = cast::quat_from_xyzw(turn);
    glm::vec3 position(1, 2, 3);
    glm::quat rotation(1, 0, 0, 0);
    for (int b = 0; b < 3; ++b) {
        semodel::Bone& bone = m.bones.emplace_back();
        bone.name = fmt::format("joint{}", b);
        bone.parent = b - 1;
        bone.local_position = b == 0 ? position : glm::vec3(0, 2, 0);
        bone.local_rotation = turn;
        if (b > 0) position += rotation * glm::vec3(0, 2, 0);
        rotation = rotation * q;
        bone.global_position = position;
        bone.global_rotation = cast::xyzw_from_quat(rotation);
        bone.scale = glm::vec3(1.0f);
    }
    semodel::canonicalize(m);
    return m;
}

std::vector<std::pair<std::string, semodel::Model>> semodels() {
    std::vector<std::pair<std::string, semodel::Model>> out;
    Diagnostics warnings;
    out.emplace_back("golden", *semodel::read(semodel_golden_vector(), "golden", warnings));
    out.emplace_back("global-only", chain(semodel::kGlobalMatrices));
    out.emplace_back("local-only", chain(semodel::kLocalMatrices));
    out.emplace_back("minimal", chain(0));
    out.emplace_back("scale-only", chain(semodel::kScales));
    out.emplace_back("all-blocks",
                     chain(semodel::kGlobalMatrices | semodel::kLocalMatrices | semodel::kScales));
    return out;
}

TEST(BlenderAddon, EverySemodelConvertsToACastTheAddonImports) {
    auto dir = temp_dir("addon-semodel");
    for (auto& [name, model] : semodels()) {
        const auto path = dir / fmt::format("{}.semodel", name);
        ASSERT_TRUE(semodel::write(model, path));
        EXPECT_EQ(joined(convert_and_check(path)), "") << name;
    }
}

// Derived local transforms must put every bone where its global block says, by castkit's own
// evaluator (rule 18), and the way back must leave the derived block out again.
TEST(BlenderAddon, GlobalOnlySemodelGetsLocalsThatEvaluateToItsGlobals) {
    const semodel::Model model = chain(semodel::kGlobalMatrices);
    Diagnostics warnings;
    cast::Document document = semodel::to_cast(model, warnings).value();
    cast::Skeleton skeleton = document.models()[0].skeleton();
    auto built = anim::build_skeleton(skeleton, warnings);
    ASSERT_TRUE(built);
    std::vector<glm::mat4> worlds(built->bone_count());
    anim::LocalToWorldJob job{.skeleton = &*built, .locals = built->rest(), .worlds = worlds};
    ASSERT_TRUE(job.run());
    for (std::size_t i = 0; i < model.bones.size(); ++i) {
        const anim::Transform world = anim::decompose(worlds[i]);
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(world.translation[c], model.bones[i].global_position[c], 1e-5f) << i;
        const glm::quat expected = cast::quat_from_xyzw(model.bones[i].global_rotation);
        EXPECT_NEAR(std::abs(glm::dot(world.rotation, expected)), 1.0f, 1e-6f) << i;
        // The given globals are kept exactly.
        EXPECT_EQ(*skeleton.bones()[i].world_position(), model.bones[i].global_position);
    }
    EXPECT_TRUE(warnings.empty());
    auto back = semodel::from_cast(document, warnings);
    ASSERT_TRUE(back);
    EXPECT_EQ(*semodel::write_to_buffer(*back), *semodel::write_to_buffer(model));
}

// Each SEModel above also comes back byte for byte through the files the CLI writes.
TEST(BlenderAddon, SemodelRoundTripsThroughTheCliStayExact) {
    auto dir = temp_dir("addon-semodel-back");
    for (auto& [name, model] : semodels()) {
        const auto path = dir / fmt::format("{}.semodel", name);
        ASSERT_TRUE(semodel::write(model, path));
        const auto cast_path = dir / fmt::format("{}.cast", name),
                   back = dir / fmt::format("{}.back.semodel", name);
        ASSERT_EQ(run_cli(fmt::format("convert {} {}", quoted(path), quoted(cast_path))).exit_code,
                  0);
        CommandResult result =
            run_cli(fmt::format("convert {} {}", quoted(cast_path), quoted(back)));
        ASSERT_EQ(result.exit_code, 0) << result.err;
        EXPECT_EQ(read_bytes(back), read_bytes(path)) << name;
    }
}

TEST(BlenderAddon, EveryBundledExampleImports) {
    const auto dir = std::filesystem::path(CASTKIT_SOURCE_DIR) / "examples" / "data";
    std::size_t checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".cast") continue;
        auto document = open_cast(entry.path());
        ASSERT_TRUE(document) << document.error().to_string();
        EXPECT_EQ(joined(blender_addon_failures(*document)), "") << entry.path();
        // The add-on joins the file's folder, `sr` and the File path.
        for (cast::Root& root : document->root_nodes())
            for (const cast::Instance& instance : root.instances()) {
                const auto sr = root.metadata().at(0).scene_root();
                ASSERT_TRUE(sr);
                const auto base = entry.path().parent_path() / std::string(*sr);
                EXPECT_TRUE(std::filesystem::is_directory(base));
                EXPECT_TRUE(
                    std::filesystem::exists(base / std::string(*instance.reference_file().path())));
            }
        ++checked;
    }
    EXPECT_EQ(checked, 3u);
    CommandResult info = run_cli(fmt::format("info {}", quoted(dir / "scene.cast")));
    EXPECT_NE(info.out.find("scene root '.'"), std::string::npos) << info.out;
}

// The feature-complete scene written as glb and glTF, and every glTF file the tests carry (a
// file castkit refuses, such as one requiring an unknown extension, makes no Cast to check).
TEST(BlenderAddon, EveryGltfFileConvertsToACastTheAddonImports) {
    auto dir = temp_dir("addon-gltf");
    AnimScene scene;
    build_full_scene(scene);
    for (const char* name : {"full.glb", "full.gltf"}) {
        Diagnostics warnings;
        const bool binary = std::string_view(name).ends_with(".glb");
        ASSERT_TRUE(gltf::write(scene.document, dir / name, {.binary = binary}, warnings));
        EXPECT_EQ(joined(convert_and_check(dir / name)), "") << name;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(fixtures())) {
        const auto extension = entry.path().extension();
        if (extension != ".glb" && extension != ".gltf") continue;
        if (auto failures = convert(entry.path(), dir)) {
            EXPECT_EQ(joined(*failures), "") << entry.path();
        }
    }
}

TEST(BlenderAddon, DmfConvertsToACastTheAddonImports) {
    auto dir = temp_dir("addon-dmf");
    write_bytes(dir / "golden.dmf", golden_dmf());
    EXPECT_EQ(joined(convert_and_check(dir / "golden.dmf")), "");
}

// The rules catch what the add-on trips over, one finding each.
TEST(BlenderAddon, RulesFindWhatBreaksTheImport) {
    AnimScene scene;
    scene.bone("root");
    cast::Bone world_only = scene.skeleton.add_bone();
    world_only.set_name("tip");
    world_only.set_world_position({0, 1, 0});
    cast::Mesh mesh = scene.model.add_mesh();
    mesh.set_positions(std::vector<glm::vec3>(3, glm::vec3(0)));
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    mesh.node().set(cast::make_integer("ul", cast::PropertyType::Byte, 1).value());  // no u0
    cast::Root root = scene.document.root_nodes()[0];
    cast::Instance instance = root.add_instance();
    cast::File file = instance.add_file("prop.cast");
    instance.set_reference_file(file);
    EXPECT_EQ(joined(blender_addon_failures(scene.document)),
              "root[0]/model[0]/bone[1]: no 'lp'\n"
              "root[0]/model[0]/bone[1]: no 'lr'\n"
              "root[0]/model[0]/mesh[0]: no 'u0'\n"
              "Instances without a scene root: the first Metadata has no 'sr' (\"Unable to "
              "import instances without a root directory!\")\n");
    anim::complete_rest_transforms(scene.skeleton);
    mesh.node().remove("ul");
    root.add_metadata().set_scene_root(".");
    EXPECT_EQ(joined(blender_addon_failures(scene.document)), "");
}

}  // namespace
}  // namespace castkit::test::blender_addon_test
