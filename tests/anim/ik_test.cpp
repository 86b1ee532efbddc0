// IK handles solved (issue 46 item 2), checked by geometry computed here, not by castkit: the
// end joint on its target, every joint in the plane of the start, the target and the pole, on
// the pole's side, bone lengths as at rest; an unreachable target stretched towards.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::ik_test {
namespace {

namespace fs = std::filesystem;

glm::vec3 at(const glm::mat4& m) { return glm::vec3(m[3]); }

// A leg of `segments` bones of `length` each, hanging down from the hip at (0, 2, 0), with the
// knee bent slightly forward (+Z) at rest; an IK target and a pole bone at the root.
struct Leg {
    AnimScene scene;
    std::vector<cast::Bone> chain;
    cast::Bone target, pole;
    cast::IKHandle handle;

    Leg(int segments, float length, glm::vec3 goal, glm::vec3 pole_at) {
        chain.push_back(scene.bone("hip", -1, {0, 2, 0}));
        for (int i = 1; i <= segments; ++i) {
            const glm::vec4 bend = axis_angle_xyzw({1, 0, 0}, i == 1 ? -10.0f : 10.0f);
            chain.push_back(scene.bone(fmt::format("joint{}", i), i - 1, {0, -length, 0}, bend));
        }
        target = scene.bone("foot_ik", -1, goal);
        pole = scene.bone("knee_pole", -1, pole_at);
        handle = scene.skeleton.add_ik_handle();
        handle.set_start_bone(chain.front());
        handle.set_end_bone(chain.back());
        handle.set_target_bone(target);
        handle.set_pole_vector_bone(pole);
        scene.curve("foot_ik", "tx", {0}, {goal.x});  // an animation to sample
    }

    std::vector<glm::mat4> solved(bool solve = true) {
        scene.build();
        return scene.worlds(scene.sample(0.0f, false, solve));
    }
};

// Lengths kept, every joint in the plane of hip, goal and pole, on the pole's side.
void expect_in_pole_plane_with_lengths(const std::vector<glm::mat4>& worlds, int segments,
                                       float length, glm::vec3 goal, glm::vec3 pole) {
    const glm::vec3 hip = at(worlds[0]);
    const glm::vec3 normal = glm::normalize(glm::cross(goal - hip, pole - hip));
    const glm::vec3 axis = glm::normalize(goal - hip);
    const glm::vec3 side = glm::normalize((pole - hip) - axis * glm::dot(pole - hip, axis));
    for (int i = 1; i <= segments; ++i) {
        SCOPED_TRACE(fmt::format("joint {}", i));
        const glm::vec3 joint = at(worlds[static_cast<std::size_t>(i)]);
        EXPECT_NEAR(glm::length(joint - at(worlds[static_cast<std::size_t>(i - 1)])), length,
                    1e-4f);
        EXPECT_NEAR(glm::dot(joint - hip, normal), 0.0f, 1e-4f);
        if (i < segments) {
            EXPECT_GT(glm::dot(joint - hip, side), 1e-3f);
        }
    }
}

TEST(IkHandle, ATwoBoneLegReachesItsTargetInThePolePlane) {
    const glm::vec3 goal{0.3f, 1.2f, 0.4f}, pole{1.0f, 1.5f, 2.0f};
    Leg leg(2, 0.5f, goal, pole);
    const std::vector<glm::mat4> worlds = leg.solved();
    expect_vec3(at(worlds[2]), goal, 1e-5f);
    expect_in_pole_plane_with_lengths(worlds, 2, 0.5f, goal, pole);
    // The solve only turns bones: every translation is as at rest.
    const std::vector<glm::mat4> raw = leg.solved(false);
    expect_vec3(
        at(raw[2]),
        {0, 2 - 0.5f * std::cos(glm::radians(10.0f)) - 0.5f, 0.5f * std::sin(glm::radians(10.0f))},
        1e-5f);
}

TEST(IkHandle, ALongerChainReachesItsTargetWithItsLengthsKept) {
    const glm::vec3 goal{0.5f, 0.6f, 0.3f}, pole{-1.0f, 1.0f, 2.0f};
    Leg leg(4, 0.4f, goal, pole);
    const std::vector<glm::mat4> worlds = leg.solved();
    expect_vec3(at(worlds[4]), goal, 1e-4f);
    expect_in_pole_plane_with_lengths(worlds, 4, 0.4f, goal, pole);
}

TEST(IkHandle, AnUnreachableTargetIsPointedAtWithTheChainStraight) {
    const glm::vec3 goal{2.0f, 2.0f, 1.0f};
    Leg leg(2, 0.5f, goal, {0, 2, 3});
    const std::vector<glm::mat4> worlds = leg.solved();
    const glm::vec3 hip = at(worlds[0]), toward = glm::normalize(goal - hip);
    expect_vec3(at(worlds[1]), hip + 0.5f * toward, 1e-5f);
    expect_vec3(at(worlds[2]), hip + 1.0f * toward, 1e-5f);
}

// Straightened out of reach, the chain still turns its bend to the pole: each bone's hinge (its
// +X, about which the leg bends at rest) is square to the plane of hip, goal and pole.
TEST(IkHandle, AChainStraightenedOutOfReachKeepsItsHingesSquareToThePolePlane) {
    const glm::vec3 goal{2.0f, 2.0f, 1.0f}, pole{0, 2, 3};
    Leg leg(2, 0.5f, goal, pole);
    const std::vector<glm::mat4> worlds = leg.solved();
    const glm::vec3 hip = at(worlds[0]);
    const glm::vec3 normal = glm::normalize(glm::cross(goal - hip, pole - hip));
    for (std::size_t bone : {0u, 1u}) {
        SCOPED_TRACE(fmt::format("bone {}", bone));
        const glm::vec3 hinge = anim::decompose(worlds[bone]).rotation * glm::vec3(1, 0, 0);
        EXPECT_NEAR(std::abs(glm::dot(hinge, normal)), 1.0f, 1e-5f);
    }
}

TEST(IkHandle, TargetRotationAndTargetOffsetAreHonoured) {
    const glm::vec3 goal{0.2f, 1.3f, 0.3f};
    Leg leg(2, 0.5f, goal, {0, 2, 3});
    const glm::vec4 turned = axis_angle_xyzw(glm::normalize(glm::vec3(1, 2, 3)), 50);
    leg.target.set_local_rotation(turned);
    leg.handle.set_use_target_rotation(true);
    leg.handle.set_target_offset({0.1f, 0, 0});  // in the target's frame
    const std::vector<glm::mat4> worlds = leg.solved();
    expect_vec3(at(worlds[2]), goal + cast::quat_from_xyzw(turned) * glm::vec3(0.1f, 0, 0), 1e-5f);
    expect_same_rotation(anim::decompose(worlds[2]).rotation, turned, 1e-5f);
}

// A handle that cannot be solved is left out with a warning naming it; the pose is the curves'.
TEST(IkHandle, AHandleWhoseEndIsNotUnderItsStartIsLeftOutWithAWarning) {
    Leg leg(2, 0.5f, {0.3f, 1.2f, 0.4f}, {0, 2, 3});
    leg.handle.set_end_bone(leg.pole);
    const std::vector<glm::mat4> worlds = leg.solved();
    EXPECT_EQ(leg.scene.reports_with_rule("anim.ik-handle"), 1u);
    EXPECT_EQ(leg.scene.compiled_skeleton.ik_handles().size(), 0u);
    expect_vec3(at(worlds[2]), at(leg.solved(false)[2]), 0.0f);
}

// A chain of one bone has no joint to bend (its solve gave NaN): from arrays it is refused, as
// a handle whose target offset or a rest that is not a number; from a Cast file such a handle is
// left out with a warning.
TEST(IkHandle, AOneBoneChainOrANonFiniteInputIsRefused) {
    const std::vector<std::string> names = {"hip", "knee", "goal"};
    const std::vector<std::int32_t> parents = {-1, 0, -1};
    auto one_bone =
        anim::Skeleton::from_arrays(names, parents, {}, {}, {{.chain = {1}, .target = 2}});
    ASSERT_FALSE(one_bone.has_value());
    EXPECT_EQ(one_bone.error().rule, "anim.ik-handle");
    EXPECT_TRUE(
        anim::Skeleton::from_arrays(names, parents, {}, {}, {{.chain = {0, 1}, .target = 2}})
            .has_value());

    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto offset = anim::Skeleton::from_arrays(
        names, parents, {}, {}, {{.chain = {0, 1}, .target = 2, .target_offset = glm::vec3(nan)}});
    ASSERT_FALSE(offset.has_value());
    EXPECT_EQ(offset.error().rule, "anim.non-finite");
    std::vector<anim::Transform> rest(3);
    rest[1].translation.y = nan;
    auto rested = anim::Skeleton::from_arrays(names, parents, rest);
    ASSERT_FALSE(rested.has_value());
    EXPECT_EQ(rested.error().rule, "anim.non-finite");

    Leg leg(2, 0.5f, {0.3f, 1.2f, 0.4f}, {0, 2, 3});
    leg.handle.set_target_offset(glm::vec3(nan, 0, 0));
    const std::vector<glm::mat4> worlds = leg.solved();
    EXPECT_EQ(leg.scene.reports_with_rule("anim.ik-handle"), 1u);
    EXPECT_TRUE(leg.scene.compiled_skeleton.ik_handles().empty());
    for (const glm::mat4& world : worlds) EXPECT_TRUE(std::isfinite(world[3].x));
}

// The command line: `castkit pose` solves the handle, and `--no-rig` gives the raw curves.
TEST(IkHandleCli, PoseSolvesTheRigAndNoRigTurnsItOff) {
    const glm::vec3 goal{0.3f, 1.2f, 0.4f};
    Leg leg(2, 0.5f, goal, {1.0f, 1.5f, 2.0f});
    // A skin, so the glTF export keeps the bones as a skeleton: a triangle on the three joints.
    cast::Mesh skin = leg.scene.model.add_mesh();
    const std::vector<glm::vec3> corners{{0, 2, 0}, {0, 1.5f, 0}, {0, 1, 0}};
    const std::vector<std::uint32_t> faces{0, 1, 2}, bones{0, 1, 2};
    const std::vector<float> weights{1, 1, 1};
    skin.set_positions(corners);
    skin.set_faces(faces);
    ASSERT_TRUE(skin.set_weights(1, bones, weights).has_value());
    const fs::path dir = temp_dir("ik-cli");
    ASSERT_TRUE(cast::write(leg.scene.document, dir / "leg.cast").has_value());
    const std::string pose = fmt::format("pose --model \"{0}\" --anim \"{0}\" --frame 0 --json",
                                         (dir / "leg.cast").string());
    CommandResult solved = run_cli(pose);
    ASSERT_EQ(solved.exit_code, 0) << solved.err;
    CommandResult raw = run_cli(pose + " --no-rig");
    ASSERT_EQ(raw.exit_code, 0) << raw.err;
    const auto end_of = [](const std::string& json) {
        const auto bones = nlohmann::json::parse(json)["bones"];
        const auto t = bones[2]["world"]["t"];
        return glm::vec3(t[0].get<float>(), t[1].get<float>(), t[2].get<float>());
    };
    expect_vec3(end_of(solved.out), goal, 1e-5f);
    EXPECT_GT(glm::length(end_of(raw.out) - goal), 0.1f);

    // glTF has no IK: the export writes the solved motion as plain channels, which a glTF
    // consumer plays as they are (read back, the Cast file has no IK handle left).
    const fs::path glb = dir / "leg.glb", back = dir / "back.cast";
    ASSERT_EQ(
        run_cli(fmt::format("convert \"{}\" \"{}\"", (dir / "leg.cast").string(), glb.string()))
            .exit_code,
        0);
    ASSERT_EQ(run_cli(fmt::format("convert \"{}\" \"{}\"", glb.string(), back.string())).exit_code,
              0);
    CommandResult played = run_cli(fmt::format(
        "pose --model \"{0}\" --anim \"{0}\" --frame 0 --json --no-rig", back.string()));
    ASSERT_EQ(played.exit_code, 0) << played.err << played.out;
    expect_vec3(end_of(played.out), goal, 1e-4f);
}

// The bundled rig (examples/data/hero/hero_rig.cast): over its step clip the left foot stays on
// its IK target, the thigh and calf keep their rest lengths, and the knee bends towards its pole.
TEST(IkHandleCli, TheBundledRigsLeftFootFollowsItsTarget) {
    const fs::path hero = fs::path(CASTKIT_SOURCE_DIR) / "examples/data/hero";
    for (int frame : {0, 5, 7, 15, 22}) {
        SCOPED_TRACE(fmt::format("frame {}", frame));
        CommandResult pose = run_cli(fmt::format(
            "pose --model \"{}\" --anim \"{}\" --frame {} --json",
            (hero / "hero_rig.cast").string(), (hero / "hero_step.cast").string(), frame));
        ASSERT_EQ(pose.exit_code, 0) << pose.err;
        std::map<std::string, glm::vec3> world;
        const nlohmann::json parsed = nlohmann::json::parse(pose.out);
        for (const auto& bone : parsed["bones"]) {
            const auto& t = bone["world"]["t"];
            world[bone["name"].get<std::string>()] =
                glm::vec3(t[0].get<float>(), t[1].get<float>(), t[2].get<float>());
        }
        expect_vec3(world["foot_l"], world["foot_ik_l"], 1e-5f);
        // Rest lengths from the skeleton's rest world positions (examples/hero_rig.cpp).
        EXPECT_NEAR(glm::length(world["calf_l"] - world["thigh_l"]),
                    glm::length(glm::vec3(0.1f, 0.5f, 0.01f) - glm::vec3(0.095f, 0.92f, 0)), 1e-5f);
        EXPECT_NEAR(glm::length(world["foot_l"] - world["calf_l"]),
                    glm::length(glm::vec3(0.1f, 0.09f, -0.01f) - glm::vec3(0.1f, 0.5f, 0.01f)),
                    1e-5f);
        EXPECT_GT(world["calf_l"].z, world["thigh_l"].z);  // the pole stands in front
    }
}

}  // namespace
}  // namespace castkit::test::ik_test
