// The glTF importer's shared pieces: accessors decoded with every check the spec implies (any
// component type, normalisation, byte strides, sparse substitution), node world transforms,
// and the Cast Models the importer builds, for the animation import to bind to.
#pragma once

#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/expected.hpp>
#include <castkit/formats/gltf.hpp>
#include <castkit/io/side_outputs.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "tiny_gltf_config.hpp"

namespace castkit::gltf::detail {

// A parsed glTF: tinygltf's structures, whose buffers' `data` stay empty, and the bytes of
// each buffer, views that keep their storage (the file's mapping, a decoded data URI) alive.
struct Gltf {
    tinygltf::Model model;
    std::vector<cast::SharedBytes> buffers;
};

// Parses the glTF JSON `json` with simdjson and loads its buffers without copying them: a first
// buffer without uri is `bin` (the GLB binary chunk; null for a .gltf), a data: URI is decoded,
// any other uri is mapped as a side file of `side_files`. Errors name a JSON pointer
// ("/accessors/3/count") as their path. O(JSON size + data URI size).
//
// tinygltf's structures may take `walk_budget` bytes: past it the parse fails with
// gltf.json-budget, which names `budget_limit` (the file's whole budget). Objects' extras keep
// castkit's own keys only (read_back_extra).
Expected<Gltf> parse_gltf(std::string_view json, const cast::SharedBytes* bin,
                          const Context& side_files, std::size_t walk_budget,
                          std::size_t budget_limit);
// Whether `key` of an object's extras is one castkit's import reads back (castkit's exporter
// writes them); the others are dropped, with gltf.extras-dropped.
bool read_back_extra(std::string_view key);
// The bytes of a base64 `data:` URI; nullopt for any other URI or malformed base64. O(size).
std::optional<std::vector<std::byte>> decode_data_uri(std::string_view uri);

class Importer {
  public:
    Importer(const Gltf& parsed, std::string file, const ReadOptions& options,
             Diagnostics& warnings)
        : gltf(parsed.model),
          buffers(parsed.buffers),
          file(std::move(file)),
          options(options),
          warnings(warnings) {}

    const tinygltf::Model& gltf;
    const std::vector<cast::SharedBytes>& buffers;
    std::string file;
    ReadOptions options;
    Diagnostics& warnings;

    void warn(std::string path, std::string message);
    // A warning with its own stable id (docs/diagnostics.md) instead of "gltf.import".
    void warn(std::string path, std::string message, std::string rule);
    Unexpected fail(std::string path, std::string message) const;

    // Accessor `index` as `components` floats per element: normalised integers map to [0, 1]
    // or [-1, 1], other integers convert as values; sparse entries replace the dense ones.
    // `path` names the referring JSON property for errors. O(count).
    Expected<std::vector<float>> read_floats(int index, int components,
                                             const std::string& path) const;
    // The bytes of buffer view `index`, checked against its buffer; `where` names the referring
    // JSON property for errors. O(1).
    Expected<std::span<const unsigned char>> view_bytes(int index, const std::string& where) const;
    // Accessor `index` as unsigned integers (indices, joints); must be an integer type.
    Expected<std::vector<std::uint32_t>> read_integers(int index, int components,
                                                       const std::string& path) const;

    // Checks node references (children in range, one parent each, no cycles) and computes
    // parents and world matrices. The up-axis node castkit writes counts as identity.
    Expected<void> resolve_nodes();
    std::vector<int> parents;
    std::vector<glm::mat4> locals;
    std::vector<glm::mat4> worlds;
    int up_node = -1;
    std::string up_axis;
    // The axis the scene's root Instances stood in before castkit's export turned each to +Y
    // up (the scene's extras castkit_up_axis), or empty: their locals are turned back.
    std::string root_turn;
    void turn_back_root_instances();
    // Whether node `i` is one of those.
    bool turned_root(std::size_t i) const;

    // One warning per kind of content Cast cannot hold: cameras, lights, material variants,
    // GPU instancing, and optional extensions castkit does not read.
    void warn_unkept_content();
    // One gltf.extension-unknown warning per extension in extensionsUsed that castkit does not
    // read (the required ones were refused before).
    void warn_unknown_extensions();
    // One warning counting the objects whose extras (application data) hold anything but the
    // keys castkit itself reads back, naming the first. O(objects).
    void warn_unkept_extras();

    // Scene import into `root`.
    Expected<void> import_models(cast::Root& root);
    Expected<void> import_animations(cast::Root& root);
    // One animation channel, decoded and checked (import_animation.cpp).
    struct DecodedChannel;
    // Animation `a` into a new Cast Animation of `root`, at the frame rate that keeps its key
    // times; `resampled_keys` counts the keys resampling made so far, against max_keys.
    Expected<void> import_animation(cast::Root& root, std::size_t a, std::uint64_t& resampled_keys);
    // The channels of `animation` (at JSON pointer `at`) that Cast can hold, decoded; the others
    // are dropped with warnings.
    Expected<std::vector<DecodedChannel>> decode_channels(const tinygltf::Animation& animation,
                                                          const std::string& at);
    // Channel `c` appended to `decoded` unless it is dropped; the nodes it names that are
    // neither bones nor meshes are collected in `unbound` for one warning.
    Expected<void> decode_channel(const tinygltf::Animation& animation, std::size_t c,
                                  const std::string& at, std::vector<DecodedChannel>& decoded,
                                  std::vector<std::string>& unbound);
    // A channel's interpolation and key times (finite, non-negative, increasing).
    Expected<void> read_key_times(const tinygltf::AnimationSampler& sampler,
                                  const std::string& sampler_at, DecodedChannel& channel);
    // A channel's key values: `width` per key (per morph target for weights).
    Expected<void> read_key_values(const tinygltf::AnimationSampler& sampler,
                                   const std::string& sampler_at, DecodedChannel& channel);
    // A decoded channel's Cast curves at whole frames of `framerate`: LINEAR keys as they are,
    // STEP and CUBICSPLINE resampled at every frame (counted in `resampled`, their keys in
    // `resampled_keys`).
    Expected<void> add_channel_curves(cast::Animation& out, const DecodedChannel& channel,
                                      double framerate, std::uint64_t& resampled_keys,
                                      std::size_t& resampled);
    // The absolute curves of one channel: a quaternion curve, one per axis, or one per morph
    // target, over `frames` with the channel's width of values per frame in `keys`.
    void add_curves(cast::Animation& out, const DecodedChannel& channel,
                    const std::vector<std::uint32_t>& frames, const std::vector<float>& keys);

    // The nodes of the scene that is imported: the default scene (`scene`, else the first);
    // nodes reachable only from other scenes are left out, with one warning. Every node when
    // the file has at most one scene. O(nodes).
    Expected<void> select_scene();
    std::vector<std::uint8_t> in_scene;

    // A Cast Model being built: `key` is the glTF node whose world transform is the Model's
    // (-1: the scene), and its Skeleton's bones are glTF nodes with a rest world in Model
    // space: a skin's bind pose (inverse bind matrix⁻¹) for joints, the node's rest world for
    // the other bones (nodes between joints, animated ancestors, rigid animation chains).
    struct ModelBuild {
        int key = -1;
        cast::Model model;
        glm::mat4 inverse_world{1.0f};
        std::vector<int> bone_nodes;           // in bone order
        std::map<int, std::uint32_t> bone_of;  // glTF node → bone index
        std::map<int, glm::mat4> rest_worlds;  // glTF node → rest world in Model space
        std::map<int, int> bind_of;            // joint node → the skin whose bind it holds
        std::map<int, cast::Material> materials;
        // Makes glTF node `node` the next bone unless it is one already; whether it was new.
        bool add_bone(int node) {
            if (!bone_of.try_emplace(node, static_cast<std::uint32_t>(bone_nodes.size())).second)
                return false;
            bone_nodes.push_back(node);
            return true;
        }
    };
    std::vector<ModelBuild> builds;
    // Every Model of each key, in the order made; the first holds the key's unskinned content.
    std::map<int, std::vector<std::size_t>> builds_of_key;
    // Per skin, the Model whose Skeleton holds it (-1: not imported), and the matrix taking its
    // bind space (where its vertices are) into that Model's space.
    std::vector<int> skin_build;
    std::vector<glm::mat4> skin_transforms;
    // The matrix that takes a skin's bind space into Model space so that the most joints rest
    // where they bind: any choice keeps skinning exact (vertices and bind poses move together),
    // this one keeps the file's rest pose wherever it can. O(joints), at most 64 tried.
    glm::mat4 bind_space_to_model(const tinygltf::Skin& skin, const std::vector<glm::mat4>& binds,
                                  const glm::mat4& inverse_world) const;
    // Unskinned mesh nodes under animated nodes → (their Model, the bone they follow).
    std::map<int, std::pair<std::size_t, int>> rigid_bones;
    // The Model for `key` (-1: the scene) that holds unskinned content, made on first use.
    std::size_t model_for(cast::Root& root, int key);
    // A new Model for `key`, named and placed after the key node.
    std::size_t new_build(cast::Root& root, int key);
    // The nodes a skin's Skeleton needs besides its joints: those between a joint and the
    // joints' lowest common ancestor (`common`, -1 when the joints have none), which is itself
    // a joint or the node the Skeleton's Model hangs from. O(nodes marked), each node once.
    struct SkinNodes {
        int common = -1;
        bool joint_on_top = false;
        std::vector<int> between;
    };
    SkinNodes skin_nodes(const tinygltf::Skin& skin) const;
    // Per node, 1 when an animation channel moves it (translation, rotation or scale).
    std::vector<std::uint8_t> moved_nodes() const;
    // Skins into Skeletons (import_skeletons.cpp): each skin joins a Model of its key whose
    // joints it shares with the same bind pose, else gets a Model of its own.
    Expected<void> plan_skins(cast::Root& root);
    // Rigid animation chains (animated nodes above unskinned meshes) into Skeletons.
    void plan_rigid_chains(cast::Root& root);
    // The Cast bones of every planned Skeleton: names, parents, rest transforms; where a
    // joint's bind pose differs from its node's rest pose, the rest pose is carried for the
    // glTF export and held by one-key curves in each animation (rest_curves), one warning per
    // skin. O(bones).
    void add_bones();
    // The glTF rest transform of a bone node whose Cast rest (its bind pose) differs, and
    // which of its parts differ, for the one-key curves each animation gets.
    struct RestCurves {
        anim::Transform rest;
        bool translation = false, rotation = false, scale = false;
    };
    std::map<int, RestCurves> rest_curves;
    // A node property an animation's channels move, and the time of its first key.
    struct AnimatedPart {
        int node;
        std::string property;
        double first_time;
    };
    // One-key curves at the animation's first key holding every bone of rest_curves whose
    // differing parts `animated` leaves unmoved where glTF rests them. O(bones × channels).
    void add_rest_curves(cast::Animation& out, const std::vector<AnimatedPart>& animated,
                         double framerate);

    // Where a mesh node's primitives go: their Model, the one matrix that takes the file's
    // vertices into the Model's space, and the bones their weights name.
    struct MeshPlacement {
        std::size_t build = 0;
        glm::mat4 transform{1.0f};
        bool transformed = false;                 // transform is not the identity
        std::vector<std::uint32_t> joint_bones;   // skin joint → bone, for skinned meshes
        std::optional<std::uint32_t> rigid_bone;  // the bone a rigidly animated mesh follows
    };
    Expected<MeshPlacement> place_mesh_node(cast::Root& root, std::size_t node);
    // The transforms, relative to node `node`, of its EXT_mesh_gpu_instancing instances: one
    // identity without the extension, or for a skinned mesh (the extension leaves skinning
    // undefined); counted in `instancing`, for the import's warnings.
    Expected<std::vector<glm::mat4>> instance_transforms(std::size_t node);
    // The TRS of each EXT_mesh_gpu_instancing instance of node `node`, as the file stores them;
    // none without the extension. O(instances).
    Expected<std::vector<anim::Transform>> gpu_instances(std::size_t node) const;
    struct InstancingCounts {
        std::size_t copied_nodes = 0, copies = 0, kept_nodes = 0;
    } instancing;
    void warn_instancing();

    // Maps read back as Cast worlds (import_world.cpp, docs/gltf.md "Maps"). `world_output` is
    // FormatOptions::world_output: empty reads every file into one document.
    std::filesystem::path world_output;
    // Whether the scene is a map: a node draws its mesh through EXT_mesh_gpu_instancing or
    // carries extras.castkit_instance, or copying every mesh drawn more than once would pass the
    // file's decode budget (a CAD assembly drawing its bolts 40 times stays one file). O(nodes).
    bool is_map() const;
    // A gltf.instances-budget error when copying each mesh once per node that draws it (and per
    // GPU instance) would decode more values than the file's budget; in a `world`, the nodes
    // that become Instances copy nothing. O(nodes).
    Expected<void> check_copies(bool world) const;
    // The values a Cast copy of mesh `mesh` costs against the budget, and that budget.
    std::size_t copy_values(int mesh) const;
    std::size_t decode_budget() const;
    // Per glTF mesh, the meshes the scene draws of it: one per node, an instanced node's
    // instances each (a skinned one once); in a `world`, the nodes that stay meshes. O(nodes).
    std::map<int, std::size_t> mesh_draws(bool world) const;
    // What copying every draw but each mesh's first costs, saturating. O(meshes).
    std::size_t copies_values(const std::map<int, std::size_t>& draws) const;
    // Whether mesh node `node` becomes Instances in a world: unskinned, not moved by an animation.
    bool instanced(std::size_t node) const;
    // Mesh node `node` as one Instance of `root` per draw (each GPU instance, else the node):
    // its world TRS, its name, and a File naming the model file of its mesh.
    Expected<void> add_instances(cast::Root& root, std::size_t node);
    // The file name (beside world_output) of the model file holding mesh `node.mesh`, written
    // on first use through side_outputs: one Model of the mesh's primitives in mesh space.
    Expected<std::string> model_file(std::size_t node);
    std::map<int, std::string> model_files;  // glTF mesh → its model file's name
    std::set<std::string> model_names;       // the model file names asked for so far
    // Node `node`'s world TRS, exact when one node of its chain carries the whole transform;
    // nullopt when the world matrix has shear (no TRS holds it).
    std::optional<anim::Transform> world_trs(std::size_t node) const;
    // The name an Instance drawing node `node` takes: the nearest node above (or at) it that
    // carries extras.castkit_instance, else the node's own name, else its mesh's, else
    // "mesh<index>".
    std::string instance_name(std::size_t node) const;
    struct ShearCounts {
        std::size_t instances = 0;
        int first = -1;
    } sheared;
    void warn_sheared_instances();
    std::size_t world_instances = 0;
    // Each primitive of mesh node `node` a Cast Mesh of the placement's Model.
    Expected<void> import_mesh_node(const MeshPlacement& placement, std::size_t node);
    // One primitive being imported, for the passes below (one per kind of attribute).
    struct Primitive {
        const tinygltf::Primitive& primitive;
        std::size_t index;
        std::string path;   // "/meshes/M/primitives/P"
        std::size_t count;  // vertices, once POSITION is read
        const MeshPlacement& placement;
        std::size_t node;
        const std::vector<std::string>& target_names;
        // The accessor of attribute `name`; -1 when the primitive has none.
        int attribute(const std::string& name) const;
    };
    Expected<void> import_primitive(Primitive& in);
    // Attribute `name` decoded as `components` floats per vertex, its count checked.
    Expected<std::vector<float>> read_attribute(const Primitive& in, const std::string& name,
                                                int components) const;
    // Sets Cast array `property` to a view of attribute `name` when the file already has it
    // in the array's layout (zero copy); false when it must be decoded.
    Expected<bool> view_attribute(const Primitive& in, cast::Mesh& out, const std::string& property,
                                  cast::PropertyType type, const std::string& name,
                                  int component_type, int components, bool normalized) const;
    Expected<void> add_directions(const Primitive& in, cast::Mesh& out) const;
    Expected<void> add_uv_layers(const Primitive& in, cast::Mesh& out);
    Expected<void> add_color_layers(const Primitive& in, cast::Mesh& out);
    Expected<void> add_weights(const Primitive& in, cast::Mesh& out);
    Expected<void> add_faces(const Primitive& in, cast::Mesh& out) const;
    Expected<void> add_morph_targets(const Primitive& in, cast::Mesh& out,
                                     const std::vector<float>& positions);
    // One warning naming the `prefix`N attribute sets past the `kept` numbered from 0 without a
    // gap (TEXCOORD_1 without TEXCOORD_0), which Cast's layer numbering cannot hold.
    void warn_unnumbered_sets(const Primitive& in, std::string_view prefix, std::uint32_t kept);
    // The node's name for a bone or curve: its own, else "node<index>", with "-2", "-3", …
    // appended when an earlier node has the name, so two nodes never share one. O(log nodes).
    const std::string& bone_name(int node);
    std::set<std::string> used_bone_names;

    // Where each glTF node became a bone (its name), and each mesh node's morph target names,
    // for the animation import.
    std::map<int, std::string> bone_names;
    std::map<int, std::vector<std::string>> mesh_target_names;
    // Where embedded images are also unpacked (ReadContext's first texture folder, as
    // --textures DIR asks); empty unpacks none.
    std::filesystem::path image_directory;
    // The file name each embedded image's File names ("" when it could not be kept), by index.
    std::map<int, std::string> placed_images;
    // The run's side-output writer (ReadContext's options.side_outputs, or the import's own).
    std::shared_ptr<SideOutputs> side_outputs;
    // The images the document carries in memory (cast::Document::embedded), by File name.
    cast::EmbeddedFiles embedded;
    // The name embedded image `source` (a buffer view or a data: URI) travels under, once:
    // `<source file stem>_<image name or imageN>.<png|jpg|…|bin>` (the extension its bytes call
    // for), kept in `embedded` (`-2`, `-3`, … for another image of that name) and, with an
    // image_directory, unpacked there through side_outputs (`-2`, … when that name holds another
    // file, with a texture.renamed warning). "" with a warning when the bytes cannot be had.
    // O(image size).
    Expected<std::string> place_embedded_image(int source);
    // The bytes of embedded image `source`: a view of its buffer (a glb's binary chunk), or a
    // decoded data: URI; nullopt, with a warning, when they do not decode or are empty.
    Expected<std::optional<cast::SharedBytes>> embedded_image_bytes(int source);
    // `<source file stem>_<image name or imageN>` with the extension `bytes` call for.
    std::string embedded_image_name(int source, cast::Bytes bytes) const;
    // Writes the image into image_directory as `name` (or the name side_outputs gives it); the
    // file name it holds. O(size).
    Expected<std::string> unpack_image(int source, const std::string& name, cast::Bytes bytes);

    // What Cast cannot hold but a Cast → glTF export restores: the castkit-gltf JSON written
    // to the Metadata `gltf` property (default morph weights, material settings).
    nlohmann::json carried = nlohmann::json::object();

    // Values decoded from accessors so far, against a budget of kDecodeBytesFactor values per
    // buffer byte plus kDecodeConstant: an accessor shared by many meshes is decoded once per
    // use, and this bounds what a small file can make castkit allocate that way.
    mutable std::size_t decoded_values = 0;
    static constexpr std::size_t kDecodeBytesFactor = 4;
    static constexpr std::size_t kDecodeConstant = std::size_t{16} << 20;

    // The bytes of accessor `index` (checked as read_floats checks it, `path` naming the
    // referring property) when they are already a Cast array's layout: `components` values of
    // `component_type` per element, tightly packed, `normalized` as given, no sparse
    // substitution, in storage with an owner a Cast property can keep alive. nullopt when they
    // are not (the caller then decodes them). O(1) without sparse entries.
    Expected<std::optional<cast::SharedBytes>> packed_view(int index, int component_type,
                                                           int components, bool normalized,
                                                           const std::string& path) const;

  private:
    // Sets `mesh`'s faces to a view of the primitive's index accessor when it already is Cast's
    // `f` (a packed triangle list in the smallest type for its largest index); false when the
    // faces must be decoded (read_faces). Checks every index against the `count` vertices.
    // O(indices).
    Expected<bool> view_faces(cast::Mesh& mesh, const tinygltf::Primitive& primitive,
                              std::size_t count, const std::string& prim) const;
    // `wb` and `wv` (4 influences) as views of accessors `joints` and `weights` (JOINTS_0,
    // WEIGHTS_0) when they already are Cast's layout: joint j is bone j, joints in the smallest
    // type for the largest, packed float weights; empty when they must be decoded. Checks
    // every joint against the skin. O(vertices).
    Expected<std::vector<cast::Property>> view_weights(
        int joints, int weights, const std::vector<std::uint32_t>& joint_bones, std::size_t count,
        const std::string& prim) const;
    // The primitive's triangles (strips and fans turned into lists), each index checked
    // against the `count` vertices. O(indices).
    Expected<std::vector<std::uint32_t>> read_faces(const tinygltf::Primitive& primitive,
                                                    std::size_t count,
                                                    const std::string& prim) const;
    // read_floats and read_integers: T is float or std::uint32_t (integer types only).
    // Without `decode`, only the checks: the result is empty.
    template <class T>
    Expected<std::vector<T>> read_components(int index, int components, const std::string& path,
                                             bool decode) const;
    // Counts the `components` values per element an accessor decodes against the file's
    // budget (decoded_values); an error past it, or for an accessor without a buffer view
    // larger than the file could justify.
    Expected<void> charge_decoded_values(const tinygltf::Accessor& accessor, const std::string& at,
                                         int components) const;
    // The accessor's buffer view data (`element` bytes per element) decoded into `out` when
    // `decode`, after checking its stride, offset and extent; zeros without a buffer view.
    template <class T>
    Expected<void> read_dense(const tinygltf::Accessor& accessor, const std::string& at,
                              int components, std::size_t element, bool decode,
                              std::vector<T>& out) const;
    // The accessor's sparse substitution checked and, when `decode`, applied to `out`.
    template <class T>
    Expected<void> apply_sparse(const tinygltf::Accessor& accessor, const std::string& at,
                                int components, std::size_t element, bool decode,
                                std::vector<T>& out) const;
    Expected<void> import_material(cast::Model& model, int index,
                                   std::map<int, cast::Material>& done);
    // What Cast's Material cannot hold (alpha mode and cutoff, double sides, factors next to
    // textures, UV sets, samplers, extension settings), into carried["materials"][hash of
    // `out`]; the extensions' textures become File slots of `out`.
    Expected<void> carry_material(int index, cast::Material& out);
    // Each textureInfo in material extension `name` (JSON `extension`, of material `at`): its
    // texture linked to a free `extraN` slot of `out` (the specular-glossiness diffuse map to
    // `albedo` when free) that the textureInfo names as "castkit_slot" instead of its "index",
    // its sampler into `samplers` under "<name>.<property>"; a texture that cannot be kept is
    // removed, with a gltf.extension-texture-dropped warning naming "<name>.<property>".
    Expected<void> carry_extension_textures(nlohmann::json& extension, const std::string& name,
                                            const std::string& at, cast::Material& out,
                                            nlohmann::json& samplers);
    // KHR_materials_pbrSpecularGlossiness's diffuseFactor as the linear `albedo` Color when
    // nothing else fills that slot (Cast readers see the diffuse colour).
    void carry_diffuse_factor(const tinygltf::Material& material, cast::Material& out);
    // The sampler of texture `texture_index` as the JSON members that differ from glTF's
    // defaults (wrapS/wrapT REPEAT, no filters); empty when none do.
    nlohmann::json sampler_settings(int texture_index) const;
    // The file path texture `texture_index` shows (its URI decoded, or the embedded image
    // written out); "" with a warning when it has no image or the image could not be kept; an
    // error naming `where` when the texture does not exist.
    Expected<std::string> texture_path(int texture_index, const std::string& where);

  public:
    // The KHR_texture_transform each UV set of material `index` is drawn with, when all the
    // material's textures on that set agree (then baking it into the UVs is exact).
    std::map<int, glm::mat3> uv_transforms(int index);
};

// A node's translation, rotation and scale as stored (defaults for the absent ones); the caller
// has checked their sizes (resolve_nodes) and that the node has no matrix.
anim::Transform node_trs(const tinygltf::Node& node);

// `text` with every character but ASCII letters, digits, '-', '_' and '.' replaced by '_', so
// that a name from the file can only ever name a file inside the folder it is written to.
std::string file_name_part(std::string_view text);

// An error naming the first entry of `extensionsRequired` castkit does not read.
Expected<void> check_required_extensions(const tinygltf::Model& model, const std::string& file);
// Decodes every meshopt-compressed buffer view, and every Draco-compressed primitive, into new
// buffers the views and accessors then point at; sizes are checked against the compressed
// bytes before anything is allocated. O(decoded size).
Expected<void> decode_meshopt(Gltf& gltf, const std::string& file);
Expected<void> decode_draco(Gltf& gltf, const std::string& file);

}  // namespace castkit::gltf::detail
