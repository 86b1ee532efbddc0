// Typed views of the 18 Cast node types. Each type comes twice: a const view (ConstMesh) that
// reads, and a mutable view (Mesh) that also writes and adds children; a mutable view converts
// to the const one. A view points at its node only: links resolve among the node's siblings
// through its parent, and new children draw hashes from the counter of the document the node is
// in now. Views own nothing: a view is valid while its node is alive. Views are made by the
// document and by other views (never from a raw node), so each one sees a node of its type. Reading
// goes straight to the stored properties (the last of a name, rule 7) and applies the spec's
// defaults (rule 14); writing replaces one property and keeps the rest, so anything a view does not
// know survives. A link setter (set_material, set_start_bone, ...) takes the node it links to,
// which must be of the same document, or of the same tree of its own: a hash binds only inside
// its document, and another document's node stops the program (MutableView::set_link).
#pragma once

#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/cast/units.hpp>
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

// A node with nothing in it, which every empty view (a lookup that found nothing) reads: its
// readers answer empty (no properties, no children, defaults) instead of dereferencing null.
const Node& empty_node();
// A mutable view that has no node was asked to change one: a bug in the caller, who can test
// the view first (`if (skeleton)`). Says which call on stderr and aborts; never returns.
[[noreturn]] void empty_view_changed(const char* call);
// A link setter was given a node of another document or tree (`empty`: an empty view): a bug in
// the caller, who holds the node. Says which call on stderr and aborts; never returns.
[[noreturn]] void foreign_link(const char* call, bool empty);

// Views are made by the document, by other views and by view_of (below), never from a raw
// pointer: the key to their constructors is theirs.
class ViewKey {
    ViewKey() = default;
    friend class Document;
    friend class ConstNodeView;
    template <class Const>
    friend class MutableView;
    template <class V, class N>
    friend V view_of(N& node);
};

// What every const view has: the node, its parent, and readers for common property shapes.
class ConstNodeView {
  public:
    ConstNodeView() = default;
    ConstNodeView(ViewKey, const Node* node) : node_(node != nullptr ? node : &empty_node()) {}

    // False for an empty view (a lookup that found nothing).
    explicit operator bool() const { return node_ != &empty_node(); }
    const Node& node() const { return *node_; }
    const Node* parent() const { return node_->parent(); }
    std::uint64_t hash() const { return node_->hash(); }

    // Shared accessors for the properties many nodes have.
    std::optional<std::string_view> string(std::string_view name) const;
    std::optional<std::uint64_t> integer(std::string_view name) const;
    std::optional<float> real(std::string_view name) const;
    std::optional<glm::vec2> vec2(std::string_view name) const;
    std::optional<glm::vec3> vec3(std::string_view name) const;
    std::optional<glm::vec4> vec4(std::string_view name) const;
    bool flag(std::string_view name, bool fallback) const;

  protected:
    // Children with this id, as views of type V.
    template <class V>
    std::vector<V> children(NodeId id) const {
        return children_of<V>(node_, id);
    }
    template <class V>
    V first_child(NodeId id) const {
        return first_child_of<V>(node_, id);
    }

    // The lookups every view makes, const and mutable alike (N is Node or const Node): the
    // children of `scope` with this id as views of type V, the first of them, and the one with
    // this hash. A null scope (an empty mutable view) has none.
    template <class V, class N>
    static std::vector<V> children_of(N* scope, NodeId id) {
        std::vector<V> out;
        if (scope == nullptr) return out;
        for (N& child : scope->children())
            if (child.is(id)) out.push_back(V(ViewKey(), &child));
        return out;
    }
    template <class V, class N>
    static V first_child_of(N* scope, NodeId id) {
        if (scope == nullptr) return V();
        for (N& child : scope->children())
            if (child.is(id)) return V(ViewKey(), &child);
        return V();
    }
    template <class V, class N>
    static V resolve(N* scope, std::optional<std::uint64_t> hash, NodeId id) {
        if (!hash || scope == nullptr) return V();
        for (N& child : scope->children())
            if (child.hash() == *hash && child.is(id)) return V(ViewKey(), &child);
        return V();
    }

    const Node* node_ = &empty_node();
};

// What a mutable view adds to its const view `Const`: the node to write, and children with
// fresh hashes from its document (rule 12).
template <class Const>
class MutableView : public Const {
  public:
    MutableView() = default;
    MutableView(ViewKey key, Node* node) : Const(key, node), writable_(node) {}

    // The node to change; aborts on an empty view (empty_view_changed).
    Node& node() const { return target(__func__); }
    Node* parent() const { return writable_ != nullptr ? writable_->parent() : nullptr; }

    void set_string(std::string name, std::string_view value) const {
        target(__func__).set(make_string(std::move(name), value));
    }
    // Stores `hash` as it is: the caller vouches that it names a node of this document. The
    // typed link setters (set_material, set_start_bone, ...) take the node instead, and check.
    void set_hash_link(std::string name, std::uint64_t hash) const {
        target(__func__).set(make_value<std::uint64_t>(std::move(name), hash));
    }
    void set_flag(std::string name, bool value) const {
        target(__func__).set(make_bool(std::move(name), value));
    }
    void set_real(std::string name, float value) const {
        target(__func__).set(make_value<float>(std::move(name), value));
    }
    void set_vec3(std::string name, const glm::vec3& value) const {
        target(__func__).set(make_value<glm::vec3>(std::move(name), value));
    }
    void set_vec4(std::string name, const glm::vec4& value) const {
        target(__func__).set(make_value<glm::vec4>(std::move(name), value));
    }

  protected:
    // Sets link `name` to `linked`'s hash: every typed link setter. A hash link binds only
    // inside its document (in another, its hash names whatever node holds it there), so
    // `linked` must be a node of this one, or of this tree of its own: another document's node
    // or an empty view is refused as foreign_link(call) (use Document::adopt or insert to
    // bring the node over first). O(depth).
    void set_link(std::string name, const ConstNodeView& linked, const char* call) const {
        Node& node = target(call);
        if (!linked || !in_one_tree(node, linked.node())) foreign_link(call, !linked);
        node.set(make_value<std::uint64_t>(std::move(name), linked.hash()));
    }
    // The node to change, or empty_view_changed(call) on an empty view.
    Node& target(const char* call) const {
        if (writable_ == nullptr) empty_view_changed(call);
        return *writable_;
    }
    // Children with this id, as views of type V; none for an empty view.
    template <class V>
    std::vector<V> children(NodeId id) const {
        return Const::template children_of<V>(writable_, id);
    }
    template <class V>
    V first_child(NodeId id) const {
        return Const::template first_child_of<V>(writable_, id);
    }
    // A new child with a fresh hash (rule 12).
    template <class V>
    V add(NodeId id) const {
        return V(ViewKey(), &target(__func__).add_child(id));
    }

    Node* writable_ = nullptr;
};

class ConstSkeleton;
class ConstMesh;
class ConstMaterial;
class ConstFile;

// ---- Scene ----------------------------------------------------------------------------------

// The axis a Metadata `up` names (a hint only).
enum class Axis : std::uint8_t { X, Y, Z };
// "x" → X, "y" → Y, "z" → Z; nullopt for anything else.
std::optional<Axis> axis_from_name(std::string_view name);
// "x", "y", "z".
std::string_view axis_name(Axis axis);

class ConstMetadata : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Metadata;
    std::optional<std::string_view> author() const { return string("a"); }
    std::optional<std::string_view> software() const { return string("s"); }
    // The stored `up` text, whatever it says.
    std::optional<std::string_view> up_axis_name() const { return string("up"); }
    // `up` as an Axis; nullopt when missing, an error naming the text when it is not x, y or z.
    std::optional<Expected<Axis>> up_axis() const;
    std::optional<std::string_view> scene_root() const { return string("sr"); }
    // The stored `units` text (castkit's extension, rule 36: the unit of every length of the
    // Root), whatever it says.
    std::optional<std::string_view> units_name() const { return string("units"); }
    // `units` as Units; nullopt when missing, an error naming the text when it is not mm, cm, m,
    // in or ft.
    std::optional<Expected<Units>> units() const;
};
class Metadata : public MutableView<ConstMetadata> {
  public:
    using MutableView::MutableView;
    void set_author(std::string_view v) { set_string("a", v); }
    void set_software(std::string_view v) { set_string("s", v); }
    void set_up_axis(Axis v) { set_string("up", axis_name(v)); }
    void set_scene_root(std::string_view v) { set_string("sr", v); }
    void set_units(Units v) { set_string("units", cast::units_name(v)); }
};

class ConstFile : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::File;
    std::optional<std::string_view> path() const { return string("p"); }
};
class File : public MutableView<ConstFile> {
  public:
    using MutableView::MutableView;
    void set_path(std::string_view v) { set_string("p", v); }
};

class ConstInstance : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Instance;
    std::optional<std::string_view> name() const { return string("n"); }
    std::optional<std::uint64_t> reference_file_hash() const { return integer("rf"); }
    // The File child that `rf` names.
    ConstFile reference_file() const;
    std::optional<glm::vec3> position() const { return vec3("p"); }
    std::optional<glm::vec4> rotation() const { return vec4("r"); }
    std::optional<glm::vec3> scale() const { return vec3("s"); }
    std::vector<ConstFile> files() const { return children<ConstFile>(NodeId::File); }
};
class Instance : public MutableView<ConstInstance> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_reference_file(const ConstFile& file) { set_link("rf", file, __func__); }
    void set_position(const glm::vec3& v) { set_vec3("p", v); }
    void set_rotation(const glm::vec4& v) { set_vec4("r", v); }
    void set_scale(const glm::vec3& v) { set_vec3("s", v); }
    std::vector<File> files() const { return children<File>(NodeId::File); }
    // A File child naming `path`, which the spec requires (the file the Instance places).
    File add_file(std::string_view path) const;
};

// ---- Models -------------------------------------------------------------------------------

// A Color's colour space (`cs`).
enum class ColorSpace : std::uint8_t { Srgb, Linear };

class ConstColor : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Color;
    std::optional<std::string_view> name() const { return string("n"); }
    // The stored `cs` text; "srgb" when missing (rule 14).
    std::string_view color_space_name() const { return string("cs").value_or("srgb"); }
    // `cs` as a ColorSpace (Srgb when missing); an error naming any other text.
    Expected<ColorSpace> color_space() const;
    std::optional<glm::vec4> rgba() const { return vec4("rgba"); }
};
class Color : public MutableView<ConstColor> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_color_space(ColorSpace v) {
        set_string("cs", v == ColorSpace::Linear ? "linear" : "srgb");
    }
    void set_rgba(const glm::vec4& v) { set_vec4("rgba", v); }
};

class ConstMaterial : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Material;
    std::optional<std::string_view> name() const { return string("n"); }
    std::optional<std::string_view> type() const { return string("t"); }

    struct Slot {
        std::string_view name;  // "albedo", "normal", "extra0", …
        std::uint64_t hash;
    };
    // Every slot property (every `l` property other than n and t), in file order.
    std::vector<Slot> slots() const;
    std::optional<std::uint64_t> slot_hash(std::string_view slot) const { return integer(slot); }
    // The File or Color child a slot links to (either view may be empty).
    ConstFile slot_file(std::string_view slot) const;
    ConstColor slot_color(std::string_view slot) const;

    std::vector<ConstFile> files() const { return children<ConstFile>(NodeId::File); }
    std::vector<ConstColor> colors() const { return children<ConstColor>(NodeId::Color); }
};
class Material : public MutableView<ConstMaterial> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_type(std::string_view v) { set_string("t", v); }
    void set_slot(std::string slot, const ConstNodeView& target) {
        set_link(std::move(slot), target, __func__);
    }
    std::vector<File> files() const { return children<File>(NodeId::File); }
    std::vector<Color> colors() const { return children<Color>(NodeId::Color); }
    // A File child naming `path`, which the spec requires (the image a slot links to).
    File add_file(std::string_view path) const;
    Color add_color() { return add<Color>(NodeId::Color); }
    // The File or Color child a slot links to, writable (either view may be empty).
    File slot_file(std::string_view slot) const;
    Color slot_color(std::string_view slot) const;
};

// How a Mesh's weights deform it (`sm`).
enum class SkinningMethod : std::uint8_t { Linear, Quaternion };

class ConstMesh : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Mesh;
    std::optional<std::string_view> name() const { return string("n"); }

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

    // The stored `sm` text; "linear" when missing (rule 14).
    std::string_view skinning_method_name() const { return string("sm").value_or("linear"); }
    // `sm` as a SkinningMethod (Linear when missing); an error naming any other text.
    Expected<SkinningMethod> skinning_method() const;
    std::optional<std::uint64_t> material_hash() const { return integer("m"); }
    // The Material of the same Model that `m` names.
    ConstMaterial material() const;
};
class Mesh : public MutableView<ConstMesh> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_positions(std::span<const glm::vec3> v);
    void set_normals(std::span<const glm::vec3> v);
    void set_tangents(std::span<const glm::vec3> v);
    void set_faces(std::span<const std::uint32_t> indices);
    // Sets `u<layer>` and grows `ul` to cover it. Fails (nothing changed) for a layer over 254:
    // `ul` is a byte holding the layer count.
    Expected<void> set_uv_layer(std::uint32_t layer, std::span<const glm::vec2> uvs);
    // Sets `c<layer>` packed (`i`) or float (`v4`), and grows `cl` to cover it; fails as
    // set_uv_layer does.
    Expected<void> set_color_layer_packed(std::uint32_t layer,
                                          std::span<const std::uint32_t> rgba8);
    Expected<void> set_color_layer(std::uint32_t layer, std::span<const glm::vec4> rgba);
    // `bones` and `values` hold vertex_count × influences entries. Fails (nothing changed) when
    // `influences` does not fit `mi`'s byte (1..255) or the two spans differ in length.
    Expected<void> set_weights(std::uint32_t influences, std::span<const std::uint32_t> bones,
                               std::span<const float> values);
    void set_skinning_method(SkinningMethod v) {
        set_string("sm", v == SkinningMethod::Quaternion ? "quaternion" : "linear");
    }
    void set_material(const ConstMaterial& material) { set_link("m", material, __func__); }
    // The Material of the same Model that `m` names, writable.
    Material material() const;
};

class ConstHair : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Hair;
    std::optional<std::string_view> name() const { return string("n"); }
    // Segments per strand; each strand has segments + 1 particles.
    IndexView segments() const { return IndexView::of(node_->find("se")); }
    ArrayView<glm::vec3> particles() const { return ArrayView<glm::vec3>::of(node_->find("pt")); }
    std::optional<std::uint64_t> material_hash() const { return integer("m"); }
    ConstMaterial material() const;
};
class Hair : public MutableView<ConstHair> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_segments(std::span<const std::uint32_t> v) {
        target(__func__).set(make_indices("se", v));
    }
    void set_particles(std::span<const glm::vec3> v) {
        target(__func__).set(make_array<glm::vec3>("pt", v));
    }
    void set_material(const ConstMaterial& material) { set_link("m", material, __func__); }
};

class ConstBlendShape : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::BlendShape;
    std::optional<std::string_view> name() const { return string("n"); }
    std::optional<std::uint64_t> base_shape_hash() const { return integer("b"); }
    ConstMesh base_shape() const;
    IndexView vertex_indices() const { return IndexView::of(node_->find("vi")); }
    // Absolute target positions of the vertices in vertex_indices() (rule 19).
    ArrayView<glm::vec3> vertex_positions() const {
        return ArrayView<glm::vec3>::of(node_->find("vp"));
    }
    // `ts[0]`, default 1.0 (rule 19).
    float target_weight_scale() const;
};
class BlendShape : public MutableView<ConstBlendShape> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_base_shape(const ConstMesh& mesh) { set_link("b", mesh, __func__); }
    void set_targets(std::span<const std::uint32_t> indices, std::span<const glm::vec3> positions);
    void set_target_weight_scale(float v) { set_real("ts", v); }
};

class ConstBone : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Bone;
    std::optional<std::string_view> name() const { return string("n"); }
    // Parent index, -1 for none (rule 8: stored as a signed i32).
    std::int32_t parent_index() const;
    bool segment_scale_compensate() const { return flag("ssc", true); }
    std::optional<glm::vec3> local_position() const { return vec3("lp"); }
    std::optional<glm::vec4> local_rotation() const { return vec4("lr"); }
    std::optional<glm::vec3> world_position() const { return vec3("wp"); }
    std::optional<glm::vec4> world_rotation() const { return vec4("wr"); }
    std::optional<glm::vec3> scale() const { return vec3("s"); }
};
class Bone : public MutableView<ConstBone> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_parent_index(std::int32_t index);
    void set_segment_scale_compensate(bool v) { set_flag("ssc", v); }
    void set_local_position(const glm::vec3& v) { set_vec3("lp", v); }
    void set_local_rotation(const glm::vec4& v) { set_vec4("lr", v); }
    void set_world_position(const glm::vec3& v) { set_vec3("wp", v); }
    void set_world_rotation(const glm::vec4& v) { set_vec4("wr", v); }
    void set_scale(const glm::vec3& v) { set_vec3("s", v); }
};

class ConstIKHandle : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::IKHandle;
    std::optional<std::string_view> name() const { return string("n"); }
    std::optional<std::uint64_t> start_bone_hash() const { return integer("sb"); }
    std::optional<std::uint64_t> end_bone_hash() const { return integer("eb"); }
    std::optional<std::uint64_t> target_bone_hash() const { return integer("tb"); }
    std::optional<std::uint64_t> pole_vector_bone_hash() const { return integer("pv"); }
    std::optional<std::uint64_t> pole_bone_hash() const { return integer("pb"); }
    ConstBone start_bone() const { return bone(start_bone_hash()); }
    ConstBone end_bone() const { return bone(end_bone_hash()); }
    ConstBone target_bone() const { return bone(target_bone_hash()); }
    ConstBone pole_vector_bone() const { return bone(pole_vector_bone_hash()); }
    ConstBone pole_bone() const { return bone(pole_bone_hash()); }
    bool use_target_rotation() const { return flag("tr", false); }
    // Target Offset (`to`), added upstream after the spec capture.
    std::optional<glm::vec3> target_offset() const { return vec3("to"); }

  private:
    ConstBone bone(std::optional<std::uint64_t> hash) const;
};
class IKHandle : public MutableView<ConstIKHandle> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_start_bone(const ConstBone& b) { set_link("sb", b, __func__); }
    void set_end_bone(const ConstBone& b) { set_link("eb", b, __func__); }
    void set_target_bone(const ConstBone& b) { set_link("tb", b, __func__); }
    void set_pole_vector_bone(const ConstBone& b) { set_link("pv", b, __func__); }
    void set_pole_bone(const ConstBone& b) { set_link("pb", b, __func__); }
    void set_use_target_rotation(bool v) { set_flag("tr", v); }
    void set_target_offset(const glm::vec3& v) { set_vec3("to", v); }
};

// What a Constraint constrains (`ct`).
enum class ConstraintType : std::uint8_t { Point, Orient, Scale };
// "pt" → Point, "or" → Orient, "sc" → Scale; nullopt for anything else.
std::optional<ConstraintType> constraint_type_from_name(std::string_view name);
// The `ct` text of `type`.
std::string_view constraint_type_name(ConstraintType type);

class ConstConstraint : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Constraint;
    std::optional<std::string_view> name() const { return string("n"); }
    // "pt" point, "or" orient, "sc" scale.
    std::optional<std::string_view> constraint_type() const { return string("ct"); }
    std::optional<std::uint64_t> constraint_bone_hash() const { return integer("cb"); }
    std::optional<std::uint64_t> target_bone_hash() const { return integer("tb"); }
    ConstBone constraint_bone() const;
    ConstBone target_bone() const;
    bool maintain_offset() const { return flag("mo", false); }
    // `co` as stored (v3 or v4), else the default for the constraint type (rule 14):
    // (0,0,0) for pt, (0,0,0,1) for or, (1,1,1) for sc; w is 0 for v3 values.
    glm::vec4 custom_offset() const;
    std::optional<float> weight() const { return real("wt"); }
    bool skip_x() const { return flag("sx", false); }
    bool skip_y() const { return flag("sy", false); }
    bool skip_z() const { return flag("sz", false); }
};
class Constraint : public MutableView<ConstConstraint> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_constraint_type(ConstraintType v) { set_string("ct", constraint_type_name(v)); }
    void set_constraint_bone(const ConstBone& b) { set_link("cb", b, __func__); }
    void set_target_bone(const ConstBone& b) { set_link("tb", b, __func__); }
    void set_maintain_offset(bool v) { set_flag("mo", v); }
    void set_custom_offset(const glm::vec3& v) { set_vec3("co", v); }
    void set_custom_offset(const glm::vec4& v) { set_vec4("co", v); }
    void set_weight(float v) { set_real("wt", v); }
    void set_skip_x(bool v) { set_flag("sx", v); }
    void set_skip_y(bool v) { set_flag("sy", v); }
    void set_skip_z(bool v) { set_flag("sz", v); }
};

class ConstSkeleton : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Skeleton;
    std::vector<ConstBone> bones() const { return children<ConstBone>(NodeId::Bone); }
    std::vector<ConstIKHandle> ik_handles() const {
        return children<ConstIKHandle>(NodeId::IKHandle);
    }
    std::vector<ConstConstraint> constraints() const {
        return children<ConstConstraint>(NodeId::Constraint);
    }
    // The Bone child with this hash, or an empty view.
    ConstBone bone_by_hash(std::uint64_t hash) const;
};
class Skeleton : public MutableView<ConstSkeleton> {
  public:
    using MutableView::MutableView;
    std::vector<Bone> bones() const { return children<Bone>(NodeId::Bone); }
    std::vector<IKHandle> ik_handles() const { return children<IKHandle>(NodeId::IKHandle); }
    std::vector<Constraint> constraints() const { return children<Constraint>(NodeId::Constraint); }
    Bone add_bone() { return add<Bone>(NodeId::Bone); }
    IKHandle add_ik_handle() { return add<IKHandle>(NodeId::IKHandle); }
    Constraint add_constraint() { return add<Constraint>(NodeId::Constraint); }
};

class ConstModel : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Model;
    std::optional<std::string_view> name() const { return string("n"); }
    std::optional<glm::vec3> position() const { return vec3("p"); }
    std::optional<glm::vec4> rotation() const { return vec4("r"); }
    std::optional<glm::vec3> scale() const { return vec3("s"); }

    // The first Skeleton child (a Model has at most one).
    ConstSkeleton skeleton() const { return first_child<ConstSkeleton>(NodeId::Skeleton); }
    std::vector<ConstMesh> meshes() const { return children<ConstMesh>(NodeId::Mesh); }
    std::vector<ConstHair> hairs() const { return children<ConstHair>(NodeId::Hair); }
    std::vector<ConstBlendShape> blend_shapes() const {
        return children<ConstBlendShape>(NodeId::BlendShape);
    }
    std::vector<ConstMaterial> materials() const {
        return children<ConstMaterial>(NodeId::Material);
    }
};
class Model : public MutableView<ConstModel> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_position(const glm::vec3& v) { set_vec3("p", v); }
    void set_rotation(const glm::vec4& v) { set_vec4("r", v); }
    void set_scale(const glm::vec3& v) { set_vec3("s", v); }
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
    // A Material with the properties the spec requires, until set otherwise: the name
    // "material<i>" (its index among the Model's materials) and the type "pbr".
    Material add_material() const;
};

// ---- Animation ----------------------------------------------------------------------------

// How a curve's keys combine with the rest and base values (`m`, rule 22).
enum class CurveMode : std::uint8_t { Absolute, Relative, Additive };
// "absolute", "relative", "additive" → the mode; nullopt for anything else.
std::optional<CurveMode> curve_mode_from_name(std::string_view name);
// The `m` text of `mode`.
std::string_view curve_mode_name(CurveMode mode);

// What a curve keys (`kp`): a translation or scale axis, the rotation, a blend shape's weight or
// a visibility.
enum class KeyProperty : std::uint8_t {
    TranslationX,  // tx
    TranslationY,  // ty
    TranslationZ,  // tz
    Rotation,      // rq
    ScaleX,        // sx
    ScaleY,        // sy
    ScaleZ,        // sz
    BlendShape,    // bs
    Visibility,    // vb
};
// "tx" … "vb" → the key property; nullopt for anything else.
std::optional<KeyProperty> key_property_from_name(std::string_view name);
// The `kp` text of `property`.
std::string_view key_property_name(KeyProperty property);
// The key properties of a translation's and of a scale's x, y and z.
inline constexpr std::array<KeyProperty, 3> kTranslationKeys = {
    KeyProperty::TranslationX, KeyProperty::TranslationY, KeyProperty::TranslationZ};
inline constexpr std::array<KeyProperty, 3> kScaleKeys = {KeyProperty::ScaleX, KeyProperty::ScaleY,
                                                          KeyProperty::ScaleZ};

class ConstCurve : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Curve;
    std::optional<std::string_view> node_name() const { return string("nn"); }
    // rq, tx, ty, tz, sx, sy, sz, bs, vb.
    std::optional<std::string_view> key_property() const { return string("kp"); }
    // Key frames, widened from b/h/i.
    IndexView key_frames() const { return IndexView::of(node_->find("kb")); }
    // The raw key value buffer (f, v4, or b/h/i for vb).
    const Property* key_values() const { return node_->find("kv"); }
    ArrayView<float> float_values() const { return ArrayView<float>::of(key_values()); }
    ArrayView<glm::vec4> quaternion_values() const {
        return ArrayView<glm::vec4>::of(key_values());
    }
    IndexView integer_values() const { return IndexView::of(key_values()); }
    // The stored `m` text; nullopt when missing.
    std::optional<std::string_view> mode_name() const { return string("m"); }
    // `m` as a CurveMode: Absolute when missing (rule 22), an error naming any other text.
    Expected<CurveMode> mode() const;
    // Additive Blend Weight, default 1.0.
    float additive_blend_weight() const { return real("ab").value_or(1.0f); }
};
class Curve : public MutableView<ConstCurve> {
  public:
    using MutableView::MutableView;
    void set_node_name(std::string_view v) { set_string("nn", v); }
    void set_key_property(KeyProperty v) { set_string("kp", key_property_name(v)); }
    void set_mode(CurveMode v) { set_string("m", curve_mode_name(v)); }
    void set_additive_blend_weight(float v) { set_real("ab", v); }
    void set_key_frames(std::span<const std::uint32_t> frames) {
        target(__func__).set(make_indices("kb", frames));
    }
    void set_float_values(std::span<const float> v) {
        target(__func__).set(make_array<float>("kv", v));
    }
    void set_quaternion_values(std::span<const glm::vec4> v) {
        target(__func__).set(make_array<glm::vec4>("kv", v));
    }
    // Visibility keys: stored in the smallest of b/h/i.
    void set_integer_values(std::span<const std::uint32_t> v) {
        target(__func__).set(make_indices("kv", v));
    }
};

class ConstCurveModeOverride : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::CurveModeOverride;
    std::optional<std::string_view> node_name() const { return string("nn"); }
    // The stored `m` text; nullopt when missing.
    std::optional<std::string_view> mode_name() const { return string("m"); }
    // `m` as a CurveMode; nullopt when missing, an error naming any other text.
    std::optional<Expected<CurveMode>> mode() const;
    bool override_translation() const { return flag("ot", false); }
    bool override_rotation() const { return flag("or", false); }
    bool override_scale() const { return flag("os", false); }
};
class CurveModeOverride : public MutableView<ConstCurveModeOverride> {
  public:
    using MutableView::MutableView;
    void set_node_name(std::string_view v) { set_string("nn", v); }
    void set_mode(CurveMode v) { set_string("m", curve_mode_name(v)); }
    void set_override_translation(bool v) { set_flag("ot", v); }
    void set_override_rotation(bool v) { set_flag("or", v); }
    void set_override_scale(bool v) { set_flag("os", v); }
};

class ConstNotificationTrack : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::NotificationTrack;
    std::optional<std::string_view> name() const { return string("n"); }
    IndexView key_frames() const { return IndexView::of(node_->find("kb")); }
};
class NotificationTrack : public MutableView<ConstNotificationTrack> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_key_frames(std::span<const std::uint32_t> frames) {
        target(__func__).set(make_indices("kb", frames));
    }
};

class ConstAnimation : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Animation;
    std::optional<std::string_view> name() const { return string("n"); }
    std::optional<float> framerate() const { return real("fr"); }
    bool looping() const { return flag("lo", false); }
    ConstSkeleton skeleton() const { return first_child<ConstSkeleton>(NodeId::Skeleton); }
    std::vector<ConstCurve> curves() const { return children<ConstCurve>(NodeId::Curve); }
    std::vector<ConstCurveModeOverride> curve_mode_overrides() const {
        return children<ConstCurveModeOverride>(NodeId::CurveModeOverride);
    }
    std::vector<ConstNotificationTrack> notification_tracks() const {
        return children<ConstNotificationTrack>(NodeId::NotificationTrack);
    }
};
class Animation : public MutableView<ConstAnimation> {
  public:
    using MutableView::MutableView;
    void set_name(std::string_view v) { set_string("n", v); }
    void set_framerate(float v) { set_real("fr", v); }
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
    // A Curve with the mode the spec requires, absolute until set (set_mode). Its node name, key
    // property, key frames and values are the caller's to set.
    Curve add_curve() const;
    CurveModeOverride add_curve_mode_override() {
        return add<CurveModeOverride>(NodeId::CurveModeOverride);
    }
    NotificationTrack add_notification_track() {
        return add<NotificationTrack>(NodeId::NotificationTrack);
    }
};

class ConstRoot : public ConstNodeView {
  public:
    using ConstNodeView::ConstNodeView;
    static constexpr NodeId kId = NodeId::Root;
    std::vector<ConstModel> models() const { return children<ConstModel>(NodeId::Model); }
    std::vector<ConstAnimation> animations() const {
        return children<ConstAnimation>(NodeId::Animation);
    }
    std::vector<ConstInstance> instances() const {
        return children<ConstInstance>(NodeId::Instance);
    }
    std::vector<ConstMetadata> metadata() const {
        return children<ConstMetadata>(NodeId::Metadata);
    }
};
class Root : public MutableView<ConstRoot> {
  public:
    using MutableView::MutableView;
    std::vector<Model> models() const { return children<Model>(NodeId::Model); }
    std::vector<Animation> animations() const { return children<Animation>(NodeId::Animation); }
    std::vector<Instance> instances() const { return children<Instance>(NodeId::Instance); }
    std::vector<Metadata> metadata() const { return children<Metadata>(NodeId::Metadata); }
    Model add_model() { return add<Model>(NodeId::Model); }
    // An Animation with the framerate the spec requires, 30 until set (set_framerate).
    Animation add_animation() const;
    Instance add_instance() { return add<Instance>(NodeId::Instance); }
    Metadata add_metadata() { return add<Metadata>(NodeId::Metadata); }
    // Its first Metadata, added when it has none: where a value no Metadata says is recorded.
    Metadata first_metadata() {
        std::vector<Metadata> held = metadata();
        return held.empty() ? add_metadata() : held.front();
    }
};

// `node` seen as the view V (a const view of any node, a mutable one of a mutable node; a
// mutable view of a const node does not compile), or an empty V
// when the node is not of V's type. Like every view, it reaches the node's parent and document
// through the node, so it is right wherever the node is.
template <class V, class N>
V view_of(N& node) {
    return node.is(V::kId) ? V(ViewKey(), &node) : V();
}

}  // namespace castkit::cast
