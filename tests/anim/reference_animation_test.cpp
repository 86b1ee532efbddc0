// Every animation in the reference fixtures (written by cast.py, random but valid) compiles
// against every skeleton in them and accounts for every curve (bound, or reported as skipped),
// samples, and, against a skeleton of the names its curves use, bakes into a file that
// compiles again without a report.
#include <gtest/gtest.h>

#include <algorithm>
#include <castkit/anim/bake.hpp>
#include <castkit/cast/document.hpp>
#include <set>

#include "../test_support.hpp"
#include "scene.hpp"

namespace castkit::test::reference_animation_test {
namespace {

std::vector<cast::Document> reference_documents() {
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(fixtures() / "cast" / "reference"))
        if (entry.path().extension() == ".cast") paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    std::vector<cast::Document> documents;
    for (const auto& path : paths) {
        auto document = open_cast(path);
        EXPECT_TRUE(document.has_value()) << path;
        if (document) documents.push_back(std::move(*document));
    }
    return documents;
}

// A skeleton whose bones are the nodes the animation's curves and overrides name, in a chain,
// so that every transform curve binds and overrides have descendants.
anim::Skeleton skeleton_for(const cast::ConstAnimation& animation) {
    std::vector<std::string> names;
    std::vector<std::int32_t> parents;
    auto add = [&](std::optional<std::string_view> name) {
        if (!name || std::find(names.begin(), names.end(), *name) != names.end()) return;
        names.emplace_back(*name);
        parents.push_back(static_cast<std::int32_t>(names.size()) - 2);
    };
    for (const cast::ConstCurveModeOverride& o : animation.curve_mode_overrides())
        add(o.node_name());
    for (const cast::ConstCurve& curve : animation.curves()) add(curve.node_name());
    auto skeleton = anim::Skeleton::from_arrays(std::move(names), std::move(parents));
    EXPECT_TRUE(skeleton.has_value());
    return skeleton ? std::move(*skeleton) : anim::Skeleton();
}

// Every curve ends up bound or in a report that says it was skipped: a kept one, or one counted
// in a kind (the same rule) whose kept reports say so.
void expect_every_curve_accounted_for(const cast::ConstAnimation& animation,
                                      const anim::Animation& built, const Diagnostics& reports) {
    std::set<std::string> skipped;
    std::set<std::string> skipping_rules;
    for (const Diagnostic& report : reports)
        if (report.message.find("skipped") != std::string::npos) {
            skipped.insert(report.path);
            skipping_rules.insert(report.rule);
        }
    std::uint64_t counted = 0;
    for (const Diagnostics::Suppressed& more : reports.suppressed())
        if (skipping_rules.count(more.rule)) counted += more.count;
    EXPECT_EQ(built.curves().size() + skipped.size() + counted, animation.curves().size());
}

void sample_around(const anim::Animation& built, const anim::Skeleton& skeleton) {
    std::vector<anim::Transform> locals(skeleton.bone_count());
    std::vector<float> weights(built.blend_shapes().size());
    std::vector<float> visibility(built.visibility_nodes().size());
    for (float frame : {built.start_frame() - 1.0f, (built.start_frame() + built.end_frame()) / 2,
                        built.end_frame() + 0.5f}) {
        anim::SamplingJob job{.animation = &built,
                              .skeleton = &skeleton,
                              .frame = frame,
                              .looped = true,
                              .locals = locals,
                              .blend_shape_weights = weights,
                              .visibility = visibility};
        EXPECT_TRUE(job.run().has_value());
    }
}

TEST(ReferenceAnimations, EveryCurveIsBoundOrReportedAgainstEverySkeleton) {
    std::vector<cast::Document> documents = reference_documents();
    ASSERT_FALSE(documents.empty());
    std::vector<anim::Skeleton> skeletons(1);  // an empty skeleton binds no bone
    for (cast::Document& document : documents)
        for (cast::Model& model : document.models())
            if (cast::Skeleton skeleton = model.skeleton()) {
                Diagnostics warnings;
                auto built = anim::build_skeleton(skeleton, warnings);
                if (built) skeletons.push_back(std::move(*built));
            }
    std::size_t animations = 0, bound = 0, reported = 0;
    for (cast::Document& document : documents)
        for (cast::Animation& animation : document.animations()) {
            ++animations;
            for (const anim::Skeleton& skeleton : skeletons) {
                SCOPED_TRACE(document.source_name);
                Diagnostics reports;
                auto built = anim::build_animation(animation, skeleton, {}, reports);
                if (!built) continue;  // a framerate the spec does not allow, reported as an error
                expect_every_curve_accounted_for(animation, *built, reports);
                bound += built->curves().size();
                reported += animation.curves().size() - built->curves().size();
                sample_around(*built, skeleton);
            }
        }
    // The fixtures do hold animations, curves that bind and curves that do not.
    EXPECT_GT(animations, 10u);
    EXPECT_GT(bound, 0u);
    EXPECT_GT(reported, 0u);
}

TEST(ReferenceAnimations, BakeAndRebuildWithoutReports) {
    std::size_t baked_curves = 0;
    for (cast::Document& document : reference_documents())
        for (cast::Animation& animation : document.animations()) {
            SCOPED_TRACE(document.source_name);
            anim::Skeleton skeleton = skeleton_for(animation);
            Diagnostics reports;
            auto built = anim::build_animation(animation, skeleton, {}, reports);
            if (!built) continue;
            expect_every_curve_accounted_for(animation, *built, reports);
            // Some generated files key a few frames tens of thousands apart: more samples than
            // their keys allow by default, so the test sets the limit (2^26) itself.
            auto baked = anim::bake(*built, skeleton,
                                    {.tolerance = 1e-3f, .max_samples = anim::kSampleCeiling});
            ASSERT_TRUE(baked.has_value()) << baked.error().to_string();
            Diagnostics again;
            auto rebuilt = anim::build_animation(baked->animations()[0], skeleton, {}, again);
            ASSERT_TRUE(rebuilt.has_value());
            EXPECT_TRUE(again.empty()) << again[0].to_string();
            EXPECT_EQ(rebuilt->notification_tracks().size(), built->notification_tracks().size());
            baked_curves += baked->animations()[0].curves().size();
        }
    EXPECT_GT(baked_curves, 0u);
}

}  // namespace
}  // namespace castkit::test::reference_animation_test
