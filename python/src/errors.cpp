// castkit.Error, castkit.Diagnostic, and text between the file's bytes and Python's str.
#include <castkit/cast/validate.hpp>

#include "common.hpp"

namespace castkit::python {

namespace {

// castkit.Error, made once when the module loads; the module keeps it alive.
PyObject* g_error_type = nullptr;

// validation_rules(): (id, severity, meaning) tuples.
struct Rules {
    static constexpr auto name = py::detail::const_name("List[Tuple[str, str, ") +
                                 types::SeverityWords::name + py::detail::const_name("]]");
};

Word<types::SeverityWords> severity_of(const Diagnostic& d) {
    return {std::string(severity_name(d.severity))};
}

Typed<types::OptionalInt> offset_of(const Diagnostic& d) {
    if (d.offset == Diagnostic::kNoOffset) return py::none();
    return py::int_(d.offset);
}

}  // namespace

py::handle error_type() { return g_error_type; }

py::str to_str(std::string_view text) {
    PyObject* decoded =
        PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogateescape");
    if (decoded == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(decoded);
}

Typed<types::OptionalStr> to_str(const std::optional<std::string_view>& text) {
    if (!text) return py::none();
    return to_str(*text);
}

std::string encode(const py::str& text) {
    PyObject* encoded = PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogateescape");
    if (encoded == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::bytes>(encoded);
}

std::string from_str(const py::str& text) {
    std::string out = encode(text);
    if (out.find('\0') != std::string::npos)
        throw py::value_error("a Cast string cannot hold a NUL character");
    return out;
}

void raise_error(const Diagnostic& diagnostic) {
    py::object type = py::reinterpret_borrow<py::object>(g_error_type);
    py::object error = type(to_str(diagnostic.to_string()));
    error.attr("diagnostic") = py::cast(diagnostic);
    error.attr("file") = to_str(diagnostic.file);
    error.attr("offset") = offset_of(diagnostic);
    error.attr("path") = to_str(diagnostic.path);
    error.attr("rule") = diagnostic.rule;
    error.attr("id") = diagnostic.rule;
    error.attr("severity") = severity_name(diagnostic.severity);
    error.attr("message") = to_str(diagnostic.message);
    PyErr_SetObject(g_error_type, error.ptr());
    throw py::error_already_set();
}

void raise_error(std::string message, std::string rule) {
    Diagnostic d;
    d.message = std::move(message);
    d.rule = std::move(rule);
    raise_error(d);
}

void register_errors(py::module_& m) {
    g_error_type = PyErr_NewExceptionWithDoc(
        "castkit.Error",
        "A file castkit cannot read or write, or a value a Cast file cannot hold. str(error) "
        "is 'file: offset 0x..: node path: message'; the attributes file, offset (None when "
        "unknown), path, rule (also id), severity and message carry the parts, and "
        "diagnostic the whole castkit.Diagnostic.",
        PyExc_ValueError, nullptr);
    if (g_error_type == nullptr) throw py::error_already_set();
    py::object error = py::reinterpret_borrow<py::object>(g_error_type);
    // The attributes raise_error gives every instance, for the stub (generate_stub.py).
    py::dict annotations;
    for (const char* name : {"file", "path", "rule", "id", "message"})
        annotations[name] = types::Str::name.text;
    annotations["offset"] = types::OptionalInt::name.text;
    annotations["severity"] = types::SeverityWords::name.text;
    annotations["diagnostic"] = "Diagnostic";
    error.attr("__annotations__") = annotations;
    m.add_object("Error", error);

    py::class_<Diagnostic>(m, "Diagnostic",
                           "One finding: severity, rule id, file, byte offset, node path and "
                           "message.")
        .def_property_readonly("severity", &severity_of, "'info', 'warning' or 'error'")
        .def_property_readonly(
            "rule", [](const Diagnostic& d) { return to_str(d.rule); },
            "Stable id such as 'cast.nodesize' (docs/diagnostics.md)")
        .def_property_readonly(
            "id", [](const Diagnostic& d) { return to_str(d.rule); }, "The same as rule")
        .def_property_readonly("file", [](const Diagnostic& d) { return to_str(d.file); })
        .def_property_readonly("offset", &offset_of, "Byte offset in the file, or None")
        .def_property_readonly(
            "path", [](const Diagnostic& d) { return to_str(d.path); },
            "Node path such as 'root[0]/model[2]/mesh[0]'")
        .def_property_readonly("message", [](const Diagnostic& d) { return to_str(d.message); })
        .def("__str__", [](const Diagnostic& d) { return to_str(d.to_string()); })
        // Findings travel between processes (castkit.batch's workers, Dask): by value.
        .def(py::pickle(
            [](const Diagnostic& d) {
                return py::make_tuple(static_cast<int>(d.severity), to_str(d.file), d.offset,
                                      to_str(d.path), to_str(d.rule), to_str(d.message));
            },
            [](const py::tuple& state) {
                Diagnostic d;
                d.severity = static_cast<Severity>(state[0].cast<int>());
                d.file = state[1].cast<std::string>();
                d.offset = state[2].cast<std::uint64_t>();
                d.path = state[3].cast<std::string>();
                d.rule = state[4].cast<std::string>();
                d.message = state[5].cast<std::string>();
                return d;
            }))
        .def("__repr__",
             [](const Diagnostic& d) {
                 return to_str("<castkit.Diagnostic " + std::string(severity_name(d.severity)) +
                               ": " + d.to_string() + ">");
             })
        .def(
            "__eq__",
            [](const Diagnostic& a, const py::object& other) -> Typed<types::Bool> {
                if (!py::isinstance<Diagnostic>(other))
                    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                const Diagnostic& b = other.cast<const Diagnostic&>();
                return py::bool_(a.severity == b.severity && a.rule == b.rule && a.file == b.file &&
                                 a.offset == b.offset && a.path == b.path &&
                                 a.message == b.message);
            },
            py::arg("other"))
        .def("to_dict", [](const Diagnostic& d) -> Typed<types::Fields> {
            py::dict out;
            out["severity"] = severity_name(d.severity);
            out["rule"] = to_str(d.rule);
            out["file"] = to_str(d.file);
            out["offset"] = offset_of(d);
            out["path"] = to_str(d.path);
            out["message"] = to_str(d.message);
            return out;
        });

    m.def(
        "validation_rules",
        []() -> Typed<Rules> {
            py::list out;
            for (const cast::ValidationRule& rule : cast::validation_rules())
                out.append(py::make_tuple(std::string(rule.id), severity_name(rule.severity),
                                          std::string(rule.meaning)));
            return out;
        },
        "Every rule validate() checks, as (id, severity, meaning) tuples.");
}

}  // namespace castkit::python
