// libFuzzer harness for the Cast reader: any input must either fail with a diagnostic or read
// into a document that every view can walk and that writes out, reads back and writes the same
// bytes again. A crash, a sanitizer report, a leak, a hang or a huge allocation is a finding.
#include <castkit/cast/document.hpp>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <cstdint>
#include <cstdlib>

namespace {

using namespace castkit::cast;

// Touches every element the typed views expose, so their bounds are exercised too.
void walk_views(const Document& document) {
    for (Model& model : document.models()) {
        for (Mesh& mesh : model.meshes()) {
            (void)mesh.positions().to_vector();
            (void)mesh.faces().to_vector();
            (void)mesh.weight_bones().to_vector();
            for (std::uint32_t layer = 0; layer < std::min(mesh.uv_layer_count(), 8u); ++layer)
                (void)mesh.uv_layer(layer).to_vector();
            for (std::uint32_t layer = 0; layer < std::min(mesh.color_layer_count(), 8u); ++layer)
                (void)mesh.color_layer(layer);
            (void)mesh.material();
        }
        if (Skeleton skeleton = model.skeleton())
            for (IKHandle& ik : skeleton.ik_handles()) (void)ik.start_bone();
        for (BlendShape& shape : model.blend_shapes()) (void)shape.base_shape();
        for (Material& material : model.materials())
            for (const Material::Slot& slot : material.slots()) (void)material.slot_file(slot.name);
    }
    for (Animation& animation : document.animations())
        for (Curve& curve : animation.curves()) {
            (void)curve.key_frames().to_vector();
            (void)curve.float_values().to_vector();
            (void)curve.integer_values().to_vector();
        }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto document = read(Bytes(reinterpret_cast<const std::byte*>(data), size));
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
