// The hero's two looping animations, keyed on every frame at 30 fps: a walk cycle (on the spot,
// one stride per foot a second) and a breathing idle. The rest rotations are all the identity,
// so an absolute rotation key is the bone's turn from its rest pose.
#include <functional>

#include "hero.hpp"

namespace cast = castkit::cast;

namespace hero {
namespace {

constexpr glm::dvec3 kX = {1, 0, 0}, kY = {0, 1, 0}, kZ = {0, 0, 1};

// A turn of `deg` degrees about `axis`.
glm::vec4 turn(glm::dvec3 axis, double deg) { return axis_angle(axis, degrees(deg)); }

// Keys for frames 0..frames of a loop `frames` long. The value at a frame is computed from its
// phase, 2π·frame/frames, so the last key equals the first exactly.
struct Loop {
    cast::Animation animation;
    std::uint32_t frames;

    std::vector<std::uint32_t> key_frames() const {
        std::vector<std::uint32_t> keys(frames + 1);
        for (std::uint32_t f = 0; f <= frames; ++f) keys[f] = f;
        return keys;
    }
    double phase(std::uint32_t frame) const { return 2 * kPi * (frame % frames) / frames; }

    void rotation(const char* bone, const std::function<glm::vec4(double)>& at,
                  cast::CurveMode mode = cast::CurveMode::Absolute) {
        std::vector<glm::vec4> values;
        for (std::uint32_t f = 0; f <= frames; ++f) values.push_back(at(phase(f)));
        cast::Curve curve = animation.add_curve();
        curve.set_node_name(bone);
        curve.set_key_property(cast::KeyProperty::Rotation);
        curve.set_mode(mode);
        curve.set_key_frames(key_frames());
        curve.set_quaternion_values(values);
    }

    // A float channel: a translation axis, or a blend shape's weight.
    void value(const char* node, cast::KeyProperty property,
               const std::function<double(double)>& at) {
        std::vector<float> values;
        for (std::uint32_t f = 0; f <= frames; ++f) values.push_back(float(at(phase(f))));
        cast::Curve curve = animation.add_curve();
        curve.set_node_name(node);
        curve.set_key_property(property);
        curve.set_mode(cast::CurveMode::Absolute);
        curve.set_key_frames(key_frames());
        curve.set_float_values(values);
    }
};

Loop start(cast::Document& document, const char* name, std::uint32_t frames) {
    cast::Root root = document.add_root();
    add_example_metadata(root);
    cast::Animation animation = root.add_animation();
    animation.set_name(name);
    animation.set_framerate(30);
    animation.set_looping(true);
    return {animation, frames};
}

double positive(double x) { return x > 0 ? x : 0; }

// One leg, `forward` = cos of its phase (1: the foot furthest forward, where its heel strikes)
// and `swing` > 0 while the foot travels forward off the ground. A turn about -X swings a
// hanging limb forward; about +X bends a knee.
void leg(Loop& loop, const char* thigh, const char* calf, const char* foot, double shift) {
    const auto forward = [shift](double p) { return sin_cos(p + shift).cos; };
    const auto swing = [shift](double p) { return positive(-sin_cos(p + shift).sin); };
    const auto hip = [=](double p) { return -20 * forward(p) - 12 * swing(p) * swing(p); };
    const auto knee = [=](double p) { return 5 + 50 * swing(p) * swing(p); };
    loop.rotation(thigh, [=](double p) { return turn(kX, hip(p)); });
    loop.rotation(calf, [=](double p) { return turn(kX, knee(p)); });
    // The foot keeps roughly level with the ground.
    loop.rotation(foot, [=](double p) { return turn(kX, -0.85 * (hip(p) + knee(p))); });
}

// One arm, swinging against the leg on its side; the elbow bends more as it swings forward.
void arm(Loop& loop, const char* upper, const char* fore, double sign) {
    loop.rotation(upper, [=](double p) { return turn(kX, sign * 22 * sin_cos(p).cos); });
    loop.rotation(fore,
                  [=](double p) { return turn(kX, -12 - 14 * positive(-sign * sin_cos(p).cos)); });
}

}  // namespace

cast::Document walk() {
    cast::Document document;
    Loop loop = start(document, "walk", 30);
    // The left heel strikes at frame 0, the right at frame 15 (half a cycle later).
    leg(loop, "thigh_l", "calf_l", "foot_l", 0);
    leg(loop, "thigh_r", "calf_r", "foot_r", kPi);
    arm(loop, "upper_arm_l", "forearm_l", 1);
    arm(loop, "upper_arm_r", "forearm_r", -1);
    // The hips are lowest when both feet are down (frames 0 and 15) and sway over the foot that
    // carries the weight; the hips turn with the leading leg and the shoulders against them.
    loop.value("pelvis", cast::KeyProperty::TranslationY,
               [](double p) { return 0.925 - 0.025 * sin_cos(2 * p).cos; });
    loop.value("pelvis", cast::KeyProperty::TranslationX,
               [](double p) { return 0.02 * sin_cos(p).sin; });
    // SEAnim keys all three axes of a translation: z is keyed too, at rest.
    loop.value("pelvis", cast::KeyProperty::TranslationZ, [](double) { return 0.0; });
    loop.rotation("pelvis", [](double p) {
        return multiply(turn(kY, -6 * sin_cos(p).cos), turn(kZ, 3 * sin_cos(p).sin));
    });
    loop.rotation("spine", [](double p) { return turn(kY, 3 * sin_cos(p).cos); });
    loop.rotation("chest", [](double p) { return turn(kY, 5 * sin_cos(p).cos); });
    loop.rotation("neck", [](double p) { return turn(kY, -2 * sin_cos(p).cos); });
    loop.rotation("head", [](double p) { return turn(kX, 2 * sin_cos(2 * p).cos); });

    cast::NotificationTrack footsteps = loop.animation.add_notification_track();
    footsteps.set_name("footstep");
    const std::array<std::uint32_t, 2> contacts = {0, 15};
    footsteps.set_key_frames(contacts);
    return document;
}

cast::Document idle() {
    cast::Document document;
    // Two seconds: one breath, one slow shift of weight and a glance to each side.
    Loop loop = start(document, "idle", 60);
    const auto breath = [](double p) { return (1 - sin_cos(p).cos) / 2; };  // 0 → 1 → 0
    loop.value("breathe_in", cast::KeyProperty::BlendShape, breath);
    loop.rotation("chest", [=](double p) { return turn(kX, -2.5 * breath(p)); });
    loop.rotation("neck", [=](double p) { return turn(kX, 1.5 * breath(p)); });
    loop.rotation("head", [](double p) { return turn(kY, 8 * sin_cos(p).sin); });
    // The shoulders rise and the arms open a little on the breath in; the elbows stay soft.
    struct Side {
        const char *clavicle, *upper, *fore;
        double sign;  // +1 left, -1 right: opening the arm is a turn about +Z on the left
    };
    for (const Side side : {Side{"clavicle_l", "upper_arm_l", "forearm_l", 1},
                            Side{"clavicle_r", "upper_arm_r", "forearm_r", -1}}) {
        const double sign = side.sign;
        loop.rotation(side.clavicle, [=](double p) { return turn(kZ, sign * 2 * breath(p)); });
        loop.rotation(side.upper, [=](double p) { return turn(kZ, sign * 2 * breath(p)); });
        loop.rotation(side.fore, [](double) { return turn(kX, -8); });
    }
    loop.value("pelvis", cast::KeyProperty::TranslationY,
               [=](double p) { return 0.95 - 0.004 * breath(p); });
    loop.value("pelvis", cast::KeyProperty::TranslationX,
               [](double p) { return 0.012 * sin_cos(p).sin; });
    loop.value("pelvis", cast::KeyProperty::TranslationZ, [](double) { return 0.0; });
    loop.rotation("spine", [](double p) { return turn(kZ, -1.5 * sin_cos(p).sin); });
    return document;
}

cast::Document step() {
    cast::Document document;
    Loop loop = start(document, "step", 30);
    // The left foot's IK target (hero_rig.cast) goes round: forward and up, then back along the
    // ground; the leg follows it through its IK handle.
    loop.value("foot_ik_l", cast::KeyProperty::TranslationX, [](double) { return 0.1; });
    loop.value("foot_ik_l", cast::KeyProperty::TranslationY,
               [](double p) { return 0.12 + 0.1 * positive(sin_cos(p).sin); });
    loop.value("foot_ik_l", cast::KeyProperty::TranslationZ,
               [](double p) { return -0.01 - 0.12 * sin_cos(p).cos; });
    return document;
}

cast::Document lean() {
    cast::Document document;
    Loop loop = start(document, "lean", 30);
    // An additive clip: the spine sways 8 degrees either side of whatever pose lies under it.
    loop.rotation(
        "spine", [](double p) { return turn(kZ, 8 * sin_cos(p).sin); }, cast::CurveMode::Additive);
    return document;
}

}  // namespace hero
