// An axis change with what the registered formats carried in the document's Metadata moved too
// (FormatInfo::move_carried): the scene-level change knows no format, the registry knows them all.
#include <algorithm>
#include <castkit/registry.hpp>
#include <castkit/scene/axis_change.hpp>
#include <vector>

namespace castkit::formats {

Expected<void> apply_axis_change(cast::Document& document, const scene::AxisChange& change,
                                 std::string_view name, Diagnostics& diagnostics) {
    std::vector<scene::MoveCarried> carried;
    for (const FormatInfo& format : all_formats())
        if (format.move_carried != nullptr &&
            std::find(carried.begin(), carried.end(), format.move_carried) == carried.end())
            carried.push_back(format.move_carried);
    return scene::apply_axis_change(document, change, name, diagnostics, carried);
}

}  // namespace castkit::formats
