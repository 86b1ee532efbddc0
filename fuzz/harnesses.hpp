// What every fuzz harness does with one input, as functions that report rather than abort, so
// that the libFuzzer harnesses (fuzz/*_fuzzer.cpp) and the regression test
// (tests/fuzz_regressions_test.cpp) run the same code:
//   check_cast      the Cast reader: dumps, every typed view, a canonical write/read/write;
//   check_reader    any reader: read into Cast, validate, write Cast and read it back, convert
//                   back to the format it came from, write that and read it back;
//   check_validate  the validator, with every rule and in strict mode;
//   check_anim      the animation jobs: every Animation built, sampled, composed and baked;
//   check_export    Cast to glTF: a Cast input exported as .glb, which must read back;
//   check_dmf_json  DMF JSON read as read_json reads it and in one pass: the same model or the
//                   same error, then check_reader, which also writes the document back as the
//                   registry does (faces made while written) and through from_cast's model:
//                   the same text or the same error.
// A clean error at any step is fine; a crash, a sanitizer report, a hang, a huge allocation or a
// broken invariant (Outcome::broken) is a finding.
#pragma once

#include <algorithm>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <castkit/registry.hpp>
#include <castkit/sink.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "read_shim.hpp"

namespace castkit::fuzz {

struct Outcome {
    // The reader's error when the input did not read.
    std::optional<Diagnostic> error;
    // Clean errors of the steps after the read (a conversion back, a bake): fine, and what a
    // regression test checks for when a step learnt to refuse an input.
    Diagnostics refusals;
    // The invariant the input broke; empty when it broke none.
    std::string broken;
};

inline Outcome unread(const Diagnostic& error) {
    Outcome outcome;
    outcome.error = error;
    return outcome;
}

inline Outcome broke(std::string invariant) {
    Outcome outcome;
    outcome.broken = std::move(invariant);
    return outcome;
}

// The work limits the library takes as options (anim::BakeOptions::max_samples,
// gltf::ExportOptions::max_samples), set below their default ceiling of 2^26 so that an input at
// the limit still runs well within the fuzzers' 10 s timeout under the sanitizers. An input
// past the limit is refused as it would be at the default; a missing limit still shows.
inline constexpr std::uint64_t kMaxSamples = std::uint64_t{1} << 22;

// ---- Cast ---------------------------------------------------------------------------------

// Touches every element the typed views expose, so their bounds are exercised too.
inline void walk_mesh(const cast::ConstMesh& mesh) {
    (void)mesh.positions().to_vector();
    (void)mesh.normals().to_vector();
    (void)mesh.tangents().to_vector();
    (void)mesh.faces().to_vector();
    (void)mesh.weight_bones().to_vector();
    (void)mesh.weight_values().to_vector();
    (void)mesh.max_weight_influence();
    (void)mesh.skinning_method();
    for (std::uint32_t layer = 0; layer < std::min(mesh.uv_layer_count(), 8u); ++layer)
        (void)mesh.uv_layer(layer).to_vector();
    for (std::uint32_t layer = 0; layer < std::min(mesh.color_layer_count(), 8u); ++layer)
        (void)mesh.color_layer(layer);
    (void)mesh.material();
}

inline void walk_skeleton(const cast::ConstSkeleton& skeleton) {
    for (const cast::ConstBone& bone : skeleton.bones()) (void)bone.parent_index();
    for (const cast::ConstIKHandle& ik : skeleton.ik_handles()) {
        (void)ik.start_bone();
        (void)ik.end_bone();
        (void)ik.target_bone();
        (void)ik.pole_vector_bone();
        (void)ik.pole_bone();
    }
    for (const cast::ConstConstraint& constraint : skeleton.constraints()) {
        (void)constraint.constraint_bone();
        (void)constraint.target_bone();
        (void)constraint.custom_offset();
    }
}

inline void walk_model(const cast::ConstModel& model) {
    for (const cast::ConstMesh& mesh : model.meshes()) walk_mesh(mesh);
    for (const cast::ConstHair& hair : model.hairs()) {
        (void)hair.segments().to_vector();
        (void)hair.particles().to_vector();
        (void)hair.material();
    }
    if (const cast::ConstSkeleton skeleton = model.skeleton()) walk_skeleton(skeleton);
    for (const cast::ConstBlendShape& shape : model.blend_shapes()) {
        (void)shape.base_shape();
        (void)shape.vertex_indices().to_vector();
        (void)shape.vertex_positions().to_vector();
        (void)shape.target_weight_scale();
    }
    for (const cast::ConstMaterial& material : model.materials()) {
        for (const cast::ConstMaterial::Slot& slot : material.slots()) {
            (void)material.slot_file(slot.name);
            (void)material.slot_color(slot.name);
        }
        for (const cast::ConstColor& color : material.colors()) (void)color.color_space();
    }
}

inline void walk_views(const cast::Document& document) {
    for (const cast::ConstModel& model : document.models()) walk_model(model);
    for (const cast::ConstAnimation& animation : document.animations()) {
        for (const cast::ConstCurve& curve : animation.curves()) {
            (void)curve.key_frames().to_vector();
            (void)curve.float_values().to_vector();
            (void)curve.quaternion_values().to_vector();
            (void)curve.integer_values().to_vector();
            (void)curve.mode();
        }
        for (const cast::ConstCurveModeOverride& mode_override : animation.curve_mode_overrides())
            (void)mode_override.mode();
        for (const cast::ConstNotificationTrack& track : animation.notification_tracks())
            (void)track.key_frames().to_vector();
    }
    for (const cast::ConstRoot& root : document.root_nodes()) {
        for (const cast::ConstInstance& instance : root.instances())
            (void)instance.reference_file();
        for (const cast::ConstMetadata& metadata : root.metadata()) (void)metadata.up_axis();
    }
}

// The Cast reader: any input either fails with a diagnostic or reads into a document that every
// view can walk and that writes out, reads back and writes the same bytes again.
inline Outcome check_cast(cast::Bytes bytes) {
    Diagnostics warnings;
    const auto document = cast::read(bytes, "fuzz.cast", warnings);
    if (!document) return unread(document.error());
    std::string out = cast::dump_text(*document);
    cast::dump_json(*document, out);
    out += cast::info_text(*document, bytes.size());
    json::Writer info(out);
    cast::info_json(*document, bytes.size(), {}, info);
    walk_views(*document);

    auto first = cast::write_to_buffer(*document);
    if (!first) return {};  // a node too large for NodeSize cannot come from a read
    auto again = cast::read(cast::Bytes(*first), "fuzz.cast", warnings);
    if (!again)
        return broke("the Cast writer's output does not read: " + again.error().to_string());
    auto second = cast::write_to_buffer(*again);
    if (!second || *second != *first) return broke("the Cast writer's output is not canonical");
    return {};
}

// ---- Every reader -------------------------------------------------------------------------

// The document written as `format` (any but Cast), or the converter's clean refusal (Cast holds
// more than any format).
inline Expected<std::vector<std::byte>> write_as(std::string_view format,
                                                 const cast::Document& document) {
    Diagnostics warnings;
    auto bytes = [](const auto& written) -> Expected<std::vector<std::byte>> {
        if (!written) return make_error(written.error());
        const auto* data = reinterpret_cast<const std::byte*>(written->data());
        return std::vector<std::byte>(data, data + written->size());
    };
    auto write = [&](const auto& model, auto writer) -> Expected<std::vector<std::byte>> {
        if (!model) return make_error(model.error());
        return bytes(writer(*model));
    };
    if (format == "seanim")
        return write(seanim::from_cast(document, warnings),
                     [](const auto& m) { return seanim::write_to_buffer(m); });
    if (format == "semodel")
        return write(semodel::from_cast(document, warnings),
                     [](const auto& m) { return semodel::write_to_buffer(m); });
    if (format == "k3d")
        return write(k3d::from_cast(document, warnings),
                     [](const auto& m) { return k3d::write_to_buffer(m); });
    if (format == "dmf" || format == "dmf-json") {
        // No texture is read from the disk: the policy's folders are the fuzzer's, not a user's.
        dmf::ConvertOptions options;
        options.side_files.max_size = 0;
        auto model = dmf::from_cast(document, warnings, options);
        if (format == "dmf")
            return write(model, [](const auto& m) { return dmf::write_to_buffer(m); });
        return write(model, [](const auto& m) { return dmf::write_json_text(m); });
    }
    WriteContext context;
    context.name = "fuzz." + std::string(format);
    BufferSink sink;
    if (format != "glb" && format != "gltf") {
        // A format registered at run time (fuzz/off_fuzzer.cpp): through the registry, reading
        // no texture from the disk.
        context.options.side_files.max_size = 0;
        context.options.textures = TextureMode::Reference;
        auto written = formats::write(*format_by_name(format), document, sink, context, warnings);
        if (!written) return make_error(written.error());
        return std::move(sink.bytes);
    }
    // glb and gltf; textures stay references, so nothing is read from the disk.
    gltf::ExportOptions options;
    options.binary = format == "glb";
    options.textures = TextureMode::Reference;
    options.max_samples = kMaxSamples;
    if (auto written = gltf::write(document, sink, context, warnings, options); !written)
        return make_error(written.error());
    return std::move(sink.bytes);
}

// Cast → DMF JSON through the registry (faces made chunk by chunk as they are written,
// src/formats/dmf/cast_faces.hpp) and through from_cast's model with its faces made first:
// a difference in text or error, or empty when they agree.
inline std::string made_faces_disagree(const cast::Document& document) {
    WriteContext context;
    context.options.side_files.max_size = 0;  // no texture read from the disk, as in write_as
    BufferSink made;
    Diagnostics warnings;
    auto streamed = formats::write(*format_by_name("dmf-json"), document, made, context, warnings);
    dmf::ConvertOptions options;
    options.side_files.max_size = 0;
    auto model = dmf::from_cast(document, warnings, options);
    auto text =
        model ? dmf::write_json_text(*model) : Expected<std::string>(make_error(model.error()));
    if (streamed && text) {
        const auto* data = reinterpret_cast<const std::byte*>(text->data());
        if (made.bytes == std::vector<std::byte>(data, data + text->size())) return "";
        return "DMF JSON written with faces made while writing differs from from_cast's";
    }
    if (!streamed && !text && streamed.error().message == text.error().message) return "";
    return "DMF JSON with faces made while writing: " +
           (streamed ? std::string("written") : streamed.error().to_string()) +
           "; from_cast: " + (text ? std::string("written") : text.error().to_string());
}

inline Outcome check_reader(std::string_view format, cast::Bytes bytes) {
    Diagnostics warnings;
    const std::string file = "fuzz." + std::string(format);
    auto document = read_as(format, bytes, file, warnings);
    if (!document) {
        if (document.error().message.empty()) return broke("an error without a message");
        return unread(document.error());
    }
    cast::validate(*document, warnings);
    if (auto written = cast::write_to_buffer(*document)) {
        auto again = cast::read(cast::Bytes(*written), file, warnings);
        if (!again)
            return broke("the Cast writer's output does not read: " + again.error().to_string());
    }
    Outcome outcome;
    if (format == "dmf-json") outcome.broken = made_faces_disagree(*document);
    auto back = write_as(format, *document);
    if (!back) {
        outcome.refusals.push_back(back.error());
        return outcome;
    }
    Diagnostics ignored;
    if (auto again = read_as(format, cast::Bytes(*back), file, ignored); !again)
        outcome.broken = "the " + std::string(format) +
                         " writer's output does not read: " + again.error().to_string();
    return outcome;
}

// ---- Cast to glTF --------------------------------------------------------------------------

// The CLI's main path: a Cast input exported as .glb (textures as references, instances named
// in extras), whose output must read back.
inline Outcome check_export(cast::Bytes bytes) {
    Diagnostics warnings;
    const auto document = cast::read(bytes, "fuzz.cast", warnings);
    if (!document) return unread(document.error());
    Outcome outcome;
    auto glb = write_as("glb", *document);
    if (!glb) {
        outcome.refusals.push_back(glb.error());
        return outcome;
    }
    Diagnostics ignored;
    if (auto again = read_as("glb", cast::Bytes(*glb), "fuzz.glb", ignored); !again)
        outcome.broken = "the glTF exporter's output does not read: " + again.error().to_string();
    return outcome;
}

// ---- The validator ------------------------------------------------------------------------

inline Outcome check_validate(cast::Bytes bytes) {
    Diagnostics warnings;
    auto document = read_as("cast", bytes, "fuzz.cast", warnings);
    if (!document) return unread(document.error());
    cast::validate(*document, warnings);
    Diagnostics strict;
    cast::validate(*document, strict, {.strict = true});
    return {};
}

// ---- The animation jobs -------------------------------------------------------------------

// Builds `source` against `skeleton_node`, samples it at its first, middle and last frame and a
// few outside (looped and held), composes world matrices and bakes it. Clean errors go to
// `refusals`.
inline void play(const cast::ConstAnimation& source, const cast::ConstSkeleton& skeleton_node,
                 const anim::BindingTargets& targets, Diagnostics& refusals) {
    Diagnostics reports;
    auto skeleton = anim::build_skeleton(skeleton_node, reports);
    if (!skeleton) return refusals.push_back(skeleton.error());
    auto animation = anim::build_animation(source, *skeleton, targets, reports);
    if (!animation) return refusals.push_back(animation.error());
    const std::size_t bones = skeleton->bone_count();
    std::vector<anim::Transform> locals(bones);
    std::vector<float> weights(animation->blend_shapes().size());
    std::vector<float> visibility(animation->visibility_nodes().size());
    std::vector<glm::mat4> worlds(bones);
    anim::SamplingContext context(*animation);
    const float start = animation->start_frame(), end = animation->end_frame();
    for (float frame : {start, (start + end) / 2, end, end + 1.5f, -3.0f, 1e30f})
        for (bool looped : {false, true}) {
            anim::SamplingJob sampling{.animation = &*animation,
                                       .skeleton = &*skeleton,
                                       .frame = frame,
                                       .looped = looped,
                                       .context = &context,
                                       .locals = locals,
                                       .blend_shape_weights = weights,
                                       .visibility = visibility};
            anim::LocalToWorldJob world{.skeleton = &*skeleton, .locals = locals, .worlds = worlds};
            auto sampled = sampling.run();
            if (!sampled) return refusals.push_back(sampled.error());
            if (auto composed = world.run(); !composed) return refusals.push_back(composed.error());
        }
    anim::BakeOptions bake;
    bake.tolerance = 0.001f;
    bake.max_samples = kMaxSamples;
    if (auto baked = anim::bake(*animation, *skeleton, bake); !baked)
        refusals.push_back(baked.error());
}

// Every Animation against its own Skeleton, else the first Model's.
inline Outcome check_anim(cast::Bytes bytes) {
    Diagnostics warnings;
    auto document = read_as("cast", bytes, "fuzz.cast", warnings);
    if (!document) return unread(document.error());
    const cast::Document& scene = *document;
    cast::ConstSkeleton model_skeleton;
    anim::BindingTargets targets;
    for (const cast::ConstModel& model : scene.models())
        if (const cast::ConstSkeleton skeleton = model.skeleton()) {
            model_skeleton = skeleton;
            targets = anim::binding_targets(model);
            break;
        }
    Outcome outcome;
    for (const cast::ConstAnimation& animation : scene.animations()) {
        const cast::ConstSkeleton own = animation.skeleton();
        if (own)
            play(animation, own, targets, outcome.refusals);
        else if (model_skeleton)
            play(animation, model_skeleton, targets, outcome.refusals);
    }
    return outcome;
}

// ---- DMF JSON's two ways ---------------------------------------------------------------

// The DMF JSON reader reads in windows and falls back to one pass over the whole document
// (dmf::read_json_in_one_pass): read_json must give what the one pass gives alone, the
// same model or the same error.
inline Outcome check_dmf_json(cast::Bytes bytes) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    Diagnostics warnings;
    auto read = dmf::read_json(text, "fuzz.dmf.json", warnings);
    auto one_pass = dmf::read_json_in_one_pass(text, "fuzz.dmf.json");
    if (read.has_value() != one_pass.has_value())
        return broke(read ? "read_json reads a text the one pass refuses"
                          : "read_json refuses a text the one pass reads");
    if (read && !(*read == *one_pass))
        return broke("read_json and the one pass read different models");
    if (!read && read.error().to_string() != one_pass.error().to_string())
        return broke("read_json and the one pass give different errors");
    return check_reader("dmf-json", bytes);
}

// ---- By name ------------------------------------------------------------------------------

// The harnesses, by the name of their folder in fuzz/corpus and fuzz/regressions.
inline constexpr std::string_view kHarnesses[] = {"cast",     "seanim", "semodel", "dmf",
                                                  "dmf_json", "k3d",    "glb",     "gltf",
                                                  "validate", "anim",   "export"};

inline Outcome check(std::string_view harness, cast::Bytes bytes) {
    if (harness == "cast") return check_cast(bytes);
    if (harness == "validate") return check_validate(bytes);
    if (harness == "anim") return check_anim(bytes);
    if (harness == "export") return check_export(bytes);
    if (harness == "dmf_json") return check_dmf_json(bytes);
    return check_reader(harness, bytes);
}

// The body of every LLVMFuzzerTestOneInput: a broken invariant aborts, which libFuzzer reports.
inline int fuzz_one(std::string_view harness, const std::uint8_t* data, std::size_t size) {
    const Outcome outcome =
        check(harness, cast::Bytes(reinterpret_cast<const std::byte*>(data), size));
    if (!outcome.broken.empty()) {
        std::fprintf(stderr, "%.*s harness: %s\n", int(harness.size()), harness.data(),
                     outcome.broken.c_str());
        std::abort();
    }
    return 0;
}

}  // namespace castkit::fuzz
