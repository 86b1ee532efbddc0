// Rule 20: holding versus looped sampling, and notification events between two times.
#include <gtest/gtest.h>

#include <castkit/anim/notifications.hpp>

#include "scene.hpp"

namespace castkit::test::looping_test {
namespace {

AnimScene ramp(bool looping) {
    AnimScene scene;
    scene.bone("a");
    scene.animation.set_looping(looping);
    scene.curve("a", "tx", {0, 10}, {0.0f, 10.0f});
    cast::NotificationTrack fire = scene.animation.add_notification_track();
    fire.set_name("fire");
    std::vector<std::uint32_t> fire_frames = {0, 5, 10};
    fire.set_key_frames(fire_frames);
    cast::NotificationTrack step = scene.animation.add_notification_track();
    step.set_name("step");
    std::vector<std::uint32_t> step_frames = {5};
    step.set_key_frames(step_frames);
    scene.build();
    return scene;
}

TEST(Looping, Rule20HoldsUnlessLoopedSamplingIsAsked) {
    AnimScene scene = ramp(true);
    EXPECT_FLOAT_EQ(scene.sample(12.5f).locals[0].translation.x, 10.0f);
    EXPECT_FLOAT_EQ(scene.sample(12.5f, true).locals[0].translation.x, 2.5f);
    EXPECT_FLOAT_EQ(scene.sample(-3.0f, true).locals[0].translation.x, 7.0f);
    EXPECT_FLOAT_EQ(scene.sample(27.25f, true).locals[0].translation.x, 7.25f);
    // Inside the range looped sampling changes nothing, the last key included.
    EXPECT_FLOAT_EQ(scene.sample(10.0f, true).locals[0].translation.x, 10.0f);
}

TEST(Looping, Rule20NonLoopingAnimationHoldsEvenWhenLoopedIsAsked) {
    AnimScene scene = ramp(false);
    EXPECT_FLOAT_EQ(scene.sample(12.5f, true).locals[0].translation.x, 10.0f);
    EXPECT_FLOAT_EQ(scene.sample(-3.0f, true).locals[0].translation.x, 0.0f);
}

std::vector<std::pair<std::uint32_t, float>> events(const AnimScene& scene, float from, float to,
                                                    bool looped) {
    std::vector<anim::NotificationEvent> out;
    anim::collect_notifications(scene.compiled, from, to, looped, out);
    std::vector<std::pair<std::uint32_t, float>> pairs;
    for (const auto& e : out) pairs.emplace_back(e.track, e.frame);
    return pairs;
}

using Events = std::vector<std::pair<std::uint32_t, float>>;

TEST(Notifications, EventsInHalfOpenIntervalsInTimeOrder) {
    AnimScene scene = ramp(false);
    EXPECT_EQ(events(scene, 0.0f, 5.0f, false), (Events{{0, 0.0f}}));
    EXPECT_EQ(events(scene, 5.0f, 10.0f, false), (Events{{0, 5.0f}, {1, 5.0f}}));
    EXPECT_EQ(events(scene, 4.5f, 100.0f, false), (Events{{0, 5.0f}, {1, 5.0f}, {0, 10.0f}}));
    EXPECT_EQ(events(scene, 6.0f, 6.0f, false), Events{});
    // Not looping: nothing repeats, looped or not.
    EXPECT_EQ(events(scene, 11.0f, 30.0f, true), Events{});
}

TEST(Notifications, LoopedEventsRepeatEveryCycle) {
    AnimScene scene = ramp(true);
    // Keys 0 and 10 are the same instant of the loop (the seam): reported once per cycle.
    EXPECT_EQ(events(scene, 8.0f, 22.0f, true),
              (Events{{0, 10.0f}, {0, 15.0f}, {1, 15.0f}, {0, 20.0f}}));
    EXPECT_EQ(events(scene, -6.0f, 0.0f, true), (Events{{0, -5.0f}, {1, -5.0f}}));
}

}  // namespace
}  // namespace castkit::test::looping_test
