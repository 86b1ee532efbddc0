// castkit.cast's node objects (python/castkit/cast.py, the drop-in for the reference cast.py),
// built here in one pass over a document: a file of 12,000 curves has 60,000 nodes and
// properties, and making each in Python (the class looked up, __new__, five attributes set)
// cost 1.5 us an object, more than reading the file.
#include <unordered_map>

#include "common.hpp"

namespace castkit::python {

namespace {

CASTKIT_PYTHON_TYPE(Tree, "Tuple[List[Any], int]");

// What castkit.cast's classes are, given by cast.py once per load.
struct Classes {
    py::dict kinds;          // node id → class (cast.py's typeSwitcher)
    PyTypeObject* fallback;  // CastNode, for other ids
    PyTypeObject* property;  // CastProperty
    py::dict types;          // castkit's type name ("v3") → the shared CastProperty_t
};

// Attribute names, made once (interned: setting an attribute by them skips a hash).
struct Names {
    py::str identifier{"identifier"}, hash{"hash"}, parent{"parentNode"}, children{"childNodes"},
        properties{"properties"}, name{"name"}, type{"type"}, values{"values"};
};

class TreeBuilder {
  public:
    TreeBuilder(DocPtr doc, Classes classes) : doc_(std::move(doc)), classes_(std::move(classes)) {}

    py::list roots() {
        py::list out;
        for (cast::Node& root : doc_->document.roots()) out.append(node(root, py::none()));
        return out;
    }
    std::size_t nodes_made() const { return nodes_; }

  private:
    // A new instance of `type`, as `type.__new__(type)`: no __init__ (it would take a hash).
    static py::object instance(PyTypeObject* type) {
        PyObject* made = type->tp_alloc(type, 0);
        if (made == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(made);
    }
    static void set(const py::object& object, const py::str& name, const py::handle& value) {
        if (PyObject_SetAttr(object.ptr(), name.ptr(), value.ptr()) != 0)
            throw py::error_already_set();
    }

    py::object node(cast::Node& source, const py::handle& parent) {
        PyObject* kind = PyDict_GetItem(classes_.kinds.ptr(), py::int_(source.id).ptr());
        py::object out =
            instance(kind != nullptr ? reinterpret_cast<PyTypeObject*>(kind) : classes_.fallback);
        ++nodes_;
        set(out, names_.identifier, py::int_(source.id));
        set(out, names_.hash, py::int_(source.hash()));
        set(out, names_.parent, parent);
        py::dict properties;
        // Values may replace a property in place (same name, type and bytes): by index.
        for (std::size_t i = 0; i < source.properties.size(); ++i) {
            py::object values = flat_values(doc_, source, source.properties[i]);
            const cast::Property& p = source.properties[i];
            py::str name = to_str(p.name());
            // A repeated name keeps its first place and takes the last value, as in cast.py.
            PyDict_SetItem(properties.ptr(), name.ptr(), property(name, p, values).ptr());
        }
        set(out, names_.properties, properties);
        py::list children(source.children().size());
        for (std::size_t i = 0; i < source.children().size(); ++i)
            children[i] = node(source.children()[i], out);
        set(out, names_.children, children);
        return out;
    }

    py::object property(const py::str& name, const cast::Property& p, py::object values) {
        py::object out = instance(classes_.property);
        set(out, names_.name, name);
        set(out, names_.type, type_of(p.type()));
        // cast.py keeps one string per property.
        if (p.type() == cast::PropertyType::String) values = values[py::slice(0, 1, 1)];
        set(out, names_.values, values);
        return out;
    }

    py::handle type_of(cast::PropertyType type) {
        auto [at, added] = types_.try_emplace(type);
        if (added) {
            PyObject* shared = PyDict_GetItemString(classes_.types.ptr(),
                                                    std::string(cast::type_name(type)).c_str());
            if (shared == nullptr) throw py::key_error(std::string(cast::type_name(type)));
            at->second = py::reinterpret_borrow<py::object>(shared);
        }
        return at->second;
    }

    DocPtr doc_;
    Classes classes_;
    Names names_;
    std::unordered_map<cast::PropertyType, py::object> types_;
    std::size_t nodes_ = 0;
};

}  // namespace

void register_tree(py::module_& m) {
    m.def(
        "cast_tree",
        [](const DocPtr& doc, const py::dict& kinds, const py::type& fallback,
           const py::type& property, const py::dict& types) -> Typed<Tree> {
            // Tens of thousands of new objects would set off the cyclic collector over and over
            // (a fifth of the time), each pass finding nothing to free: paused while they are
            // made, as the json module does.
            const bool collecting = PyGC_Disable() != 0;
            struct Resume {
                bool collecting;
                ~Resume() {
                    if (collecting) PyGC_Enable();
                }
            } resume{collecting};
            TreeBuilder builder(doc, {kinds, reinterpret_cast<PyTypeObject*>(fallback.ptr()),
                                      reinterpret_cast<PyTypeObject*>(property.ptr()), types});
            py::list roots = builder.roots();
            return py::make_tuple(std::move(roots), builder.nodes_made());
        },
        py::arg("document"), py::arg("kinds"), py::arg("fallback"), py::arg("property"),
        py::arg("types"),
        "castkit.cast's nodes for every root of `document`: (roots, number of nodes made). "
        "`kinds` maps node ids to classes (others are `fallback`), `property` is CastProperty, "
        "`types` maps castkit's type names to CastProperty_t; numeric values are CastValues "
        "viewing the file");
}

}  // namespace castkit::python
