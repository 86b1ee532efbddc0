// Root motion under the user's control (`castkit convert --root-motion keep|strip|extract`): the
// motion of a skeleton's root bone over the ground, and its turn about the up axis, taken out of
// every clip of a document (strip) or moved onto a new top bone (extract) for an engine that
// reads root motion from a bone. docs/animation.md, "Root motion", gives the rules.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::anim {

// What happens to the root bone's ground-plane translation and yaw: left as they are, removed,
// or moved onto a new top bone.
enum class RootMotion : std::uint8_t { Keep, Strip, Extract };

// "keep", "strip", "extract" → the mode; nullopt for anything else.
std::optional<RootMotion> root_motion_from_name(std::string_view name);
// The word of `mode`.
std::string_view root_motion_name(RootMotion mode);

// The name extract gives the new top bone; "root_motion_2", "_3", … when a bone has it.
inline constexpr std::string_view kRootMotionBone = "root_motion";

// What the job did to one clip.
struct ClipRootMotion {
    std::string clip;              // the Animation's name ("" when it has none)
    std::string bone;              // the root bone whose motion was taken
    std::string motion_bone;       // extract: the bone that now carries it; strip: empty
    double ground_distance = 0.0;  // the path the root travelled over the ground, file units
    double ground_net = 0.0;       // from its first to its last frame
    double yaw_min_degrees = 0.0, yaw_max_degrees = 0.0;  // its turn from the rest, unwrapped
};

// Strips or extracts the root motion of every Animation of `document` whose skeleton is known
// (its own Skeleton, else the first Model's with one: choose_skeleton's rule without a model
// file). The root bone is `root_bone` (rule 24's match), else each skeleton's first bone without
// a parent. Per frame the root's local transform is split, in its parent's space (Model space
// for a top bone) with `up` as the up axis, into the ground-plane part of its translation and
// the twist of its rotation about `up` (a swing-twist decomposition: rotation = yaw ⊗ tilt),
// each taken relative to the rest's; what is left (the height, the tilt, the scale) stays.
// - Strip: the root's translation and rotation curves become absolute curves keyed on every
//   whole frame of their range with the rest's ground position and yaw, the height and the tilt
//   of each frame (an `anim.root-motion-stripped` warning per clip says what went).
// - Extract: a new bone `root_motion` (unique, identity rest, appended so that skin weights'
//   indices stay) is added to every skeleton as the parent of the root (its parent: the root's),
//   and takes the ground translation and yaw as its own curves; the root keeps exactly what
//   strip leaves it, so every bone's world pose is unchanged (an `anim.root-motion-extracted`
//   warning per clip). Exact for a top bone, or one whose parent has a unit scale.
// A clip whose root has no translation or rotation curve is left as it is, silently; one whose
// root curves are additive, or that a CurveModeOverride covers, is left as it is with an
// `anim.root-motion-skipped` warning (bake it first), as is an Animation without a skeleton.
// Keep changes nothing. O(frames × curves) per clip.
struct RootMotionJob {
    RootMotion mode = RootMotion::Keep;
    cast::Document* document = nullptr;
    cast::Axis up = cast::Axis::Y;  // the file's own up axis (scene::file_up_axis)
    std::string_view root_bone{};   // empty: each skeleton's first top bone
    std::string_view name{};        // what the diagnostics call the file
    Diagnostics* warnings = nullptr;
    // When set, one entry per clip the job moved, in document order.
    std::vector<ClipRootMotion>* moved = nullptr;

    // A document and a warnings sink are given.
    bool validate() const;
    // An error (`anim.root-bone`, listing the skeleton's top bones) when `root_bone` names no
    // bone of a skeleton of the document; the document is then unchanged.
    Expected<void> run() const;
};

// The root motion of a clip anim::bake wrote (`castkit bake --root-motion`): `job` run on `baked`
// (its document), whose Animations are first given a copy of `played_on`, the Cast Skeleton the
// bake played the clip on, where they have none; extract keeps the copy (the clip's curves name
// its new bone), strip takes it out again. O(RootMotionJob::run).
Expected<void> move_baked_root_motion(cast::Document& baked, const cast::ConstSkeleton& played_on,
                                      RootMotionJob job);

}  // namespace castkit::anim
