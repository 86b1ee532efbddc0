// `castkit info`: what a document holds, summarised through the typed views.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <iterator>
#include <limits>
#include <unordered_map>

namespace castkit::cast {
namespace {

using Out = std::back_insert_iterator<std::string>;

std::string quoted(std::optional<std::string_view> name) {
    return name ? fmt::format("'{}'", *name) : std::string("(unnamed)");
}

std::string human_bytes(std::uint64_t bytes) {
    if (bytes < 1024) return fmt::format("{} B", bytes);
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    while (value >= 1024.0 && unit < 3) {
        value /= 1024.0;
        ++unit;
    }
    return fmt::format("{:.1f} {}", value, units[unit]);
}

// Names of a model's children of one kind by hash: the first of a hash wins, as in the views'
// link resolution. Looking links up here keeps `info` linear in a model with many children.
using NamesByHash = std::unordered_map<std::uint64_t, std::optional<std::string_view>>;
template <class V>
NamesByHash names_by_hash(const std::vector<V>& nodes) {
    NamesByHash names;
    for (const V& node : nodes) names.emplace(node.hash(), node.name());
    return names;
}

std::string linked_name(const NamesByHash& names, std::optional<std::uint64_t> hash) {
    auto it = hash ? names.find(*hash) : names.end();
    return it == names.end() ? std::string("(unresolved)") : quoted(it->second);
}

void mesh_info(std::string& out, const ConstMesh& mesh, const NamesByHash& materials) {
    fmt::format_to(Out(out), "    mesh {}: {} vertices, {} faces, {} UV layers, {} colour layers",
                   quoted(mesh.name()), mesh.vertex_count(), mesh.face_count(),
                   mesh.uv_layer_count(), mesh.color_layer_count());
    if (mesh.normals().size() > 0) out += ", normals";
    if (mesh.tangents().size() > 0) out += ", tangents";
    if (std::uint32_t mi = mesh.max_weight_influence(); mi > 0)
        fmt::format_to(Out(out), ", weights ({} per vertex, {})", mi, mesh.skinning_method_name());
    if (auto hash = mesh.material_hash(); hash && materials.contains(*hash))
        fmt::format_to(Out(out), ", material {}", linked_name(materials, hash));
    out += '\n';
}

void model_info(std::string& out, const ConstModel& model) {
    auto meshes = model.meshes();
    const auto materials = model.materials();
    const NamesByHash material_names = names_by_hash(materials);
    fmt::format_to(Out(out), "  model {}: {} meshes\n", quoted(model.name()), meshes.size());
    for (const ConstMesh& mesh : meshes) mesh_info(out, mesh, material_names);
    for (const ConstHair& hair : model.hairs())
        fmt::format_to(Out(out), "    hair {}: {} strands, {} particles\n", quoted(hair.name()),
                       hair.segments().size(), hair.particles().size());
    const NamesByHash mesh_names = names_by_hash(meshes);
    for (const ConstBlendShape& shape : model.blend_shapes())
        fmt::format_to(Out(out), "    blend shape {}: {} target vertices, base {}\n",
                       quoted(shape.name()), shape.vertex_indices().size(),
                       linked_name(mesh_names, shape.base_shape_hash()));
    if (ConstSkeleton skeleton = model.skeleton())
        fmt::format_to(Out(out), "    skeleton: {} bones, {} IK handles, {} constraints\n",
                       skeleton.bones().size(), skeleton.ik_handles().size(),
                       skeleton.constraints().size());
    for (const ConstMaterial& material : materials)
        fmt::format_to(Out(out), "    material {} ({}): {} slots, {} files, {} colours\n",
                       quoted(material.name()), material.type().value_or("?"),
                       material.slots().size(), material.files().size(), material.colors().size());
}

// `index` counts animations over every root in file order: what `--animation INDEX` picks.
void animation_info(std::string& out, const ConstAnimation& animation, std::size_t index) {
    auto curves = animation.curves();
    std::uint32_t first = std::numeric_limits<std::uint32_t>::max(), last = 0;
    for (const ConstCurve& curve : curves) {
        IndexView frames = curve.key_frames();
        for (std::size_t i = 0; i < frames.size(); ++i) {
            first = std::min(first, frames[i]);
            last = std::max(last, frames[i]);
        }
    }
    fmt::format_to(Out(out), "  animation {} {}: {} curves, {} overrides, {} notification tracks, ",
                   index, quoted(animation.name()), curves.size(),
                   animation.curve_mode_overrides().size(), animation.notification_tracks().size());
    if (first <= last)
        fmt::format_to(Out(out), "frames {}..{}", first, last);
    else
        out += "no keys";
    if (auto fr = animation.framerate()) fmt::format_to(Out(out), " at {} fps", *fr);
    if (animation.looping()) out += ", looping";
    out += '\n';
}

}  // namespace

std::string info_text(const Document& document, std::uint64_t file_bytes, std::string_view format) {
    std::string kind = format == "cast" ? fmt::format("cast v{}", document.version)
                                        : fmt::format("{}, read as Cast", format);
    std::string out = fmt::format("{}: {}, {}, {} roots\n", document.source_name, kind,
                                  human_bytes(file_bytes), document.roots().size());
    // Images read from inside the file (a glb, a DMF) are files of the document as those on
    // disk are: its File nodes name them, and `convert` embeds or writes them.
    for (const EmbeddedFile& file : document.embedded)
        fmt::format_to(Out(out), "embedded file '{}': {}\n", file.name,
                       human_bytes(file.bytes.size()));
    std::size_t index = 0, animation_index = 0;
    for (const ConstRoot& root : document.root_nodes()) {
        fmt::format_to(Out(out), "root {}: {} models, {} animations, {} instances\n", index++,
                       root.models().size(), root.animations().size(), root.instances().size());
        for (const ConstMetadata& meta : root.metadata())
            fmt::format_to(Out(out), "  metadata: author {}, software {}, up {}, scene root {}\n",
                           quoted(meta.author()), quoted(meta.software()),
                           quoted(meta.up_axis_name()), quoted(meta.scene_root()));
        for (const ConstModel& model : root.models()) model_info(out, model);
        for (const ConstAnimation& animation : root.animations())
            animation_info(out, animation, animation_index++);
        for (const ConstInstance& instance : root.instances())
            fmt::format_to(Out(out), "  instance {}: file {}\n", quoted(instance.name()),
                           instance.reference_file() ? quoted(instance.reference_file().path())
                                                     : "(unresolved)");
    }
    return out;
}

}  // namespace castkit::cast
