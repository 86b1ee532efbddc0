// Many inputs, one scene: the animations of separate files (one `.seanim` per move beside a
// `.semodel`, say) moved into the document of the model they animate, so any writer that can
// hold both (Cast, glTF) writes them as one file. docs/workflows.md describes the rules.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <optional>
#include <string>
#include <vector>

namespace castkit::scene {

// One animation file to merge: its document, and the name its animations take when they have
// none (the file's stem).
struct AnimationSource {
    cast::Document document;
    std::string name;
};

// What one merge did: the animations now in the model document, by name, in order.
struct MergeResult {
    std::vector<std::string> merged;
};

// Moves every Animation of each source into `model`'s first Root (added when there is none).
// Each animation keeps its own name, else takes its source's; a name already taken gets a
// "_2", "_3", … suffix. Curves are matched to the model by the name they key: bones exactly,
// then case-insensitively (rule 24); blend shapes (`bs`) and visibility (`vb`) targets as the
// animation evaluator binds them. Curves naming nothing in the model are dropped with one
// warning per animation that lists them; an animation whose curves match nothing is not merged
// and is reported as an error; a source without animations is an error too. The moved nodes
// get fresh hashes from `model` (rule 12) and keep their links. `model` retains each source's
// buffers. O(curves + bones).
MergeResult merge(cast::Document& model, std::vector<AnimationSource> animations,
                  Diagnostics& diagnostics);

// Whether any curve of `document` is additive (Cast `additive` curves, SEAnim ADDITIVE files):
// what merge() with a MergeBase layers. O(curves).
bool holds_additive_curve(const cast::Document& document);

// An animation file read alone, given its model (`castkit convert walk.seanim --model hero.cast`):
// when no Model of `animations` has a Skeleton, the first Model Skeleton of `model` is copied
// (fresh hashes) into every Animation of `animations` that has none, as a Cast Animation's own
// Skeleton, so that the axis change turns its root bones and root motion finds them; writers
// that hold an animation's skeleton (Cast, glTF) then write it. The animations are in the
// model's axes and units: when `animations` says no up axis (or no units) and `model` does, its
// first Root's Metadata (added when it has none) takes the model's. Returns how many Animations
// got one. An error (`merge.no-skeleton`, naming `model`'s file) when `model` has no Model with a
// Skeleton. O(bones × animations).
Expected<std::size_t> lend_skeleton(cast::Document& animations, const cast::Document& model);

// The pose additive animations are layered on before they merge (`castkit convert --base`):
// the first animation of `document`, at the same time as each frame, or at `frame` alone.
struct MergeBase {
    const cast::Document* document = nullptr;
    std::optional<float> frame;
};

// merge(), with every source animation that holds an additive curve (Cast `additive` curves,
// SEAnim ADDITIVE files) first baked onto `base` on the model's skeleton (anim::bake with
// BakeOptions::base), so the scene holds its absolute motion; other animations merge as they
// are. A layering that cannot be done (no skeleton, a base without animations) is an error
// naming the source, which then merges as it is. O(merge + the bakes).
MergeResult merge(cast::Document& model, std::vector<AnimationSource> animations,
                  const MergeBase& base, Diagnostics& diagnostics);

}  // namespace castkit::scene
