// `castkit info`: what a document holds, summarised through the typed views.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <glm/common.hpp>
#include <iterator>
#include <limits>
#include <map>
#include <unordered_map>

#include "english.hpp"

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
    fmt::format_to(Out(out), "    mesh {}: {}, {}, {}, {}", quoted(mesh.name()),
                   count_of(mesh.vertex_count(), "vertex", "vertices"),
                   count_of(mesh.face_count(), "face"), count_of(mesh.uv_layer_count(), "UV layer"),
                   count_of(mesh.color_layer_count(), "colour layer"));
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
    fmt::format_to(Out(out), "  model {}: {}\n", quoted(model.name()),
                   count_of(meshes.size(), "mesh", "meshes"));
    for (const ConstMesh& mesh : meshes) mesh_info(out, mesh, material_names);
    for (const ConstHair& hair : model.hairs())
        fmt::format_to(Out(out), "    hair {}: {}, {}\n", quoted(hair.name()),
                       count_of(hair.segments().size(), "strand"),
                       count_of(hair.particles().size(), "particle"));
    const NamesByHash mesh_names = names_by_hash(meshes);
    for (const ConstBlendShape& shape : model.blend_shapes())
        fmt::format_to(Out(out), "    blend shape {}: {}, base {}\n", quoted(shape.name()),
                       count_of(shape.vertex_indices().size(), "target vertex", "target vertices"),
                       linked_name(mesh_names, shape.base_shape_hash()));
    if (ConstSkeleton skeleton = model.skeleton())
        fmt::format_to(Out(out), "    skeleton: {}, {}, {}\n",
                       count_of(skeleton.bones().size(), "bone"),
                       count_of(skeleton.ik_handles().size(), "IK handle"),
                       count_of(skeleton.constraints().size(), "constraint"));
    for (const ConstMaterial& material : materials)
        fmt::format_to(Out(out), "    material {} ({}): {}, {}, {}\n", quoted(material.name()),
                       material.type().value_or("?"), count_of(material.slots().size(), "slot"),
                       count_of(material.files().size(), "file"),
                       count_of(material.colors().size(), "colour"));
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
    fmt::format_to(Out(out), "  animation {} {}: {}, {}, {}, ", index, quoted(animation.name()),
                   count_of(curves.size(), "curve"),
                   count_of(animation.curve_mode_overrides().size(), "override"),
                   count_of(animation.notification_tracks().size(), "notification track"));
    if (first <= last)
        fmt::format_to(Out(out), "frames {}..{}", first, last);
    else
        out += "no keys";
    if (auto fr = animation.framerate()) fmt::format_to(Out(out), " at {} fps", *fr);
    if (animation.looping()) out += ", looping";
    out += '\n';
}

// The instances of one referenced file: how many, and the box their positions span.
struct PlacedFile {
    std::size_t count = 0;
    glm::vec3 min{std::numeric_limits<float>::max()}, max{std::numeric_limits<float>::lowest()};
};

std::string referenced_file(const ConstInstance& instance) {
    const ConstFile file = instance.reference_file();
    return file ? quoted(file.path()) : std::string("(unresolved)");
}

std::string point(const glm::vec3& p) { return fmt::format("({}, {}, {})", p.x, p.y, p.z); }

// One line per file the root's instances reference, sorted by path: a map of 100,000
// instances of 50 models says 50 lines. An instance without a position is at the origin.
void instance_summary(std::string& out, const std::vector<ConstInstance>& instances) {
    std::map<std::string, PlacedFile> files;
    for (const ConstInstance& instance : instances) {
        PlacedFile& placed = files[referenced_file(instance)];
        const glm::vec3 position = instance.position().value_or(glm::vec3(0));
        ++placed.count;
        placed.min = glm::min(placed.min, position);
        placed.max = glm::max(placed.max, position);
    }
    for (const auto& [file, placed] : files)
        fmt::format_to(Out(out), "  file {}: {}, positions {} to {}\n", file,
                       count_of(placed.count, "instance"), point(placed.min), point(placed.max));
}

}  // namespace

std::string info_text(const Document& document, std::uint64_t file_bytes,
                      std::string_view converted_from, bool every_instance) {
    std::string kind = converted_from.empty() ? fmt::format("cast v{}", document.version)
                                              : fmt::format("{}, read as Cast", converted_from);
    std::string out =
        fmt::format("{}: {}, {}, {}\n", document.source_name, kind, human_bytes(file_bytes),
                    count_of(document.roots().size(), "root"));
    // Images read from inside the file (a glb, a DMF) are files of the document as those on
    // disk are: its File nodes name them, and `convert` embeds or writes them.
    for (const EmbeddedFile& file : document.embedded)
        fmt::format_to(Out(out), "embedded file '{}': {}\n", file.name,
                       human_bytes(file.bytes.size()));
    std::size_t index = 0, animation_index = 0;
    for (const ConstRoot& root : document.root_nodes()) {
        fmt::format_to(Out(out), "root {}: {}, {}, {}\n", index++,
                       count_of(root.models().size(), "model"),
                       count_of(root.animations().size(), "animation"),
                       count_of(root.instances().size(), "instance"));
        for (const ConstMetadata& meta : root.metadata()) {
            fmt::format_to(Out(out), "  metadata: author {}, software {}, up {}, scene root {}",
                           quoted(meta.author()), quoted(meta.software()),
                           quoted(meta.up_axis_name()), quoted(meta.scene_root()));
            // castkit's own `units` (rule 36), only where a file says them.
            if (auto units = meta.units_name()) fmt::format_to(Out(out), ", units '{}'", *units);
            out += '\n';
        }
        for (const ConstModel& model : root.models()) model_info(out, model);
        for (const ConstAnimation& animation : root.animations())
            animation_info(out, animation, animation_index++);
        const std::vector<ConstInstance> instances = root.instances();
        instance_summary(out, instances);
        if (!every_instance) continue;
        for (const ConstInstance& instance : instances)
            fmt::format_to(Out(out), "  instance {}: file {}\n", quoted(instance.name()),
                           referenced_file(instance));
    }
    return out;
}

}  // namespace castkit::cast
