// glTF skins whose bind pose is not their rest pose, skins sharing joints, animated nodes above
// a skeleton, scenes and attribute sets (issue 28): the imported Cast, evaluated as a Cast
// consumer evaluates it, draws what the glTF draws, at rest and animated; and a glTF export
// stands the joints where the source rested them.
#include <fmt/format.h>

#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/formats/gltf.hpp>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "gltf_scene.hpp"

namespace castkit::test::skin_import_test {
namespace {

glm::quat axis_angle(glm::vec3 axis, float degrees) {
    return glm::angleAxis(glm::radians(degrees), glm::normalize(axis));
}

glm::mat4 trs(glm::vec3 t, glm::quat r, glm::vec3 s = glm::vec3(1.0f)) {
    return glm::translate(glm::mat4(1.0f), t) * glm::mat4_cast(r) * glm::scale(glm::mat4(1.0f), s);
}

nlohmann::json node_json(const std::string& name, glm::vec3 t, glm::quat r,
                         std::vector<int> children = {}) {
    nlohmann::json node = {
        {"name", name}, {"translation", {t.x, t.y, t.z}}, {"rotation", {r.x, r.y, r.z, r.w}}};
    if (!children.empty()) node["children"] = children;
    return node;
}

// A glTF being written by a test: JSON plus one binary buffer, accessors appended to both.
struct GltfBuilder {
    nlohmann::json json = {{"asset", {{"version", "2.0"}}},
                           {"bufferViews", nlohmann::json::array()},
                           {"accessors", nlohmann::json::array()}};
    std::vector<std::uint8_t> bin;

    template <class T>
    int add(const std::vector<T>& values, int component, const char* type, std::size_t count) {
        while (bin.size() % 4) bin.push_back(0);
        const std::size_t offset = bin.size();
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(values.data());
        bin.insert(bin.end(), bytes, bytes + values.size() * sizeof(T));
        json["bufferViews"].push_back(
            {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * sizeof(T)}});
        nlohmann::json accessor = {{"bufferView", json["bufferViews"].size() - 1},
                                   {"componentType", component},
                                   {"count", count},
                                   {"type", type}};
        json["accessors"].push_back(accessor);
        return static_cast<int>(json["accessors"].size() - 1);
    }
    int floats(const std::vector<float>& values, const char* type, std::size_t width) {
        return add(values, 5126, type, values.size() / width);
    }
    int positions(const std::vector<glm::vec3>& points) {
        std::vector<float> values;
        glm::vec3 low(1e30f), high(-1e30f);
        for (const glm::vec3& p : points) {
            values.insert(values.end(), {p.x, p.y, p.z});
            low = glm::min(low, p);
            high = glm::max(high, p);
        }
        const int index = floats(values, "VEC3", 3);
        json["accessors"][index]["min"] = {low.x, low.y, low.z};
        json["accessors"][index]["max"] = {high.x, high.y, high.z};
        return index;
    }
    int matrices(const std::vector<glm::mat4>& values) {
        std::vector<float> flat;
        for (const glm::mat4& m : values)
            flat.insert(flat.end(), glm::value_ptr(m), glm::value_ptr(m) + 16);
        return floats(flat, "MAT4", 16);
    }
    // A triangle-list primitive over `points`, JOINTS_0/WEIGHTS_0 when given.
    nlohmann::json primitive(const std::vector<glm::vec3>& points,
                             const std::vector<std::uint16_t>& indices,
                             const std::vector<std::uint8_t>& joints = {},
                             const std::vector<float>& weights = {}) {
        nlohmann::json out = {{"attributes", {{"POSITION", positions(points)}}},
                              {"indices", add(indices, 5123, "SCALAR", indices.size())}};
        if (!joints.empty()) {
            out["attributes"]["JOINTS_0"] = add(joints, 5121, "VEC4", joints.size() / 4);
            out["attributes"]["WEIGHTS_0"] = floats(weights, "VEC4", 4);
        }
        return out;
    }
    // Writes scene.gltf and scene.bin into `dir`; the .gltf's path.
    std::filesystem::path write(const std::filesystem::path& dir) {
        json["buffers"] = {{{"byteLength", bin.size()}, {"uri", "scene.bin"}}};
        std::ofstream(dir / "scene.bin", std::ios::binary)
            .write(reinterpret_cast<const char*>(bin.data()),
                   static_cast<std::streamsize>(bin.size()));
        std::ofstream(dir / "scene.gltf") << json.dump();
        return dir / "scene.gltf";
    }
};

// World positions of every vertex of every mesh, evaluated as a Cast consumer does: bones posed
// by animation `animation` at `frame` (their rest without one), each vertex moved by
// Σ weight · posed world · rest world⁻¹, then by the Model's transform.
std::vector<glm::vec3> cast_world_vertices(const cast::Document& document,
                                           std::optional<std::size_t> animation, float frame) {
    std::vector<glm::vec3> out;
    for (const cast::ConstModel& model : document.models()) {
        const glm::mat4 model_world =
            trs(model.position().value_or(glm::vec3(0.0f)),
                cast::quat_from_xyzw(model.rotation().value_or(glm::vec4(0, 0, 0, 1))),
                model.scale().value_or(glm::vec3(1.0f)));
        std::vector<glm::mat4> rest, posed;
        if (cast::ConstSkeleton skeleton = model.skeleton()) {
            Diagnostics reports;
            auto built = anim::build_skeleton(skeleton, reports);
            EXPECT_TRUE(built.has_value());
            rest.resize(built->bone_count());
            posed.resize(built->bone_count());
            EXPECT_TRUE((anim::LocalToWorldJob{&*built, built->rest(), rest}.run()));
            std::vector<anim::Transform> locals = built->rest();
            if (animation) {
                auto compiled = anim::build_animation(document.animations()[*animation], *built,
                                                      anim::binding_targets(model), reports);
                EXPECT_TRUE(compiled.has_value());
                anim::SamplingJob sampling{
                    .animation = &*compiled, .skeleton = &*built, .frame = frame, .locals = locals};
                std::vector<float> weights(compiled->blend_shapes().size());
                std::vector<float> visible(compiled->visibility_nodes().size());
                sampling.blend_shape_weights = weights;
                sampling.visibility = visible;
                EXPECT_TRUE(sampling.run().has_value());
            }
            EXPECT_TRUE((anim::LocalToWorldJob{&*built, locals, posed}.run()));
        }
        for (const cast::ConstMesh& mesh : model.meshes()) {
            const std::uint32_t influences = mesh.max_weight_influence();
            for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
                const glm::vec4 p(mesh.positions()[v], 1.0f);
                glm::vec4 moved = p;
                if (influences > 0 && !rest.empty()) {
                    moved = glm::vec4(0.0f);
                    for (std::uint32_t i = 0; i < influences; ++i) {
                        const std::uint32_t bone = mesh.weight_bones()[v * influences + i];
                        const float weight = mesh.weight_values().size() == 0
                                                 ? 1.0f
                                                 : mesh.weight_values()[v * influences + i];
                        moved += weight * (posed[bone] * glm::inverse(rest[bone]) * p);
                    }
                }
                out.push_back(glm::vec3(model_world * moved));
            }
        }
    }
    return out;
}

float largest_gap(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    EXPECT_EQ(a.size(), b.size());
    float gap = 0.0f;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        gap = std::max(gap, glm::length(a[i] - b[i]));
    return gap;
}

// An armature (placed, turned) over a two-joint leg whose bind pose is a straight T-pose while
// its rest pose is bent at both joints: vertices weighted to one or both joints; the knee
// rotates in the animation, the hip has no channel (so it must stand at its rest).
struct BentLeg {
    glm::mat4 armature = trs({0, 0, 1}, axis_angle({1, 0, 0}, 90));
    glm::quat hip_rest = axis_angle({0, 0, 1}, 30), knee_rest = axis_angle({1, 0, 0}, 20);
    glm::quat knee_keys[2] = {axis_angle({1, 0, 0}, 20), axis_angle({1, 0, 0}, 80)};
    std::vector<glm::mat4> binds = {trs({0, 1, 0}, glm::quat(1, 0, 0, 0)),
                                    trs({0, 2, 0}, glm::quat(1, 0, 0, 0))};
    std::vector<glm::vec3> points = {{0, 1, 0}, {0, 2, 0}, {0.2f, 1.5f, 0}, {0, 3, 0}};
    std::vector<std::uint8_t> joints = {0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0};
    std::vector<float> weights = {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.3f, 0.7f, 0, 0, 1, 0, 0, 0};

    // glTF's skinning of the points with the knee at `knee` (glTF spec, "Skins").
    std::vector<glm::vec3> expected(glm::quat knee) const {
        const glm::mat4 hip = armature * trs({0, 1, 0}, hip_rest);
        const glm::mat4 joint_worlds[2] = {hip, hip * trs({0, 1, 0}, knee)};
        std::vector<glm::vec3> out;
        for (std::size_t v = 0; v < points.size(); ++v) {
            glm::vec4 p(0.0f);
            for (std::size_t k = 0; k < 4; ++k)
                p += weights[v * 4 + k] *
                     (joint_worlds[joints[v * 4 + k]] * glm::inverse(binds[joints[v * 4 + k]]) *
                      glm::vec4(points[v], 1.0f));
            out.push_back(glm::vec3(p));
        }
        return out;
    }

    GltfBuilder build() const {
        GltfBuilder gltf;
        const glm::quat armature_rotation = glm::quat_cast(armature);
        gltf.json["nodes"] = {node_json("armature", {0, 0, 1}, armature_rotation, {1}),
                              node_json("hip", {0, 1, 0}, hip_rest, {2}),
                              node_json("knee", {0, 1, 0}, knee_rest),
                              {{"name", "leg"}, {"mesh", 0}, {"skin", 0}}};
        gltf.json["scenes"] = {{{"nodes", {0, 3}}}};
        gltf.json["scene"] = 0;
        std::vector<glm::mat4> inverse_binds;
        for (const glm::mat4& bind : binds) inverse_binds.push_back(glm::inverse(bind));
        gltf.json["skins"] = {
            {{"joints", {1, 2}}, {"inverseBindMatrices", gltf.matrices(inverse_binds)}}};
        gltf.json["meshes"] = {
            {{"primitives", {gltf.primitive(points, {0, 1, 2, 1, 3, 2}, joints, weights)}}}};
        const int times = gltf.floats({0.0f, 1.0f}, "SCALAR", 1);
        const int rotations =
            gltf.floats({knee_keys[0].x, knee_keys[0].y, knee_keys[0].z, knee_keys[0].w,
                         knee_keys[1].x, knee_keys[1].y, knee_keys[1].z, knee_keys[1].w},
                        "VEC4", 4);
        gltf.json["animations"] = {
            {{"name", "kick"},
             {"samplers", {{{"input", times}, {"output", rotations}}}},
             {"channels", {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}}}}}};
        return gltf;
    }
};

class GltfSkins : public ::testing::Test {
  protected:
    void SetUp() override {
        dir =
            temp_dir("gltf-skins-" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    }
    cast::Document import(GltfBuilder gltf) {
        auto read = gltf::open(gltf.write(dir), warnings);
        EXPECT_TRUE(read.has_value()) << (read ? "" : read.error().to_string());
        return read ? std::move(*read) : cast::Document();
    }
    std::size_t count_rule(const std::string& rule) const {
        return static_cast<std::size_t>(std::count_if(
            warnings.begin(), warnings.end(), [&](const Diagnostic& d) { return d.rule == rule; }));
    }
    std::filesystem::path dir;
    Diagnostics warnings;
};

// Issue 28 #1: vertices weighted to joints whose bind differs from their rest animated wrongly.
TEST_F(GltfSkins, BindPoseOtherThanRestPoseAnimatesExactly) {
    const BentLeg leg;
    const cast::Document document = import(leg.build());
    ASSERT_EQ(document.animations().size(), 1u);
    const float fps = *document.animations()[0].framerate();
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, 0.0f), leg.expected(leg.knee_keys[0])),
              1e-5f);
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, fps), leg.expected(leg.knee_keys[1])),
              1e-5f);
    // Half way, both interpolate the rotation by slerp.
    const glm::quat middle = glm::slerp(leg.knee_keys[0], leg.knee_keys[1], 0.5f);
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, fps / 2), leg.expected(middle)), 1e-5f);
    EXPECT_EQ(count_rule("gltf.skin-bind-pose"), 1u);
}

TEST_F(GltfSkins, CastSkeletonRestsInTheBindPoseAroundItsFirstJoint) {
    const BentLeg leg;
    const cast::Document document = import(leg.build());
    const cast::ConstModel model = document.models()[0];
    EXPECT_EQ(*model.name(), "armature");
    // At rest (no animation) a Cast consumer shows the bind pose, placed where the first joint
    // rests (both joints differ here, so neither is more common).
    const glm::mat4 hip = leg.armature * trs({0, 1, 0}, leg.hip_rest);
    const std::vector<glm::vec3> at_rest = cast_world_vertices(document, std::nullopt, 0.0f);
    for (std::size_t v = 0; v < leg.points.size(); ++v) {
        const glm::vec3 placed =
            glm::vec3(hip * glm::inverse(leg.binds[0]) * glm::vec4(leg.points[v], 1.0f));
        EXPECT_LT(glm::length(at_rest[v] - placed), 1e-5f) << v;
    }
}

// The export stands each joint where the source rested it, with the source's inverse binds.
TEST_F(GltfSkins, GltfExportRestoresTheRestPoseAndTheInverseBinds) {
    const BentLeg leg;
    const cast::Document document = import(leg.build());
    const std::filesystem::path out = dir / "out.gltf";
    ASSERT_TRUE(gltf::write(document, out, {.binary = false}, warnings).has_value());
    const nlohmann::json json = gltf_json(out);
    for (const auto& node : json["nodes"]) {
        if (node.value("name", "") != "hip") continue;
        const glm::quat r(node["rotation"][3].get<float>(), node["rotation"][0].get<float>(),
                          node["rotation"][1].get<float>(), node["rotation"][2].get<float>());
        EXPECT_GT(std::abs(glm::dot(r, leg.hip_rest)), 1.0f - 1e-6f);
    }
    // Read back, it poses exactly as the source.
    Diagnostics again;
    auto back = gltf::open(out, again);
    ASSERT_TRUE(back.has_value()) << back.error().to_string();
    const float fps = *back->animations()[0].framerate();
    EXPECT_LT(largest_gap(cast_world_vertices(*back, 0, fps), leg.expected(leg.knee_keys[1])),
              1e-4f);
    expect_gltf_validator_passes(out);
}

// A file that binds in its rest pose keeps the file's own values: no carried rest, no curves.
TEST_F(GltfSkins, BindPoseEqualToRestPoseAddsNothing) {
    BentLeg leg;
    leg.binds = {leg.armature * trs({0, 1, 0}, leg.hip_rest),
                 leg.armature * trs({0, 1, 0}, leg.hip_rest) * trs({0, 1, 0}, leg.knee_rest)};
    const cast::Document document = import(leg.build());
    EXPECT_EQ(count_rule("gltf.skin-bind-pose"), 0u);
    EXPECT_EQ(document.animations()[0].curves().size(), 1u);  // the knee's rotation only
    const float fps = *document.animations()[0].framerate();
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, fps), leg.expected(leg.knee_keys[1])),
              1e-5f);
}

// Issue 28 #1 (RecursiveSkeletons): skins sharing joints with different binds became one
// skeleton; now one per bind, each posed as the source poses it.
TEST_F(GltfSkins, SkinsSharingJointsWithOtherBindsKeepTheirOwnSkeletons) {
    BentLeg leg;
    GltfBuilder gltf = leg.build();
    // A second mesh on the same joints, bound in another pose (the knee bent otherwise
    // relative to the hip, so no one skeleton rest can be the bind pose of both).
    const glm::mat4 other_hip = trs({1, 1, 0}, axis_angle({0, 1, 0}, 45));
    const std::vector<glm::mat4> other_binds = {
        other_hip, other_hip * trs({0, 1.5f, 0}, axis_angle({0, 0, 1}, 10))};
    std::vector<glm::mat4> inverse;
    for (const glm::mat4& bind : other_binds) inverse.push_back(glm::inverse(bind));
    gltf.json["skins"].push_back(
        {{"joints", {1, 2}}, {"inverseBindMatrices", gltf.matrices(inverse)}});
    gltf.json["meshes"].push_back(
        {{"primitives",
          {gltf.primitive(leg.points, {0, 1, 2, 1, 3, 2}, leg.joints, leg.weights)}}});
    gltf.json["nodes"].push_back({{"name", "leg2"}, {"mesh", 1}, {"skin", 1}});
    gltf.json["scenes"][0]["nodes"].push_back(4);
    const cast::Document document = import(gltf);
    ASSERT_EQ(document.models().size(), 2u);
    BentLeg second = leg;
    second.binds = other_binds;
    const float fps = *document.animations()[0].framerate();
    std::vector<glm::vec3> expected = leg.expected(leg.knee_keys[1]);
    const std::vector<glm::vec3> more = second.expected(leg.knee_keys[1]);
    expected.insert(expected.end(), more.begin(), more.end());
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, fps), expected), 1e-5f);
}

// Skins whose binds differ by one rigid move (a mesh bound elsewhere in the scene) share one
// skeleton: each mesh's vertices move with its own bind space.
TEST_F(GltfSkins, SkinsBoundInPlacesOneMoveApartShareASkeleton) {
    BentLeg leg;
    GltfBuilder gltf = leg.build();
    const glm::mat4 move = trs({3, 0, 1}, axis_angle({0, 1, 0}, 60));
    std::vector<glm::mat4> inverse;
    for (const glm::mat4& bind : leg.binds) inverse.push_back(glm::inverse(move * bind));
    gltf.json["skins"].push_back(
        {{"joints", {1, 2}}, {"inverseBindMatrices", gltf.matrices(inverse)}});
    std::vector<glm::vec3> moved_points;
    for (const glm::vec3& p : leg.points) moved_points.push_back(glm::vec3(move * glm::vec4(p, 1)));
    gltf.json["meshes"].push_back(
        {{"primitives",
          {gltf.primitive(moved_points, {0, 1, 2, 1, 3, 2}, leg.joints, leg.weights)}}});
    gltf.json["nodes"].push_back({{"name", "leg2"}, {"mesh", 1}, {"skin", 1}});
    gltf.json["scenes"][0]["nodes"].push_back(4);
    const cast::Document document = import(gltf);
    ASSERT_EQ(document.models().size(), 1u);
    const float fps = *document.animations()[0].framerate();
    std::vector<glm::vec3> expected = leg.expected(leg.knee_keys[1]);
    expected.insert(expected.end(), expected.begin(), expected.end());
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, fps), expected), 1e-5f);
}

// Issue 28 #6 (BrainStem node2): an animated node above the joints was dropped with a warning
// that it was "neither joints nor above a mesh"; now it is a bone and moves the mesh.
TEST_F(GltfSkins, AnimatedNodeAboveTheJointsMovesTheSkin) {
    BentLeg leg;
    GltfBuilder gltf = leg.build();
    gltf.json["nodes"].push_back(node_json("mover", {0, 0, 0}, glm::quat(1, 0, 0, 0), {0}));
    gltf.json["scenes"][0]["nodes"] = {4, 3};
    const int times = gltf.floats({0.0f, 1.0f}, "SCALAR", 1);
    const int moves = gltf.floats({0, 0, 0, 2, 0, 0}, "VEC3", 3);
    gltf.json["animations"][0]["samplers"].push_back({{"input", times}, {"output", moves}});
    gltf.json["animations"][0]["channels"].push_back(
        {{"sampler", 1}, {"target", {{"node", 4}, {"path", "translation"}}}});
    const cast::Document document = import(gltf);
    for (const Diagnostic& warning : warnings)
        EXPECT_EQ(warning.message.find("neither joints"), std::string::npos) << warning.message;
    const float fps = *document.animations()[0].framerate();
    std::vector<glm::vec3> expected = leg.expected(leg.knee_keys[1]);
    for (glm::vec3& p : expected) p += glm::vec3(2, 0, 0);
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, fps), expected), 1e-5f);
}

// Issue 28 #5: two nodes of one name became two bones of one name, which one curve drove both.
TEST_F(GltfSkins, NodesOfOneNameBecomeBonesOfTwoNames) {
    BentLeg leg;
    GltfBuilder gltf = leg.build();
    gltf.json["nodes"][2]["name"] = "hip";
    const cast::Document document = import(gltf);
    const auto bones = document.models()[0].skeleton().bones();
    ASSERT_EQ(bones.size(), 2u);
    EXPECT_EQ(*bones[0].name(), "hip");
    EXPECT_EQ(*bones[1].name(), "hip-2");
    const float fps = *document.animations()[0].framerate();
    EXPECT_LT(largest_gap(cast_world_vertices(document, 0, fps), leg.expected(leg.knee_keys[1])),
              1e-5f);
}

// A skeleton is found by marking each node once: a chain of 20,000 joints (every one a joint,
// each the child of the last) imports at once, where walking every joint's ancestors against
// every other's took time cubic in the depth.
TEST_F(GltfSkins, ADeepChainOfJointsImportsInLinearTime) {
    constexpr int kJoints = 20000;
    GltfBuilder gltf;
    gltf.json["nodes"] = nlohmann::json::array();
    std::vector<glm::mat4> inverse_binds;
    std::vector<int> joints;
    for (int j = 0; j < kJoints; ++j) {
        nlohmann::json node = {{"name", fmt::format("j{}", j)}, {"translation", {0, 0.01, 0}}};
        if (j + 1 < kJoints) node["children"] = {j + 1};
        gltf.json["nodes"].push_back(node);
        inverse_binds.push_back(glm::translate(glm::mat4(1.0f), glm::vec3(0, -0.01f * (j + 1), 0)));
        joints.push_back(j);
    }
    const std::vector<glm::vec3> triangle = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    gltf.json["meshes"] = {{{"primitives",
                             {gltf.primitive(triangle, {0, 1, 2}, std::vector<std::uint8_t>(12, 0),
                                             {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})}}}};
    gltf.json["nodes"].push_back({{"mesh", 0}, {"skin", 0}});
    gltf.json["skins"] = {
        {{"joints", joints}, {"inverseBindMatrices", gltf.matrices(inverse_binds)}}};
    const cast::Document document = import(gltf);
    ASSERT_EQ(document.models().size(), 1u);
    EXPECT_EQ(document.models()[0].skeleton().bones().size(), static_cast<std::size_t>(kJoints));
    EXPECT_EQ(count_rule("gltf.skin-bind-pose"), 0u);
}

// Issue 28 #5: default morph weights were carried by target name, so two targets of one name
// took one weight.
TEST_F(GltfSkins, MorphTargetsOfOneNameKeepTheirOwnDefaultWeights) {
    GltfBuilder gltf;
    const std::vector<glm::vec3> triangle = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    for (float weight : {0.25f, 0.75f}) {
        nlohmann::json primitive = gltf.primitive(triangle, {0, 1, 2});
        primitive["targets"] = {
            {{"POSITION", gltf.floats({0, 0, 1, 0, 0, 0, 0, 0, 0}, "VEC3", 3)}}};
        gltf.json["meshes"].push_back({{"primitives", {primitive}},
                                       {"weights", {weight}},
                                       {"extras", {{"targetNames", {"smile"}}}}});
    }
    gltf.json["nodes"] = {{{"name", "a"}, {"mesh", 0}}, {{"name", "b"}, {"mesh", 1}}};
    const cast::Document document = import(gltf);
    // Through a Cast file, as a user's conversion goes.
    ASSERT_TRUE(cast::write(document, dir / "scene.cast").has_value());
    auto cast_back = open_cast(dir / "scene.cast");
    ASSERT_TRUE(cast_back.has_value());
    ASSERT_TRUE(gltf::write(*cast_back, dir / "out.gltf", {.binary = false}, warnings).has_value());
    const nlohmann::json out = gltf_json(dir / "out.gltf");
    std::vector<float> weights;
    for (const auto& mesh : out["meshes"]) weights.push_back(mesh["weights"][0].get<float>());
    EXPECT_EQ(weights, (std::vector<float>{0.25f, 0.75f}));
}

// Issue 28 #7: every scene's nodes were merged; now the default scene, and a warning.
TEST_F(GltfSkins, OnlyTheDefaultSceneIsImported) {
    GltfBuilder gltf;
    const std::vector<glm::vec3> triangle = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    gltf.json["meshes"] = {{{"primitives", {gltf.primitive(triangle, {0, 1, 2})}}}};
    gltf.json["nodes"] = {{{"name", "first"}, {"mesh", 0}}, {{"name", "second"}, {"mesh", 0}}};
    gltf.json["scenes"] = {{{"name", "zero"}, {"nodes", {0}}}, {{"name", "one"}, {"nodes", {1}}}};
    gltf.json["scene"] = 1;
    const cast::Document document = import(gltf);
    ASSERT_EQ(document.models().size(), 1u);
    EXPECT_EQ(*document.models()[0].name(), "second");
    ASSERT_EQ(count_rule("gltf.scene-dropped"), 1u);
}

// Issue 28 #7: TEXCOORD_1 without TEXCOORD_0 vanished without a word.
TEST_F(GltfSkins, AttributeSetsAfterAGapAreNamedInAWarning) {
    GltfBuilder gltf;
    const std::vector<glm::vec3> triangle = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    nlohmann::json primitive = gltf.primitive(triangle, {0, 1, 2});
    primitive["attributes"]["TEXCOORD_1"] = gltf.floats({0, 0, 1, 0, 0, 1}, "VEC2", 2);
    gltf.json["meshes"] = {{{"primitives", {primitive}}}};
    gltf.json["nodes"] = {{{"mesh", 0}}};
    import(gltf);
    ASSERT_EQ(count_rule("gltf.attribute-set-gap"), 1u);
    const auto found = std::find_if(warnings.begin(), warnings.end(), [](const Diagnostic& d) {
        return d.rule == "gltf.attribute-set-gap";
    });
    EXPECT_NE(found->message.find("TEXCOORD_1"), std::string::npos);
}

// Application data (extras) other than castkit's own keys was dropped without a word; a morph
// target without POSITION vanished, shifting the targets after it.
TEST_F(GltfSkins, ExtrasAndTargetsWithoutPositionAreAccountedFor) {
    GltfBuilder gltf;
    const std::vector<glm::vec3> triangle = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    nlohmann::json primitive = gltf.primitive(triangle, {0, 1, 2});
    const int normals = gltf.floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3", 3);
    primitive["targets"] = {{{"NORMAL", normals}},
                            {{"POSITION", gltf.floats({0, 0, 1, 0, 0, 0, 0, 0, 0}, "VEC3", 3)}}};
    gltf.json["meshes"] = {
        {{"primitives", {primitive}}, {"extras", {{"targetNames", {"flat", "lift"}}}}}};
    gltf.json["nodes"] = {{{"mesh", 0}, {"extras", {{"studio_id", 42}}}}};
    gltf.json["materials"] = {{{"name", "m"}, {"extras", {{"note", "x"}}}}};
    const cast::Document document = import(gltf);
    EXPECT_EQ(count_rule("gltf.extras-dropped"), 1u);
    const auto shapes = document.models()[0].blend_shapes();
    ASSERT_EQ(shapes.size(), 2u);
    EXPECT_EQ(*shapes[0].name(), "flat");
    EXPECT_EQ(shapes[0].vertex_indices().size(), 0u);
    EXPECT_EQ(*shapes[1].name(), "lift");
    EXPECT_EQ(shapes[1].vertex_indices().size(), 1u);
}

// Issue 28 #7: weights that do not sum to 1 were renormalised on export without a word.
TEST_F(GltfSkins, RenormalisedWeightsAreNamedOnExport) {
    BentLeg leg;
    leg.weights[0] = 0.8f;  // vertex 0 sums to 0.8
    const cast::Document document = import(leg.build());
    ASSERT_TRUE(gltf::write(document, dir / "out.glb", {}, warnings).has_value());
    EXPECT_EQ(count_rule("gltf.weights-renormalised"), 1u);
}

}  // namespace
}  // namespace castkit::test::skin_import_test
