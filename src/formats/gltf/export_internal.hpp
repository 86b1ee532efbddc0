// The glTF exporter's shared state: the tinygltf model being filled, the binary data its
// accessors view (a list of byte ranges, borrowed from the Cast document where the bytes are
// already what glTF stores, owned otherwise), and what each exported Model left behind for the
// animation export.
#pragma once

#include <array>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/gltf.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <glm/mat4x4.hpp>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tiny_gltf_config.hpp"

namespace castkit::gltf::detail {

// An image glTF shows only through an extension (KTX2 through KHR_texture_basisu, WebP through
// EXT_texture_webp), told by its file name's ending; empty strings for the types glTF's core
// holds.
struct ExtensionImage {
    std::string extension;  // "KHR_texture_basisu"
    std::string mime_type;  // "image/ktx2"
};
ExtensionImage extension_image(std::string_view name);

// The `count` numbers of JSON array `json`; empty when it is not an array of exactly `count`
// numbers (carried settings from a file, never trusted).
std::vector<double> numbers(const nlohmann::json& json, std::size_t count);

// A Cast Mesh exported as a glTF mesh node, with the names of its morph targets in order.
struct ExportedMesh {
    int node = -1;
    std::vector<std::string> target_names;
    std::vector<float> default_weights;  // per target: the mesh's weight when nothing animates it
};

// What the export keeps for each bone of a skeleton, counted before it builds them: its glTF
// node (a tinygltf::Node, its name and its place in its parent's children), that node's part of
// the JSON text written, and the bone in anim::Skeleton (arrays, name maps, bone_nodes), which
// is dropped before the JSON is made. Measured as the peak resident memory of `castkit convert`
// to glb less that of `castkit info`: 790 bytes a bone for 100,000 to 300,000 bones of a name
// and a parent, 820 for 240,000 bones with a name, a parent and a rest transform.
inline constexpr std::uint64_t kBoneBytes = 832;
// What the program takes before it reads anything (code, libraries, the CLI's own): measured
// 11.2 MiB as the peak of `castkit info` on an empty Cast file. The promise bounds the process.
inline constexpr std::uint64_t kProgramBytes = std::uint64_t{12} << 20;

// A Cast Model exported as a node with bone nodes below it.
struct ExportedModel {
    int node = -1;
    anim::Skeleton skeleton;
    std::vector<int> bone_nodes;  // per skeleton bone
    std::vector<ExportedMesh> meshes;
};

// Bytes for one buffer view: borrowed (they outlive the export) or owned by `owner`.
struct ViewData {
    std::span<const std::byte> bytes;
    std::shared_ptr<const void> owner;
};
inline ViewData borrow(std::span<const std::byte> bytes) { return {bytes, nullptr}; }
template <class T>
ViewData own(std::vector<T> values) {
    auto owner = std::make_shared<const std::vector<T>>(std::move(values));
    return {std::as_bytes(std::span(*owner)), owner};
}

// The file each Instance node names (written as its extras.castkit_instance.file), kept beside
// the nodes rather than in each node's extras: a tinygltf::Value of two maps took 500 bytes an
// instance. O(1) per node.
struct InstanceFiles {
    std::vector<int> by_node;  // an index into `names`, or -1, for the nodes so far
    std::vector<std::string> names;
    std::unordered_map<std::string, int> ids;

    void set(std::size_t node, const std::string& file) {
        if (by_node.size() <= node) by_node.resize(node + 1, -1);
        auto [it, added] = ids.try_emplace(file, static_cast<int>(names.size()));
        if (added) names.push_back(file);
        by_node[node] = it->second;
    }
    // The file node `node` names, or null.
    const std::string* of(std::size_t node) const {
        return node < by_node.size() && by_node[node] >= 0
                   ? &names[static_cast<std::size_t>(by_node[node])]
                   : nullptr;
    }
    // Node `node` names no file.
    void clear(std::size_t node) {
        if (node < by_node.size()) by_node[node] = -1;
    }
    // Forgets the nodes from `node` on (removed from the model).
    void truncate(std::size_t node) {
        if (by_node.size() > node) by_node.resize(node);
    }
};

// An Instance of the top document drawn by one shared mesh, kept as the parts of its name and
// its transform (72 bytes) instead of a tinygltf::Node (456): a map is mostly these. They are
// written after the model's nodes, Placed k as node `model.nodes.size() + k`; until then a
// parent names it in its children (or the scene in its nodes) as placed_ref(k).
struct PlacedNode {
    enum Part : std::uint8_t { kTranslation = 1, kRotation = 2, kScale = 4 };
    std::string_view base;  // the name before ".<ordinal>": views the document written
    std::uint32_t ordinal = 0;
    int mesh = -1;
    std::array<float, 3> translation{};
    std::array<float, 4> rotation{};  // XYZW
    std::array<float, 3> scale{};
    std::uint8_t parts = 0;  // the Parts it has; glTF's defaults stand for the others
};
struct PlacedNodes {
    std::vector<PlacedNode> nodes;
    int ordinal_digits = 1;  // the ordinals are zero-padded to this many digits
};
// What a children list or the scene holds for PlacedNode k until it is written; negative, so
// that no node index is one.
constexpr int placed_ref(std::size_t k) { return -2 - static_cast<int>(k); }

class Exporter {
  public:
    Exporter(std::string file, const ExportOptions& options, Diagnostics& warnings);

    tinygltf::Model model;
    InstanceFiles instance_files;
    PlacedNodes placed;
    // The binary buffer, in file order: view data and the padding that aligns each view to 4.
    std::vector<std::span<const std::byte>> binary;
    std::size_t binary_size = 0;
    std::vector<std::shared_ptr<const void>> owners;
    std::string file;
    ExportOptions options;
    Diagnostics& warnings;
    std::vector<ExportedModel> models;

    // The first error that stops the export (a limit passed), reported by write().
    std::optional<Diagnostic> failure;
    // Poses sampled by the animation export so far (frames × bones), against sample_limit().
    std::uint64_t samples = 0;
    // Keys of the animations met so far: the sampling budget grows with them
    // (anim::sample_budget), so a file of a few keys far apart cannot make a thousand-fold
    // larger output (an 8.8 KB Cast made a 137 MB glb).
    std::uint64_t input_keys = 0;
    std::uint64_t sample_limit() const {
        return anim::sample_budget(input_keys, options.max_samples);
    }
    // Adds `work` samples (anim::sampling_work) for `what` ("sampling the animations"); false,
    // with `failure` set, past sample_limit().
    bool count_samples(double work, const std::string& path, std::string_view what);
    // The bytes of the document written (cast::file_size), and those the animation export keeps
    // (sampled values, the output's keys) so far, against anim::memory_budget(input_bytes).
    std::uint64_t input_bytes = 0;
    std::uint64_t kept_bytes = 0;
    std::string input_name;  // the document's source, which a refusal names
    // Adds `bytes` kept for `what`; false, with `failure` set (`gltf.memory-budget`), past the
    // budget. kept_bytes starts with what the document takes in memory: the promise
    // bounds the whole process, the document read included.
    bool keep_bytes(std::uint64_t bytes, const std::string& path, std::string_view what);
    // Default morph weights by blend shape node hash (older imports: by target name), from the
    // Metadata `gltf` property an import wrote.
    std::map<std::string, float> default_weights;
    // The glTF rest transform of bones whose Cast rest is their skin's bind pose, by bone node
    // hash, from the same property: the joint nodes' TRS (docs/gltf.md, "Skins").
    std::map<std::uint64_t, anim::Transform> carried_rest;
    // Material settings by material node hash (older imports: by name), from the same property
    // (docs/gltf.md).
    nlohmann::json carried_materials = nlohmann::json::object();

    // While an instance file is exported: its folder (relative to the top document's, `/`
    // separated), which the relative texture paths its materials name are resolved from, as
    // the Blender add-on resolves them beside the model file. Empty for the top document.
    std::string texture_folder;
    // The path a material named, by image index, for images whose URI texture_folder
    // prefixed: where a texture is looked for next (the top folder and --textures folders)
    // when it is not beside the model file.
    std::map<std::size_t, std::string> image_names_as_given;

    // Lists `name` in extensionsUsed (and extensionsRequired when `required`), once.
    void use_extension(const std::string& name, bool required);
    void warn(std::string path, std::string message);
    // A warning with its own stable id (docs/diagnostics.md) instead of "gltf.export".
    void warn(std::string path, std::string message, std::string rule);
    // Appends `node` under `parent` (a node index, or -1 for the scene's roots); its index.
    int add_node(tinygltf::Node node, int parent);
    // Appends `node` under `parent` as add_node() does, kept as a PlacedNode. O(1).
    void add_placed(PlacedNode node, int parent);
    // Room for `count` more nodes, made before a skeleton's are added: a vector grown by
    // doubling holds its old nodes and twice their room at once (359 MB for 300,000 bones).
    // Grows by half at least, so that many small models do not copy the nodes each time.
    void reserve_nodes(std::size_t count);
    // Appends `data` to the binary buffer (4-byte aligned) as a buffer view; its index. O(1).
    int add_view(ViewData data, int target);
    // A tightly packed accessor over `count` elements of `type` (TINYGLTF_TYPE_*) and
    // `component` (TINYGLTF_COMPONENT_TYPE_*); min/max are set when given. Its index.
    int add_accessor(ViewData data, std::size_t count, int type, int component, bool normalized,
                     int target, std::vector<double> min = {}, std::vector<double> max = {});
    // Float data as `type` elements (a VEC3 accessor over vec3 values or 3 floats each).
    template <class T>
    int add_floats(std::vector<T> values, int type, int target = 0, std::vector<double> min = {},
                   std::vector<double> max = {}) {
        const auto components = static_cast<std::size_t>(
            tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(type)));
        const std::size_t count = values.size() * sizeof(T) / (4 * components);
        return add_accessor(own(std::move(values)), count, type, TINYGLTF_COMPONENT_TYPE_FLOAT,
                            false, target, std::move(min), std::move(max));
    }

    // Exports one Cast Model (and its skeleton, meshes, skins, morph targets, materials) under
    // `parent`; the result is appended to `models`.
    void export_model(const cast::ConstModel& model, int parent, const std::string& path);
    // The glTF material index for a Cast Material, exported on first use.
    int export_material(const cast::ConstMaterial& material, const std::string& path);
    // Exports one Cast Animation as a glTF animation over the exported models' nodes.
    void export_animation(const cast::ConstAnimation& animation, const std::string& path);

  private:
    // Adds a sampler and a channel: (node, path, key frames, output accessor, interpolation).
    using ChannelSink =
        std::function<void(int, const char*, const std::vector<double>&, int, const char*)>;
    // Every Model whose bones the animation's curves name; one with a skeleton of the
    // animation's own (animation_skeleton) when none does and it has transform curves.
    std::vector<std::size_t> animation_targets(const cast::ConstAnimation& cast_animation,
                                               const std::string& path);
    // The animation compiled for each target's skeleton (bone indices differ), its bone
    // channels exported; `framerate` follows each. The first compiled (on `first_skeleton`)
    // gives the blend weights, visibility and notifications, and only its reports are warned
    // (each target would repeat them). Nullopt when the animation is not exported (a warning or
    // `failure` says why).
    std::optional<anim::Animation> export_target_channels(
        const cast::ConstAnimation& cast_animation, const std::vector<std::size_t>& targets,
        const anim::Skeleton& empty, const anim::Skeleton*& first_skeleton, float& framerate,
        const ChannelSink& add_channel, const std::string& path);
    bool export_bone_channels(const anim::Animation& animation, const ExportedModel& target,
                              const ChannelSink& add_channel, const std::string& path);
    // Blend weights, at the union of the bs keys (sums of linear pieces), for every exported
    // mesh whose morph targets the curves name (collected in `used_shapes`). False, with a
    // warning, when sampling fails: the animation is then not exported.
    bool export_weights(const anim::Animation& animation, const anim::Skeleton& skeleton,
                        const ChannelSink& add_channel, std::set<std::string>& used_shapes,
                        const std::string& path);
    // One warning for every curve nothing exported can carry.
    void warn_unbound_curves(const cast::ConstAnimation& cast_animation,
                             const std::vector<std::size_t>& targets,
                             const std::set<std::string>& used_shapes, const std::string& path);
    // Sets `failure`: sampling needs `need` ("... needs N samples (...)"), past sample_limit().
    void fail_sample_limit(const std::string& path, const std::string& need);
    bool export_visibility(const anim::Animation& animation, const anim::Skeleton& skeleton,
                           const ChannelSink& add_channel, const std::string& path);
    std::vector<std::pair<const cast::Node*, int>> materials_;
    // Applies what a glTF import carried for `material` (`kept`: alpha, sides, factors next to
    // textures, UV sets, extensions) over what its slots gave `out`.
    void restore_material(tinygltf::Material& out, const nlohmann::json& kept,
                          const cast::ConstMaterial& material, const std::string& path);
    // Carried extension `name` (JSON `value`) into `out`: each textureInfo's "castkit_slot"
    // becomes the index of a texture of that slot's File, with its carried sampler (`samplers`
    // by "<name>.<property>"); a slot without a File is dropped with a warning.
    void restore_extension(tinygltf::Material& out, const std::string& name, nlohmann::json value,
                           const nlohmann::json& samplers, const cast::ConstMaterial& material,
                           const std::string& path);
    // The texture showing the image at file `path` with sampler `settings` (carried JSON), made
    // on first use; KTX2 and WebP images are shown through KHR_texture_basisu and
    // EXT_texture_webp (then required). Identical textures and samplers are shared. O(textures).
    int texture_for(std::string_view path, const nlohmann::json& settings);
    // The sampler index for carried `settings` (values glTF does not define are ignored); -1
    // for glTF's default (REPEAT, no filters). Identical samplers are shared. O(samplers).
    int sampler_for(const nlohmann::json& settings);
    // One Cast Mesh as a glTF mesh node (under the Model's node, or at the root when skinned):
    // its primitive's attributes, indices and material, then its morph targets.
    void export_mesh(const cast::ConstModel& model, const cast::ConstMesh& mesh,
                     ExportedModel& exported, int skin, const std::string& path);
    // NORMAL and TANGENT, then one warning counting the zero-length ones replaced. Returns
    // add_normals()'s normals.
    std::shared_ptr<const std::vector<glm::vec3>> add_normals_and_tangents(
        const cast::ConstMesh& mesh, std::size_t count, tinygltf::Primitive& primitive,
        const std::string& path);
    // TANGENT made from the UV layer of the material's normal texture, when the primitive has
    // NORMAL but the mesh stores no tangents: glTF viewers would otherwise each make their own
    // (the Khronos validator's MESH_PRIMITIVE_GENERATED_TANGENT_SPACE). O(faces + vertices).
    void add_generated_tangents(const cast::ConstMesh& mesh, std::size_t count,
                                const std::vector<glm::vec3>* fixed_normals,
                                tinygltf::Primitive& primitive);
    // NORMAL: borrowed when every normal is of unit length, else normalised into a copy
    // (returned, for the tangents; empty when borrowed). Null when the mesh has no normals of
    // its vertex count (a wrong count is dropped with a warning).
    std::shared_ptr<const std::vector<glm::vec3>> add_normals(const cast::ConstMesh& mesh,
                                                              std::size_t count,
                                                              tinygltf::Primitive& primitive,
                                                              std::size_t& replaced,
                                                              const std::string& path);
    // TANGENT against the exported normals (`fixed_normals`, or the stored ones when it is
    // empty); dropped with a warning without normals. Counts replaced tangents in `replaced`.
    void add_tangents(const cast::ConstMesh& mesh, std::size_t count,
                      const std::vector<glm::vec3>* fixed_normals, tinygltf::Primitive& primitive,
                      std::size_t& replaced, const std::string& path);
    // TEXCOORD_n, borrowed; a layer of the wrong count is dropped with a warning.
    void add_uv_layers(const cast::ConstMesh& mesh, std::size_t count,
                       tinygltf::Primitive& primitive, const std::string& path);
    // COLOR_n, borrowed; layers glTF cannot take as stored are dropped with a warning.
    void add_color_layers(const cast::ConstMesh& mesh, std::size_t count,
                          tinygltf::Primitive& primitive, const std::string& path);
    // JOINTS_n and WEIGHTS_n: per vertex the merged, normalised influences, strongest first.
    // False (with a warning) when the weight buffers are too short: the mesh is then unskinned.
    bool add_joints_and_weights(const cast::ConstMesh& mesh, std::size_t count,
                                std::size_t bone_count, tinygltf::Primitive& primitive,
                                const std::string& path);
    // The faces as the index accessor (borrowed when stored at a width glTF takes), or POINTS
    // without faces. False (with a warning) when a face names a vertex that does not exist:
    // the mesh is then dropped.
    bool add_indices(const cast::ConstMesh& mesh, std::size_t count, tinygltf::Primitive& primitive,
                     const std::string& path);
    // The Model's blend shapes of `mesh` as morph targets (POSITION deltas), with their names
    // in the mesh's extras and their default weights in its weights.
    void add_morph_targets(const cast::ConstModel& cast_model, const cast::ConstMesh& mesh,
                           tinygltf::Primitive& primitive, tinygltf::Mesh& gltf_mesh,
                           ExportedMesh& exported_mesh, const std::string& path);
    // A morph target's weight when nothing animates it, carried by an import; else 0.
    float default_weight(const cast::ConstBlendShape& shape, const std::string& name) const;
    int export_skin(ExportedModel& exported, const std::string& path);
};

// The glTF local transform of every bone at rest or in a pose: T · C · R · S (rule 18), which
// glTF can hold as TRS unless C is a non-uniform scale (then the nearest TRS).
anim::Transform gltf_local(const anim::Skeleton& skeleton, std::span<const anim::Transform> locals,
                           std::size_t bone);
// True when bone `bone`'s glTF local transform needs segment scale compensation.
bool needs_compensation(const anim::Skeleton& skeleton, std::span<const anim::Transform> locals,
                        std::size_t bone);

// Writes the model (its buffer 0 being the `binary` parts, `size` bytes) into `sink` as .glb,
// or as .gltf with a .bin beside sink.file() (a data URI when the sink is not a file); `name`
// names the output in diagnostics.
Expected<void> write_files(tinygltf::Model& model, const InstanceFiles& instance_files,
                           const PlacedNodes& placed,
                           std::span<const std::span<const std::byte>> binary, std::size_t size,
                           Sink& sink, const std::string& name, bool binary_container);

tinygltf::Value string_value(std::string_view text);
// The image a texture shows: its `source`, else its KHR_texture_basisu / EXT_texture_webp
// source; -1 for none. set_texture_source changes whichever of them it has.
int texture_source(const tinygltf::Texture& texture);
void set_texture_source(tinygltf::Texture& texture, int image);

// glTF's numbers are finite (JSON has no NaN; tinygltf would write null): a non-finite node
// transform, morph weight or material factor becomes glTF's default for it, with a warning;
// non-finite accessor bounds (vertex positions that are not numbers) are an error.
// O(nodes + meshes + materials + accessors).
Expected<void> keep_numbers_finite(Exporter& exporter);

// gltf::write of a document that has passed the check before every write (the registry's write,
// which checks first; write() after its own check): the instances it inlines are checked as they
// are read. `original_bytes` is what the document the check repaired into `checked` takes, 0
// when it was whole (both count against the export's budget).
Expected<void> write_checked(const cast::Document& checked, Sink& sink, const WriteContext& context,
                             Diagnostics& diagnostics, const ExportOptions& options,
                             std::size_t original_bytes = 0);

}  // namespace castkit::gltf::detail
