// libFuzzer harness for the Cast reader: any input must either fail with a diagnostic or read
// into a document that every view can walk and that writes out, reads back and writes the same
// bytes again. A crash, a sanitizer report, a leak, a hang or a huge allocation is a finding.
#include <algorithm>
#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <cstdint>
#include <cstdlib>

namespace {

using namespace castkit::cast;

// Touches every element the typed views expose, so their bounds are exercised too.
void walk_mesh(const ConstMesh& mesh) {
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

void walk_model(const ConstModel& model) {
    for (const ConstMesh& mesh : model.meshes()) walk_mesh(mesh);
    for (const ConstHair& hair : model.hairs()) {
        (void)hair.segments().to_vector();
        (void)hair.particles().to_vector();
        (void)hair.material();
    }
    if (const ConstSkeleton skeleton = model.skeleton()) {
        for (const ConstBone& bone : skeleton.bones()) (void)bone.parent_index();
        for (const ConstIKHandle& ik : skeleton.ik_handles()) {
            (void)ik.start_bone();
            (void)ik.end_bone();
            (void)ik.target_bone();
            (void)ik.pole_vector_bone();
            (void)ik.pole_bone();
        }
        for (const ConstConstraint& constraint : skeleton.constraints()) {
            (void)constraint.constraint_bone();
            (void)constraint.target_bone();
            (void)constraint.custom_offset();
        }
    }
    for (const ConstBlendShape& shape : model.blend_shapes()) {
        (void)shape.base_shape();
        (void)shape.vertex_indices().to_vector();
        (void)shape.vertex_positions().to_vector();
        (void)shape.target_weight_scale();
    }
    for (const ConstMaterial& material : model.materials()) {
        for (const ConstMaterial::Slot& slot : material.slots()) {
            (void)material.slot_file(slot.name);
            (void)material.slot_color(slot.name);
        }
        for (const ConstColor& color : material.colors()) (void)color.color_space();
    }
}

void walk_views(const Document& document) {
    for (const ConstModel& model : document.models()) walk_model(model);
    for (const ConstAnimation& animation : document.animations()) {
        for (const ConstCurve& curve : animation.curves()) {
            (void)curve.key_frames().to_vector();
            (void)curve.float_values().to_vector();
            (void)curve.quaternion_values().to_vector();
            (void)curve.integer_values().to_vector();
            (void)curve.mode();
        }
        for (const ConstCurveModeOverride& override : animation.curve_mode_overrides())
            (void)override.mode();
        for (const ConstNotificationTrack& track : animation.notification_tracks())
            (void)track.key_frames().to_vector();
    }
    for (const ConstRoot& root : document.root_nodes()) {
        for (const ConstInstance& instance : root.instances()) (void)instance.reference_file();
        for (const ConstMetadata& metadata : root.metadata()) (void)metadata.up_axis();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto document = read(Bytes(reinterpret_cast<const std::byte*>(data), size));
    if (!document) return 0;
    std::string out = dump_text(*document);
    dump_json(*document, out);
    out += info_text(*document, size);
    walk_views(*document);

    auto first = write_to_buffer(*document);
    if (!first) return 0;  // a node too large for NodeSize cannot come from a read
    auto again = read(Bytes(*first));
    if (!again) std::abort();  // the writer produced a file the reader refuses
    auto second = write_to_buffer(*again);
    if (!second || *second != *first) std::abort();  // the writer's output is not canonical
    return 0;
}
