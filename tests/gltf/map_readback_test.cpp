// Maps read back (docs/gltf.md, "Maps"): a glb drawing its meshes from many nodes, or through
// EXT_mesh_gpu_instancing, read for a Cast world becomes Instances beside one model file per
// distinct mesh; read into one file, its copies are held to the file's budget; and a map taken
// Cast -> glb -> Cast world -> glb draws the same instances.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/gltf.hpp>
#include <cmath>
#include <cstring>
#include <glm/gtc/quaternion.hpp>
#include <set>

#include "../formats/cli_command.hpp"
#include "../test_support.hpp"
#include "gltf_scene.hpp"

namespace castkit::test::map_readback_test {
namespace {

namespace fs = std::filesystem;

// A grid of `triangles` (even) triangles in the XY plane, as POSITION floats and u32 indices.
struct Grid {
    std::vector<float> positions;
    std::vector<std::uint32_t> indices;
};
Grid grid(std::size_t triangles) {
    const std::size_t quads = triangles / 2;
    Grid out;
    for (std::size_t q = 0; q <= quads; ++q)
        for (float y : {0.0f, 1.0f}) out.positions.insert(out.positions.end(), {float(q), y, 0});
    for (std::uint32_t q = 0; q < quads; ++q)
        out.indices.insert(out.indices.end(),
                           {2 * q, 2 * q + 2, 2 * q + 1, 2 * q + 1, 2 * q + 2, 2 * q + 3});
    return out;
}

// The TRS of node k of a map: spread along x and y, turned about z, scaled.
struct Trs {
    std::array<float, 3> t;
    std::array<float, 4> r;  // x, y, z, w
    float s;
};
Trs map_trs(std::size_t k) {
    const float angle = 0.37f * static_cast<float>(k);
    return {{static_cast<float>(k % 317) * 13.5f, static_cast<float>(k / 317) * 7.25f, 0.5f},
            {0, 0, std::sin(angle / 2), std::cos(angle / 2)},
            1.0f + static_cast<float>(k % 5) * 0.25f};
}

// A GLB of one mesh of `triangles` triangles drawn by `nodes` nodes (map_trs), or, with
// `gpu`, by one node's EXT_mesh_gpu_instancing instances (TRANSLATION, ROTATION, SCALE).
// `marked`: each node carries castkit's extras.castkit_instance, as castkit's own map glb does.
std::vector<std::byte> map_glb(std::size_t triangles, std::size_t nodes, bool gpu = false,
                               bool marked = false) {
    const Grid mesh = grid(triangles);
    std::vector<float> floats = mesh.positions;
    const std::size_t points = floats.size() * 4;
    std::vector<std::byte> bin(points + mesh.indices.size() * 4);
    std::memcpy(bin.data(), floats.data(), points);
    std::memcpy(bin.data() + points, mesh.indices.data(), mesh.indices.size() * 4);
    const std::size_t vertices = floats.size() / 3;
    std::string views = fmt::format(
        R"({{"buffer":0,"byteLength":{}}},{{"buffer":0,"byteOffset":{},"byteLength":{}}})", points,
        points, mesh.indices.size() * 4);
    std::string accessors = fmt::format(
        R"({{"bufferView":0,"componentType":5126,"count":{},"type":"VEC3","min":[0,0,0],)"
        R"("max":[{},1,0]}},{{"bufferView":1,"componentType":5125,"count":{},"type":"SCALAR"}})",
        vertices, triangles / 2, mesh.indices.size());
    std::string node_json;
    if (gpu) {
        std::vector<float> t, r, s;
        for (std::size_t k = 0; k < nodes; ++k) {
            const Trs trs = map_trs(k);
            t.insert(t.end(), trs.t.begin(), trs.t.end());
            r.insert(r.end(), trs.r.begin(), trs.r.end());
            s.insert(s.end(), {trs.s, trs.s, trs.s});
        }
        for (const std::vector<float>* values : {&t, &r, &s}) {
            const std::size_t at = bin.size(), size = values->size() * 4;
            bin.resize(at + size);
            std::memcpy(bin.data() + at, values->data(), size);
            views += fmt::format(R"(,{{"buffer":0,"byteOffset":{},"byteLength":{}}})", at, size);
        }
        accessors +=
            fmt::format(R"(,{{"bufferView":2,"componentType":5126,"count":{0},"type":"VEC3"}})"
                        R"(,{{"bufferView":3,"componentType":5126,"count":{0},"type":"VEC4"}})"
                        R"(,{{"bufferView":4,"componentType":5126,"count":{0},"type":"VEC3"}})",
                        nodes);
        node_json = R"({"name":"props","mesh":0,"extensions":{"EXT_mesh_gpu_instancing":)"
                    R"({"attributes":{"TRANSLATION":2,"ROTATION":3,"SCALE":4}}}})";
    } else {
        for (std::size_t k = 0; k < nodes; ++k) {
            const Trs trs = map_trs(k);
            node_json +=
                fmt::format(R"({}{{"name":"prop.{}","mesh":0,"translation":[{},{},{}],)"
                            R"("rotation":[{},{},{},{}],"scale":[{},{},{}]{}}})",
                            k == 0 ? "" : ",", k, trs.t[0], trs.t[1], trs.t[2], trs.r[0], trs.r[1],
                            trs.r[2], trs.r[3], trs.s, trs.s, trs.s,
                            marked ? R"(,"extras":{"castkit_instance":{"file":"c.cast"}})" : "");
        }
    }
    std::string scene;
    for (std::size_t k = 0; k < (gpu ? 1 : nodes); ++k)
        scene += fmt::format("{}{}", k ? "," : "", k);
    const std::string json = fmt::format(
        R"({{"asset":{{"version":"2.0"}},{}"buffers":[{{"byteLength":{}}}],)"
        R"("bufferViews":[{}],"accessors":[{}],)"
        R"("meshes":[{{"name":"crate","primitives":[{{"attributes":{{"POSITION":0}},"indices":1}}]}}],)"
        R"("nodes":[{}],"scenes":[{{"nodes":[{}]}}]}})",
        gpu ? R"("extensionsUsed":["EXT_mesh_gpu_instancing"],)" : "", bin.size(), views, accessors,
        node_json, scene);
    return glb(json, std::move(bin));
}

ReadContext world_context(const fs::path& world) {
    ReadContext context{.name = "map.glb"};
    context.options.world_output = world;
    return context;
}

void expect_instance(const cast::ConstInstance& instance, const Trs& trs, std::string_view name) {
    EXPECT_EQ(instance.name().value_or(""), name);
    EXPECT_EQ(*instance.position(), glm::vec3(trs.t[0], trs.t[1], trs.t[2])) << name;
    EXPECT_EQ(*instance.scale(), glm::vec3(trs.s)) << name;
    const glm::vec4 r = *instance.rotation();
    // GPU rotations are normalised as they are read: equal within a float's rounding.
    for (int c = 0; c < 4; ++c)
        EXPECT_NEAR(r[c], trs.r[static_cast<std::size_t>(c)], 2.5e-7f) << name;
}

TEST(MapReadback, NodesCastkitMarksAsInstancesBecomeInstancesOfOneModelFile) {
    const fs::path dir = temp_dir("map-readback-nodes");
    Diagnostics warnings;
    auto world = gltf::read(map_glb(4, 40, false, true), world_context(dir / "out.cast"), warnings);
    ASSERT_TRUE(world) << world.error().to_string();
    EXPECT_TRUE(warnings.empty()) << warnings[0].to_string();
    EXPECT_TRUE(world->models().empty());
    const auto instances = world->root_nodes()[0].instances();
    ASSERT_EQ(instances.size(), 40u);
    for (std::size_t k = 0; k < instances.size(); ++k) {
        // The `.<ordinal>` castkit's export added is not kept: it would grow at each round trip.
        expect_instance(instances[k], map_trs(k), "prop");
        EXPECT_EQ(instances[k].reference_file().path().value_or(""), "out_crate.cast");
    }
    auto model = open_cast(dir / "out_crate.cast");
    ASSERT_TRUE(model) << model.error().to_string();
    ASSERT_EQ(model->models().size(), 1u);
    EXPECT_EQ(model->models()[0].name().value_or(""), "crate");
    ASSERT_EQ(model->models()[0].meshes().size(), 1u);
    EXPECT_EQ(model->models()[0].meshes()[0].positions().size(), 6u);
    EXPECT_EQ(model->models()[0].meshes()[0].positions()[2], glm::vec3(1, 0, 0));
    // The world names its own folder as the scene root, which the official add-on needs.
    const auto metadata = world->root_nodes()[0].metadata();
    ASSERT_FALSE(metadata.empty());
    EXPECT_EQ(metadata[0].scene_root().value_or(""), ".");
}

TEST(MapReadback, UnmarkedNodesSharingAMeshWithinTheBudgetStayOneDocument) {
    // A CAD assembly drawing its bolt 40 times is no map: a copy of the mesh per node.
    const fs::path dir = temp_dir("map-readback-assembly");
    Diagnostics warnings;
    auto document = gltf::read(map_glb(4, 40), world_context(dir / "out.cast"), warnings);
    ASSERT_TRUE(document) << document.error().to_string();
    EXPECT_TRUE(document->root_nodes()[0].instances().empty());
    EXPECT_FALSE(document->models().empty());
    EXPECT_FALSE(fs::exists(dir / "out_crate.cast"));
}

TEST(MapReadback, GpuInstancesBecomeInstancesNamedByOrdinal) {
    const fs::path dir = temp_dir("map-readback-gpu");
    Diagnostics warnings;
    auto world = gltf::read(map_glb(4, 12, true), world_context(dir / "out.cast"), warnings);
    ASSERT_TRUE(world) << world.error().to_string();
    EXPECT_TRUE(warnings.empty()) << warnings[0].to_string();
    const auto instances = world->root_nodes()[0].instances();
    ASSERT_EQ(instances.size(), 12u);
    for (std::size_t k = 0; k < instances.size(); ++k)
        expect_instance(instances[k], map_trs(k), fmt::format("props.{:02}", k));
    EXPECT_TRUE(fs::is_regular_file(dir / "out_crate.cast"));
}

TEST(MapReadback, AFewSharedMeshesStayOneFile) {
    const fs::path dir = temp_dir("map-readback-few");
    Diagnostics warnings;
    auto document = gltf::read(map_glb(4, 2), world_context(dir / "out.cast"), warnings);
    ASSERT_TRUE(document) << document.error().to_string();
    EXPECT_TRUE(document->root_nodes()[0].instances().empty());
    EXPECT_EQ(document->models().size(), 2u);
    EXPECT_FALSE(fs::exists(dir / "out_crate.cast"));
}

TEST(MapReadback, OneFileIsRefusedPastTheBudgetItWouldExceed) {
    // 20,000 copies of a 2,000-triangle mesh from a file of 0.8 MB: past its budget.
    for (const bool gpu : {false, true}) {
        Diagnostics warnings;
        auto document =
            gltf::read(map_glb(2000, 20000, gpu), ReadContext{.name = "map.glb"}, warnings);
        ASSERT_FALSE(document) << gpu;
        EXPECT_EQ(document.error().rule, "gltf.instances-budget");
        EXPECT_NE(document.error().message.find("20000 times"), std::string::npos)
            << document.error().message;
        EXPECT_NE(document.error().message.find("this file allows"), std::string::npos);
        EXPECT_EQ(document.error().file, "map.glb");
        // As a world it reads.
        const fs::path dir = temp_dir(fmt::format("map-readback-budget-{}", gpu));
        auto world = gltf::read(map_glb(2000, 20000, gpu), world_context(dir / "w.cast"), warnings);
        ASSERT_TRUE(world) << world.error().to_string();
        EXPECT_EQ(world->root_nodes()[0].instances().size(), 20000u);
    }
}

TEST(MapReadback, AShearedInstanceIsNamedInAWarning) {
    const fs::path dir = temp_dir("map-readback-shear");
    // A parent scaled along x over 16 children turned 45 degrees: each draw is sheared.
    std::string children, nodes;
    for (int k = 0; k < 16; ++k) {
        children += fmt::format("{}{}", k ? "," : "", k + 1);
        nodes += R"(,{"mesh":0,"rotation":[0,0,0.38268343,0.92387953],)"
                 R"("extras":{"castkit_instance":{"file":"c.cast"}}})";
    }
    const std::vector<float> points{0, 0, 0, 1, 0, 0, 0, 1, 0};
    const auto* data = reinterpret_cast<const std::byte*>(points.data());
    const std::string json = fmt::format(
        R"({{"asset":{{"version":"2.0"}},"buffers":[{{"byteLength":36}}],)"
        R"("bufferViews":[{{"buffer":0,"byteLength":36}}],)"
        R"("accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}}],)"
        R"("meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],)"
        R"("nodes":[{{"scale":[3,1,1],"children":[{}]}}{}],"scenes":[{{"nodes":[0]}}]}})",
        children, nodes);
    Diagnostics warnings;
    auto world =
        gltf::read(glb(json, {data, data + 36}), world_context(dir / "out.cast"), warnings);
    ASSERT_TRUE(world) << world.error().to_string();
    EXPECT_EQ(world->root_nodes()[0].instances().size(), 16u);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rule, "gltf.instance-shear");
    EXPECT_NE(warnings[0].message.find("16 instances"), std::string::npos) << warnings[0].message;
}

// A Cast map of `count` Instances of three model files in models/, with TRS of map_trs.
void write_map(const fs::path& dir, std::size_t count) {
    for (const char* name : {"rock", "tree", "house"}) {
        cast::Document prop;
        cast::Model model = prop.add_root().add_model();
        model.set_name(name);
        cast::Mesh mesh = model.add_mesh();
        mesh.set_name(std::string(name) + "_mesh");
        mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
        mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
        fs::create_directories(dir / "models");
        ASSERT_TRUE(cast::write(prop, dir / "models" / (std::string(name) + ".cast")));
    }
    cast::Document map;
    cast::Root root = map.add_root();
    root.add_metadata().set_up_axis(cast::Axis::Z);
    const char* files[] = {"models/rock.cast", "models/tree.cast", "models/house.cast"};
    for (std::size_t k = 0; k < count; ++k) {
        const Trs trs = map_trs(k);
        cast::Instance instance = root.add_instance();
        instance.set_name(fmt::format("thing{:03}", k));
        instance.set_reference_file(instance.add_file(files[k % 3]));
        instance.set_position({trs.t[0], trs.t[1], trs.t[2]});
        instance.set_rotation({trs.r[0], trs.r[1], trs.r[2], trs.r[3]});
        instance.set_scale(glm::vec3(trs.s));
    }
    ASSERT_TRUE(cast::write(map, dir / "map.cast"));
}

// Each node's world matrix (T·R·S or matrix, parents first) in a glTF's JSON.
std::vector<glm::dmat4> world_matrices(const nlohmann::json& json) {
    const nlohmann::json& nodes = json["nodes"];
    std::vector<int> parent(nodes.size(), -1);
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (int child : nodes[i].value("children", std::vector<int>{}))
            parent[static_cast<std::size_t>(child)] = static_cast<int>(i);
    std::vector<glm::dmat4> local(nodes.size(), glm::dmat4(1.0));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const nlohmann::json& node = nodes[i];
        const auto t = node.value("translation", std::vector<double>{0, 0, 0});
        const auto r = node.value("rotation", std::vector<double>{0, 0, 0, 1});
        const auto s = node.value("scale", std::vector<double>{1, 1, 1});
        local[i] = glm::translate(glm::dmat4(1.0), glm::dvec3(t[0], t[1], t[2])) *
                   glm::mat4_cast(glm::dquat(r[3], r[0], r[1], r[2])) *
                   glm::scale(glm::dmat4(1.0), glm::dvec3(s[0], s[1], s[2]));
    }
    std::vector<glm::dmat4> world(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        world[i] = local[i];
        for (int p = parent[i]; p >= 0; p = parent[static_cast<std::size_t>(p)])
            world[i] = local[static_cast<std::size_t>(p)] * world[i];
    }
    return world;
}

// The world matrix of every mesh node of the glb at `path`, in the order of their places (every
// map_trs place is another).
std::vector<glm::dmat4> draws(const fs::path& path) {
    const nlohmann::json json = gltf_json(path);
    const std::vector<glm::dmat4> world = world_matrices(json);
    std::vector<glm::dmat4> out;
    for (std::size_t i = 0; i < json["nodes"].size(); ++i)
        if (json["nodes"][i].contains("mesh")) out.push_back(world[i]);
    auto key = [](const glm::dmat4& m) { return std::tuple(m[3][0], m[3][1], m[3][2]); };
    std::sort(out.begin(), out.end(),
              [&](const auto& a, const auto& b) { return key(a) < key(b); });
    return out;
}

// Both glbs draw meshes at the same world matrices, within `relative` of each entry (float
// precision by default: a few units in the last place, as a rotation read back is normalised
// again).
void expect_same_draws(const fs::path& a, const fs::path& b, double relative = 1e-6) {
    const auto first = draws(a), second = draws(b);
    ASSERT_EQ(first.size(), second.size());
    for (std::size_t k = 0; k < first.size(); ++k)
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                EXPECT_NEAR(first[k][c][r], second[k][c][r],
                            relative * std::max(1.0, std::abs(first[k][c][r])))
                    << k << " " << c << " " << r;
}

TEST(MapReadback, ACastMapTripsThroughGlbAndAWorldToTheSameDraws) {
    const fs::path dir = temp_dir("map-readback-trip");
    write_map(dir, 60);
    CommandResult result = run_cli(in_dir(dir, "convert {map.cast} {map.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    fs::create_directories(dir / "world");
    result = run_cli(in_dir(dir, "convert {map.glb} {world/out.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(result.err.empty()) << result.err;
    auto world = open_cast(dir / "world/out.cast");
    ASSERT_TRUE(world) << world.error().to_string();
    const auto instances = world->root_nodes()[0].instances();
    ASSERT_EQ(instances.size(), 60u);
    for (std::size_t k = 0; k < instances.size(); ++k) {
        EXPECT_EQ(instances[k].name().value_or(""), fmt::format("thing{:03}", k));
        const std::string file(instances[k].reference_file().path().value_or(""));
        EXPECT_TRUE(fs::is_regular_file(dir / "world" / file)) << file;
    }
    // out.cast and one model file per mesh.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir / "world"), fs::directory_iterator()), 4);
    result = run_cli(in_dir(dir, "convert {world/out.cast} {map2.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_same_draws(dir / "map.glb", dir / "map2.glb");
}

TEST(MapReadback, CastkitsGpuInstancedGlbTripsToTheSameInstances) {
    const fs::path dir = temp_dir("map-readback-gpu-trip");
    write_map(dir, 60);
    ASSERT_EQ(run_cli(in_dir(dir, "convert {map.cast} {map.glb}")).exit_code, 0);
    CommandResult result = run_cli(in_dir(dir, "convert --gpu-instancing {map.cast} {gpu.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    result = run_cli(in_dir(dir, "convert {gpu.glb} {world.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    auto world = open_cast(dir / "world.cast");
    ASSERT_TRUE(world) << world.error().to_string();
    // The names extras.castkit_instance.names lists, every batch's first included.
    std::set<std::string> names;
    for (const cast::ConstInstance& instance : world->root_nodes()[0].instances())
        names.emplace(instance.name().value_or(""));
    EXPECT_EQ(world->root_nodes()[0].instances().size(), 60u);
    for (std::size_t k = 0; k < 60; ++k) EXPECT_TRUE(names.contains(fmt::format("thing{:03}", k)));
    result = run_cli(in_dir(dir, "convert {world.cast} {map2.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    expect_same_draws(dir / "map.glb", dir / "map2.glb");
}

TEST(MapReadback, GltfpacksInstancedGlbTripsToTheSameDraws) {
#ifdef _WIN32
    GTEST_SKIP() << "gltfpack is Debian's, run on Linux";
#endif
    if (run_shell("gltfpack -h >/dev/null 2>&1") == 127) GTEST_SKIP() << "no gltfpack";
    const fs::path dir = temp_dir("map-readback-gltfpack");
    write_map(dir, 60);
    ASSERT_EQ(run_cli(in_dir(dir, "convert {map.cast} {map.glb}")).exit_code, 0);
    ASSERT_EQ(run_shell(in_dir(dir, "gltfpack -mi -noq -i {map.glb} -o {inst.glb} >/dev/null")), 0);
    EXPECT_NE(gltf_json(dir / "inst.glb").dump().find("EXT_mesh_gpu_instancing"),
              std::string::npos);
    CommandResult result = run_cli(in_dir(dir, "convert {inst.glb} {world.cast}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    auto world = open_cast(dir / "world.cast");
    ASSERT_TRUE(world) << world.error().to_string();
    EXPECT_EQ(world->root_nodes()[0].instances().size(), 60u);
    result = run_cli(in_dir(dir, "convert {world.cast} {map2.glb}"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // gltfpack stores the instances' rotations as normalised 16-bit integers (1/32767).
    expect_same_draws(dir / "map.glb", dir / "map2.glb", 2e-4);
}

TEST(MapReadback, OneFileAsksForCopiesAndIsRefused) {
    const fs::path dir = temp_dir("map-readback-one-file");
    write_bytes(dir / "map.glb", map_glb(2000, 20000));
    const CommandResult result = run_cli(in_dir(dir, "convert --one-file {map.glb} {out.cast}"));
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(result.err.find("gltf.instances-budget"), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(dir / "out.cast"));
}

#if defined(__linux__) && !defined(CASTKIT_ADDRESS_SANITIZER) && !defined(__SANITIZE_THREAD__)
// 50,000 nodes drawing one 1,000-triangle mesh: the world costs at most 2 KiB per instance (1.0
// measured: the Cast Instance, its File and their properties) past what reading the file takes (its
// parse, measured by --one-file's refusal, which comes after it), where one document took a Cast
// mesh per node (refused here: past the file's budget).
TEST(MapReadback, AWorldTakesAtMostTwoKibibytesPerInstancePastTheParse) {
    const fs::path dir = temp_dir("map-readback-memory");
    constexpr long kInstances = 50000;
    write_bytes(dir / "map.glb", map_glb(1000, kInstances));
    const CliPeak parse =
        cli_peak({"convert", "--one-file", (dir / "map.glb").string(), (dir / "one.cast").string()},
                 dir / "one.err");
    ASSERT_NE(parse.exit_code, 0);
    ASSERT_NE(parse.errors.find("gltf.instances-budget"), std::string::npos) << parse.errors;
    const CliPeak world =
        cli_peak({"convert", (dir / "map.glb").string(), (dir / "out.cast").string()});
    ASSERT_EQ(world.exit_code, 0) << world.errors;
    EXPECT_LT(world.peak_kib, parse.peak_kib + 2 * kInstances)
        << "the world peaked at " << world.peak_kib << " KiB, the parse at " << parse.peak_kib;
    auto read = open_cast(dir / "out.cast");
    ASSERT_TRUE(read);
    EXPECT_EQ(read->root_nodes()[0].instances().size(), static_cast<std::size_t>(kInstances));
}
#endif

}  // namespace
}  // namespace castkit::test::map_readback_test
