// Crops and filters for maps in Python: the keywords within=, box=, include= and exclude= of
// castkit.convert, castkit.batch and Document.select_instances
// (castkit/scene/instance_selection.hpp).
#include <pybind11/stl.h>

#include <castkit/scene/instance_selection.hpp>

#include "common.hpp"

namespace castkit::python {
namespace {

// The `count` numbers of `value` (a sequence of numbers), else a ValueError naming `option`.
std::vector<double> numbers(const py::handle& value, std::size_t count, const char* option,
                            const char* shape) {
    const auto fail = [&] {
        throw py::value_error(std::string(option) + " takes " + shape + " (" +
                              std::to_string(count) + " numbers)");
    };
    if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) fail();
    const py::sequence items = value.cast<py::sequence>();
    if (items.size() != count) fail();
    std::vector<double> out;
    for (py::handle item : items) {
        if (!py::isinstance<py::float_>(item) && !py::isinstance<py::int_>(item)) fail();
        out.push_back(item.cast<double>());
    }
    return out;
}

// The warnings of `found` as Python UserWarnings: the count (an info line) is the result.
void warn_unless_info(const Diagnostics& found) {
    for (const Diagnostic& d : found.shown())
        if (d.severity != Severity::Info &&
            PyErr_WarnEx(PyExc_UserWarning, d.to_string().c_str(), 1) != 0)
            throw py::error_already_set();
}

}  // namespace

scene::InstanceSelection selection_from(const py::handle& within, const py::handle& box,
                                        std::vector<std::string> include,
                                        std::vector<std::string> exclude) {
    scene::InstanceSelection selection{.include = std::move(include),
                                       .exclude = std::move(exclude)};
    if (!within.is_none()) {
        const auto n = numbers(within, 4, "within", "(x, y, z, radius)");
        selection.within = {{.centre = {n[0], n[1], n[2]}, .radius = n[3]}};
    }
    if (!box.is_none()) {
        const auto n = numbers(box, 6, "box", "(x0, y0, z0, x1, y1, z1)");
        selection.box = {{.min = {n[0], n[1], n[2]}, .max = {n[3], n[4], n[5]}}};
    }
    if (auto valid = selection.validate(); !valid) throw py::value_error(valid.error().message);
    return selection;
}

void register_selection() {
    declared<DocState, DocPtr>().def(
        "select_instances",
        [](DocState& state, const Typed<types::Sphere>& within, const Typed<types::Box>& box,
           std::vector<std::string> include, std::vector<std::string> exclude,
           const Typed<types::Warnings>& warnings) {
            const scene::InstanceSelection selection =
                selection_from(within, box, std::move(include), std::move(exclude));
            Diagnostics found;
            const scene::SelectionCount count = scene::select_instances(
                state.document, selection, state.document.source_name, found);
            if (warnings.is_none())
                warn_unless_info(found);
            else
                for (py::handle w : diagnostics_list(found)) warnings.attr("append")(w);
            return std::pair(count.kept, count.removed);
        },
        py::kw_only(), py::arg("within") = py::none(), py::arg("box") = py::none(),
        py::arg("include") = std::vector<std::string>{},
        py::arg("exclude") = std::vector<std::string>{}, py::arg("warnings") = py::none(),
        "Takes out every Instance outside `within` (x, y, z, radius) and `box` (x0, y0, z0, x1, "
        "y1, z1), both in the file's own units and axes, or left out by the globs `include` and "
        "`exclude` on the instance's name and its model file's stem, as `castkit convert "
        "--within/--box/--include/--exclude` (docs/workflows.md, \"Cropping a map\"). Returns "
        "(kept, removed); the line saying so is appended to `warnings` (a list) or issued.");
}

}  // namespace castkit::python
