// Axes and units: a whole document turned from one up axis to another and scaled from one unit
// to another (`castkit convert --up z --units m`), meshes, rests, curves, rig offsets and
// instance transforms together, so that the animation still plays right. docs/animation.md
// ("Axes and units") gives the rules.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/scene/units.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <span>
#include <string_view>

namespace castkit::scene {

// What the user asked for; each unset field keeps what the document has. The source's up axis
// and units come from these, else from the file (Metadata `up` and `units`), else from its
// format's own definition (glTF: +Y up, metres), else they are assumed (+Y up, centimetres) with
// a warning.
struct AxesRequest {
    std::optional<cast::Axis> up{}, from_up{};
    std::optional<Units> units{}, from_units{};
    double scale = 1.0;  // a further factor on every length (--scale)

    // True when the request changes nothing (no up axis, no units, scale 1).
    bool empty() const { return !up && !units && scale == 1.0; }
};

// The change apply_axis_change() makes: a 90° turn taking `from_up` to `to_up` (none when they
// are equal), then every length times `scale`; the lengths are then in `to_units` when set (the
// units asked for, which every Metadata records), else in the units they were.
struct AxisChange {
    cast::Axis from_up = cast::Axis::Y, to_up = cast::Axis::Y;
    double scale = 1.0;
    std::optional<Units> to_units{};
};

// What a file's format says of the axes of every file it holds (FormatInfo's `up` and
// `units`, formats' declared_axes): glTF +Y up in metres; unset where it says nothing.
struct DeclaredAxes {
    std::string_view format{};  // its name, for the warnings
    std::optional<cast::Axis> up{};
    std::optional<Units> units{};
};

// The up axis the first Metadata of `document` saying one gives; nullopt when none does. O(roots).
std::optional<cast::Axis> said_up_axis(const cast::Document& document);

// The units the first Metadata of `document` saying valid ones gives; nullopt when none does.
// O(roots).
std::optional<Units> said_units(const cast::Document& document);

// The up axis `document`'s own values are in: its Metadata's `up`, else its format's (`declared`),
// else +Y, as plan_axis_change reads it (without the assumption's warning). What root motion
// takes its ground plane from. O(roots).
cast::Axis file_up_axis(const cast::Document& document, const DeclaredAxes& declared);

// The change `request` makes of `document`, read from a file whose format declares `declared`
// and that diagnostics call `name`, its assumptions reported as `axes.assumed`
// warnings (a Metadata `units` that names no unit is one). An error (`axes.scale`) for a scale that
// is not a finite number above zero, or whose factor (the units' included) is 0, subnormal or
// infinite as the float lengths are scaled by. O(roots).
Expected<AxisChange> plan_axis_change(const cast::Document& document, const AxesRequest& request,
                                      const DeclaredAxes& declared, std::string_view name,
                                      Diagnostics& diagnostics);

// How apply_axis_change moves each kind of value, for what a format carried in a Metadata
// (FormatInfo::move_carried: glTF's rests) to move as the document's own values did. Lengths
// scaled here count towards apply_axis_change's `axes.scale` error.
class AxisMove {
  public:
    // A point in Model space (a root bone's translation): turned, then scaled.
    virtual glm::vec3 point(const glm::vec3& v) const = 0;
    // A length in a frame that turned with its parent (a child bone's translation): scaled.
    virtual glm::vec3 scaled(const glm::vec3& v) const = 0;
    // An xyzw rotation in Model space (a root bone's): turned.
    virtual glm::vec4 turned(const glm::vec4& xyzw) const = 0;
    // Whether the bone of this hash is a skeleton's root (false for a hash no bone has).
    virtual bool is_root_bone(std::uint64_t hash) const = 0;

  protected:
    ~AxisMove() = default;
};

// Moves what one format carried in `metadata` as `move` says (FormatInfo::move_carried).
using MoveCarried = void (*)(cast::Metadata metadata, const AxisMove& move);

// Applies `change` to every Root of `document`: mesh positions, normals and tangents, hair
// particles, blend-shape targets, bone rests, translation and rotation curves, point-constraint
// and IK target offsets, Model and Instance transforms; each of `carried` runs on every
// Metadata (formats::apply_axis_change passes every registered format's); every Metadata's
// `up` becomes `to_up` (one is added when the file had none and a turn was made or `to_up` is
// not +Y, which a file saying none is read as), and with `to_units` set every Metadata's `units`
// becomes it (the first Metadata gets it when none said, one is added when a Root has none).
// Root bones turn; other bones keep their local frames, so only their lengths scale. Curves on
// bones no skeleton of the document names are scaled but not turned, with an `axes.no-skeleton`
// warning naming the file `name`. An error (`axes.scale`) when a length scaled becomes one a
// float cannot hold: a finite one infinite, a nonzero one zero; the document is then partly
// changed and must not be written. O(size of the document's arrays).
Expected<void> apply_axis_change(cast::Document& document, const AxisChange& change,
                                 std::string_view name, Diagnostics& diagnostics,
                                 std::span<const MoveCarried> carried = {});

}  // namespace castkit::scene
