// `castkit info`: what a document holds, summarised through the typed views.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/json.hpp>
#include <cctype>
#include <cmath>
#include <glm/common.hpp>
#include <glm/gtc/quaternion.hpp>
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

std::string point(const glm::vec3& p) { return fmt::format("({}, {}, {})", p.x, p.y, p.z); }

// An axis-aligned box of points; empty until a finite point is added.
struct Box {
    glm::vec3 min{std::numeric_limits<float>::max()}, max{std::numeric_limits<float>::lowest()};

    bool empty() const { return min.x > max.x; }
    void add(const glm::vec3& p) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return;
        min = glm::min(min, p);
        max = glm::max(max, p);
    }
    void add(const Box& box) {
        if (!box.empty()) add(box.min), add(box.max);
    }
};

std::string box_text(const Box& box) {
    return fmt::format("{} to {}, size {}", point(box.min), point(box.max),
                       point(box.max - box.min));
}

// The Model's own placement (p, r, s; a missing one is the identity), as a unit quaternion.
glm::quat model_rotation(const ConstModel& model) {
    const glm::vec4 r = model.rotation().value_or(glm::vec4(0, 0, 0, 1));
    const glm::quat q(r.w, r.x, r.y, r.z);
    const float length = glm::length(q);
    return std::isfinite(length) && length > 0 ? q / length : glm::quat(1, 0, 0, 0);
}

// The box of the model's mesh positions where the Model places them in the file's scene: the
// corners of their own box moved by its scale, rotation and position. O(vertices).
Box model_bounds(const ConstModel& model) {
    Box own;
    for (const ConstMesh& mesh : model.meshes()) {
        const ArrayView<glm::vec3> positions = mesh.positions();
        for (std::size_t i = 0; i < positions.size(); ++i) own.add(positions[i]);
    }
    if (own.empty()) return own;
    const glm::vec3 position = model.position().value_or(glm::vec3(0));
    const glm::vec3 scale = model.scale().value_or(glm::vec3(1));
    const glm::quat rotation = model_rotation(model);
    Box placed;
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 c((corner & 1) ? own.max.x : own.min.x,
                          (corner & 2) ? own.max.y : own.min.y,
                          (corner & 4) ? own.max.z : own.min.z);
        placed.add(position + rotation * (scale * c));
    }
    return placed;
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
    fmt::format_to(Out(out), "  model {}: {}", quoted(model.name()),
                   count_of(meshes.size(), "mesh", "meshes"));
    if (const Box box = model_bounds(model); !box.empty())
        fmt::format_to(Out(out), ", bounds {}", box_text(box));
    out += '\n';
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

// The values a Metadata holds, each named; "(none)" when it holds none of them.
void metadata_info(std::string& out, const ConstMetadata& meta) {
    const std::pair<const char*, std::optional<std::string_view>> values[] = {
        {"author", meta.author()},
        {"software", meta.software()},
        {"up", meta.up_axis_name()},
        {"scene root", meta.scene_root()},
        {"units", meta.units_name()}};  // castkit's own (docs/decisions.md rule 36)
    std::string said;
    for (const auto& [what, value] : values)
        if (value)
            fmt::format_to(Out(said), "{}{} {}", said.empty() ? "" : ", ", what, quoted(value));
    fmt::format_to(Out(out), "  metadata: {}\n", said.empty() ? "(none)" : said);
}

// `index` counts animations over every root in file order: what `--animation INDEX` picks.
// The first and last frame any curve keys; nullopt without keys. O(keys).
std::optional<std::pair<std::uint32_t, std::uint32_t>> keyed_frames(
    const ConstAnimation& animation) {
    std::uint32_t first = std::numeric_limits<std::uint32_t>::max(), last = 0;
    for (const ConstCurve& curve : animation.curves()) {
        IndexView frames = curve.key_frames();
        for (std::size_t i = 0; i < frames.size(); ++i) {
            first = std::min(first, frames[i]);
            last = std::max(last, frames[i]);
        }
    }
    if (first > last) return std::nullopt;
    return std::pair(first, last);
}

void animation_info(std::string& out, const ConstAnimation& animation, std::size_t index) {
    fmt::format_to(Out(out), "  animation {} {}: {}, {}, {}, ", index, quoted(animation.name()),
                   count_of(animation.curves().size(), "curve"),
                   count_of(animation.curve_mode_overrides().size(), "override"),
                   count_of(animation.notification_tracks().size(), "notification track"));
    if (auto frames = keyed_frames(animation))
        fmt::format_to(Out(out), "frames {}..{}", frames->first, frames->second);
    else
        out += "no keys";
    if (auto fr = animation.framerate()) fmt::format_to(Out(out), " at {} fps", *fr);
    if (animation.looping()) out += ", looping";
    out += '\n';
}

// The instances of one referenced file: how many, and the box their positions span.
struct PlacedFile {
    std::size_t count = 0;
    Box positions;
};

// The path of the File an instance references; nullopt when it resolves to none.
std::optional<std::string_view> referenced_path(const ConstInstance& instance) {
    const ConstFile file = instance.reference_file();
    return file ? file.path() : std::nullopt;
}

std::string referenced_file(std::optional<std::string_view> path) {
    return path ? quoted(path) : std::string("(unresolved)");
}

// The root's instances by the path of the file they reference (none: it resolves to no File),
// in path order: a map of 100,000 instances of 50 models is 50 entries. An instance without a
// position is at the origin.
using PlacedFiles = std::map<std::optional<std::string_view>, PlacedFile>;
PlacedFiles placed_files(const std::vector<ConstInstance>& instances) {
    PlacedFiles files;
    for (const ConstInstance& instance : instances) {
        PlacedFile& placed = files[referenced_path(instance)];
        ++placed.count;
        placed.positions.add(instance.position().value_or(glm::vec3(0)));
    }
    return files;
}

// One line per file the root's instances reference.
void instance_summary(std::string& out, const std::vector<ConstInstance>& instances) {
    for (const auto& [path, placed] : placed_files(instances))
        fmt::format_to(Out(out), "  file {}: {}, positions {} to {}\n", referenced_file(path),
                       count_of(placed.count, "instance"), point(placed.positions.min),
                       point(placed.positions.max));
}

// The box of every Model where it is placed and of every Instance's position (where a map places
// the file it references, which is not read here). O(vertices + instances).
Box scene_bounds(const Document& document) {
    Box box;
    for (const ConstRoot& root : document.root_nodes()) {
        for (const ConstModel& model : root.models()) box.add(model_bounds(model));
        for (const ConstInstance& instance : root.instances())
            box.add(instance.position().value_or(glm::vec3(0)));
    }
    return box;
}

// Where the file's up axis comes from: its Metadata's `up`, else its format's definition, else
// nothing says (+Y assumed, as `convert --up` assumes it).
struct UpAxis {
    Axis axis = Axis::Y;
    std::string_view from = "assumed";  // "metadata", "format" or "assumed"
};

UpAxis up_axis(const Document& document, const InfoOptions& options) {
    for (const ConstRoot& root : document.root_nodes())
        for (const ConstMetadata& metadata : root.metadata())
            if (auto up = metadata.up_axis(); up && *up) return {**up, "metadata"};
    if (options.format_up) return {*options.format_up, "format"};
    return {};
}

// The units of the file's lengths: its Metadata's `units` (rule 36), else its format's
// definition; empty when nothing says.
struct FileUnits {
    std::string_view name{};
    std::string_view from = "assumed";  // "metadata", "format" or "assumed"
};

FileUnits file_units(const Document& document, const InfoOptions& options) {
    for (const ConstRoot& root : document.root_nodes())
        for (const ConstMetadata& metadata : root.metadata())
            if (auto units = metadata.units(); units && *units)
                return {units_name(**units), "metadata"};
    if (!options.format_units.empty()) return {options.format_units, "format"};
    return {};
}

// "+Z up (its Metadata), units not stated": what the bounds are measured in.
std::string axes_text(const Document& document, const InfoOptions& options) {
    const UpAxis up = up_axis(document, options);
    std::string axis(axis_name(up.axis));
    for (char& c : axis) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string from = up.from == "metadata" ? "its Metadata"
                             : up.from == "format" ? fmt::format("as {} defines", options.format)
                                                   : std::string("nothing says; assumed");
    const FileUnits said = file_units(document, options);
    const std::string units =
        said.from == "metadata" ? fmt::format("units {} (its Metadata)", said.name)
        : said.from == "format" ? fmt::format("units {} (as {} defines)", said.name, options.format)
                                : std::string("units not stated");
    return fmt::format("+{} up ({}), {}", axis, from, units);
}

// --- info_json: the same values, in the schema docs/cli.md gives ---------------------------

void optional_string(json::Writer& out, std::optional<std::string_view> text) {
    if (text)
        out.string(*text);
    else
        out.null();
}

void vector_json(json::Writer& out, const glm::vec3& v) {
    out.begin_array();
    for (int i = 0; i < 3; ++i) out.number(v[i]);
    out.end_array();
}

void box_json(json::Writer& out, const Box& box) {
    if (box.empty()) return out.null();
    out.begin_object();
    out.key("min");
    vector_json(out, box.min);
    out.key("max");
    vector_json(out, box.max);
    out.key("size");
    vector_json(out, box.max - box.min);
    out.end_object();
}

void count_json(json::Writer& out, std::string_view name, std::uint64_t count) {
    out.key(name);
    out.unsigned_integer(count);
}

void mesh_json(json::Writer& out, const ConstMesh& mesh, const NamesByHash& materials) {
    out.begin_object();
    out.key("name");
    optional_string(out, mesh.name());
    count_json(out, "vertices", mesh.vertex_count());
    count_json(out, "faces", mesh.face_count());
    count_json(out, "uv_layers", mesh.uv_layer_count());
    count_json(out, "colour_layers", mesh.color_layer_count());
    count_json(out, "weights_per_vertex", mesh.max_weight_influence());
    out.key("material");
    const auto hash = mesh.material_hash();
    const auto found = hash ? materials.find(*hash) : materials.end();
    optional_string(out, found == materials.end() ? std::nullopt : found->second);
    out.end_object();
}

void material_json(json::Writer& out, const ConstMaterial& material) {
    out.begin_object();
    out.key("name");
    optional_string(out, material.name());
    out.key("type");
    optional_string(out, material.type());
    count_json(out, "slots", material.slots().size());
    count_json(out, "files", material.files().size());
    count_json(out, "colours", material.colors().size());
    out.end_object();
}

void model_json(json::Writer& out, const ConstModel& model) {
    const auto materials = model.materials();
    const NamesByHash material_names = names_by_hash(materials);
    out.begin_object();
    out.key("name");
    optional_string(out, model.name());
    out.key("bounds");
    box_json(out, model_bounds(model));
    out.key("meshes");
    out.begin_array();
    for (const ConstMesh& mesh : model.meshes()) mesh_json(out, mesh, material_names);
    out.end_array();
    count_json(out, "hairs", model.hairs().size());
    count_json(out, "blend_shapes", model.blend_shapes().size());
    out.key("skeleton");
    if (ConstSkeleton skeleton = model.skeleton()) {
        out.begin_object();
        count_json(out, "bones", skeleton.bones().size());
        count_json(out, "ik_handles", skeleton.ik_handles().size());
        count_json(out, "constraints", skeleton.constraints().size());
        out.end_object();
    } else {
        out.null();
    }
    out.key("materials");
    out.begin_array();
    for (const ConstMaterial& material : materials) material_json(out, material);
    out.end_array();
    out.end_object();
}

void animation_json(json::Writer& out, const ConstAnimation& animation, std::size_t index) {
    out.begin_object();
    count_json(out, "index", index);
    out.key("name");
    optional_string(out, animation.name());
    count_json(out, "curves", animation.curves().size());
    count_json(out, "overrides", animation.curve_mode_overrides().size());
    count_json(out, "notification_tracks", animation.notification_tracks().size());
    out.key("frames");
    if (auto frames = keyed_frames(animation)) {
        out.begin_array();
        out.unsigned_integer(frames->first);
        out.unsigned_integer(frames->second);
        out.end_array();
    } else {
        out.null();
    }
    out.key("framerate");
    if (auto fr = animation.framerate())
        out.number(*fr);
    else
        out.null();
    out.key("looping");
    out.boolean(animation.looping());
    out.end_object();
}

void metadata_json(json::Writer& out, const ConstMetadata& meta) {
    out.begin_object();
    const std::pair<const char*, std::optional<std::string_view>> values[] = {
        {"author", meta.author()},
        {"software", meta.software()},
        {"up", meta.up_axis_name()},
        {"scene_root", meta.scene_root()},
        {"units", meta.units_name()}};
    for (const auto& [name, value] : values)
        if (value) out.key(name), out.string(*value);
    out.end_object();
}

void instances_json(json::Writer& out, const std::vector<ConstInstance>& instances,
                    bool every_instance) {
    out.key("instance_files");
    out.begin_array();
    for (const auto& [path, placed] : placed_files(instances)) {
        out.begin_object();
        out.key("file");
        optional_string(out, path);
        count_json(out, "instances", placed.count);
        out.key("positions");
        box_json(out, placed.positions);
        out.end_object();
    }
    out.end_array();
    if (!every_instance) return;
    out.key("instances");
    out.begin_array();
    for (const ConstInstance& instance : instances) {
        out.begin_object();
        out.key("name");
        optional_string(out, instance.name());
        out.key("file");
        optional_string(out, referenced_path(instance));
        out.end_object();
    }
    out.end_array();
}

void root_json(json::Writer& out, const ConstRoot& root, std::size_t& animation_index,
               bool every_instance) {
    out.begin_object();
    out.key("metadata");
    out.begin_array();
    for (const ConstMetadata& meta : root.metadata()) metadata_json(out, meta);
    out.end_array();
    out.key("models");
    out.begin_array();
    for (const ConstModel& model : root.models()) model_json(out, model);
    out.end_array();
    out.key("animations");
    out.begin_array();
    for (const ConstAnimation& animation : root.animations())
        animation_json(out, animation, animation_index++);
    out.end_array();
    instances_json(out, root.instances(), every_instance);
    out.end_object();
}

}  // namespace

void info_json(const Document& document, std::uint64_t file_bytes, const InfoOptions& options,
               json::Writer& out) {
    out.begin_object();
    out.key("file");
    out.string(document.source_name);
    out.key("format");
    out.string(options.converted_from.empty() ? std::string_view("cast") : options.converted_from);
    count_json(out, "bytes", file_bytes);
    const UpAxis up = up_axis(document, options);
    out.key("up");
    out.string(axis_name(up.axis));
    out.key("up_from");
    out.string(up.from);
    const FileUnits units = file_units(document, options);
    out.key("units");
    optional_string(out, units.name.empty() ? std::nullopt : std::optional(units.name));
    out.key("bounds");
    box_json(out, scene_bounds(document));
    out.key("embedded_files");
    out.begin_array();
    for (const EmbeddedFile& file : document.embedded) {
        out.begin_object();
        out.key("name");
        out.string(file.name);
        count_json(out, "bytes", file.bytes.size());
        out.end_object();
    }
    out.end_array();
    out.key("roots");
    out.begin_array();
    std::size_t animation_index = 0;
    for (const ConstRoot& root : document.root_nodes())
        root_json(out, root, animation_index, options.every_instance);
    out.end_array();
    out.end_object();
}

std::string info_text(const Document& document, std::uint64_t file_bytes,
                      const InfoOptions& options) {
    std::string kind = options.converted_from.empty()
                           ? fmt::format("cast v{}", document.version)
                           : fmt::format("{}, read as Cast", options.converted_from);
    std::string out =
        fmt::format("{}: {}, {}, {}\n", document.source_name, kind, human_bytes(file_bytes),
                    count_of(document.roots().size(), "root"));
    if (const Box box = scene_bounds(document); !box.empty())
        fmt::format_to(Out(out), "bounds {}; {}\n", box_text(box), axes_text(document, options));
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
        for (const ConstMetadata& meta : root.metadata()) metadata_info(out, meta);
        for (const ConstModel& model : root.models()) model_info(out, model);
        for (const ConstAnimation& animation : root.animations())
            animation_info(out, animation, animation_index++);
        const std::vector<ConstInstance> instances = root.instances();
        instance_summary(out, instances);
        if (!options.every_instance) continue;
        for (const ConstInstance& instance : instances)
            fmt::format_to(Out(out), "  instance {}: file {}\n", quoted(instance.name()),
                           referenced_file(referenced_path(instance)));
    }
    return out;
}

}  // namespace castkit::cast
