// Typed views of the 18 Cast node types. A view is a pointer to a generic Node plus its parent
// and document; reading goes straight to the stored properties (the last of a name, rule 7) and
// applies the spec's defaults (rule 14); writing replaces one property and keeps the rest, so
// anything a view does not know survives.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/values.hpp>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::cast {

// Quaternions are stored XYZW (rule 18); glm::quat's constructor takes WXYZ.
inline glm::quat quat_from_xyzw(const glm::vec4& v) { return glm::quat(v.w, v.x, v.y, v.z); }
inline glm::vec4 xyzw_from_quat(const glm::quat& q) { return glm::vec4(q.x, q.y, q.z, q.w); }

class NodeView {
  public:
    NodeView() = default;
    NodeView(Node* node, Node* parent, Document* document)
        : node_(node), parent_(parent), document_(document) {}

    explicit operator bool() const { return node_ != nullptr; }
    Node& node() const { return *node_; }
    Node* parent() const { return parent_; }
    Document* document() const { return document_; }
    std::uint64_t hash() const { return node_->hash; }

    // Shared accessors for the properties many nodes have.
    std::optional<std::string_view> string(std::string_view name) const;
    std::optional<std::uint64_t> integer(std::string_view name) const;
    std::optional<float> real(std::string_view name) const;
    std::optional<glm::vec2> vec2(std::string_view name) const;
    std::optional<glm::vec3> vec3(std::string_view name) const;
    std::optional<glm::vec4> vec4(std::string_view name) const;
    bool flag(std::string_view name, bool fallback) const;

    void set_string(std::string name, std::string_view value);
    void set_hash_link(std::string name, std::uint64_t hash);
    void set_flag(std::string name, bool value);
    void set_real(std::string name, float value);
    void set_vec3(std::string name, const glm::vec3& value);
    void set_vec4(std::string name, const glm::vec4& value);

  protected:
    // Children with this id, as views of type V.
    template <class V>
    std::vector<V> children(NodeId id) const {
        std::vector<V> out;
        for (auto& child : node_->children)
            if (child->is(id)) out.emplace_back(child.get(), node_, document_);
        return out;
    }
    template <class V>
    V first_child(NodeId id) const {
        for (auto& child : node_->children)
            if (child->is(id)) return V(child.get(), node_, document_);
        return V();
    }
    // A new child with a fresh hash (rule 12).
    template <class V>
    V add(NodeId id) const {
        Node& child = node_->add_child(std::make_unique<Node>(id, document_->next_hash()));
        return V(&child, node_, document_);
    }
    // The child of `scope` whose hash is `hash` (rule 12: links resolve among siblings).
    static Node* find_by_hash(Node* scope, std::uint64_t hash);

    Node* node_ = nullptr;
    Node* parent_ = nullptr;
    Document* document_ = nullptr;
};

class Skeleton;
class Mesh;
class Material;
class File;

// ---- Scene ----------------------------------------------------------------------------------

class Metadata : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> author() const { return string("a"); }
    std::optional<std::string_view> software() const { return string("s"); }
    // "x", "y" or "z"; a hint only.
    std::optional<std::string_view> up_axis() const { return string("up"); }
    std::optional<std::string_view> scene_root() const { return string("sr"); }
    void set_author(std::string_view v) { set_string("a", v); }
    void set_software(std::string_view v) { set_string("s", v); }
    void set_up_axis(std::string_view v) { set_string("up", v); }
    void set_scene_root(std::string_view v) { set_string("sr", v); }
};

class File : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> path() const { return string("p"); }
    void set_path(std::string_view v) { set_string("p", v); }
};

class Instance : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    std::optional<std::uint64_t> reference_file_hash() const { return integer("rf"); }
    // The File child that `rf` names.
    File reference_file() const;
    void set_reference_file(const File& file) { set_hash_link("rf", file.hash()); }
    std::optional<glm::vec3> position() const { return vec3("p"); }
    std::optional<glm::vec4> rotation() const { return vec4("r"); }
    std::optional<glm::vec3> scale() const { return vec3("s"); }
    void set_position(const glm::vec3& v) { set_vec3("p", v); }
    void set_rotation(const glm::vec4& v) { set_vec4("r", v); }
    void set_scale(const glm::vec3& v) { set_vec3("s", v); }
    std::vector<File> files() const { return children<File>(NodeId::File); }
    File add_file() { return add<File>(NodeId::File); }
};

// ---- Models -------------------------------------------------------------------------------

class Color : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    // "srgb" (default) or "linear".
    std::string_view color_space() const { return string("cs").value_or("srgb"); }
    void set_color_space(std::string_view v) { set_string("cs", v); }
    std::optional<glm::vec4> rgba() const { return vec4("rgba"); }
    void set_rgba(const glm::vec4& v) { set_vec4("rgba", v); }
};

class Material : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    std::optional<std::string_view> type() const { return string("t"); }
    void set_type(std::string_view v) { set_string("t", v); }

    struct Slot {
        std::string_view name;  // "albedo", "normal", "extra0", …
        std::uint64_t hash;
    };
    // Every slot property (every `l` property other than n and t), in file order.
    std::vector<Slot> slots() const;
    std::optional<std::uint64_t> slot_hash(std::string_view slot) const { return integer(slot); }
    // The File or Color child a slot links to (either view may be empty).
    File slot_file(std::string_view slot) const;
    Color slot_color(std::string_view slot) const;
    void set_slot(std::string slot, const NodeView& target) {
        set_hash_link(std::move(slot), target.hash());
    }

    std::vector<File> files() const { return children<File>(NodeId::File); }
    std::vector<Color> colors() const { return children<Color>(NodeId::Color); }
    File add_file() { return add<File>(NodeId::File); }
    Color add_color() { return add<Color>(NodeId::Color); }
};

class Mesh : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }

    ArrayView<glm::vec3> positions() const { return ArrayView<glm::vec3>::of(node_->find("vp")); }
    ArrayView<glm::vec3> normals() const { return ArrayView<glm::vec3>::of(node_->find("vn")); }
    ArrayView<glm::vec3> tangents() const { return ArrayView<glm::vec3>::of(node_->find("vt")); }
    // Triangle indices, widened from b/h/i; CCW (rule 17).
    IndexView faces() const { return IndexView::of(node_->find("f")); }
    std::size_t vertex_count() const { return positions().size(); }
    std::size_t face_count() const { return faces().size() / 3; }

    // `ul`, or 0.
    std::uint32_t uv_layer_count() const;
    ArrayView<glm::vec2> uv_layer(std::uint32_t layer) const;

    // `cl`; when absent, 1 if the legacy `vc` exists (rule 15).
    std::uint32_t color_layer_count() const;
    // The property holding colour layer `layer` (`c%d`, or `vc` for legacy files), or nullptr.
    const Property* color_layer_property(std::uint32_t layer) const;
    // True when the layer is packed RGBA8 (`i`), false for float RGBA (`v4`).
    bool color_layer_is_packed(std::uint32_t layer) const;
    // Layer `layer` as float RGBA: packed bytes become byte/255 (rule 15).
    std::vector<glm::vec4> color_layer(std::uint32_t layer) const;

    // Weights: `mi` influences per vertex; `wb` bone indices and `wv` values.
    std::uint32_t max_weight_influence() const;
    IndexView weight_bones() const { return IndexView::of(node_->find("wb")); }
    ArrayView<float> weight_values() const { return ArrayView<float>::of(node_->find("wv")); }

    // "linear" (default) or "quaternion".
    std::string_view skinning_method() const { return string("sm").value_or("linear"); }
    std::optional<std::uint64_t> material_hash() const { return integer("m"); }
    // The Material of the same Model that `m` names.
    Material material() const;

    void set_positions(std::span<const glm::vec3> v);
    void set_normals(std::span<const glm::vec3> v);
    void set_tangents(std::span<const glm::vec3> v);
    void set_faces(std::span<const std::uint32_t> indices);
    // Sets `u<layer>` and grows `ul` to cover it.
    void set_uv_layer(std::uint32_t layer, std::span<const glm::vec2> uvs);
    // Sets `c<layer>` packed (`i`) or float (`v4`), and grows `cl` to cover it.
    void set_color_layer_packed(std::uint32_t layer, std::span<const std::uint32_t> rgba8);
    void set_color_layer(std::uint32_t layer, std::span<const glm::vec4> rgba);
    // `bones` and `values` hold vertex_count × influences entries.
    void set_weights(std::uint32_t influences, std::span<const std::uint32_t> bones,
                     std::span<const float> values);
    void set_skinning_method(std::string_view v) { set_string("sm", v); }
    void set_material(const Material& material) { set_hash_link("m", material.hash()); }
};

class Hair : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    // Segments per strand; each strand has segments + 1 particles.
    IndexView segments() const { return IndexView::of(node_->find("se")); }
    ArrayView<glm::vec3> particles() const { return ArrayView<glm::vec3>::of(node_->find("pt")); }
    std::optional<std::uint64_t> material_hash() const { return integer("m"); }
    Material material() const;
    void set_segments(std::span<const std::uint32_t> v) { node_->set(make_indices("se", v)); }
    void set_particles(std::span<const glm::vec3> v) { node_->set(make_array<glm::vec3>("pt", v)); }
    void set_material(const Material& material) { set_hash_link("m", material.hash()); }
};

class BlendShape : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    std::optional<std::uint64_t> base_shape_hash() const { return integer("b"); }
    Mesh base_shape() const;
    void set_base_shape(const Mesh& mesh) { set_hash_link("b", mesh.hash()); }
    IndexView vertex_indices() const { return IndexView::of(node_->find("vi")); }
    // Absolute target positions of the vertices in vertex_indices() (rule 19).
    ArrayView<glm::vec3> vertex_positions() const {
        return ArrayView<glm::vec3>::of(node_->find("vp"));
    }
    // `ts[0]`, default 1.0 (rule 19).
    float target_weight_scale() const;
    void set_targets(std::span<const std::uint32_t> indices, std::span<const glm::vec3> positions);
    void set_target_weight_scale(float v) { set_real("ts", v); }
};

class Bone : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    // Parent index, -1 for none (rule 8: stored as a signed i32).
    std::int32_t parent_index() const;
    void set_parent_index(std::int32_t index);
    bool segment_scale_compensate() const { return flag("ssc", true); }
    void set_segment_scale_compensate(bool v) { set_flag("ssc", v); }
    std::optional<glm::vec3> local_position() const { return vec3("lp"); }
    std::optional<glm::vec4> local_rotation() const { return vec4("lr"); }
    std::optional<glm::vec3> world_position() const { return vec3("wp"); }
    std::optional<glm::vec4> world_rotation() const { return vec4("wr"); }
    std::optional<glm::vec3> scale() const { return vec3("s"); }
    void set_local_position(const glm::vec3& v) { set_vec3("lp", v); }
    void set_local_rotation(const glm::vec4& v) { set_vec4("lr", v); }
    void set_world_position(const glm::vec3& v) { set_vec3("wp", v); }
    void set_world_rotation(const glm::vec4& v) { set_vec4("wr", v); }
    void set_scale(const glm::vec3& v) { set_vec3("s", v); }
};

class IKHandle : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    std::optional<std::uint64_t> start_bone_hash() const { return integer("sb"); }
    std::optional<std::uint64_t> end_bone_hash() const { return integer("eb"); }
    std::optional<std::uint64_t> target_bone_hash() const { return integer("tb"); }
    std::optional<std::uint64_t> pole_vector_bone_hash() const { return integer("pv"); }
    std::optional<std::uint64_t> pole_bone_hash() const { return integer("pb"); }
    Bone start_bone() const { return bone(start_bone_hash()); }
    Bone end_bone() const { return bone(end_bone_hash()); }
    Bone target_bone() const { return bone(target_bone_hash()); }
    Bone pole_vector_bone() const { return bone(pole_vector_bone_hash()); }
    Bone pole_bone() const { return bone(pole_bone_hash()); }
    bool use_target_rotation() const { return flag("tr", false); }
    // Target Offset (`to`), added upstream after the spec capture.
    std::optional<glm::vec3> target_offset() const { return vec3("to"); }
    void set_start_bone(const Bone& b) { set_hash_link("sb", b.hash()); }
    void set_end_bone(const Bone& b) { set_hash_link("eb", b.hash()); }
    void set_target_bone(const Bone& b) { set_hash_link("tb", b.hash()); }
    void set_pole_vector_bone(const Bone& b) { set_hash_link("pv", b.hash()); }
    void set_pole_bone(const Bone& b) { set_hash_link("pb", b.hash()); }
    void set_use_target_rotation(bool v) { set_flag("tr", v); }
    void set_target_offset(const glm::vec3& v) { set_vec3("to", v); }

  private:
    Bone bone(std::optional<std::uint64_t> hash) const;
};

class Constraint : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    // "pt" point, "or" orient, "sc" scale.
    std::optional<std::string_view> constraint_type() const { return string("ct"); }
    void set_constraint_type(std::string_view v) { set_string("ct", v); }
    std::optional<std::uint64_t> constraint_bone_hash() const { return integer("cb"); }
    std::optional<std::uint64_t> target_bone_hash() const { return integer("tb"); }
    Bone constraint_bone() const;
    Bone target_bone() const;
    void set_constraint_bone(const Bone& b) { set_hash_link("cb", b.hash()); }
    void set_target_bone(const Bone& b) { set_hash_link("tb", b.hash()); }
    bool maintain_offset() const { return flag("mo", false); }
    void set_maintain_offset(bool v) { set_flag("mo", v); }
    // `co` as stored (v3 or v4), else the default for the constraint type (rule 14):
    // (0,0,0) for pt, (0,0,0,1) for or, (1,1,1) for sc; w is 0 for v3 values.
    glm::vec4 custom_offset() const;
    void set_custom_offset(const glm::vec3& v) { set_vec3("co", v); }
    void set_custom_offset(const glm::vec4& v) { set_vec4("co", v); }
    std::optional<float> weight() const { return real("wt"); }
    void set_weight(float v) { set_real("wt", v); }
    bool skip_x() const { return flag("sx", false); }
    bool skip_y() const { return flag("sy", false); }
    bool skip_z() const { return flag("sz", false); }
    void set_skip_x(bool v) { set_flag("sx", v); }
    void set_skip_y(bool v) { set_flag("sy", v); }
    void set_skip_z(bool v) { set_flag("sz", v); }
};

class Skeleton : public NodeView {
  public:
    using NodeView::NodeView;
    std::vector<Bone> bones() const { return children<Bone>(NodeId::Bone); }
    std::vector<IKHandle> ik_handles() const { return children<IKHandle>(NodeId::IKHandle); }
    std::vector<Constraint> constraints() const { return children<Constraint>(NodeId::Constraint); }
    Bone add_bone() { return add<Bone>(NodeId::Bone); }
    IKHandle add_ik_handle() { return add<IKHandle>(NodeId::IKHandle); }
    Constraint add_constraint() { return add<Constraint>(NodeId::Constraint); }
    // The Bone child with this hash, or an empty view.
    Bone bone_by_hash(std::uint64_t hash) const;
};

class Model : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    std::optional<glm::vec3> position() const { return vec3("p"); }
    std::optional<glm::vec4> rotation() const { return vec4("r"); }
    std::optional<glm::vec3> scale() const { return vec3("s"); }
    void set_position(const glm::vec3& v) { set_vec3("p", v); }
    void set_rotation(const glm::vec4& v) { set_vec4("r", v); }
    void set_scale(const glm::vec3& v) { set_vec3("s", v); }

    // The first Skeleton child (a Model has at most one).
    Skeleton skeleton() const { return first_child<Skeleton>(NodeId::Skeleton); }
    std::vector<Mesh> meshes() const { return children<Mesh>(NodeId::Mesh); }
    std::vector<Hair> hairs() const { return children<Hair>(NodeId::Hair); }
    std::vector<BlendShape> blend_shapes() const {
        return children<BlendShape>(NodeId::BlendShape);
    }
    std::vector<Material> materials() const { return children<Material>(NodeId::Material); }
    Skeleton add_skeleton() { return add<Skeleton>(NodeId::Skeleton); }
    Mesh add_mesh() { return add<Mesh>(NodeId::Mesh); }
    Hair add_hair() { return add<Hair>(NodeId::Hair); }
    BlendShape add_blend_shape() { return add<BlendShape>(NodeId::BlendShape); }
    Material add_material() { return add<Material>(NodeId::Material); }
};

// ---- Animation ----------------------------------------------------------------------------

class Curve : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> node_name() const { return string("nn"); }
    void set_node_name(std::string_view v) { set_string("nn", v); }
    // rq, tx, ty, tz, sx, sy, sz, bs, vb.
    std::optional<std::string_view> key_property() const { return string("kp"); }
    void set_key_property(std::string_view v) { set_string("kp", v); }
    // Key frames, widened from b/h/i.
    IndexView key_frames() const { return IndexView::of(node_->find("kb")); }
    // The raw key value buffer (f, v4, or b/h/i for vb).
    const Property* key_values() const { return node_->find("kv"); }
    ArrayView<float> float_values() const { return ArrayView<float>::of(key_values()); }
    ArrayView<glm::vec4> quaternion_values() const {
        return ArrayView<glm::vec4>::of(key_values());
    }
    IndexView integer_values() const { return IndexView::of(key_values()); }
    // "absolute", "relative", "additive"; nullopt when missing (rule 22 treats it as absolute).
    std::optional<std::string_view> mode() const { return string("m"); }
    void set_mode(std::string_view v) { set_string("m", v); }
    // Additive Blend Weight, default 1.0.
    float additive_blend_weight() const { return real("ab").value_or(1.0f); }
    void set_additive_blend_weight(float v) { set_real("ab", v); }
    void set_key_frames(std::span<const std::uint32_t> frames) {
        node_->set(make_indices("kb", frames));
    }
    void set_float_values(std::span<const float> v) { node_->set(make_array<float>("kv", v)); }
    void set_quaternion_values(std::span<const glm::vec4> v) {
        node_->set(make_array<glm::vec4>("kv", v));
    }
    // Visibility keys: stored in the smallest of b/h/i.
    void set_integer_values(std::span<const std::uint32_t> v) { node_->set(make_indices("kv", v)); }
};

class CurveModeOverride : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> node_name() const { return string("nn"); }
    void set_node_name(std::string_view v) { set_string("nn", v); }
    std::optional<std::string_view> mode() const { return string("m"); }
    void set_mode(std::string_view v) { set_string("m", v); }
    bool override_translation() const { return flag("ot", false); }
    bool override_rotation() const { return flag("or", false); }
    bool override_scale() const { return flag("os", false); }
    void set_override_translation(bool v) { set_flag("ot", v); }
    void set_override_rotation(bool v) { set_flag("or", v); }
    void set_override_scale(bool v) { set_flag("os", v); }
};

class NotificationTrack : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    IndexView key_frames() const { return IndexView::of(node_->find("kb")); }
    void set_key_frames(std::span<const std::uint32_t> frames) {
        node_->set(make_indices("kb", frames));
    }
};

class Animation : public NodeView {
  public:
    using NodeView::NodeView;
    std::optional<std::string_view> name() const { return string("n"); }
    void set_name(std::string_view v) { set_string("n", v); }
    std::optional<float> framerate() const { return real("fr"); }
    void set_framerate(float v) { set_real("fr", v); }
    bool looping() const { return flag("lo", false); }
    void set_looping(bool v) { set_flag("lo", v); }
    Skeleton skeleton() const { return first_child<Skeleton>(NodeId::Skeleton); }
    std::vector<Curve> curves() const { return children<Curve>(NodeId::Curve); }
    std::vector<CurveModeOverride> curve_mode_overrides() const {
        return children<CurveModeOverride>(NodeId::CurveModeOverride);
    }
    std::vector<NotificationTrack> notification_tracks() const {
        return children<NotificationTrack>(NodeId::NotificationTrack);
    }
    Skeleton add_skeleton() { return add<Skeleton>(NodeId::Skeleton); }
    Curve add_curve() { return add<Curve>(NodeId::Curve); }
    CurveModeOverride add_curve_mode_override() {
        return add<CurveModeOverride>(NodeId::CurveModeOverride);
    }
    NotificationTrack add_notification_track() {
        return add<NotificationTrack>(NodeId::NotificationTrack);
    }
};

class Root : public NodeView {
  public:
    using NodeView::NodeView;
    std::vector<Model> models() const { return children<Model>(NodeId::Model); }
    std::vector<Animation> animations() const { return children<Animation>(NodeId::Animation); }
    std::vector<Instance> instances() const { return children<Instance>(NodeId::Instance); }
    std::vector<Metadata> metadata() const { return children<Metadata>(NodeId::Metadata); }
    Model add_model() { return add<Model>(NodeId::Model); }
    Animation add_animation() { return add<Animation>(NodeId::Animation); }
    Instance add_instance() { return add<Instance>(NodeId::Instance); }
    Metadata add_metadata() { return add<Metadata>(NodeId::Metadata); }
};

}  // namespace castkit::cast
