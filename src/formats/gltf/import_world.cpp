// Maps read back (docs/gltf.md, "Maps"): a glb that draws its meshes many times becomes a Cast
// world, one Instance per draw beside one model file per distinct mesh, so that what the import
// holds grows with the file and not with its draws; read into one document instead, its copies
// are held against the file's decode budget.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/document.hpp>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <utility>

#include "../../platform/platform.hpp"
#include "import_internal.hpp"
#include "io/side_outputs.hpp"
#include "problem.hpp"
#include "up_axis.hpp"

namespace castkit::gltf::detail {
namespace {

bool identity_within_rounding(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::abs(m[c][r] - (c == r ? 1.0f : 0.0f)) > 1e-6f) return false;
    return true;
}

bool has_gpu_instancing(const tinygltf::Node& node) {
    return node.extensions.find("EXT_mesh_gpu_instancing") != node.extensions.end();
}

bool carries_instance(const tinygltf::Node& node) {
    return node.extras.IsObject() && node.extras.Has("castkit_instance");
}

// Whether castkit's export marked `node` as an Instance: on the node, or, for a node drawing
// one model file's mesh, on that mesh (said once for all its instances).
bool marks_instance(const tinygltf::Model& gltf, const tinygltf::Node& node) {
    if (carries_instance(node)) return true;
    if (node.mesh < 0 || static_cast<std::size_t>(node.mesh) >= gltf.meshes.size()) return false;
    const tinygltf::Value& extras = gltf.meshes[static_cast<std::size_t>(node.mesh)].extras;
    return extras.IsObject() && extras.Has("castkit_instance");
}

// The instances an EXT_mesh_gpu_instancing node draws, from its accessors' counts (the largest;
// the import checks that they agree); 1 without the extension. O(1).
std::size_t gpu_instance_count(const tinygltf::Model& gltf, const tinygltf::Node& node) {
    const auto found = node.extensions.find("EXT_mesh_gpu_instancing");
    if (found == node.extensions.end() || !found->second.Has("attributes")) return 1;
    const tinygltf::Value& attributes = found->second.Get("attributes");
    std::size_t count = 0;
    for (const char* name : {"TRANSLATION", "ROTATION", "SCALE"}) {
        if (!attributes.Has(name) || !attributes.Get(name).IsInt()) continue;
        const int index = attributes.Get(name).Get<int>();
        if (index >= 0 && static_cast<std::size_t>(index) < gltf.accessors.size())
            count = std::max(count, gltf.accessors[static_cast<std::size_t>(index)].count);
    }
    return count == 0 ? 1 : count;
}

std::size_t saturating_add(std::size_t a, std::size_t b) {
    return a > std::numeric_limits<std::size_t>::max() - b ? std::numeric_limits<std::size_t>::max()
                                                           : a + b;
}

std::size_t saturating_multiply(std::size_t a, std::size_t b) {
    return b != 0 && a > std::numeric_limits<std::size_t>::max() / b
               ? std::numeric_limits<std::size_t>::max()
               : a * b;
}

// The TRS of `matrix`, or nullopt when no TRS makes it again (shear): decomposed and composed
// back, within float rounding of the matrix's largest entry.
std::optional<anim::Transform> exact_trs(const glm::mat4& matrix) {
    const anim::Transform trs = anim::decompose(matrix);
    const glm::mat4 again = anim::to_matrix(trs);
    float largest = 1.0f;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) largest = std::max(largest, std::abs(matrix[c][r]));
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (std::abs(again[c][r] - matrix[c][r]) > 1e-4f * largest) return std::nullopt;
    return trs;
}

// `name` less the ".<ordinal>" castkit's export adds to an instance node's name ("tree.0042"),
// which the next export adds again.
std::string without_ordinal(const std::string& name) {
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == name.size() ||
        name.find_first_not_of("0123456789", dot + 1) != std::string::npos)
        return name;
    return name.substr(0, dot);
}

// The names castkit's export keeps for the instances of a GPU-instanced node
// (extras.castkit_instance.names, when they are not all the node's), else none.
std::vector<std::string> gpu_instance_names(const tinygltf::Node& node, std::size_t count) {
    std::vector<std::string> names;
    if (!carries_instance(node)) return names;
    const tinygltf::Value& instance = node.extras.Get("castkit_instance");
    if (!instance.IsObject() || !instance.Has("names")) return names;
    const tinygltf::Value& listed = instance.Get("names");
    if (!listed.IsArray() || listed.ArrayLen() != count) return names;
    for (std::size_t k = 0; k < count; ++k) {
        const tinygltf::Value& name = listed.Get(static_cast<int>(k));
        names.push_back(name.IsString() ? name.Get<std::string>() : std::string());
    }
    return names;
}

}  // namespace

std::map<int, std::size_t> Importer::mesh_draws(bool world) const {
    std::map<int, std::size_t> draws;
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i) {
        const tinygltf::Node& node = gltf.nodes[i];
        if (node.mesh < 0 || !in_scene[i] || (world && instanced(i))) continue;
        // A skinned node keeps one mesh (instance_transforms).
        const std::size_t count = node.skin >= 0 ? 1 : gpu_instance_count(gltf, node);
        draws[node.mesh] = saturating_add(draws[node.mesh], count);
    }
    return draws;
}

std::size_t Importer::copies_values(const std::map<int, std::size_t>& draws) const {
    std::size_t values = 0;
    for (const auto& [mesh, count] : draws)
        values = saturating_add(values, saturating_multiply(copy_values(mesh), count - 1));
    return values;
}

bool Importer::is_map() const {
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i)
        if (in_scene[i] && (marks_instance(gltf, gltf.nodes[i]) ||
                            (gltf.nodes[i].mesh >= 0 && has_gpu_instancing(gltf.nodes[i]))))
            return true;
    return copies_values(mesh_draws(false)) > decode_budget();
}

Expected<void> Importer::check_copies(bool world) const {
    const std::map<int, std::size_t> draws = mesh_draws(world);
    const std::size_t values = copies_values(draws), budget = decode_budget();
    if (values <= budget) return {};
    std::size_t total = 0;
    for (const auto& [mesh, count] : draws) total = saturating_add(total, count);
    return make_error(problem(
        file, "/nodes",
        fmt::format("the scene draws its {} meshes {} times; one Cast document copies a mesh per "
                    "draw, {} values, more than the {} this file allows ({} per buffer byte plus "
                    "{}); convert it to a .cast file to read it as a world of Instances",
                    draws.size(), total, values, budget, kDecodeBytesFactor, kDecodeConstant),
        Severity::Error, "gltf.instances-budget"));
}

bool Importer::instanced(std::size_t i) const {
    return gltf.nodes[i].skin < 0 && !rigid_bones.contains(static_cast<int>(i));
}

namespace {

// `turned` (a root Instance's TRS as castkit's export turned it from `up`) as it stood: the
// translation's axes swapped back exactly, the turn taken out of the rotation.
anim::Transform unturned(anim::Transform turned, std::string_view up) {
    turned.translation = detail::turned_from_y_up(turned.translation, up);
    turned.rotation = glm::normalize(glm::inverse(detail::up_turn(up)) * turned.rotation);
    return turned;
}

}  // namespace

void Importer::turn_back_root_instances() {
    if (gltf.scenes.empty()) return;
    const int shown = gltf.defaultScene >= 0 ? gltf.defaultScene : 0;
    if (static_cast<std::size_t>(shown) >= gltf.scenes.size()) return;
    const tinygltf::Value& extras = gltf.scenes[static_cast<std::size_t>(shown)].extras;
    if (!extras.IsObject() || !extras.Has("castkit_up_axis")) return;
    const tinygltf::Value& axis = extras.Get("castkit_up_axis");
    if (!axis.IsString() || (axis.Get<std::string>() != "z" && axis.Get<std::string>() != "x"))
        return;
    root_turn = axis.Get<std::string>();
    if (up_node < 0) up_axis = root_turn;
    const glm::mat4 back = glm::mat4_cast(glm::inverse(detail::up_turn(root_turn)));
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i)
        if (turned_root(i)) locals[i] = back * locals[i];
}

bool Importer::turned_root(std::size_t i) const {
    return !root_turn.empty() && parents[i] < 0 && static_cast<int>(i) != up_node &&
           marks_instance(gltf, gltf.nodes[i]);
}

std::optional<anim::Transform> Importer::world_trs(std::size_t i) const {
    // The one node of the chain whose local transform is not the identity, when there is one:
    // its TRS as the file stores it, with no rounding from matrices.
    int carrier = -1;
    for (int n = static_cast<int>(i); n >= 0 && n != up_node;
         n = parents[static_cast<std::size_t>(n)]) {
        if (identity_within_rounding(locals[static_cast<std::size_t>(n)])) continue;
        if (carrier >= 0) return exact_trs(worlds[i]);
        carrier = n;
    }
    if (carrier < 0) return anim::Transform{};
    const tinygltf::Node& node = gltf.nodes[static_cast<std::size_t>(carrier)];
    if (!node.matrix.empty()) return exact_trs(worlds[i]);
    const anim::Transform stored = node_trs(node);
    return turned_root(static_cast<std::size_t>(carrier)) ? unturned(stored, root_turn) : stored;
}

std::string Importer::instance_name(std::size_t i) const {
    for (int n = static_cast<int>(i); n >= 0; n = parents[static_cast<std::size_t>(n)])
        if (marks_instance(gltf, gltf.nodes[static_cast<std::size_t>(n)]))
            return without_ordinal(gltf.nodes[static_cast<std::size_t>(n)].name);
    const tinygltf::Node& node = gltf.nodes[i];
    if (!node.name.empty()) return node.name;
    const std::string& mesh = gltf.meshes[static_cast<std::size_t>(node.mesh)].name;
    return mesh.empty() ? fmt::format("mesh{}", node.mesh) : mesh;
}

Expected<std::string> Importer::model_file(std::size_t i) {
    const int mesh = gltf.nodes[i].mesh;
    if (auto it = model_files.find(mesh); it != model_files.end()) return it->second;
    const std::string& mesh_name = gltf.meshes[static_cast<std::size_t>(mesh)].name;
    const std::string name = mesh_name.empty() ? fmt::format("mesh{}", mesh) : mesh_name;
    cast::Document document;
    cast::Root root = document.add_root();
    ModelBuild build;
    build.model = root.add_model();
    build.model.set_name(name);
    // The model file is built as one more Model, in mesh space, with what a glTF export
    // restores (material settings) carried in its own Metadata.
    builds.push_back(std::move(build));
    nlohmann::json world_carried = std::exchange(carried, nlohmann::json::object());
    MeshPlacement placement;
    placement.build = builds.size() - 1;
    const Expected<void> imported = import_mesh_node(placement, i);
    builds.pop_back();
    std::swap(world_carried, carried);
    if (!imported) return make_error(imported.error());
    if (!world_carried.empty()) root.add_metadata().set_string("gltf", world_carried.dump());
    auto bytes = cast::write_to_buffer(document);
    if (!bytes) return make_error(bytes.error());
    // `<world stem>_<mesh name>.cast`; a second mesh of that name adds its index.
    std::string wanted = fmt::format(
        "{}_{}", file_name_part(platform::utf8_of(world_output.stem())), file_name_part(name));
    if (!model_names.insert(wanted).second) wanted += fmt::format("_{}", mesh);
    const std::filesystem::path path =
        world_output.parent_path() / platform::path_from_utf8(wanted + ".cast");
    auto written = side_outputs->write(path, std::as_bytes(std::span(*bytes)));
    if (!written) return make_error(written.error());
    if (written->renamed)
        warn(fmt::format("/meshes/{}", mesh),
             formats::renamed_message(fmt::format("model file of mesh '{}'", name), path, *written),
             formats::kRenamedRule);
    return model_files[mesh] = platform::utf8_of(written->path.filename());
}

Expected<void> Importer::add_instances(cast::Root& root, std::size_t i) {
    auto file = model_file(i);
    if (!file) return make_error(file.error());
    auto transforms = gpu_instances(i);
    if (!transforms) return make_error(transforms.error());
    const std::string name = instance_name(i);
    auto add = [&](const std::string& instance_name, std::optional<anim::Transform> trs,
                   const glm::mat4& matrix) {
        if (!trs) {
            if (sheared.instances++ == 0) sheared.first = static_cast<int>(i);
            trs = anim::decompose(matrix);
        }
        cast::Instance instance = root.add_instance();
        if (!instance_name.empty()) instance.set_name(instance_name);
        instance.set_position(trs->translation);
        const glm::quat q = trs->rotation;
        instance.set_rotation(glm::vec4(q.x, q.y, q.z, q.w));
        instance.set_scale(trs->scale);
        instance.set_reference_file(instance.add_file(*file));
        ++world_instances;
    };
    if (transforms->empty()) {
        add(name, world_trs(i), worlds[i]);
        return {};
    }
    // Each GPU instance named as castkit's export listed it, else as all of castkit's, else
    // `<node>.<ordinal>`, zero-padded to the count's digits.
    const std::vector<std::string> names = gpu_instance_names(gltf.nodes[i], transforms->size());
    const bool castkits = carries_instance(gltf.nodes[i]);
    const int digits = static_cast<int>(fmt::format("{}", transforms->size() - 1).size());
    const std::optional<anim::Transform> node_world = world_trs(i);
    const bool at_origin = node_world && identity_within_rounding(anim::to_matrix(*node_world));
    for (std::size_t k = 0; k < transforms->size(); ++k) {
        const anim::Transform& local = (*transforms)[k];
        const glm::mat4 matrix = worlds[i] * anim::to_matrix(local);
        add(!names.empty() ? names[k]
            : castkits     ? gltf.nodes[i].name
                           : fmt::format("{}.{:0{}}", name, k, digits),
            at_origin ? std::optional<anim::Transform>(local) : exact_trs(matrix), matrix);
    }
    return {};
}

void Importer::warn_sheared_instances() {
    if (sheared.instances == 0) return;
    warn(fmt::format("/nodes/{}", sheared.first),
         fmt::format("{} instance{} of the world (the first drawn by node {}) have a shear (a "
                     "non-uniform scale under a rotation) that no position, rotation and scale "
                     "holds: the nearest rotation and scale were kept",
                     sheared.instances, sheared.instances == 1 ? "" : "s", sheared.first),
         "gltf.instance-shear");
}

}  // namespace castkit::gltf::detail
