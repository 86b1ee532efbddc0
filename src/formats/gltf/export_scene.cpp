// The whole-document export: Metadata's up axis as a root node turning the scene to +Y up (the
// top document's Instances turned on their own), Models, Instances (referenced in extras or
// merged in), then Animations.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/io/context.hpp>
#include <castkit/scene/instance_selection.hpp>
#include <charconv>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <utility>

#include "../../platform/platform.hpp"
#include "export_internal.hpp"
#include "export_textures.hpp"
#include "formats/common/instance_paths.hpp"
#include "io/file_sink.hpp"
#include "io/side_files.hpp"
#include "json_depth.hpp"
#include "scene/write_check.hpp"
#include "up_axis.hpp"

namespace castkit::gltf {
namespace {

using formats::kMaxInstanceDepth;
// Inlining stops when the output would hold more glTF nodes than this floor plus one per byte
// of the files read (the document's Cast size and each instance file once): files that
// instance each other ten times a level grow tenfold a level, and the output must stay
// proportional to the input (docs/security.md, "What castkit reads").
constexpr std::uint64_t kNodeFloor = 20000;
constexpr std::uint64_t kNodesPerByteRead = 1;

namespace fs = std::filesystem;

// An instance file, read once and shared by every Instance that names it: its document owns the
// bytes it was read from (in memory; no descriptor or mapping stays open), and the nodes its
// first export made are copied for the later Instances, sharing their meshes.
struct InstanceFile {
    cast::Document document;
    fs::path found_at;     // where the policy found it: its Instances resolve from its folder
    bool merging = false;  // being exported: an Instance of it below itself is a cycle
    int first_node = -1;   // the Instance node of its first export
    int end_node = -1;     // one past the last node of that export (its subtree is first..end)
    // Its first export folded into the Instance node (one unskinned, unanimated Model at rest):
    // every Instance of it is then one node drawing `mesh` (-1 when the Model has no mesh).
    bool single_node = false;
    int mesh = -1;
    bool fallback_warned = false;  // its gltf.gpu-instancing-fallback was given
};

// What a reference text resolved to in this run: the file, or the refusal every Instance naming
// it is warned with.
struct Lookup {
    InstanceFile* file = nullptr;
    std::string refusal;
};

// The instances of one file under one parent, drawn by EXT_mesh_gpu_instancing: their
// transforms, and their names when any is not the file's stem (the node's extras list them).
struct InstanceBatch {
    std::string file;
    std::string stem;
    std::vector<glm::vec3> translations;
    std::vector<glm::vec4> rotations;  // XYZW
    std::vector<glm::vec3> scales;
    bool named = false;  // a name is not the stem: `names` lists every one
    std::vector<std::string> names;
};

// Whether `node` places nothing: no transform, skin, weights, extras or extensions.
bool at_rest(const tinygltf::Node& node) {
    return node.translation.empty() && node.rotation.empty() && node.scale.empty() &&
           node.matrix.empty() && node.skin < 0 && node.camera < 0 && node.weights.empty() &&
           node.extras.Type() == tinygltf::NULL_TYPE && node.extensions.empty();
}

struct SceneWriter {
    detail::Exporter& exporter;
    // The top document's context: its folder and the user's policy bound every nesting level.
    Context top;
    std::uint64_t bytes_read = 0;
    bool over_budget = false;
    std::map<fs::path, std::unique_ptr<InstanceFile>> files;  // by the real path opened
    // By reference text (formats::instance_reference): a repeat costs a lookup, no system call. The
    // same text resolves the same way within one run, so the policy is as strict as a new look.
    std::unordered_map<std::string, Lookup> lookups;
    // Instance node names: "<name>.<ordinal>" (its place in the file), zero-padded to the digits
    // of the top document's instance count, so that they are unique; written in name order.
    std::size_t ordinal = 0;
    // With gpu_instancing: the top document's instances by (parent node, mesh).
    std::map<std::pair<int, int>, InstanceBatch> batches;
    // The top document's up axis when it is not Y ("z" or "x"), and its up node once made.
    std::string top_up;
    int top_up_node = -1;

    // `file`: the instance file being exported, or null for the top document.
    void export_document(const cast::Document& document, const InstanceFile* file, int parent,
                         int depth, bool with_animations) {
        int scene = parent;
        std::string up;
        // Instance files resolve against the scene root `sr`, relative to the file, as the
        // Blender add-on does (docs/blender-addon.md).
        const std::optional<std::string> scene_root = formats::scene_root_of(document);
        const std::vector<cast::ConstRoot> roots = document.root_nodes();
        for (const cast::ConstRoot& root : roots)
            for (const cast::ConstMetadata& metadata : root.metadata())
                if (auto axis = metadata.up_axis_name(); axis && up.empty())
                    up = std::string(*axis);
        if (up == "z" || up == "x") {
            // The top document's Instances turn on their own, at the scene's root: its up node is
            // made for what else it has (top_parent()).
            if (file == nullptr)
                top_up = up;
            else
                scene = add_up_node(up, parent);
        } else if (!up.empty() && up != "y") {
            exporter.warn("metadata", fmt::format("unknown up axis '{}' was ignored", up));
        }
        for (std::size_t r = 0; r < roots.size(); ++r) {
            const auto models = roots[r].models();
            for (std::size_t m = 0; m < models.size(); ++m)
                exporter.export_model(models[m], file == nullptr ? top_parent() : scene,
                                      fmt::format("root[{}]/model[{}]", r, m));
            const auto instances = roots[r].instances();
            const std::size_t first_ordinal = ordinal;
            ordinal += instances.size();
            for (std::size_t i : in_name_order(instances))
                export_instance(instances[i], first_ordinal + i, file, scene_root, scene, depth,
                                fmt::format("root[{}]/instance[{}]", r, i));
        }
        if (!with_animations) return;
        write_batches();
        for (std::size_t r = 0; r < roots.size(); ++r) {
            const auto animations = roots[r].animations();
            for (std::size_t a = 0; a < animations.size(); ++a)
                exporter.export_animation(animations[a],
                                          fmt::format("root[{}]/animation[{}]", r, a));
        }
    }

    // A node turning `up` ("z" or "x") to glTF's +Y below `parent` (detail::up_turn), named
    // "<up> up", the axis in its extras for castkit's import; its index.
    int add_up_node(const std::string& up, int parent) {
        const glm::quat turn = detail::up_turn(up);
        tinygltf::Node node;
        node.name = fmt::format("{} up", up);
        node.rotation = {turn.x, turn.y, turn.z, turn.w};
        node.extras =
            tinygltf::Value(tinygltf::Value::Object{{"castkit_up_axis", detail::string_value(up)}});
        return exporter.add_node(std::move(node), parent);
    }

    // Where the top document's Models (and batches) go: its up node, made on first use, or the
    // scene's root when it is Y up.
    int top_parent() {
        if (top_up.empty()) return -1;
        if (top_up_node < 0) top_up_node = add_up_node(top_up, -1);
        return top_up_node;
    }

    // Where an Instance of the top document goes: at the scene's root, its transform turned to
    // glTF's +Y up (the scene's extras say from which axis, for castkit's import). Blender's
    // importer parents each object below a common up node at a cost: a tenth of a map's import.
    // Elsewhere `parent`, as placed.
    int instance_parent(detail::PlacedNode& placed, int parent, int depth) {
        if (depth > 0 || top_up.empty()) return parent;
        turn_placement(placed, top_up);
        tinygltf::Value& extras = exporter.model.scenes[0].extras;
        if (!extras.IsObject())
            extras = tinygltf::Value(
                tinygltf::Value::Object{{"castkit_up_axis", detail::string_value(top_up)}});
        return -1;
    }

    // `placed` as seen from glTF's +Y up when it stood in `up`'s: its translation's axes swapped
    // exactly, the turn composed into its rotation (its scale is its own). O(1).
    static void turn_placement(detail::PlacedNode& placed, std::string_view up) {
        auto& t = placed.translation;
        const glm::vec3 moved = detail::turned_to_y_up(glm::vec3(t[0], t[1], t[2]), up);
        t = {moved.x, moved.y, moved.z};
        auto& r = placed.rotation;
        const glm::quat turned = detail::up_turn(up) * (placed.parts & detail::PlacedNode::kRotation
                                                            ? glm::quat(r[3], r[0], r[1], r[2])
                                                            : glm::quat(1, 0, 0, 0));
        r = {turned.x, turned.y, turned.z, turned.w};
        placed.parts |= detail::PlacedNode::kRotation;
    }

    // The indices of `instances` in the order of their nodes' names: by base name (their own,
    // else their file's stem), then in file order. Blender's importer keeps its objects sorted
    // by name and inserts each one: in name order each is an append. O(n log n).
    template <class Instances>
    static std::vector<std::size_t> in_name_order(const Instances& instances) {
        std::vector<std::pair<std::string_view, std::size_t>> keys;
        keys.reserve(instances.size());
        for (std::size_t i = 0; i < instances.size(); ++i)
            keys.emplace_back(base_name(instances[i]), i);
        std::stable_sort(keys.begin(), keys.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<std::size_t> order;
        order.reserve(keys.size());
        for (const auto& key : keys) order.push_back(key.second);
        return order;
    }

    // What an Instance node's name starts with: the Instance's own name, else its file's stem.
    static std::string_view base_name(const cast::ConstInstance& instance) {
        if (const std::string_view own = instance.name().value_or(""); !own.empty()) return own;
        const cast::ConstFile reference = instance.reference_file();
        return scene::model_name(reference ? reference.path().value_or("") : std::string_view());
    }

    void export_instance(const cast::ConstInstance& instance, std::size_t number,
                         const InstanceFile* from, const std::optional<std::string>& scene_root,
                         int parent, int depth, const std::string& path) {
        const cast::ConstFile reference =
            instance.reference_file();  // absent when rf links nothing
        const std::string file(reference ? reference.path().value_or("") : "");
        if (file.empty()) {
            exporter.warn(path, "instance names no file (missing or empty path); skipped");
            return;
        }
        const std::string_view own_name = instance.name().value_or("");
        const detail::PlacedNode as_stored = placement(instance, number);
        const bool inlined = exporter.options.inline_instances && !over_budget;
        InstanceFile* instanced = inlined ? find_instance(file, from, scene_root, path) : nullptr;
        const bool one_mesh =
            instanced != nullptr && instanced->single_node && instanced->mesh >= 0;
        // A batch holds the transforms as stored, below the top document's up node.
        if (one_mesh && depth == 0 && exporter.options.gpu_instancing) {
            batch(top_parent(), *instanced, file, own_name, as_stored);
            return;
        }
        detail::PlacedNode placed = as_stored;
        const int at = instance_parent(placed, parent, depth);
        // A later instance of a file drawn by one mesh, in the top document: no node of its own
        // until the JSON is written.
        if (one_mesh && depth == 0) {
            placed.mesh = instanced->mesh;
            exporter.add_placed(placed, at);
            return;
        }
        const int index = exporter.add_node(node_of(placed), at);
        exporter.instance_files.set(static_cast<std::size_t>(index), file);
        if (instanced == nullptr) return;
        if (depth >= kMaxInstanceDepth || instanced->merging) {
            exporter.warn(
                path,
                fmt::format("instance '{}' refers back to a file being merged; not inlined", file));
            return;
        }
        if (!inline_instance(*instanced, index, depth, file, path)) return;
        const bool folded = instanced->single_node && instanced->mesh >= 0;
        if (folded) name_file_on_mesh(instanced->mesh, index, file);
        if (!exporter.options.gpu_instancing || depth > 0) return;
        if (folded) {
            remove_last_node(index, at);
            batch(top_parent(), *instanced, file, own_name, as_stored);
        } else if (!instanced->fallback_warned) {
            instanced->fallback_warned = true;
            exporter.warn(path,
                          fmt::format("instances of '{}' are written as nodes, not through "
                                      "EXT_mesh_gpu_instancing: it is not one unskinned, "
                                      "unanimated model at rest",
                                      file),
                          "gltf.gpu-instancing-fallback");
        }
    }

    // The name parts and transform of Instance `instance`, the `number`th of the top document
    // (its rotation normalised, as glTF asks). O(1).
    static detail::PlacedNode placement(const cast::ConstInstance& instance, std::size_t number) {
        detail::PlacedNode placed;
        placed.base = base_name(instance);
        placed.ordinal = static_cast<std::uint32_t>(number);
        if (auto p = instance.position()) {
            placed.translation = {p->x, p->y, p->z};
            placed.parts |= detail::PlacedNode::kTranslation;
        }
        if (auto r = instance.rotation()) {
            const glm::quat q = glm::normalize(cast::quat_from_xyzw(*r));
            placed.rotation = {q.x, q.y, q.z, q.w};
            placed.parts |= detail::PlacedNode::kRotation;
        }
        if (auto s = instance.scale()) {
            placed.scale = {s->x, s->y, s->z};
            placed.parts |= detail::PlacedNode::kScale;
        }
        return placed;
    }

    // The node of an Instance placed as `placed`, which draws nothing yet. O(1).
    tinygltf::Node node_of(const detail::PlacedNode& placed) const {
        tinygltf::Node node;
        node.name =
            fmt::format("{}.{:0{}}", placed.base, placed.ordinal, exporter.placed.ordinal_digits);
        auto doubles = [](std::span<const float> values) {
            return std::vector<double>(values.begin(), values.end());
        };
        if (placed.parts & detail::PlacedNode::kTranslation)
            node.translation = doubles(placed.translation);
        if (placed.parts & detail::PlacedNode::kRotation) node.rotation = doubles(placed.rotation);
        if (placed.parts & detail::PlacedNode::kScale) node.scale = doubles(placed.scale);
        return node;
    }

    // The file `file` Instance node `index` names, said once on the one mesh the node draws
    // (extras.castkit_instance.file; the first name of it wins) instead of on each node:
    // Blender's importer makes every node's extras custom properties of its object, a quarter
    // of its time on a map of 100,000 instances. O(1).
    void name_file_on_mesh(int mesh, int index, const std::string& file) {
        exporter.instance_files.clear(static_cast<std::size_t>(index));
        tinygltf::Value& extras = exporter.model.meshes[static_cast<std::size_t>(mesh)].extras;
        if (extras.IsObject() && extras.Has("castkit_instance")) return;
        tinygltf::Value::Object keys =
            extras.IsObject() ? extras.Get<tinygltf::Value::Object>() : tinygltf::Value::Object();
        keys["castkit_instance"] =
            tinygltf::Value(tinygltf::Value::Object{{"file", detail::string_value(file)}});
        extras = tinygltf::Value(std::move(keys));
    }

    // `instanced` below Instance node `index`: the node draws its mesh, or its nodes are copied
    // below it, or (the first time) its document is exported there. False when the node budget
    // stops inlining.
    bool inline_instance(InstanceFile& instanced, int index, int depth, const std::string& file,
                         const std::string& path) {
        std::vector<tinygltf::Node>& nodes = exporter.model.nodes;
        if (instanced.single_node) {
            nodes[static_cast<std::size_t>(index)].mesh = instanced.mesh;
            return true;
        }
        const std::uint64_t nodes_after =
            nodes.size() +
            static_cast<std::uint64_t>(std::max(0, instanced.end_node - instanced.first_node - 1));
        if (nodes_after > node_budget()) {
            over_budget = true;
            exporter.warn(
                path,
                fmt::format("instance '{}' and the instances after it were not inlined: "
                            "the output would hold more than {} glTF nodes ({} plus {} "
                            "per byte of the {} bytes of files read); they stay "
                            "references to their files",
                            file, node_budget(), kNodeFloor, kNodesPerByteRead, bytes_read),
                "gltf.instance-budget");
            return false;
        }
        if (instanced.first_node >= 0) {
            copy_subtree(instanced, index);
            return true;
        }
        if (!instanced.document.animations().empty())
            exporter.warn(path, fmt::format("animations of instance '{}' were not merged", file));
        instanced.merging = true;
        instanced.first_node = index;
        const std::size_t models_before = exporter.models.size();
        const std::size_t meshes_before = exporter.model.meshes.size();
        const std::string outer =
            std::exchange(exporter.texture_folder, texture_folder_of(instanced));
        export_document(instanced.document, &instanced, index, depth + 1, false);
        exporter.texture_folder = outer;
        instanced.end_node = static_cast<int>(nodes.size());
        instanced.merging = false;
        if (instanced.document.animations().empty())
            fold_into_instance_node(instanced, models_before, meshes_before);
        return true;
    }

    // The folder of an instance file relative to the top document's, for its textures; empty
    // beside the top document (or outside every folder the policy allows).
    std::string texture_folder_of(const InstanceFile& file) const {
        const fs::path folder = formats::relative_to_allowed(file.found_at.parent_path(), top);
        return folder.is_absolute() ? std::string() : platform::utf8_of(folder);
    }

    // When the first export of `file` below its Instance node is one Model node at rest whose
    // children are unskinned mesh nodes at rest: those nodes are removed and the Instance node
    // draws their meshes as one glTF mesh (one primitive per Cast mesh; meshes with morph
    // targets only alone, as every primitive of a glTF mesh needs the same targets). Its
    // exported models are dropped from what animations may target (they would name removed
    // nodes). O(nodes and primitives of the file).
    void fold_into_instance_node(InstanceFile& file, std::size_t models_before,
                                 std::size_t meshes_before) {
        std::vector<tinygltf::Node>& nodes = exporter.model.nodes;
        std::vector<tinygltf::Mesh>& meshes = exporter.model.meshes;
        const auto first = static_cast<std::size_t>(file.first_node);
        const auto end = static_cast<std::size_t>(file.end_node);
        if (end > first + 1) {
            const tinygltf::Node& model = nodes[first + 1];
            if (nodes[first].children != std::vector<int>{file.first_node + 1} || !at_rest(model) ||
                model.mesh >= 0 || model.children.size() != end - first - 2)
                return;
            for (std::size_t k = 0; k < model.children.size(); ++k) {
                const auto child = static_cast<std::size_t>(model.children[k]);
                const tinygltf::Node& drawn = nodes[child];
                if (child != first + 2 + k || !at_rest(drawn) || !drawn.children.empty() ||
                    drawn.mesh != static_cast<int>(meshes_before + k))
                    return;
            }
            if (meshes.size() - meshes_before > 1)
                for (std::size_t m = meshes_before; m < meshes.size(); ++m)
                    for (const tinygltf::Primitive& primitive : meshes[m].primitives)
                        if (!primitive.targets.empty()) return;
            if (meshes.size() > meshes_before) {
                tinygltf::Mesh& joined = meshes[meshes_before];
                if (meshes.size() - meshes_before > 1) joined.name = model.name;
                for (std::size_t m = meshes_before + 1; m < meshes.size(); ++m)
                    for (tinygltf::Primitive& primitive : meshes[m].primitives)
                        joined.primitives.push_back(std::move(primitive));
                meshes.resize(meshes_before + 1);
                file.mesh = static_cast<int>(meshes_before);
            }
        }
        nodes[first].children.clear();
        nodes[first].mesh = file.mesh;
        nodes.resize(first + 1);
        exporter.instance_files.truncate(first + 1);
        file.end_node = file.first_node + 1;
        exporter.models.resize(models_before);
        file.single_node = true;
    }

    // Instance node `index` (the last node, below `parent`) taken out of the nodes. O(1).
    void remove_last_node(int index, int parent) {
        std::vector<tinygltf::Node>& nodes = exporter.model.nodes;
        nodes.pop_back();
        exporter.instance_files.truncate(static_cast<std::size_t>(index));
        (parent < 0 ? exporter.model.scenes[0].nodes
                    : nodes[static_cast<std::size_t>(parent)].children)
            .pop_back();
    }

    // The instance placed as `placed` added to the batch of its file's mesh under `parent`.
    // O(1).
    void batch(int parent, const InstanceFile& file, const std::string& name,
               std::string_view own_name, const detail::PlacedNode& placed) {
        InstanceBatch& group = batches[{parent, file.mesh}];
        if (group.file.empty())
            group.file = name, group.stem = std::string(scene::model_name(name));
        const auto& [t, r, s] = std::tie(placed.translation, placed.rotation, placed.scale);
        const std::uint8_t parts = placed.parts;
        group.translations.push_back(parts & detail::PlacedNode::kTranslation
                                         ? glm::vec3(t[0], t[1], t[2])
                                         : glm::vec3(0.0f));
        group.scales.push_back(parts & detail::PlacedNode::kScale ? glm::vec3(s[0], s[1], s[2])
                                                                  : glm::vec3(1.0f));
        group.rotations.push_back(parts & detail::PlacedNode::kRotation
                                      ? glm::vec4(r[0], r[1], r[2], r[3])
                                      : glm::vec4(0, 0, 0, 1));
        const std::string_view shown = own_name.empty() ? group.stem : own_name;
        if (!group.named && shown != group.stem) {
            group.named = true;
            group.names.assign(group.translations.size() - 1, group.stem);
        }
        if (group.named) group.names.emplace_back(shown);
    }

    // One node per batch: its mesh drawn at every instance's transform (EXT_mesh_gpu_instancing,
    // required), the file in extras.castkit_instance, with the names when they are not all the
    // file's stem. O(instances).
    void write_batches() {
        for (auto& [key, group] : batches) {
            tinygltf::Value::Object attributes{
                {"TRANSLATION", tinygltf::Value(exporter.add_floats(std::move(group.translations),
                                                                    TINYGLTF_TYPE_VEC3))},
                {"ROTATION", tinygltf::Value(exporter.add_floats(std::move(group.rotations),
                                                                 TINYGLTF_TYPE_VEC4))},
                {"SCALE", tinygltf::Value(
                              exporter.add_floats(std::move(group.scales), TINYGLTF_TYPE_VEC3))}};
            tinygltf::Value::Object instance{{"file", detail::string_value(group.file)}};
            if (group.named) {
                tinygltf::Value::Array names;
                names.reserve(group.names.size());
                for (std::string& name : group.names) names.emplace_back(std::move(name));
                instance["names"] = tinygltf::Value(std::move(names));
            }
            tinygltf::Node node;
            node.name = group.stem;
            node.mesh = key.second;
            node.extensions["EXT_mesh_gpu_instancing"] = tinygltf::Value(
                tinygltf::Value::Object{{"attributes", tinygltf::Value(std::move(attributes))}});
            node.extras = tinygltf::Value(tinygltf::Value::Object{
                {"castkit_instance", tinygltf::Value(std::move(instance))}});
            exporter.add_node(std::move(node), key.first);
        }
        if (!batches.empty()) exporter.use_extension("EXT_mesh_gpu_instancing", true);
        batches.clear();
    }

    std::uint64_t node_budget() const { return kNodeFloor + kNodesPerByteRead * bytes_read; }

    // The instance file `file` names, read once through the policy (the top context's folders
    // and the user's opt-ins), or null with a warning. A reference text met before costs a map
    // lookup (its refusal is warned again).
    InstanceFile* find_instance(const std::string& file, const InstanceFile* from,
                                const std::optional<std::string>& scene_root,
                                const std::string& path) {
        const std::string text = platform::utf8_of(formats::instance_reference(
            file, from != nullptr ? from->found_at : fs::path(), scene_root, top));
        auto [known, added] = lookups.try_emplace(text);
        if (added) known->second = look_up(text, file, scene_root);
        if (known->second.file == nullptr && !known->second.refusal.empty())
            exporter.warn(path, known->second.refusal, "gltf.instance-refused");
        return known->second.file;
    }

    // The instance file at reference text `text`, opened through the policy and read, or the
    // refusal to warn with (empty when the check before the write failed the export).
    Lookup look_up(const std::string& text, const std::string& file,
                   const std::optional<std::string>& scene_root) {
        auto opened = formats::open_side_file(top, text);
        if (!opened)
            return {nullptr,
                    fmt::format("instance '{}'{} not inlined: {}", file,
                                scene_root ? fmt::format(" under the scene root '{}'", *scene_root)
                                           : std::string(),
                                opened.error().message)};
        std::unique_ptr<InstanceFile>& known = files[opened->file->real_path()];
        if (known) return {known.get(), {}};
        auto bytes = opened->file->read();
        if (!bytes)
            return {nullptr,
                    fmt::format("instance '{}' not inlined: {}", file, bytes.error().message)};
        auto owned = std::make_shared<const std::vector<std::byte>>(std::move(*bytes));
        const std::string name = platform::utf8_of(opened->path);
        // The instance's own read warnings are the user's to see, named by its file.
        auto document =
            cast::read(cast::SharedBytes{cast::Bytes(*owned), owned}, name, exporter.warnings);
        if (!document)
            return {nullptr, fmt::format("instance '{}' not inlined: {}", file,
                                         document.error().to_string())};
        bytes_read += owned->size();
        // Its meshes are written too: the check before every write, under the top's policy.
        Context checked_as = top;
        checked_as.name = name;
        auto repaired =
            scene::check_before_write(*document, WrittenModels::All, checked_as, exporter.warnings);
        if (!repaired) {
            exporter.failure = repaired.error();
            return {};
        }
        known = std::make_unique<InstanceFile>(
            InstanceFile{*repaired ? std::move(**repaired) : std::move(*document), opened->path});
        return {known.get(), {}};
    }

    // The nodes the first export of `file` made below its Instance node, copied below Instance
    // node `to`: the copies name the same meshes; skins are copied with their joints moved to
    // the copied joints. O(nodes copied).
    void copy_subtree(const InstanceFile& file, int to) {
        std::vector<tinygltf::Node>& nodes = exporter.model.nodes;
        const int first = file.first_node + 1;
        const int offset = static_cast<int>(nodes.size()) - first;
        auto moved = [&](int i) { return i >= first && i < file.end_node ? i + offset : i; };
        std::map<int, int> skins;  // skin of the first export → its copy
        for (int i = first; i < file.end_node; ++i) {
            tinygltf::Node copy = nodes[static_cast<std::size_t>(i)];
            for (int& child : copy.children) child = moved(child);
            if (copy.skin >= 0) {
                auto [it, added] = skins.try_emplace(copy.skin, -1);
                if (added) it->second = copy_skin(copy.skin, moved);
                copy.skin = it->second;
            }
            if (const std::string* named = exporter.instance_files.of(static_cast<std::size_t>(i)))
                exporter.instance_files.set(nodes.size(), *named);
            nodes.push_back(std::move(copy));
        }
        const std::vector<int> children = nodes[static_cast<std::size_t>(file.first_node)].children;
        for (int child : children)
            nodes[static_cast<std::size_t>(to)].children.push_back(moved(child));
    }

    template <class Move>
    int copy_skin(int skin, const Move& moved) {
        tinygltf::Skin copy = exporter.model.skins[static_cast<std::size_t>(skin)];
        for (int& joint : copy.joints) joint = moved(joint);
        if (copy.skeleton >= 0) copy.skeleton = moved(copy.skeleton);
        exporter.model.skins.push_back(std::move(copy));
        return static_cast<int>(exporter.model.skins.size() - 1);
    }
};

// A carried rest transform: a bone node hash in decimal and {translation, rotation (XYZW),
// scale}; nullopt when any part is missing, not its count of numbers, or not finite.
std::optional<std::pair<std::uint64_t, anim::Transform>> carried_transform(
    const std::string& hash, const nlohmann::json& rest) {
    std::uint64_t key = 0;
    const auto [end, error] = std::from_chars(hash.data(), hash.data() + hash.size(), key);
    if (error != std::errc() || end != hash.data() + hash.size() || !rest.is_object())
        return std::nullopt;
    const auto t = detail::numbers(rest.value("translation", nlohmann::json()), 3);
    const auto r = detail::numbers(rest.value("rotation", nlohmann::json()), 4);
    const auto s = detail::numbers(rest.value("scale", nlohmann::json()), 3);
    auto finite = [](const std::vector<double>& v) {
        return !v.empty() &&
               std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
    };
    if (!finite(t) || !finite(r) || !finite(s)) return std::nullopt;
    anim::Transform transform;
    transform.translation = glm::vec3(t[0], t[1], t[2]);
    transform.rotation = glm::quat(static_cast<float>(r[3]), static_cast<float>(r[0]),
                                   static_cast<float>(r[1]), static_cast<float>(r[2]));
    if (!(glm::length(transform.rotation) > 0.0f)) return std::nullopt;
    transform.rotation = glm::normalize(transform.rotation);
    transform.scale = glm::vec3(s[0], s[1], s[2]);
    return std::pair{key, transform};
}

// What an import carried in the Metadata `gltf` property (docs/gltf.md): default morph weights,
// the rest pose of bones that rest in their bind pose, and material settings.
void read_carried(const cast::Document& document, detail::Exporter& exporter) {
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata()) {
            const auto text = metadata.string("gltf");
            if (!text) continue;
            // The exporter converts the settings recursively (to_value, tinygltf's writer).
            if (detail::first_too_deep(*text)) {
                exporter.warn("metadata/gltf",
                              fmt::format("the carried glTF settings nest deeper than {} levels "
                                          "and were ignored",
                                          detail::kMaxJsonDepth));
                continue;
            }
            if (detail::carried_too_large(*text)) {
                exporter.warn("metadata/gltf",
                              fmt::format("the carried glTF settings ({} bytes) hold so many "
                                          "values that reading them would take about {} MiB, "
                                          "more than the file's budget (8 bytes per byte plus "
                                          "64 MiB), and were ignored",
                                          text->size(), detail::nlohmann_dom_bytes(*text) >> 20),
                              "gltf.carried-budget");
                continue;
            }
            const nlohmann::json carried = nlohmann::json::parse(*text, nullptr, false);
            if (!carried.is_object()) {
                exporter.warn("metadata/gltf", "the carried glTF settings are not castkit's JSON");
                continue;
            }
            if (carried.contains("weights") && carried["weights"].is_object())
                for (auto& [name, weight] : carried["weights"].items())
                    if (weight.is_number()) exporter.default_weights[name] = weight.get<float>();
            if (carried.contains("rest") && carried["rest"].is_object())
                for (auto& [hash, rest] : carried["rest"].items())
                    if (auto transform = carried_transform(hash, rest))
                        exporter.carried_rest[transform->first] = transform->second;
            if (carried.contains("materials") && carried["materials"].is_object())
                exporter.carried_materials.update(carried["materials"]);
        }
}

// What `document` takes in memory: the bytes it was read from (its properties view them; its
// size as a file when it was made in code) and each node's and property's own structure, a
// node owned through a pointer in its parent's children, each allocation with malloc's 16
// bytes: 437 a bone for bones of a name and a parent (54 bytes of file each), within 3% of the
// peak of `castkit info`. O(nodes + properties).
std::uint64_t document_bytes(const cast::Document& document, std::uint64_t size) {
    constexpr std::uint64_t kAllocation = 16;
    const std::size_t kShortString = std::string().capacity();
    std::uint64_t bytes = size;
    std::vector<const cast::Node*> pending;
    for (const cast::Node& root : document.roots()) pending.push_back(&root);
    while (!pending.empty()) {
        const cast::Node& node = *pending.back();
        pending.pop_back();
        bytes += sizeof(cast::Node) + sizeof(std::unique_ptr<cast::Node>) + kAllocation +
                 node.properties.capacity() * sizeof(cast::Property) + kAllocation;
        for (const cast::Property& property : node.properties)
            if (property.name().capacity() > kShortString)
                bytes += property.name().capacity() + 1 + kAllocation;
        for (const cast::Node& child : node.children()) pending.push_back(&child);
    }
    return bytes;
}

// The Instances of `document`'s roots. O(roots).
std::size_t instance_count(const cast::Document& document) {
    std::size_t count = 0;
    for (const cast::ConstRoot& root : document.root_nodes()) count += root.instances().size();
    return count;
}

// The digits of the last ordinal an instance node name of `document` takes: its instance count
// less one, at least one digit. O(roots).
int ordinal_digits(const cast::Document& document) {
    const std::size_t count = instance_count(document);
    return static_cast<int>(fmt::formatted_size("{}", count > 0 ? count - 1 : 0));
}

}  // namespace

Expected<void> write(const cast::Document& document, Sink& sink, const WriteContext& context,
                     Diagnostics& diagnostics, const ExportOptions& options) {
    // The check before every write (docs/diagnostics.md), here so that a direct call runs it
    // as the registry's writers do.
    auto repaired = scene::check_before_write(document, WrittenModels::All, context, diagnostics);
    if (!repaired) return make_error(repaired.error());
    if (!*repaired) return detail::write_checked(document, sink, context, diagnostics, options);
    // The document the repair copied counts against the budget too: it is the process's.
    return detail::write_checked(**repaired, sink, context, diagnostics, options,
                                 document_bytes(document, cast::file_size(**repaired)));
}

Expected<void> detail::write_checked(const cast::Document& checked, Sink& sink,
                                     const WriteContext& context, Diagnostics& diagnostics,
                                     const ExportOptions& options, std::size_t original_bytes) {
    detail::Exporter exporter(context.name, options, diagnostics);
    exporter.input_bytes = cast::file_size(checked);
    exporter.input_name = checked.source_name.empty() ? "the document" : checked.source_name;
    // The document (and the one the check repaired into it) count first: the budget is the
    // process's. Counted, not refused: the export only refuses what it would add.
    exporter.kept_bytes =
        detail::kProgramBytes + document_bytes(checked, exporter.input_bytes) + original_bytes;
    read_carried(checked, exporter);
    SceneWriter writer{
        exporter,
        {.name = context.name,
         .base = context.base,
         .options = {.side_files = options.side_files, .strict = context.options.strict},
         .folder = context.folder},
        exporter.input_bytes,
        false,
        {},
        {},
        0,
        {},
        {},
        -1};
    exporter.placed.ordinal_digits = ordinal_digits(checked);
    // Most instances of a map are placed nodes: no vector of them grown by doubling.
    exporter.placed.nodes.reserve(instance_count(checked));
    writer.export_document(checked, nullptr, -1, 0, true);
    if (exporter.failure) return make_error(*exporter.failure);
    // The skeletons served the nodes and the animations; the JSON made next is the peak.
    exporter.models = {};
    if (auto finite = detail::keep_numbers_finite(exporter); !finite) return finite;
    detail::place_textures(exporter, context, sink.file(), checked.embedded);
    return detail::write_files(exporter.model, exporter.instance_files, exporter.placed,
                               exporter.binary, exporter.binary_size, sink, context.name,
                               options.binary);
}

Expected<void> write(const cast::Document& document, const std::filesystem::path& path,
                     const ExportOptions& options, Diagnostics& warnings) {
    // The document's own folder: instances and textures resolve against where it was read from.
    const std::filesystem::path source =
        document.source_name.empty() ? path : platform::path_from_utf8(document.source_name);
    WriteContext context = formats::context_for(path);
    context.base = source.has_parent_path() ? source.parent_path() : std::filesystem::path(".");
    formats::FileSink sink(path);
    auto written = write(document, sink, context, warnings, options);
    if (!written) return written;
    return sink.commit();
}

}  // namespace castkit::gltf
