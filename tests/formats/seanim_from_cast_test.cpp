// Cast → SEAnim → Cast: every value SEAnim can hold survives, what it cannot is named in a
// warning, curve modes map back to animation types and modifiers, and `se.*` properties that
// no longer agree with an edited document are ignored.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/seanim.hpp>

#include "se_golden.hpp"

namespace castkit::test::seanim_from_cast_test {
namespace {

cast::Curve add_curve(cast::Animation& animation, std::string_view bone, std::string_view kp,
                      std::vector<std::uint32_t> frames, std::vector<float> values,
                      cast::CurveMode mode = cast::CurveMode::Absolute) {
    cast::Curve curve = animation.add_curve();
    curve.set_node_name(bone);
    curve.set_string("kp", kp);
    curve.set_key_frames(frames);
    curve.set_float_values(values);
    curve.set_mode(mode);
    return curve;
}

cast::Curve add_rotation(cast::Animation& animation, std::string_view bone,
                         std::vector<std::uint32_t> frames, std::vector<glm::vec4> values,
                         cast::CurveMode mode = cast::CurveMode::Absolute) {
    cast::Curve curve = animation.add_curve();
    curve.set_node_name(bone);
    curve.set_key_property(cast::KeyProperty::Rotation);
    curve.set_key_frames(frames);
    curve.set_quaternion_values(values);
    curve.set_mode(mode);
    return curve;
}

bool mentions(const Diagnostics& warnings, std::string_view text) {
    for (const Diagnostic& d : warnings)
        if (d.message.find(text) != std::string::npos) return true;
    return false;
}

// SEAnim bytes → Cast document, through the SEAnim writer and reader.
cast::Document round_trip(cast::Document& document, Diagnostics& warnings) {
    auto animation = seanim::from_cast(document, warnings);
    EXPECT_TRUE(animation) << (animation ? "" : animation.error().to_string());
    auto bytes = seanim::write_to_buffer(*animation);
    EXPECT_TRUE(bytes) << (bytes ? "" : bytes.error().to_string());
    auto reread = seanim::read(*bytes, "back.seanim", warnings);
    EXPECT_TRUE(reread);
    return seanim::to_cast(*reread, warnings).value();
}

void expect_same_curve(const cast::ConstCurve& a, const cast::ConstCurve& b) {
    EXPECT_EQ(a.node_name(), b.node_name());
    EXPECT_EQ(a.key_property(), b.key_property());
    EXPECT_EQ(a.key_frames().to_vector(), b.key_frames().to_vector());
    EXPECT_EQ(a.mode_name(), b.mode_name());
    EXPECT_EQ(a.key_values()->type(), b.key_values()->type());
    EXPECT_TRUE(std::equal(a.key_values()->bytes().begin(), a.key_values()->bytes().end(),
                           b.key_values()->bytes().begin(), b.key_values()->bytes().end()))
        << *a.node_name() << " " << *a.key_property();
}

TEST(CastToSEAnim, EveryValueSEAnimCanHoldSurvives) {
    cast::Document document;
    cast::Animation animation = document.add_root().add_animation();
    animation.set_framerate(24.0f);
    animation.set_looping(true);
    add_curve(animation, "a", "tx", {0, 5, 10}, {0.1f, 0.2f, 0.3f});
    add_curve(animation, "a", "ty", {0, 5, 10}, {1, 2, 3});
    add_curve(animation, "a", "tz", {0, 5, 10}, {-1, -2, -3});
    add_rotation(animation, "a", {0, 10}, {{0, 0, 0, 1}, {0, 0.6f, 0, 0.8f}});
    add_curve(animation, "a", "sx", {3}, {2});
    add_curve(animation, "a", "sy", {3}, {2});
    add_curve(animation, "a", "sz", {3}, {0.5f});
    add_rotation(animation, "b", {400}, {{1, 0, 0, 0}});
    cast::CurveModeOverride o = animation.add_curve_mode_override();
    o.set_node_name("b");
    o.set_mode(cast::CurveMode::Additive);
    o.set_override_translation(true);
    o.set_override_rotation(true);
    o.set_override_scale(true);
    cast::NotificationTrack track = animation.add_notification_track();
    track.set_name("step");
    const std::uint32_t steps[] = {2, 8};
    track.set_key_frames(steps);
    add_curve(animation, "blink", "bs", {0, 4}, {0.0f, 1.0f});

    Diagnostics warnings;
    cast::Document back = round_trip(document, warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front().to_string();
    cast::Animation result = back.animations()[0];
    EXPECT_EQ(*result.framerate(), 24.0f);
    EXPECT_TRUE(result.looping());
    auto before = animation.curves(), after = result.curves();
    ASSERT_EQ(before.size(), after.size());
    for (std::size_t i = 0; i < before.size(); ++i) expect_same_curve(before[i], after[i]);
    auto overrides = result.curve_mode_overrides();
    ASSERT_EQ(overrides.size(), 1u);
    EXPECT_EQ(*overrides[0].mode_name(), "additive");
    EXPECT_EQ(result.notification_tracks()[0].key_frames().to_vector(),
              (std::vector<std::uint32_t>{2, 8}));
}

TEST(CastToSEAnim, AxesKeyedAtDifferentFramesMergeAtTheUnion) {
    cast::Document document;
    cast::Animation animation = document.add_root().add_animation();
    add_curve(animation, "a", "tx", {0, 10}, {0, 10});
    add_curve(animation, "a", "ty", {5}, {7});
    Diagnostics warnings;
    auto result = seanim::from_cast(document, warnings);
    ASSERT_TRUE(result);
    const auto& keys = result->bones[0].locations;
    ASSERT_EQ(keys.size(), 3u);
    EXPECT_EQ(keys[1].frame, 5u);
    EXPECT_EQ(keys[1].value, glm::dvec3(5, 7, 0));   // x interpolated, z absent
    EXPECT_EQ(keys[2].value, glm::dvec3(10, 7, 0));  // y held after its last key
    EXPECT_TRUE(mentions(warnings, "keyed at different frames"));
    EXPECT_TRUE(mentions(warnings, "no 'tz' curve"));
}

TEST(CastToSEAnim, WhatSEAnimCannotHoldIsNamed) {
    cast::Document document;
    cast::Root root = document.add_root();
    cast::Animation animation = root.add_animation();
    cast::Curve visibility = animation.add_curve();
    visibility.set_node_name("a");
    visibility.set_key_property(cast::KeyProperty::Visibility);
    add_curve(animation, "a", "tx", {0}, {1}).set_additive_blend_weight(0.5f);
    add_curve(animation, "a", "ty", {0}, {1});
    add_curve(animation, "a", "tz", {0}, {1});
    root.add_animation();
    Diagnostics warnings;
    ASSERT_TRUE(seanim::from_cast(document, warnings));
    EXPECT_TRUE(mentions(warnings, "visibility (vb) curves dropped"));
    EXPECT_TRUE(mentions(warnings, "additive blend weight"));
    EXPECT_TRUE(mentions(warnings, "the first of 2 is written"));
}

TEST(CastToSEAnim, CurveModesBecomeTheTypeAndModifiers) {
    cast::Document document;
    cast::Animation animation = document.add_root().add_animation();
    for (const char* kp : {"tx", "ty", "tz"})
        add_curve(animation, "root", kp, {0}, {1}, cast::CurveMode::Relative);
    add_rotation(animation, "root", {0}, {{0, 0, 0, 1}}, cast::CurveMode::Absolute);
    for (const char* kp : {"tx", "ty", "tz"})
        add_curve(animation, "arm", kp, {0}, {1}, cast::CurveMode::Additive);
    Diagnostics warnings;
    auto result = seanim::from_cast(document, warnings);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->type(), seanim::AnimType::Relative);
    ASSERT_EQ(result->modifiers.size(), 1u);
    EXPECT_EQ(result->modifiers[0].bone, 1u);
    EXPECT_EQ(result->modifiers[0].type, static_cast<std::uint8_t>(seanim::AnimType::Additive));
    EXPECT_TRUE(mentions(warnings, "also applies to its descendants"));
}

TEST(CastToSEAnim, DeltaSurvivesThroughSeType) {
    Diagnostics warnings;
    auto a = seanim::read(seanim_golden_vector(), "g.seanim", warnings);
    ASSERT_TRUE(a);
    a->header.type = static_cast<std::uint8_t>(seanim::AnimType::Delta);
    cast::Document document = seanim::to_cast(*a, warnings).value();
    auto back = seanim::from_cast(document, warnings);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->type(), seanim::AnimType::Delta);
    // Edited to absolute curves, the stored type no longer fits and is not used.
    for (cast::Curve curve : document.animations()[0].curves())
        curve.set_mode(cast::CurveMode::Absolute);
    back = seanim::from_cast(document, warnings);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->type(), seanim::AnimType::Absolute);
}

TEST(CastToSEAnim, StoredWidthsThatNoLongerFitAreDerivedAgain) {
    // A 2016 file: frameCount 255 with a u16 frame_t, kept in se.widths / se.counts.
    HandBytes b;
    b.text("SEAnim").u16(1).u16(0x1C).u8(0).u8(0).u8(seanim::kBoneLocation).u8(0).u16(0);
    b.f32(30).u32(255).u32(1).u8(0).hex({0, 0, 0}).u32(0);
    b.cstr("root").u8(0).u16(1).u16(254).floats({4, 5, 6});
    Diagnostics warnings;
    auto a = seanim::read(b.bytes, "old.seanim", warnings);
    ASSERT_TRUE(a);
    cast::Document document = seanim::to_cast(*a, warnings).value();
    auto kept = seanim::from_cast(document, warnings);
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->frame_width, 2);
    // Move the key past what u16 holds: the stored width cannot be used any more.
    const std::uint32_t late[] = {70000};
    for (cast::Curve curve : document.animations()[0].curves()) curve.set_key_frames(late);
    auto edited = seanim::from_cast(document, warnings);
    ASSERT_TRUE(edited);
    EXPECT_EQ(edited->header.frame_count, 70001u);
    EXPECT_EQ(edited->frame_width, 4);
    EXPECT_TRUE(seanim::write_to_buffer(*edited));
}

TEST(CastToSEAnim, ADocumentWithoutAnimationIsAnError) {
    cast::Document document;
    document.add_root().add_model();
    Diagnostics warnings;
    auto result = seanim::from_cast(document, warnings);
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().message.find("no Animation node"), std::string::npos);
}

}  // namespace
}  // namespace castkit::test::seanim_from_cast_test
