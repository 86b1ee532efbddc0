// What every format's entry shares: the questions asked of a FormatInfo by the registry, the batch
// and the CLI alike.
#include <castkit/formats/format.hpp>

namespace castkit {

scene::DeclaredAxes declared_axes(const FormatInfo& format) {
    return {.format = format.name, .up = format.up, .units = format.units};
}

cast::InfoOptions info_options(const FormatInfo& format) {
    return {.converted_from = format.name == "cast" ? std::string_view{} : format.name,
            .format = format.name,
            .format_up = format.up,
            .format_units = format.units ? scene::units_name(*format.units) : std::string_view{}};
}

bool converts_in_family(const FormatInfo& from, const FormatInfo& to) {
    return from.convert_in_family != nullptr && !from.family.empty() && from.family == to.family;
}

}  // namespace castkit
