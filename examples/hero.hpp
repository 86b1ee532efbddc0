// The example character, "hero": a skinned, textured humanoid with a walk and an idle, written
// by build_scene into examples/data/hero. Everything here is generated; nothing is copied from
// another asset.
//
// The bytes must come out the same on every platform (a test compares them with the committed
// files, on Linux and, through Wine, on Windows), so no value that reaches a file goes through
// the C library's sin, cos or pow, whose last bits differ between libm implementations: the
// angles use the series below, and everything else only + - * / and sqrt, which IEEE 754 rounds
// the same everywhere.
#pragma once
#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace hero {

inline constexpr double kPi = 3.14159265358979323846;

// sin and cos of `radians` from their Taylor series after reducing the angle to [-pi, pi]:
// the same bits on every platform, within 1e-12 of the true values.
struct SinCos {
    double sin;
    double cos;
};
SinCos sin_cos(double radians);
inline double degrees(double d) { return d * kPi / 180; }

// The Metadata every example file carries (author, software, Y up, in metres), added to `root`.
castkit::cast::Metadata add_example_metadata(castkit::cast::Root& root);

// The XYZW quaternion of a turn of `radians` about the unit `axis`.
glm::vec4 axis_angle(glm::dvec3 axis, double radians);
// Hamilton product a ⊗ b of XYZW quaternions (b applied first).
glm::vec4 multiply(const glm::vec4& a, const glm::vec4& b);

// The skeleton: names, parents and rest positions in model space (Y up, facing +Z, the
// character's left on +X, metres). Every rest rotation is the identity, so each bone's local
// position is its world position minus its parent's.
struct BoneSpec {
    const char* name;
    int parent;
    glm::dvec3 world;
};
enum Bone : int {
    Pelvis,
    Spine,
    Chest,
    Neck,
    Head,
    ClavicleL,
    UpperArmL,
    ForearmL,
    HandL,
    ClavicleR,
    UpperArmR,
    ForearmR,
    HandR,
    ThighL,
    CalfL,
    FootL,
    ToeL,
    ThighR,
    CalfR,
    FootR,
    ToeR,
    kBoneCount
};
const std::array<BoneSpec, kBoneCount>& skeleton();

// The texture's regions, one per kind of body part (left and right limbs share theirs), in
// pixels of the kTextureSize square; the mesh maps each part's UVs into its region.
inline constexpr int kTextureSize = 512;
struct Region {
    int x, y, width, height;
};
enum class Paint { Head, Neck, Chest, Belly, Hips, Sleeve, Forearm, Hand, Thigh, Shin, Shoe };
Region region(Paint paint);

// The albedo texture (RGB) as PNG bytes: stb_image_write's encoder, deterministic for given
// pixels.
std::vector<std::byte> albedo_png();

// The Cast documents: the model (skeleton, one skinned mesh, blend shapes "breathe_in" and
// "bulge", a material naming the texture `texture_path`), and the two looping animations.
castkit::cast::Document model(const char* texture_path);
castkit::cast::Document walk();
castkit::cast::Document idle();
// The model with a rig (hero_rig.cast): an IK handle on the left leg ("leg_ik_l", from thigh_l
// to foot_l, reaching for the new root "foot_ik_l", its plane set by "knee_pole_l") and an
// orient constraint ("head_steady": the head takes half of the chest's turn).
castkit::cast::Document rigged(const char* texture_path);
// A looping clip for the rig: the left foot's IK target goes round (hero_step.cast).
castkit::cast::Document step();
// An additive clip: the spine sways either side of the pose under it (hero_lean.cast).
castkit::cast::Document lean();

}  // namespace hero
