// A document turned to another up axis and scaled to other units (castkit/scene/axis_change.hpp).
//
// The change is a similarity S = scale · C, C a quarter turn. Every world point x becomes S·x.
// Meshes live in Model space, so their points and directions move by S and C. A root bone's
// local transform is in Model space too: its translation moves by S and its rotation becomes
// C ⊗ r. Every other bone keeps its local frame (its parent turned with it), so only its
// translation scales. Then each skinned vertex's position in its bones' frames only scales, and
// skinning gives S·x at every pose. Curves follow their bones: a root's translation curves
// trade axes (C permutes them, with signs), its absolute rotation keys become C ⊗ q, and
// relative and additive rotation keys, multiplied on the right (rule 22), stay. Model and
// Instance transforms place content that moves with them: they become S·M·S⁻¹.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/anim/skeleton.hpp>
#include <castkit/scene/axis_change.hpp>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <string>
#include <vector>

namespace castkit::scene {
namespace {

using cast::Axis;

std::size_t axis_index(Axis axis) { return static_cast<std::size_t>(axis); }

// The exact quarter turn taking `from` to `to` about the third axis (identity when equal): the
// columns are ±unit vectors, so points move without rounding.
glm::mat3 quarter_turn(Axis from, Axis to) {
    glm::mat3 turn(1.0f);
    if (from == to) return turn;
    const std::size_t f = axis_index(from), t = axis_index(to);
    turn[f] = glm::vec3(0.0f);
    turn[t] = glm::vec3(0.0f);
    turn[f][t] = 1.0f;   // from → to
    turn[t][f] = -1.0f;  // to → −from
    return turn;
}

// A length scaled in float that is no longer the length scaled: a finite value become infinite,
// or a nonzero one become zero. The first one met is kept.
struct LostLength {
    float value = 0.0f, scaled = 0.0f;
    bool found = false;
};

// S = scale · C applied to each kind of value a document holds.
struct Similarity {
    glm::mat3 turn;
    glm::quat rotation;
    float scale;
    mutable LostLength lost;

    explicit Similarity(const AxisChange& change)
        : turn(quarter_turn(change.from_up, change.to_up)),
          rotation(glm::quat_cast(turn)),
          scale(static_cast<float>(change.scale)) {}

    // Every length is scaled here, so that one the float cannot hold is found.
    float scaled(float v) const {
        const float out = scale * v;
        if (!lost.found &&
            ((std::isfinite(v) && !std::isfinite(out)) || (v != 0.0f && out == 0.0f)))
            lost = {v, out, true};
        return out;
    }
    glm::vec3 scaled(const glm::vec3& v) const { return {scaled(v.x), scaled(v.y), scaled(v.z)}; }
    glm::vec3 point(const glm::vec3& v) const { return scaled(turn * v); }
    glm::vec3 direction(const glm::vec3& v) const { return turn * v; }
    glm::vec4 turned(const glm::vec4& xyzw) const {
        return cast::xyzw_from_quat(glm::normalize(rotation * cast::quat_from_xyzw(xyzw)));
    }
    // C ⊗ r ⊗ C⁻¹: a rotation placing content that turned with it.
    glm::vec4 conjugated(const glm::vec4& xyzw) const {
        const glm::quat r = rotation * cast::quat_from_xyzw(xyzw) * glm::conjugate(rotation);
        return cast::xyzw_from_quat(glm::normalize(r));
    }
    // C·diag(s)·C⁻¹ is diagonal: the factors trade axes.
    glm::vec3 axis_scales(const glm::vec3& s) const { return glm::abs(turn * s); }
    // The axis that axis `j` turns to, and the sign it takes there.
    std::pair<std::size_t, float> axis_of(std::size_t j) const {
        for (std::size_t i = 0; i < 3; ++i)
            if (turn[j][i] != 0.0f) return {i, turn[j][i]};
        return {j, 1.0f};
    }
};

// Rewrites the vec3 array `name` of `node` through `f`, when it has one. O(array).
template <class F>
void map_vec3s(cast::Node& node, const char* name, F f) {
    const auto values = cast::ArrayView<glm::vec3>::of(node.find(name));
    if (values.empty()) return;
    std::vector<glm::vec3> out = values.to_vector();
    for (glm::vec3& v : out) v = f(v);
    node.set(cast::make_array<glm::vec3>(name, out));
}

// Rewrites the single vec3 `name` of `node` through `f`, when it has one.
template <class F>
void map_vec3(cast::Node& node, const char* name, F f) {
    const auto value = cast::ArrayView<glm::vec3>::of(node.find(name));
    if (value.size() == 1) node.set(cast::make_value<glm::vec3>(name, f(value[0])));
}

// Bone names, and whether each is a skeleton's root (the first skeleton naming it says): rule
// 24's exact match first, then any case.
class RootBones {
  public:
    void add(std::string_view name, bool root) {
        exact_.emplace(std::string(name), root);
        folded_.emplace(anim::fold_case(name), root);
    }
    std::optional<bool> is_root(std::string_view name) const {
        if (auto it = exact_.find(std::string(name)); it != exact_.end()) return it->second;
        if (auto it = folded_.find(anim::fold_case(name)); it != folded_.end()) return it->second;
        return std::nullopt;
    }

  private:
    std::map<std::string, bool> exact_, folded_;
};

// A skeleton's rests moved; its bones recorded in `roots`, root hashes in `root_hashes`.
void move_skeleton(const cast::Skeleton& skeleton, const Similarity& s, RootBones& roots,
                   std::map<std::uint64_t, bool>& bone_is_root) {
    for (cast::Bone bone : skeleton.bones()) {
        const bool root = bone.parent_index() < 0;
        if (auto name = bone.name()) roots.add(*name, root);
        bone_is_root.emplace(bone.hash(), root);
        cast::Node& node = bone.node();
        if (root) {
            map_vec3(node, "lp", [&](glm::vec3 v) { return s.point(v); });
            if (auto r = bone.local_rotation()) bone.set_local_rotation(s.turned(*r));
        } else {
            map_vec3(node, "lp", [&](glm::vec3 v) { return s.scaled(v); });
        }
        map_vec3(node, "wp", [&](glm::vec3 v) { return s.point(v); });
        if (auto r = bone.world_rotation()) bone.set_world_rotation(s.turned(*r));
    }
    for (const cast::IKHandle& handle : skeleton.ik_handles())
        map_vec3(handle.node(), "to", [&](glm::vec3 v) { return s.scaled(v); });
    for (const cast::Constraint& constraint : skeleton.constraints()) {
        if (constraint.constraint_type() != "pt") continue;
        const bool root = bone_is_root[constraint.constraint_bone_hash().value_or(0)];
        map_vec3(constraint.node(), "co",
                 [&](glm::vec3 v) { return root ? s.point(v) : s.scaled(v); });
    }
}

void move_model(const cast::Model& model, const Similarity& s, RootBones& roots,
                std::map<std::uint64_t, bool>& bone_is_root) {
    const auto point = [&](glm::vec3 v) { return s.point(v); };
    const auto direction = [&](glm::vec3 v) { return s.direction(v); };
    for (const cast::Mesh& mesh : model.meshes()) {
        map_vec3s(mesh.node(), "vp", point);
        map_vec3s(mesh.node(), "vn", direction);
        map_vec3s(mesh.node(), "vt", direction);
    }
    for (const cast::Hair& hair : model.hairs()) map_vec3s(hair.node(), "pt", point);
    for (const cast::BlendShape& shape : model.blend_shapes()) map_vec3s(shape.node(), "vp", point);
    if (const cast::Skeleton skeleton = model.skeleton())
        move_skeleton(skeleton, s, roots, bone_is_root);
}

// S·M·S⁻¹ for a Model's or an Instance's p/r/s.
void conjugate_transform(cast::Node& node, const Similarity& s) {
    map_vec3(node, "p", [&](glm::vec3 v) { return s.point(v); });
    map_vec3(node, "s", [&](glm::vec3 v) { return s.axis_scales(v); });
    if (const auto r = cast::ArrayView<glm::vec4>::of(node.find("r")); r.size() == 1)
        node.set(cast::make_value<glm::vec4>("r", s.conjugated(r[0])));
}

// The mode a root bone's rotation curve plays in: the first override in file order naming the
// bone with `or` set, else the curve's own (rule 23; a root has no ancestor to inherit from).
cast::CurveMode rotation_mode(const cast::Animation& animation, const cast::Curve& curve) {
    const std::string_view name = curve.node_name().value_or("");
    for (const cast::CurveModeOverride& o : animation.curve_mode_overrides()) {
        const std::string_view named = o.node_name().value_or("");
        const bool names = named == name || anim::fold_case(named) == anim::fold_case(name);
        if (names && o.override_rotation())
            if (auto mode = o.mode(); mode && *mode) return **mode;
    }
    const auto own = curve.mode();
    return own ? *own : cast::CurveMode::Absolute;
}

// Moves one translation curve: a root's trades axes, every one scales.
void move_translation(cast::Curve curve, std::size_t axis, bool root, const Similarity& s) {
    const auto [to, sign] = root ? s.axis_of(axis) : std::pair<std::size_t, float>{axis, 1.0f};
    std::vector<float> values = curve.float_values().to_vector();
    for (float& v : values) v = sign * s.scaled(v);
    curve.set_float_values(values);
    if (to != axis) curve.set_key_property(cast::kTranslationKeys[to]);
}

// The curves of `animation` moved; the names of bones no skeleton knows added to `unknown`.
void move_curves(const cast::Animation& animation, const Similarity& s, const RootBones& roots,
                 std::vector<std::string>& unknown) {
    for (cast::Curve curve : animation.curves()) {
        const auto property = cast::key_property_from_name(curve.key_property().value_or(""));
        if (!property) continue;
        const std::string_view name = curve.node_name().value_or("");
        const auto index = static_cast<std::size_t>(*property);
        const bool translation = index <= 2, rotation = *property == cast::KeyProperty::Rotation;
        if (!translation && !rotation) continue;
        const std::optional<bool> root = roots.is_root(name);
        if (!root && std::find(unknown.begin(), unknown.end(), name) == unknown.end())
            unknown.emplace_back(name);
        if (translation) {
            move_translation(curve, index, root.value_or(false), s);
        } else if (root.value_or(false) &&
                   rotation_mode(animation, curve) == cast::CurveMode::Absolute) {
            std::vector<glm::vec4> keys = curve.quaternion_values().to_vector();
            for (glm::vec4& q : keys) q = s.turned(q);
            curve.set_quaternion_values(keys);
        }
    }
}

// AxisMove for what formats carried in the document's Metadata.
class DocumentMove final : public AxisMove {
  public:
    DocumentMove(const Similarity& s, const std::map<std::uint64_t, bool>& bone_is_root)
        : s_(s), bone_is_root_(bone_is_root) {}
    glm::vec3 point(const glm::vec3& v) const override { return s_.point(v); }
    glm::vec3 scaled(const glm::vec3& v) const override { return s_.scaled(v); }
    glm::vec4 turned(const glm::vec4& xyzw) const override { return s_.turned(xyzw); }
    bool is_root_bone(std::uint64_t hash) const override {
        const auto bone = bone_is_root_.find(hash);
        return bone != bone_is_root_.end() && bone->second;
    }

  private:
    const Similarity& s_;
    const std::map<std::uint64_t, bool>& bone_is_root_;
};

// Every Metadata's `up` made `to_up`; one gets it when none said and the document turned or
// is not +Y up, which a file saying nothing is read as (`--from-up z --up z` on a file that does
// not say it: the output does).
void retag_up_axis(cast::Root& root, const AxisChange& change) {
    bool said = false;
    for (cast::Metadata metadata : root.metadata())
        if (metadata.up_axis_name()) {
            metadata.set_up_axis(change.to_up);
            said = true;
        }
    if (said || (change.from_up == change.to_up && change.to_up == Axis::Y)) return;
    root.first_metadata().set_up_axis(change.to_up);
}

// Every Metadata's `units` made `to_units`, when units were asked for; one gets them when none
// said, so that a later conversion reads the lengths as what they now are.
void retag_units(cast::Root& root, const AxisChange& change) {
    if (!change.to_units) return;
    bool said = false;
    for (cast::Metadata metadata : root.metadata())
        if (metadata.units_name()) {
            metadata.set_units(*change.to_units);
            said = true;
        }
    if (!said) root.first_metadata().set_units(*change.to_units);
}

// "2 bones (a, b)", the first few named.
std::string bone_list(const std::vector<std::string>& names) {
    const std::size_t shown = std::min<std::size_t>(names.size(), 3);
    std::string list = fmt::format("{}", fmt::join(names.begin(), names.begin() + shown, ", "));
    if (shown < names.size()) list += fmt::format(" and {} more", names.size() - shown);
    return fmt::format("{} {} ({})", names.size(), names.size() == 1 ? "bone" : "bones", list);
}

// A warning about the whole document read from the file `name`.
Diagnostic axes_warning(std::string_view name, std::string rule, std::string message) {
    Diagnostic diagnostic;
    diagnostic.severity = Severity::Warning;
    diagnostic.file = name;
    diagnostic.rule = std::move(rule);
    diagnostic.message = std::move(message);
    return diagnostic;
}

Diagnostic scale_error(std::string_view name, std::string message) {
    Diagnostic diagnostic = axes_warning(name, "axes.scale", std::move(message));
    diagnostic.severity = Severity::Error;
    return diagnostic;
}

// The first Metadata `units` text of `document` that names no unit; nullopt when none does.
std::optional<std::string_view> unknown_units_text(const cast::Document& document) {
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata())
            if (auto units = metadata.units(); units && !*units) return metadata.units_name();
    return std::nullopt;
}

// The units `document`'s lengths are in: --from-units, else its Metadata's, else its format's,
// else centimetres, with an `axes.assumed` warning saying why.
Units source_units(const cast::Document& document, const AxesRequest& request,
                   const DeclaredAxes& declared, std::string_view name, Diagnostics& diagnostics) {
    if (request.from_units) return *request.from_units;
    if (const std::optional<Units> said = said_units(document)) return *said;
    if (declared.units) return *declared.units;
    const std::optional<std::string_view> unknown = unknown_units_text(document);
    const std::string why =
        unknown ? fmt::format(
                      "the {} file's Metadata says its units are '{}', which is none of "
                      "mm, cm, m, in, ft",
                      declared.format, *unknown)
                : fmt::format("the {} file does not say its units", declared.format);
    diagnostics.push_back(
        axes_warning(name, "axes.assumed",
                     fmt::format("{}: assumed centimetres (--from-units sets them)", why)));
    return Units::Centimetres;
}

}  // namespace

std::optional<Axis> said_up_axis(const cast::Document& document) {
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata())
            if (auto up = metadata.up_axis(); up && *up) return **up;
    return std::nullopt;
}

std::optional<Units> said_units(const cast::Document& document) {
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata())
            if (auto units = metadata.units(); units && *units) return **units;
    return std::nullopt;
}

cast::Axis file_up_axis(const cast::Document& document, const DeclaredAxes& declared) {
    return said_up_axis(document).value_or(declared.up.value_or(Axis::Y));
}

Expected<AxisChange> plan_axis_change(const cast::Document& document, const AxesRequest& request,
                                      const DeclaredAxes& declared, std::string_view name,
                                      Diagnostics& diagnostics) {
    if (!std::isfinite(request.scale) || request.scale <= 0.0)
        return make_error(
            axes_warning(name, "axes.scale",
                         fmt::format("the scale {} is not a number above zero", request.scale)));
    AxisChange change{.scale = request.scale};
    const std::optional<Axis> said = said_up_axis(document);
    if (request.up) {
        change.to_up = *request.up;
        change.from_up = request.from_up.value_or(said.value_or(declared.up.value_or(Axis::Y)));
        if (!request.from_up && !said && !declared.up)
            diagnostics.push_back(axes_warning(
                name, "axes.assumed",
                fmt::format(
                    "the {} file does not say its up axis: assumed +Y up (--from-up sets it)",
                    declared.format)));
    } else {
        change.from_up = change.to_up = said.value_or(declared.up.value_or(Axis::Y));
    }
    if (request.units) {
        const Units from = source_units(document, request, declared, name, diagnostics);
        change.scale *= metres_per(from) / metres_per(*request.units);
        change.to_units = request.units;
    }
    // Lengths are floats, so the factor is one too: a normal float, neither 0, a subnormal
    // (which keeps too few digits to scale by) nor infinite.
    if (!std::isnormal(static_cast<float>(change.scale)))
        return make_error(scale_error(
            name, fmt::format("the scale {} (with the units' factor) becomes {} as a float, "
                              "which cannot scale a length",
                              change.scale, static_cast<float>(change.scale))));
    return change;
}

Expected<void> apply_axis_change(cast::Document& document, const AxisChange& change,
                                 std::string_view name, Diagnostics& diagnostics,
                                 std::span<const MoveCarried> carried) {
    const Similarity s(change);
    RootBones roots;
    std::map<std::uint64_t, bool> bone_is_root;
    std::vector<std::string> unknown;
    const DocumentMove move(s, bone_is_root);
    for (cast::Root& root : document.root_nodes()) {
        for (const cast::Model& model : root.models()) {
            move_model(model, s, roots, bone_is_root);
            conjugate_transform(model.node(), s);
        }
        for (const cast::Animation& animation : root.animations())
            if (const cast::Skeleton skeleton = animation.skeleton())
                move_skeleton(skeleton, s, roots, bone_is_root);
        for (const cast::Instance& instance : root.instances())
            conjugate_transform(instance.node(), s);
    }
    for (cast::Root& root : document.root_nodes()) {
        for (const cast::Animation& animation : root.animations())
            move_curves(animation, s, roots, unknown);
        for (cast::Metadata metadata : root.metadata())
            for (const MoveCarried move_carried : carried) move_carried(metadata, move);
        retag_up_axis(root, change);
        retag_units(root, change);
    }
    if (!unknown.empty() && change.from_up != change.to_up)
        diagnostics.push_back(
            axes_warning(name, "axes.no-skeleton",
                         fmt::format("{} named by curves but by no skeleton of the file: their "
                                     "translations were scaled but not turned, as for child bones "
                                     "(convert the model with its animations to turn a root)",
                                     bone_list(unknown))));
    if (s.lost.found)
        return make_error(scale_error(
            name, fmt::format("scaled by {}, the length {} becomes {}, which a float cannot hold; "
                              "nothing is written",
                              s.scale, s.lost.value, s.lost.scaled)));
    return {};
}

}  // namespace castkit::scene
