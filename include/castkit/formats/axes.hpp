// Axes and units: a whole document turned from one up axis to another and scaled from one unit
// to another (`castkit convert --up z --units m`), meshes, rests, curves, rig offsets and
// instance transforms together, so that the animation still plays right. docs/animation.md
// ("Axes and units") gives the rules.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <optional>
#include <string_view>

namespace castkit {
struct FormatInfo;
}

namespace castkit::formats {

enum class Units : std::uint8_t { Millimetres, Centimetres, Metres, Inches, Feet };
// "mm", "cm", "m", "in", "ft" → the unit; nullopt for anything else.
std::optional<Units> units_from_name(std::string_view name);
// The short name of `units` ("cm").
std::string_view units_name(Units units);
// How many metres one of `units` is.
double metres_per(Units units);

// What the user asked for; each unset field keeps what the document has. The source's up axis
// and units come from these, else from the file (Metadata `up`), else from its format's own
// definition (glTF: +Y up, metres), else they are assumed (+Y up, centimetres) with a warning.
struct AxesRequest {
    std::optional<cast::Axis> up{}, from_up{};
    std::optional<Units> units{}, from_units{};
    double scale = 1.0;  // a further factor on every length (--scale)

    // True when the request changes nothing (no up axis, no units, scale 1).
    bool empty() const { return !up && !units && scale == 1.0; }
};

// The change apply_axis_change() makes: a 90° turn taking `from_up` to `to_up` (none when they
// are equal), then every length times `scale`.
struct AxisChange {
    cast::Axis from_up = cast::Axis::Y, to_up = cast::Axis::Y;
    double scale = 1.0;
};

// The change `request` makes of `document`, read from a file in `format` (FormatInfo's `up`
// and `units`) that diagnostics call `name`, its assumptions reported as `axes.assumed`
// warnings. An error (`axes.scale`) for a scale that is not a finite number above zero, or whose
// factor (the units' included) is 0, subnormal or infinite as the float lengths are scaled by.
// O(roots).
Expected<AxisChange> plan_axis_change(const cast::Document& document, const AxesRequest& request,
                                      const FormatInfo& format, std::string_view name,
                                      Diagnostics& diagnostics);

// Applies `change` to every Root of `document`: mesh positions, normals and tangents, hair
// particles, blend-shape targets, bone rests, translation and rotation curves, point-constraint
// and IK target offsets, Model and Instance transforms, glTF rests a glTF import carried; every
// Metadata's `up` becomes `to_up` (one is added when a turn was made and the file had none).
// Root bones turn; other bones keep their local frames, so only their lengths scale. Curves on
// bones no skeleton of the document names are scaled but not turned, with an `axes.no-skeleton`
// warning naming the file `name`. An error (`axes.scale`) when a length scaled becomes one a
// float cannot hold: a finite one infinite, a nonzero one zero; the document is then partly
// changed and must not be written. O(size of the document's arrays).
Expected<void> apply_axis_change(cast::Document& document, const AxisChange& change,
                                 std::string_view name, Diagnostics& diagnostics);

}  // namespace castkit::formats
