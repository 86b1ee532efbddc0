// castkit.Sampler and castkit.pose: a Cast animation evaluated on a skeleton, as `castkit pose`
// does, with every transform as numpy arrays.
#include <pybind11/stl.h>

#include <castkit/anim/animation.hpp>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/compare.hpp>
#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/registry.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"

namespace castkit::python {

namespace {

CASTKIT_PYTHON_TYPE(ModelChoice, "Optional[Union[Document, Model]]");
CASTKIT_PYTHON_TYPE(AnimationChoice, "Optional[Union[int, str]]");
CASTKIT_PYTHON_TYPE(Weights, "Dict[str, float]");
CASTKIT_PYTHON_TYPE(Visible, "Dict[str, bool]");
CASTKIT_PYTHON_TYPE(TrackFrames, "Dict[str, numpy.typing.NDArray[numpy.float32]]");
using Model = Typed<ModelChoice>;
using Which = Typed<AnimationChoice>;
using Array = Typed<types::Array>;

// The animation compiled against the skeleton it is applied to, ready to sample any frame.
struct Sampler {
    anim::Skeleton skeleton;
    anim::Animation animation;
    anim::SamplingContext context;
    Diagnostics warnings;
    // The animation's own Skeleton child, which a bake copies; kept alive by its document.
    std::shared_ptr<DocState> animation_document;
    const cast::Node* own_skeleton = nullptr;
    anim::BindingTargets targets;  // of the Model the skeleton is in
};

// One evaluated frame.
struct Pose {
    float frame = 0.0f;
    Typed<types::Strings> bone_names;
    Array parents, local_translations, local_rotations, local_scales;
    Array world_matrices, world_translations, world_rotations, world_scales;
    Typed<Weights> blend_shapes = py::dict();
    Typed<Visible> visibility = py::dict();
};

std::string animation_list(const std::vector<cast::ConstAnimation>& animations) {
    std::string out;
    for (std::size_t i = 0; i < animations.size(); ++i) {
        auto name = animations[i].name();
        out += (i ? ", " : "") + std::to_string(i) + " " +
               (name ? "'" + std::string(*name) + "'" : std::string("(unnamed)"));
    }
    return out;
}

std::string name_of(const DocState& state) {
    return state.document.source_name.empty() ? "<document>" : state.document.source_name;
}

// The animation `which` names: None the first, an int its 0-based index over every root, a str
// its exact name (as `castkit pose --animation`).
std::size_t pick_animation(const std::vector<cast::ConstAnimation>& animations,
                           const py::object& which, const DocState& state) {
    const std::string file = name_of(state);
    if (which.is_none()) return 0;
    if (py::isinstance<py::int_>(which)) {
        const long long index = which.cast<long long>();
        if (index >= 0 && static_cast<std::size_t>(index) < animations.size())
            return static_cast<std::size_t>(index);
        raise_error(file + ": no animation at index " + std::to_string(index) +
                        "; the file holds " + animation_list(animations),
                    "python.animation");
    }
    const std::string name = encode(which.cast<py::str>());
    for (std::size_t i = 0; i < animations.size(); ++i)
        if (animations[i].name() == name) return i;
    raise_error(
        file + ": no animation named '" + name + "'; the file holds " + animation_list(animations),
        "python.animation");
}

// The skeleton the animation is applied to: `model` a Document (its first Model with a
// Skeleton), a Model (its own), or None (anim::choose_skeleton's rule for the animation alone).
anim::SkeletonChoice choose_skeleton(const py::object& model, const cast::ConstAnimation& animation,
                                     const DocState& anim_state) {
    if (py::isinstance<ModelRef>(model)) {
        const auto& ref = model.cast<const ModelRef&>();
        const cast::ConstModel chosen = ref.view<cast::Model>();
        if (cast::ConstSkeleton skeleton = chosen.skeleton())
            return {skeleton, &ref.doc->document, anim::binding_targets(chosen)};
        raise_error(name_of(*ref.doc) + ": the Model '" + std::string(chosen.name().value_or("")) +
                        "' has no Skeleton",
                    "python.animation");
    }
    if (!model.is_none() && !py::isinstance<DocState>(model))
        throw py::type_error("model: a Document, a Model or None");
    const DocState* model_state = model.is_none() ? nullptr : model.cast<DocPtr>().get();
    const std::optional<anim::SkeletonChoice> chosen = anim::choose_skeleton(
        animation, anim_state.document, model_state ? &model_state->document : nullptr);
    if (chosen) return *chosen;
    if (model_state)
        raise_error(name_of(*model_state) + ": no Model with a Skeleton", "python.animation");
    raise_error(name_of(anim_state) +
                    ": neither the animation nor a Model in the file has a Skeleton; "
                    "pass the model document",
                "python.animation");
}

std::shared_ptr<Sampler> make_sampler(const Model& model,
                                      const std::shared_ptr<DocState>& anim_state,
                                      const Which& which) {
    if (!anim_state) throw py::type_error("the animation document is required");
    const cast::Document& anim_doc = anim_state->document;
    std::vector<cast::ConstAnimation> animations = anim_doc.animations();
    if (animations.empty())
        raise_error(name_of(*anim_state) + ": holds no Animation", "python.animation");
    const cast::ConstAnimation animation =
        animations[pick_animation(animations, which, *anim_state)];
    const anim::SkeletonChoice chosen = choose_skeleton(model, animation, *anim_state);
    auto sampler = std::make_shared<Sampler>();
    sampler->skeleton =
        unwrap(anim::build_skeleton(chosen.skeleton, sampler->warnings, chosen.document));
    sampler->animation = unwrap(anim::build_animation(animation, sampler->skeleton, chosen.targets,
                                                      sampler->warnings, &anim_doc));
    sampler->context.resize(sampler->animation);
    sampler->animation_document = anim_state;
    sampler->targets = chosen.targets;
    if (cast::ConstSkeleton own = animation.skeleton()) sampler->own_skeleton = &own.node();
    return sampler;
}

// The animation resampled as `castkit bake` does: a new Document with one Animation of
// absolute curves (and the animation's own Skeleton, when it has one).
std::shared_ptr<DocState> bake(const Sampler& sampler, float framerate,
                               std::optional<float> tolerance,
                               const anim::Animation* base = nullptr,
                               std::optional<float> base_frame = std::nullopt, bool rig = true) {
    auto state = std::make_shared<DocState>();
    // What the bake may keep grows with the animation's document and the base clip's keys.
    const std::uint64_t input_bytes =
        cast::file_size(sampler.animation_document->document) + (base ? anim::key_bytes(*base) : 0);
    const std::string input_name = name_of(*sampler.animation_document);
    state->document = unwrap(anim::bake(sampler.animation, sampler.skeleton,
                                        {.framerate = framerate,
                                         .tolerance = tolerance,
                                         .skeleton_node = sampler.own_skeleton,
                                         .input_bytes = input_bytes,
                                         .input_name = input_name,
                                         .base = base,
                                         .base_frame = base_frame,
                                         .solve_rig = rig}));
    return state;
}

// `baked`, a bake of `sampler`'s clip played on `model`, with its root motion stripped or
// extracted as `castkit bake --root-motion` does, in the animation file's own axes.
void move_baked_root_motion(const DocPtr& baked, const Sampler& sampler, const Model& model,
                            anim::RootMotion mode, const std::string& root_bone) {
    if (mode == anim::RootMotion::Keep) return;
    const DocState& animations = *sampler.animation_document;
    // The bake holds the animation's own skeleton already; else it played on a Model's.
    const cast::ConstSkeleton played_on =
        sampler.own_skeleton ? cast::ConstSkeleton{}
                             : choose_skeleton(model, cast::ConstAnimation{}, animations).skeleton;
    const FormatInfo* format =
        animations.format.empty() ? &cast_format() : format_by_name(animations.format);
    const scene::DeclaredAxes declared = format ? declared_axes(*format) : scene::DeclaredAxes{};
    unwrap(anim::move_baked_root_motion(baked->document, played_on,
                                        {.mode = mode,
                                         .up = scene::file_up_axis(animations.document, declared),
                                         .root_bone = root_bone,
                                         .name = animations.document.source_name,
                                         .warnings = &baked->read_warnings}));
}

// The animation of `state` that `which` picks, compiled against `sampler`'s skeleton (its curves
// bound by bone name): a base clip to layer an additive one on.
anim::Animation clip_on(const Sampler& sampler, const DocState& state, const py::object& which) {
    const std::vector<cast::ConstAnimation> clips = state.document.animations();
    if (clips.empty()) raise_error(name_of(state) + ": holds no Animation", "python.animation");
    Diagnostics warnings;
    return unwrap(anim::build_animation(clips[pick_animation(clips, which, state)],
                                        sampler.skeleton, sampler.targets, warnings,
                                        &state.document));
}

Typed<types::Strings> names_of(const std::vector<std::string>& names) {
    py::list out;
    for (const std::string& name : names) out.append(to_str(name));
    return out;
}

template <std::size_t N>
py::array_t<float> rows(std::size_t count) {
    return py::array_t<float>({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(N)});
}

void put(float* row, const glm::vec3& v) {
    row[0] = v.x;
    row[1] = v.y;
    row[2] = v.z;
}
void put(float* row, const glm::quat& q) {  // XYZW, as Cast stores quaternions
    row[0] = q.x;
    row[1] = q.y;
    row[2] = q.z;
    row[3] = q.w;
}

Pose sample(Sampler& sampler, float frame, bool looped, bool rig) {
    const std::size_t bones = sampler.skeleton.bone_count();
    std::vector<anim::Transform> locals(bones);
    std::vector<glm::mat4> worlds(bones);
    std::vector<float> weights(sampler.animation.blend_shapes().size());
    std::vector<float> visibility(sampler.animation.visibility_nodes().size());
    anim::SamplingJob sampling{.animation = &sampler.animation,
                               .skeleton = &sampler.skeleton,
                               .frame = frame,
                               .looped = looped,
                               .context = &sampler.context,
                               .locals = locals,
                               .blend_shape_weights = weights,
                               .visibility = visibility,
                               .solve_rig = rig};
    unwrap(sampling.run());
    anim::LocalToWorldJob world{.skeleton = &sampler.skeleton, .locals = locals, .worlds = worlds};
    unwrap(world.run());

    Pose pose;
    pose.frame = frame;
    pose.bone_names = names_of(sampler.skeleton.names());
    py::array_t<std::int32_t> parents(static_cast<py::ssize_t>(bones));
    auto lt = rows<3>(bones), lr = rows<4>(bones), ls = rows<3>(bones);
    auto wt = rows<3>(bones), wr = rows<4>(bones), ws = rows<3>(bones);
    py::array_t<float> wm({static_cast<py::ssize_t>(bones), py::ssize_t{4}, py::ssize_t{4}});
    for (std::size_t i = 0; i < bones; ++i) {
        const auto s = static_cast<py::ssize_t>(i);
        parents.mutable_at(s) = sampler.skeleton.parents()[i];
        put(lt.mutable_data(s, 0), locals[i].translation);
        put(lr.mutable_data(s, 0), locals[i].rotation);
        put(ls.mutable_data(s, 0), locals[i].scale);
        const anim::Transform w = anim::decompose(worlds[i]);
        put(wt.mutable_data(s, 0), w.translation);
        put(wr.mutable_data(s, 0), w.rotation);
        put(ws.mutable_data(s, 0), w.scale);
        // Row r, column c: the matrix that multiplies column vectors (glm stores columns).
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) wm.mutable_at(s, r, c) = worlds[i][c][r];
    }
    pose.parents = parents;
    pose.local_translations = lt;
    pose.local_rotations = lr;
    pose.local_scales = ls;
    pose.world_matrices = wm;
    pose.world_translations = wt;
    pose.world_rotations = wr;
    pose.world_scales = ws;
    for (std::size_t i = 0; i < weights.size(); ++i)
        pose.blend_shapes[to_str(sampler.animation.blend_shapes()[i])] = weights[i];
    for (std::size_t i = 0; i < visibility.size(); ++i)
        pose.visibility[to_str(sampler.animation.visibility_nodes()[i])] =
            anim::is_visible(visibility[i]);
    return pose;
}

// The skeleton of the first Model with one in `state`, for a comparison at rest.
anim::Skeleton rest_skeleton(const DocState& state) {
    for (const cast::ConstModel& model : state.document.models())
        if (cast::ConstSkeleton skeleton = model.skeleton()) {
            Diagnostics warnings;
            return unwrap(anim::build_skeleton(skeleton, warnings, &state.document));
        }
    raise_error(name_of(state) + ": holds no Animation and no Model with a Skeleton",
                "python.animation");
}

Typed<types::Fields> difference_dict(const anim::PoseDifference& d,
                                     const anim::CompareOptions& options) {
    py::list bones;
    for (const anim::BoneDifference& bone : d.bones) {
        py::dict entry;
        entry["name"] = to_str(bone.bone);
        entry["position"] = bone.position;
        entry["position_frame"] = bone.position_frame;
        entry["rotation_degrees"] = bone.rotation;
        entry["rotation_frame"] = bone.rotation_frame;
        entry["first_frame"] =
            bone.first_frame ? py::object(py::float_(*bone.first_frame)) : py::none();
        entry["modes_a"] = bone.modes_a;
        entry["modes_b"] = bone.modes_b;
        bones.append(entry);
    }
    py::dict out;
    out["differs"] = d.differs();
    out["first_frame"] = d.first_frame;
    out["last_frame"] = d.last_frame;
    out["poses"] = d.poses;
    out["position_tolerance"] = options.position_tolerance;
    out["rotation_tolerance_degrees"] = options.rotation_tolerance;
    out["bones"] = bones;
    out["only_in_a"] = names_of(d.only_in_a);
    out["only_in_b"] = names_of(d.only_in_b);
    return out;
}

// `castkit diff` for two documents: their clips on one skeleton (the first's choice), or their
// first skeletons at rest when neither holds an animation.
Typed<types::Fields> diff(const std::shared_ptr<DocState>& a, const std::shared_ptr<DocState>& b,
                          const Model& model, const Which& animation_a, const Which& animation_b,
                          const anim::CompareOptions& options) {
    if (!a || !b) throw py::type_error("two documents are required");
    const bool clip_a = !a->document.animations().empty();
    const bool clip_b = !b->document.animations().empty();
    if (clip_a != clip_b)
        raise_error(name_of(clip_a ? *a : *b) + " holds an Animation and " +
                        name_of(clip_a ? *b : *a) + " does not",
                    "python.animation");
    if (!clip_a)
        return difference_dict(
            unwrap(anim::compare_rests(rest_skeleton(*a), rest_skeleton(*b), options)), options);
    const std::shared_ptr<Sampler> first = make_sampler(model, a, animation_a);
    const std::vector<cast::ConstAnimation> clips = std::as_const(b->document).animations();
    Diagnostics warnings;
    const anim::Animation second =
        unwrap(anim::build_animation(clips[pick_animation(clips, animation_b, *b)], first->skeleton,
                                     first->targets, warnings, &b->document));
    return difference_dict(
        unwrap(anim::compare_clips(first->animation, second, first->skeleton, options)), options);
}

// castkit.Pose, one evaluated frame.
void define_pose(py::module_& m) {
    py::class_<Pose>(m, "Pose",
                     "One evaluated frame: every bone's local and world transform (numpy, "
                     "rotations as XYZW quaternions, world matrices (n, 4, 4) to multiply column "
                     "vectors), blend shape weights and visibility.")
        .def_readonly("frame", &Pose::frame)
        .def_readonly("bone_names", &Pose::bone_names)
        .def_readonly("parents", &Pose::parents, "int32, -1 for a root")
        .def_readonly("local_translations", &Pose::local_translations)
        .def_readonly("local_rotations", &Pose::local_rotations)
        .def_readonly("local_scales", &Pose::local_scales)
        .def_readonly("world_matrices", &Pose::world_matrices)
        .def_readonly("world_translations", &Pose::world_translations)
        .def_readonly("world_rotations", &Pose::world_rotations)
        .def_readonly("world_scales", &Pose::world_scales)
        .def_readonly("blend_shapes", &Pose::blend_shapes, "{name: weight}")
        .def_readonly("visibility", &Pose::visibility, "{name: visible}")
        .def("__repr__", [](const Pose& p) {
            return "<castkit.Pose frame " + std::to_string(p.frame) + ", " +
                   std::to_string(py::len(p.bone_names)) + " bones>";
        });
}

// castkit.Sampler, an animation compiled against a skeleton.
void define_sampler(py::module_& m) {
    py::class_<Sampler, std::shared_ptr<Sampler>>(
        m, "Sampler",
        "An animation compiled against a skeleton (castkit's offline step), sampled at any frame. "
        "The skeleton is the first Model's with one in `model` (a Document, or None: then the "
        "animation's own Skeleton, else the first Model's in its document); `animation` picks "
        "one of the document's animations by index or name (default: the first).")
        .def(py::init(&make_sampler), py::arg("model"), py::arg("animation_document"),
             py::arg("animation") = py::none())
        .def("sample", &sample, py::arg("frame"), py::arg("looped") = false, py::arg("rig") = true,
             "The pose at `frame` (fractional allowed); `looped` wraps it into the key range "
             "when the animation loops; `rig=False` leaves the skeleton's IK handles and "
             "constraints unsolved (`castkit pose --no-rig`)")
        .def(
            "bake",
            [](const Sampler& sampler, float framerate, std::optional<float> tolerance) {
                return bake(sampler, framerate, tolerance);
            },
            py::arg("framerate") = 0.0f, py::arg("tolerance") = py::none(),
            "The animation resampled on every frame (`framerate` per second; 0 keeps its "
            "own) into absolute curves, as `castkit bake` writes it: a new Document. With "
            "`tolerance`, keys are reduced within that error (units; radians for rotations).")
        .def_property_readonly("name", [](const Sampler& s) { return to_str(s.animation.name()); })
        .def_property_readonly("framerate",
                               [](const Sampler& s) { return s.animation.framerate(); })
        .def_property_readonly("looping", [](const Sampler& s) { return s.animation.looping(); })
        .def_property_readonly("start_frame",
                               [](const Sampler& s) { return s.animation.start_frame(); })
        .def_property_readonly("end_frame",
                               [](const Sampler& s) { return s.animation.end_frame(); })
        .def_property_readonly("bone_names",
                               [](const Sampler& s) { return names_of(s.skeleton.names()); })
        .def_property_readonly("parents",
                               [](const Sampler& s) {
                                   return py::array_t<std::int32_t>(
                                       static_cast<py::ssize_t>(s.skeleton.parents().size()),
                                       s.skeleton.parents().data());
                               })
        .def_property_readonly(
            "blend_shapes", [](const Sampler& s) { return names_of(s.animation.blend_shapes()); })
        .def_property_readonly(
            "visibility_nodes",
            [](const Sampler& s) { return names_of(s.animation.visibility_nodes()); })
        .def_property_readonly(
            "notification_tracks",
            [](const Sampler& s) -> Typed<TrackFrames> {
                py::dict out;
                for (const anim::NotificationTrackKeys& track : s.animation.notification_tracks())
                    out[to_str(track.name)] = py::array_t<float>(
                        static_cast<py::ssize_t>(track.frames.size()), track.frames.data());
                return out;
            },
            "{track name: key frames}")
        .def_property_readonly(
            "warnings", [](const Sampler& s) { return diagnostics_list(s.warnings); },
            "What compiling the animation could not apply (curves naming no bone, ...)");
}

// pose, bake and diff: one call each, as the CLI commands of the same names.
void define_functions(py::module_& m) {
    m.def(
        "pose",
        [](const Model& model, const std::shared_ptr<DocState>& animation_document, float frame,
           const Which& animation, bool looped, bool rig) {
            auto sampler = make_sampler(model, animation_document, animation);
            return sample(*sampler, frame, looped, rig);
        },
        py::arg("model"), py::arg("animation_document"), py::arg("frame"),
        py::arg("animation") = py::none(), py::arg("looped") = false, py::arg("rig") = true,
        "Every bone's local and world transform at `frame`, as `castkit pose` prints them "
        "(see Sampler for the arguments).");
    m.def(
        "bake",
        [](const Model& model, const std::shared_ptr<DocState>& animation_document,
           const Which& animation, float framerate, std::optional<float> tolerance,
           const std::shared_ptr<DocState>& base, const Which& base_animation,
           std::optional<float> base_frame, bool rig,
           const Word<types::RootMotionWords>& root_motion_word, const std::string& root_bone) {
            const anim::RootMotion mode = root_motion(root_motion_word, "root_motion");
            const std::shared_ptr<Sampler> sampler =
                make_sampler(model, animation_document, animation);
            std::optional<anim::Animation> under;
            if (base) under = clip_on(*sampler, *base, base_animation);
            DocPtr baked = bake(*sampler, framerate, tolerance, under ? &*under : nullptr,
                                base ? base_frame : std::nullopt, rig);
            move_baked_root_motion(baked, *sampler, model, mode, root_bone);
            return baked;
        },
        py::arg("model"), py::arg("animation_document"), py::arg("animation") = py::none(),
        py::arg("framerate") = 0.0f, py::arg("tolerance") = py::none(),
        py::arg("base") = py::none(), py::arg("base_animation") = py::none(),
        py::arg("base_frame") = py::none(), py::arg("rig") = true, py::kw_only(),
        py::arg("root_motion") = "keep", py::arg("root_bone") = "",
        "The animation baked as `castkit bake` does (see Sampler.bake and Sampler); "
        "`rig=False` bakes the curves alone, as `--no-rig`. With "
        "`base` (a Document), the animation is an additive clip layered on the base clip "
        "(`base_animation` picks it) at the same time of each frame, or on its frame "
        "`base_frame` alone, as `castkit bake --base FILE[@FRAME]`; without it, on the rest pose. "
        "`root_motion` ('keep', 'strip', 'extract') and `root_bone` move the root bone's motion "
        "as `castkit bake --root-motion/--root-bone` do; their warnings are the baked "
        "Document's `warnings`.");
    m.def(
        "diff",
        [](const std::shared_ptr<DocState>& a, const std::shared_ptr<DocState>& b,
           const Model& model, const Which& animation_a, const Which& animation_b, float tolerance,
           float angle, float step, bool rig) {
            return diff(a, b, model, animation_a, animation_b,
                        {.position_tolerance = tolerance,
                         .rotation_tolerance = angle,
                         .step = step,
                         .solve_rig = rig});
        },
        py::arg("a"), py::arg("b"), py::arg("model") = py::none(),
        py::arg("animation_a") = py::none(), py::arg("animation_b") = py::none(),
        py::arg("tolerance") = 1e-3f, py::arg("angle") = 0.01f, py::arg("step") = 1.0f,
        py::arg("rig") = true,
        "Two documents compared pose by pose, as `castkit diff` does (`rig=False` compares the "
        "curves alone, as `--no-rig`): their clips played on one "
        "skeleton (`model`'s, else the first clip's own, else a Model's in `a`), or, when "
        "neither holds an animation, their first skeletons at rest. A dict: differs, "
        "first_frame, last_frame, poses, the tolerances, bones (each: name, position and "
        "position_frame, rotation_degrees and rotation_frame, first_frame past a tolerance or "
        "None, modes_a, modes_b), only_in_a, only_in_b.");
}

}  // namespace

void register_anim(py::module_& m) {
    define_pose(m);
    define_sampler(m);
    define_functions(m);
}

}  // namespace castkit::python
