// Work bounded by the input: the hostile files of issue 19's defect table (and their kind), made
// here and given to the real CLI under an address-space limit (`ulimit -v`) and a generous
// timeout. Each must end in a clean error or a bounded result: never a crash, an abort, an
// out-of-memory or a hang. The limits are far below what the defects needed (gigabytes, tens of
// seconds) and far above what the fixed readers use.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/formats/k3d.hpp>
#include <castkit/formats/seanim.hpp>
#include <castkit/formats/semodel.hpp>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "../test_support.hpp"
#include "cli_command.hpp"

namespace castkit::bounded_work_test {
namespace {

using namespace castkit::test;
namespace fs = std::filesystem;

// Runs `castkit <arguments>` (paths quoted as in_dir makes them) with its address space limited
// to `megabytes` and its time to `seconds` (`timeout` exits 124). AddressSanitizer reserves
// terabytes of address space, so under it only the time limit applies. Windows' shell has
// neither `ulimit` nor `timeout`: there the CLI runs without limits (a clean error is still
// required; CTest's timeout catches a hang), and the Linux build checks the bounds.
CommandResult run_bounded(const std::string& arguments, std::size_t megabytes, int seconds) {
#ifdef _WIN32
    (void)megabytes;
    (void)seconds;
    return run_cli(arguments);
#else
    fs::path dir = temp_dir("bounded-run");
#ifdef CASTKIT_ADDRESS_SANITIZER
    std::string limit;
    (void)megabytes;
#else
    std::string limit = fmt::format("ulimit -v {}; ", megabytes * 1024);
#endif
    std::string command =
        fmt::format("{}exec timeout {} \"{}\" {} >{} 2>{}", limit, seconds, CASTKIT_CLI, arguments,
                    quoted(dir / "out"), quoted(dir / "err"));
    std::ofstream(dir / "run.sh") << command << "\n";
    int status = std::system(("sh " + quoted(dir / "run.sh")).c_str());
    auto text = [](const fs::path& path) {
        std::vector<std::byte> bytes = read_bytes(path);
        return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    };
    return {exit_code_of(status), text(dir / "out"), text(dir / "err")};
#endif
}

void write_file(const fs::path& path, std::string_view text) {
    std::ofstream(path, std::ios::binary)
        .write(text.data(), static_cast<std::streamsize>(text.size()));
}

template <class T>
void put(std::vector<std::byte>& out, std::size_t at, T value) {
    std::memcpy(out.data() + at, &value, sizeof(T));
}
template <class T>
T get(const std::vector<std::byte>& in, std::size_t at) {
    T value;
    std::memcpy(&value, in.data() + at, sizeof(T));
    return value;
}

// A Cast file of `size` bytes, zeros after the file header and one Root's node header (hash 1,
// no properties, no children: the caller sets the counts at offsets 32 and 36).
std::vector<std::byte> cast_with_one_root(std::size_t size) {
    std::vector<std::byte> bytes(size);
    put<std::uint32_t>(bytes, 0, 0x74736163);  // "cast"
    put<std::uint32_t>(bytes, 4, 1);
    put<std::uint32_t>(bytes, 8, 1);            // one root
    put<std::uint32_t>(bytes, 16, 0x746F6F72);  // "root"
    put<std::uint32_t>(bytes, 20, static_cast<std::uint32_t>(size - 16));
    put<std::uint64_t>(bytes, 24, 1);
    return bytes;
}

// The CLI ended by itself with a clean error that names the file.
void expect_clean_error(const CommandResult& result, const std::string& file) {
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(result.err.find(file), std::string::npos) << result.err;
}

// J1: a number no double holds, in a 5-byte DMF JSON file.
TEST(BoundedWork, DmfJsonNumberOutOfRangeIsACleanError) {
    fs::path dir = temp_dir("bounded-j1");
    write_file(dir / "x.dmf.json", "1e400");
    auto result = run_bounded(in_dir(dir, "convert {x.dmf.json} {out.cast}"), 512, 60);
    expect_clean_error(result, "x.dmf.json");
}

// X1: a Root with one Instance that links no File, exported to glb.
TEST(BoundedWork, InstanceWithoutFileExportsWithAWarning) {
    fs::path dir = temp_dir("bounded-x1");
    cast::Document document;
    document.add_root().add_instance().set_name("lonely");
    auto bytes = cast::write_to_buffer(document);
    ASSERT_TRUE(bytes);
    write_bytes(dir / "x.cast", *bytes);
    auto result = run_bounded(in_dir(dir, "convert {x.cast} {out.glb}"), 512, 60);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("instance names no file"), std::string::npos) << result.err;
}

// G1: 20,000 nested arrays in `extras`, as .gltf and inside a .glb.
TEST(BoundedWork, DeeplyNestedGltfJsonIsACleanErrorWithItsOffset) {
    fs::path dir = temp_dir("bounded-g1");
    std::string json = R"({"asset":{"version":"2.0"},"extras":)" + std::string(20000, '[') +
                       std::string(20000, ']') + "}";
    write_file(dir / "x.gltf", json);
    auto result = run_bounded(in_dir(dir, "convert {x.gltf} {out.cast}"), 512, 60);
    expect_clean_error(result, "x.gltf");
    EXPECT_NE(result.err.find("nested deeper than 512"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("0x"), std::string::npos) << result.err;  // the byte offset

    while (json.size() % 4 != 0) json += ' ';
    std::vector<std::byte> glb(20 + json.size());
    std::memcpy(glb.data(), "glTF", 4);
    put<std::uint32_t>(glb, 4, 2);
    put<std::uint32_t>(glb, 8, static_cast<std::uint32_t>(glb.size()));
    put<std::uint32_t>(glb, 12, static_cast<std::uint32_t>(json.size()));
    put<std::uint32_t>(glb, 16, 0x4E4F534Au);
    std::memcpy(glb.data() + 20, json.data(), json.size());
    write_bytes(dir / "x.glb", glb);
    result = run_bounded(in_dir(dir, "convert {x.glb} {out.cast}"), 512, 60);
    expect_clean_error(result, "x.glb");
}

// C1: a 30 MB Cast whose node claims a property per 8 bytes left and stops at an unknown
// property type.
TEST(BoundedWork, CastNodeStoppingAtAnUnknownTypeReservesNothingItClaims) {
    fs::path dir = temp_dir("bounded-c1");
    const std::size_t size = 30u << 20;
    std::vector<std::byte> bytes = cast_with_one_root(size);
    put<std::uint32_t>(bytes, 32, static_cast<std::uint32_t>((size - 40) / 8));
    put<std::uint16_t>(bytes, 40, 0x7A7A);  // an unknown property type
    write_bytes(dir / "x.cast", bytes);
    auto result = run_bounded(in_dir(dir, "info {x.cast}"), 8 * 30 + 256, 60);
    EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.exit_code << result.err;
    EXPECT_EQ(result.err.find("bad_alloc"), std::string::npos) << result.err;
}

// C2: a 1 MB Cast of 40,000 nodes of 26 bytes, each claiming a property per 8 bytes left and
// stopping at an unknown property type: 176 MB when each node reserved 64 properties; now what
// its own 26 bytes can hold.
TEST(BoundedWork, ManyNodesClaimingPropertiesReserveWhatTheirOwnBytesHold) {
    fs::path dir = temp_dir("bounded-c2");
    const std::size_t nodes = 40000, node_size = 26, size = 40 + nodes * node_size;
    std::vector<std::byte> bytes = cast_with_one_root(size);
    put<std::uint32_t>(bytes, 36, static_cast<std::uint32_t>(nodes));
    for (std::size_t n = 0, at = 40; n < nodes; ++n, at += node_size) {
        put<std::uint32_t>(bytes, at, 0x6C646F6D);  // "modl"
        put<std::uint32_t>(bytes, at + 4, static_cast<std::uint32_t>(node_size));
        put<std::uint64_t>(bytes, at + 8, n + 2);
        put<std::uint32_t>(bytes, at + 16, static_cast<std::uint32_t>((size - at - 24) / 8));
        put<std::uint16_t>(bytes, at + 24, 0x7A7A);  // an unknown property type
    }
    write_bytes(dir / "x.cast", bytes);
    auto result = run_bounded(in_dir(dir, "info {x.cast}"), 160, 60);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("40000 models"), std::string::npos) << result.out.substr(0, 400);
}

// S1: a 20 MB SEAnim of empty bone names (one byte each on disk, over 100 in memory) and an
// SEModel of minimal bones.
TEST(BoundedWork, SeFilesWithMoreElementsThanMemoryAllowsAreRefused) {
    fs::path dir = temp_dir("bounded-s1");
    const std::size_t size = 20u << 20;
    seanim::Animation animation;
    animation.bones.push_back({"b", 0, {{0, glm::dvec3(1)}}, {}, {}});
    seanim::canonicalize(animation);
    auto small = seanim::write_to_buffer(animation);
    ASSERT_TRUE(small);
    std::vector<std::byte> bytes(size);
    std::memcpy(bytes.data(), small->data(), 28);
    // One bone per byte after the 36-byte header: as many as the file can hold.
    put<std::uint32_t>(bytes, 0x18, static_cast<std::uint32_t>(size - 36));
    write_bytes(dir / "x.seanim", bytes);
    auto result = run_bounded(in_dir(dir, "convert {x.seanim} {out.cast}"), 8 * 20 + 256, 60);
    expect_clean_error(result, "x.seanim");
    EXPECT_NE(result.err.find("per byte"), std::string::npos) << result.err;

    semodel::Model model;
    model.bones.push_back({});
    model.header.bone_presence = 0;
    semodel::canonicalize(model);
    auto small_model = semodel::write_to_buffer(model);
    ASSERT_TRUE(small_model);
    std::fill(bytes.begin(), bytes.end(), std::byte{0});
    std::memcpy(bytes.data(), small_model->data(), 20);
    // One bone per 6 bytes after the 29 bytes before the bones.
    put<std::uint32_t>(bytes, 0x0E, static_cast<std::uint32_t>((size - 29) / 6));
    write_bytes(dir / "x.semodel", bytes);
    result = run_bounded(in_dir(dir, "convert {x.semodel} {out.cast}"), 8 * 20 + 256, 60);
    expect_clean_error(result, "x.semodel");
    EXPECT_NE(result.err.find("per byte"), std::string::npos) << result.err;
}

// D1: a DMF whose textures all point at the same 200 KB image.
TEST(BoundedWork, DmfTexturesSharingOneImageAreRefused) {
    fs::path dir = temp_dir("bounded-d1");
    dmf::Model model;
    for (int i = 0; i < 2000; ++i) {
        dmf::Texture texture;
        texture.name = fmt::format("T{:05}", i);
        texture.id = static_cast<std::int16_t>(i);
        if (i == 0) texture.png.assign(200'000, std::byte{7});
        model.textures.push_back(texture);
    }
    auto bytes = dmf::write_to_buffer(model);
    ASSERT_TRUE(bytes);
    auto find = [&](const std::string& marker) {
        auto it = std::search(bytes->begin(), bytes->end(), marker.begin(), marker.end(),
                              [](std::byte a, char b) { return a == std::byte(b); });
        return static_cast<std::size_t>(it - bytes->begin());
    };
    const std::size_t first = find("T00000");
    const auto offset = get<std::uint32_t>(*bytes, first + 36);
    const auto count = get<std::uint32_t>(*bytes, first + 40);
    ASSERT_EQ(count, 200'000u);
    for (int i = 1; i < 2000; ++i) {
        const std::size_t at = find(fmt::format("T{:05}", i));
        put(*bytes, at + 36, offset);
        put(*bytes, at + 40, count);
    }
    write_bytes(dir / "x.dmf", *bytes);
    auto result = run_bounded(in_dir(dir, "convert {x.dmf} {out.cast}"), 512, 60);
    expect_clean_error(result, "x.dmf");
    EXPECT_NE(result.err.find("overlap"), std::string::npos) << result.err;
}

// K1: a K3D whose string entries all name the whole string data.
TEST(BoundedWork, K3dStringEntriesSharingBytesAreRefused) {
    fs::path dir = temp_dir("bounded-k1");
    k3d::Model model;
    for (int i = 0; i < 2000; ++i)
        model.add_string(std::string(100, static_cast<char>('a' + i % 26)));
    auto bytes = k3d::write_to_buffer(model);
    ASSERT_TRUE(bytes);
    const auto table = get<std::uint32_t>(*bytes, 128);
    const auto entries = get<std::uint32_t>(*bytes, table);
    const auto data_size = get<std::uint64_t>(*bytes, table + 8);
    ASSERT_EQ(entries, 2000u);
    for (std::uint32_t i = 0; i < entries; ++i) {
        put<std::uint32_t>(*bytes, table + 16 + i * 8, 0);
        put<std::uint32_t>(*bytes, table + 20 + i * 8, static_cast<std::uint32_t>(data_size));
    }
    write_bytes(dir / "x.k3d", *bytes);
    auto result = run_bounded(in_dir(dir, "convert {x.k3d} {out.cast}"), 512, 60);
    expect_clean_error(result, "x.k3d");
    EXPECT_NE(result.err.find("overlap"), std::string::npos) << result.err;
}

// K2: 65,534 nodes (K3D's most names) and as many bones, all names sharing a long prefix: one
// hash lookup per bone converts it in well under a second; a search of every node name per bone
// took minutes.
TEST(BoundedWork, K3dBonesFindTheirNodesInLinearTime) {
    fs::path dir = temp_dir("bounded-k2");
    k3d::Model model;
    for (int i = 0; i < 65534; ++i) {
        std::uint16_t name = model.add_string(fmt::format("{}{:05}", std::string(250, 'n'), i));
        model.nodes.push_back({name, k3d::kInvalidId, glm::mat4(1.0f)});
        model.bones.push_back({name, glm::mat4(1.0f)});
    }
    auto bytes = k3d::write_to_buffer(model);
    ASSERT_TRUE(bytes);
    write_bytes(dir / "x.k3d", *bytes);
    auto result = run_bounded(in_dir(dir, "convert {x.k3d} {out.cast}"), 2048, 120);
    EXPECT_EQ(result.exit_code, 0) << result.err;
}

// Each K3D or DMF channel whose keys fall between frames is resampled at every frame of its
// range (at most 65,536), so 300 such channels (a 45 KB K3D) made 351 MB of curves in 467 MB
// (found while fuzzing); the file as a whole may resample 2^22 frames.
TEST(BoundedWork, K3dChannelsResampledTogetherAreRefused) {
    fs::path dir = temp_dir("bounded-k3");
    k3d::Model model;
    k3d::Animation animation;
    animation.ticks_per_second = 30.0f;
    animation.duration = 65000.5f;
    for (int i = 0; i < 300; ++i) {
        const std::uint16_t name = model.add_string(fmt::format("n{}", i));
        model.nodes.push_back({name, k3d::kInvalidId, glm::mat4(1.0f)});
        k3d::Channel channel;
        channel.name_id = name;
        channel.positions = {{glm::vec3(0.0f), 0.5f}, {glm::vec3(1.0f), 65000.5f}};
        animation.channels.push_back(channel);
    }
    model.animations.push_back(animation);
    auto bytes = k3d::write_to_buffer(model);
    ASSERT_TRUE(bytes);
    write_bytes(dir / "x.k3d", *bytes);
    auto result = run_bounded(in_dir(dir, "convert {x.k3d} {out.cast}"), 512, 60);
    expect_clean_error(result, "x.k3d");
    EXPECT_NE(result.err.find("resampling keys between frames"), std::string::npos) << result.err;
}

// G3: one accessor shared by 2,000 meshes (each decoded once per use) in a ~300 KB glTF.
TEST(BoundedWork, GltfAccessorSharedTooOftenIsRefused) {
    fs::path dir = temp_dir("bounded-g3");
    const std::size_t vertices = 20'000;
    std::vector<std::byte> buffer(vertices * 12);
    write_bytes(dir / "x.bin", buffer);
    std::string meshes, nodes, scene;
    for (int i = 0; i < 2000; ++i) {
        meshes +=
            fmt::format(R"({}{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}})", i ? "," : "");
        nodes += fmt::format(R"({}{{"mesh":{}}})", i ? "," : "", i);
        scene += fmt::format("{}{}", i ? "," : "", i);
    }
    write_file(dir / "x.gltf",
               fmt::format(R"({{"asset":{{"version":"2.0"}},"buffers":[{{"uri":"x.bin",)"
                           R"("byteLength":{}}}],"bufferViews":[{{"buffer":0,"byteLength":{}}}],)"
                           R"("accessors":[{{"bufferView":0,"componentType":5126,"count":{},)"
                           R"("type":"VEC3","min":[0,0,0],"max":[0,0,0]}}],"meshes":[{}],)"
                           R"("nodes":[{}],"scenes":[{{"nodes":[{}]}}]}})",
                           buffer.size(), buffer.size(), vertices, meshes, nodes, scene));
    auto result = run_bounded(in_dir(dir, "convert {x.gltf} {out.cast}"), 1024, 120);
    expect_clean_error(result, "x.gltf");
    EXPECT_NE(result.err.find("shared too often"), std::string::npos) << result.err;
}

// G4: joint indices stored as signed bytes, one of them negative.
TEST(BoundedWork, GltfSignedJointsAreRefused) {
    fs::path dir = temp_dir("bounded-g4");
    // Three positions (36 bytes), three JOINTS_0 of 4 signed bytes (the first -1), three
    // WEIGHTS_0 of 4 floats.
    std::vector<std::byte> buffer(96);
    buffer[36] = std::byte{0xFF};
    write_bytes(dir / "x.bin", buffer);
    write_file(dir / "x.gltf",
               R"({"asset":{"version":"2.0"},"buffers":[{"uri":"x.bin","byteLength":96}],)"
               R"("bufferViews":[{"buffer":0,"byteLength":36},)"
               R"({"buffer":0,"byteOffset":36,"byteLength":12},)"
               R"({"buffer":0,"byteOffset":48,"byteLength":48}],)"
               R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",)"
               R"("min":[0,0,0],"max":[0,0,0]},{"bufferView":1,"componentType":5120,"count":3,)"
               R"("type":"VEC4"},{"bufferView":2,"componentType":5126,"count":3,"type":"VEC4"}],)"
               R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,)"
               R"("WEIGHTS_0":2}}]}],"nodes":[{"mesh":0,"skin":0},{"name":"j"}],)"
               R"("skins":[{"joints":[1]}],"scenes":[{"nodes":[0,1]}]})");
    auto result = run_bounded(in_dir(dir, "convert {x.gltf} {out.cast}"), 512, 60);
    expect_clean_error(result, "x.gltf");
    EXPECT_NE(result.err.find("unsigned"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace castkit::bounded_work_test
