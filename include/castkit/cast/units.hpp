// The length units a document's values can be in: what a Metadata `units` says (castkit's
// extension, docs/decisions.md rule 36), what a format defines for its files
// (FormatInfo::units), and what `castkit convert --units m` scales to (scene/axis_change.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace castkit::cast {

enum class Units : std::uint8_t { Millimetres, Centimetres, Metres, Inches, Feet };

namespace detail {
inline constexpr std::array<std::string_view, 5> kUnitNames = {"mm", "cm", "m", "in", "ft"};
inline constexpr std::array<double, 5> kMetres = {0.001, 0.01, 1.0, 0.0254, 0.3048};
}  // namespace detail

// "mm", "cm", "m", "in", "ft" → the unit; nullopt for anything else.
inline std::optional<Units> units_from_name(std::string_view name) {
    for (std::size_t i = 0; i < detail::kUnitNames.size(); ++i)
        if (name == detail::kUnitNames[i]) return static_cast<Units>(i);
    return std::nullopt;
}
// The short name of `units` ("cm").
inline std::string_view units_name(Units units) {
    return detail::kUnitNames[static_cast<std::size_t>(units)];
}
// How many metres one of `units` is.
inline double metres_per(Units units) { return detail::kMetres[static_cast<std::size_t>(units)]; }

}  // namespace castkit::cast
