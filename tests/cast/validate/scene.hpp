// A small scene that uses every node type and passes validation clean; each rule's test breaks
// one thing in it. check() writes the scene to bytes and reads it back, so findings carry the
// offsets and paths a real file gives.
#pragma once

#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <string>
#include <vector>

namespace castkit::test {

struct Scene {
    cast::Document document;
    cast::Root root;
    cast::Model model;
    cast::Skeleton skeleton;
    std::vector<cast::Bone> bones;  // root, spine, head
    cast::IKHandle ik_handle;
    cast::Constraint constraint;
    cast::Material material;
    cast::File texture;
    cast::Color tint;
    cast::Mesh mesh;  // 4 vertices, 2 faces, 2 influences
    cast::BlendShape blend_shape;
    cast::Hair hair;
    cast::Animation animation;
    cast::Curve rotation_curve, translation_curve, visibility_curve, shape_curve;
    cast::CurveModeOverride mode_override;
    cast::NotificationTrack notification_track;
    cast::Instance instance;
    cast::File instance_file;
    cast::Metadata metadata;

    Scene();
};

// Writes the document, reads the bytes back and validates what was read.
Diagnostics check(const cast::Document& document, const cast::ValidateOptions& options = {});
// Validates the document as it is in memory (no offsets).
Diagnostics check_in_memory(const cast::Document& document);

// Passes when there is at least one finding and every finding has the rule `rule`.
::testing::AssertionResult only(const Diagnostics& diagnostics, std::string_view rule);
std::string describe(const Diagnostics& diagnostics);

// A hash no node of the scene has.
inline constexpr std::uint64_t kNoSuchHash = 0xDEADBEEF00000001u;

}  // namespace castkit::test
