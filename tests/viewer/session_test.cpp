// The viewer's scene (viewer/session) on the example character's glb and DMF, with no folder
// to unpack into: the embedded image is the material's file in the page's `info` (what
// `castkit info` prints), and it is embedded, byte for byte, in the glb the page draws.
#include "session/session.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "../anim/scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::session_test {
namespace {

namespace fs = std::filesystem;

fs::path hero() { return fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero"; }

cast::SharedBytes file_bytes(const fs::path& path) {
    auto bytes = std::make_shared<const std::vector<std::byte>>(read_bytes(path));
    return {cast::Bytes(*bytes), bytes};
}

std::uint32_t glb_json_length(const std::vector<std::byte>& glb) {
    std::uint32_t json_length = 0;
    std::memcpy(&json_length, glb.data() + 12, 4);
    return json_length;
}

nlohmann::json glb_json(const std::vector<std::byte>& glb) {
    return nlohmann::json::parse(
        std::string(reinterpret_cast<const char*>(glb.data()) + 20, glb_json_length(glb)));
}

// The bytes of image `index` of a glb held in memory.
std::vector<std::byte> glb_image(const std::vector<std::byte>& glb, int index = 0) {
    const std::uint32_t json_length = glb_json_length(glb);
    const nlohmann::json json = glb_json(glb);
    if (!json.contains("images")) return {};
    const nlohmann::json& view =
        json["bufferViews"][json["images"][index]["bufferView"].get<int>()];
    const std::size_t offset = 20 + json_length + 8 + view.value("byteOffset", 0u);
    const auto begin = glb.begin() + static_cast<std::ptrdiff_t>(offset);
    return {begin, begin + view["byteLength"].get<std::ptrdiff_t>()};
}

TEST(ViewerSession, ShowsAnEmbeddedImageWithoutAFolder) {
    for (const char* name : {"hero.glb", "hero.dmf", "hero.dmf.json"}) {
        // Dropped on the page: a folder of its own, where no texture lies.
        const fs::path dropped = temp_dir(std::string("viewer-session-") + name);
        viewer::Session session;
        ASSERT_TRUE(session.add(name, file_bytes(hero() / name), dropped)) << name;
        const nlohmann::json scene = nlohmann::json::parse(session.scene_json());
        const std::string info = scene["files"][0]["info"];
        EXPECT_NE(info.find("1 file,"), std::string::npos) << info;
        EXPECT_NE(info.find("embedded file '"), std::string::npos) << info;
        for (const auto& warning : scene["warnings"])
            EXPECT_EQ(warning["text"].get<std::string>().find("not kept"), std::string::npos)
                << warning;
        auto glb = session.glb();
        ASSERT_TRUE(glb) << glb.error().to_string();
        EXPECT_EQ(glb_image(*glb), read_bytes(hero() / "hero_albedo.png")) << name;
        EXPECT_TRUE(fs::is_empty(dropped)) << name;
    }
}

// The base of additive animations: only an animation file of the session, which the scene then
// names; the lean layered on the walk is another glb than the lean on the rest pose; the rest
// pose again is the glb it was.
TEST(ViewerSession, LayersAdditiveAnimationsOnTheBaseItIsGiven) {
    viewer::Session session;
    for (const char* name : {"hero_rig.cast", "hero_walk.cast", "hero_lean.cast"})
        ASSERT_TRUE(session.add(name, file_bytes(hero() / name), hero())) << name;
    const nlohmann::json files = nlohmann::json::parse(session.scene_json())["files"];
    EXPECT_EQ(files[0]["additive"], false);
    EXPECT_EQ(files[2]["additive"], true);
    auto on_rest = session.glb();
    ASSERT_TRUE(on_rest) << on_rest.error().to_string();
    for (const char* refused : {"hero_rig.cast", "elsewhere.cast"}) {
        auto set = session.set_base(refused, std::nullopt);
        ASSERT_FALSE(set) << refused;
        EXPECT_EQ(set.error().rule, "viewer.base");
    }
    ASSERT_TRUE(session.set_base("hero_walk.cast", 12.0f));
    const nlohmann::json base = nlohmann::json::parse(session.scene_json())["base"];
    EXPECT_EQ(base, (nlohmann::json{{"file", "hero_walk.cast"}, {"frame", 12.0}}));
    auto on_walk = session.glb();
    ASSERT_TRUE(on_walk) << on_walk.error().to_string();
    EXPECT_NE(*on_walk, *on_rest);
    ASSERT_TRUE(session.set_base("", std::nullopt));
    EXPECT_EQ(*session.glb(), *on_rest);
}

// The scene is built once for the JSON and the glb of a refresh, and again after each change:
// an animation added is listed and drawn, and after clear() nothing is left to draw.
TEST(ViewerSession, TheSceneFollowsEveryChange) {
    viewer::Session session;
    ASSERT_TRUE(session.add("hero.cast", file_bytes(hero() / "hero.cast"), hero()));
    EXPECT_TRUE(nlohmann::json::parse(session.scene_json())["animations"].empty());
    auto standing = session.glb();
    ASSERT_TRUE(standing) << standing.error().to_string();
    ASSERT_TRUE(session.add("hero_walk.cast", file_bytes(hero() / "hero_walk.cast"), hero()));
    EXPECT_EQ(nlohmann::json::parse(session.scene_json())["animations"].size(), 1u);
    auto walking = session.glb();
    ASSERT_TRUE(walking) << walking.error().to_string();
    EXPECT_NE(*walking, *standing);
    session.clear();
    EXPECT_FALSE(session.glb());
}

// Issue 57: a few KB of 100 IK handles over 200,000 frames stalled the viewer for 35 s; the
// rig's solve counts against the sample budget, so the glb is refused at once, with its id.
TEST(ViewerSession, ARigSolvedOnTooManyFramesIsRefusedWithTheBudgetsId) {
    AnimScene scene = many_ik_handles(20000);
    auto bytes = cast::write_to_buffer(scene.document);
    ASSERT_TRUE(bytes);
    auto owned = std::make_shared<const std::vector<std::byte>>(std::move(*bytes));
    viewer::Session session;
    const fs::path folder = temp_dir("viewer-session-rig");
    ASSERT_TRUE(session.add("rig.cast", {cast::Bytes(*owned), owned}, folder));
    auto glb = session.glb();
    ASSERT_FALSE(glb);
    EXPECT_EQ(glb.error().rule, "gltf.sample-limit") << glb.error().to_string();
}

// The nodes of a glb that carry EXT_mesh_gpu_instancing, and whether the glb requires it.
std::pair<std::size_t, bool> instanced_nodes(const nlohmann::json& json) {
    std::size_t nodes = 0;
    for (const nlohmann::json& node : json["nodes"])
        if (node.contains("extensions") && node["extensions"].contains("EXT_mesh_gpu_instancing"))
            ++nodes;
    const nlohmann::json required = json.value("extensionsRequired", nlohmann::json::array());
    return {nodes, std::find(required.begin(), required.end(), "EXT_mesh_gpu_instancing") !=
                       required.end()};
}

// Issue 59: the bundled map (300 Instances of 3 model files) is drawn with
// EXT_mesh_gpu_instancing, one node per distinct mesh, in `castkit view` and the WebAssembly
// page alike; set_gpu_instancing(false) (`castkit view --no-gpu-instancing`) writes one node per
// instance, and a model that is no map is written as before.
TEST(ViewerSession, AMapIsDrawnWithGpuInstancingUnlessTurnedOff) {
    const fs::path map = fs::path(CASTKIT_SOURCE_DIR) / "examples/map";
    viewer::Session session;
    ASSERT_TRUE(session.add("map.cast", file_bytes(map / "map.cast"), map));
    EXPECT_EQ(nlohmann::json::parse(session.scene_json())["instances"], 300);
    auto instanced = session.glb();
    ASSERT_TRUE(instanced) << instanced.error().to_string();
    EXPECT_EQ(instanced_nodes(glb_json(*instanced)), std::make_pair(std::size_t{3}, true));
    session.set_gpu_instancing(false);
    auto plain = session.glb();
    ASSERT_TRUE(plain) << plain.error().to_string();
    const nlohmann::json json = glb_json(*plain);
    EXPECT_EQ(instanced_nodes(json), std::make_pair(std::size_t{0}, false));
    EXPECT_GE(json["nodes"].size(), 300u);
    viewer::Session model;
    ASSERT_TRUE(model.add("hero.cast", file_bytes(hero() / "hero.cast"), hero()));
    auto hero_glb = model.glb();
    ASSERT_TRUE(hero_glb) << hero_glb.error().to_string();
    EXPECT_EQ(instanced_nodes(glb_json(*hero_glb)), std::make_pair(std::size_t{0}, false));
}

// The bundled scene instances a skinned character, which is written as nodes: the page, which
// asked for instancing on its own, says nothing about it.
TEST(ViewerSession, AnInstanceFileDrawnAsNodesIsNoWarning) {
    const fs::path data = fs::path(CASTKIT_SOURCE_DIR) / "examples/data";
    viewer::Session session;
    ASSERT_TRUE(session.add("scene.cast", file_bytes(data / "scene.cast"), data));
    auto glb = session.glb();
    ASSERT_TRUE(glb) << glb.error().to_string();
    const nlohmann::json scene = nlohmann::json::parse(session.scene_json());
    for (const auto& warning : scene["warnings"])
        EXPECT_NE(warning["id"], "gltf.gpu-instancing-fallback") << warning;
}

}  // namespace
}  // namespace castkit::test::session_test
