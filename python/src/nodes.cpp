// The node classes of the castkit Python module: castkit.Property, the generic castkit.Node, and
// the typed classes of every Cast node type, one file per family (nodes_*.cpp), each wrapping
// the C++ view of the same name (attributes named as the view's getters, set_* methods as its
// setters, and the getters' attributes assignable where a setter exists).
#include "node_classes.hpp"

namespace castkit::python {

py::object wrap_node(const DocPtr& doc, cast::Node* node, cast::Node* parent) {
    if (node == nullptr) return py::none();
    auto make = [&](auto ref) {
        ref.doc = doc;
        ref.node = node;
        ref.parent = parent;
        return py::cast(std::move(ref));
    };
    switch (static_cast<cast::NodeId>(node->id)) {
        case cast::NodeId::Root:
            return make(RootRef{});
        case cast::NodeId::Model:
            return make(ModelRef{});
        case cast::NodeId::Mesh:
            return make(MeshRef{});
        case cast::NodeId::Hair:
            return make(HairRef{});
        case cast::NodeId::BlendShape:
            return make(BlendShapeRef{});
        case cast::NodeId::Skeleton:
            return make(SkeletonRef{});
        case cast::NodeId::Bone:
            return make(BoneRef{});
        case cast::NodeId::IKHandle:
            return make(IKHandleRef{});
        case cast::NodeId::Constraint:
            return make(ConstraintRef{});
        case cast::NodeId::Animation:
            return make(AnimationRef{});
        case cast::NodeId::Curve:
            return make(CurveRef{});
        case cast::NodeId::CurveModeOverride:
            return make(CurveModeOverrideRef{});
        case cast::NodeId::NotificationTrack:
            return make(NotificationTrackRef{});
        case cast::NodeId::Material:
            return make(MaterialRef{});
        case cast::NodeId::File:
            return make(FileRef{});
        case cast::NodeId::Color:
            return make(ColorRef{});
        case cast::NodeId::Instance:
            return make(InstanceRef{});
        case cast::NodeId::Metadata:
            return make(MetadataRef{});
    }
    return make(NodeRef{});
}

namespace nodes {
namespace {

CASTKIT_PYTHON_TYPE(Kind, "Union[str, int]");

void register_property() {
    declared<PropertySnapshot>()
        .def_property_readonly("name", [](const PropertySnapshot& p) { return to_str(p.name); })
        .def_readonly("type", &PropertySnapshot::type)
        .def_readonly("count", &PropertySnapshot::count)
        .def_readonly("values", &PropertySnapshot::values)
        .def("__repr__", [](const PropertySnapshot& p) {
            return to_str("<castkit.Property '" + p.name + "' " + p.type + " × " +
                          std::to_string(p.count) + ">");
        });
}

// castkit.Node: what it is and what it holds, as stored.
py::class_<NodeRef> register_node() {
    py::class_<NodeRef> cls = declared<NodeRef>();
    cls.def_property_readonly(
           "id", [](const NodeRef& r) { return r.node->id; }, "The node id as stored (a u32)")
        .def_property_readonly(
            "kind",
            [](const NodeRef& r) -> Typed<types::OptionalStr> {
                if (auto name = cast::node_name(r.node->id)) return py::str(std::string(*name));
                return py::none();
            },
            "The spec's node name ('mesh', 'curvemodeoverride', ...), None for unknown ids")
        .def_property_readonly("hash", [](const NodeRef& r) { return r.node->hash(); })
        .def_property_readonly(
            "file_offset",
            [](const NodeRef& r) -> Typed<types::OptionalInt> {
                if (r.node->file_offset == cast::Node::kNotRead) return py::none();
                return py::int_(r.node->file_offset);
            },
            "Where the node was read from, None for nodes made in Python")
        .def_property_readonly(
            "properties",
            [](const NodeRef& r) -> Typed<types::Strings> {
                py::list out;
                for (const cast::Property& p : r.node->properties) out.append(to_str(p.name()));
                return out;
            },
            "Property names in file order (duplicates kept)")
        .def_property_readonly(
            "children",
            [](const NodeRef& r) -> ListOf<NodeRef> {
                py::list out;
                for (cast::Node& child : r.node->children())
                    out.append(wrap_node(r.doc, &child, r.node));
                return out;
            },
            "Every child, each as its typed class")
        .def_property_readonly("document", [](const NodeRef& r) { return r.doc; });
    return cls;
}

// castkit.Node: its properties and children, read and changed.
void add_node_editing(py::class_<NodeRef>& cls) {
    cls.def(
           "property",
           [](const NodeRef& r, const py::str& name) {
               return snapshot(r, r.node->find(encode(name)));
           },
           py::arg("name"), "The last property with this name (rule 7), or None")
        .def(
            "get",
            [](const NodeRef& r, const py::str& name,
               const Typed<types::Any>& fallback) -> Typed<types::Any> {
                py::object values = property_values(r.doc, *r.node, encode(name));
                if (values.is_none()) return fallback;
                return values;
            },
            py::arg("name"), py::arg("default") = py::none(),
            "The values of the last property with this name, else `default`")
        .def(
            "__getitem__",
            [](const NodeRef& r, const py::str& name) -> Typed<types::Values> {
                py::object values = property_values(r.doc, *r.node, encode(name));
                if (values.is_none()) {
                    PyErr_SetObject(PyExc_KeyError, name.ptr());
                    throw py::error_already_set();
                }
                return values;
            },
            py::arg("name"))
        .def(
            "__contains__",
            [](const NodeRef& r, const py::str& name) {
                return r.node->find(encode(name)) != nullptr;
            },
            py::arg("name"))
        .def("set_property", &set_property, py::arg("name"), py::arg("type"), py::arg("values"),
             "Replaces the last property with this name, or appends one: type 's' takes a str "
             "or a list of str, the others numbers ((n, k) for vk)")
        .def(
            "remove_property",
            [](const NodeRef& r, const py::str& name) { return r.node->remove(encode(name)); },
            py::arg("name"), "Removes every property with this name; returns how many")
        .def(
            "add_child",
            [](const NodeRef& r, const Typed<Kind>& kind) -> NodeOf<NodeRef> {
                std::uint32_t id = 0;
                if (py::isinstance<py::str>(kind)) {
                    auto found = cast::node_id_from_name(kind.cast<std::string>());
                    if (!found)
                        throw py::value_error("unknown node kind '" + kind.cast<std::string>() +
                                              "'");
                    id = static_cast<std::uint32_t>(*found);
                } else {
                    id = kind.cast<std::uint32_t>();
                }
                cast::Node& child = r.node->add_child(
                    std::make_unique<cast::Node>(id, r.doc->document.next_hash()));
                return wrap_node(r.doc, &child, r.node);
            },
            py::arg("kind"), "Appends a child of this kind ('mesh', or a u32 id) with a fresh hash")
        .def(
            "__eq__",
            [](const NodeRef& a, const py::object& other) -> Typed<types::Bool> {
                if (!py::isinstance<NodeRef>(other))
                    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                return py::bool_(a.node == other.cast<const NodeRef&>().node);
            },
            py::arg("other"))
        .def("__hash__", [](const NodeRef& r) { return std::hash<const void*>()(r.node); })
        .def("__repr__", [](const NodeRef& r) { return to_str(repr_of(r, "Node")); });
}

}  // namespace
}  // namespace nodes

void declare_classes(py::module_& m) {
    py::class_<DocState, DocPtr>(
        m, "Document",
        "A Cast document: the root nodes and the storage their payloads view. Any format "
        "castkit reads becomes one; Document() starts an empty one to build.");
    py::class_<nodes::PropertySnapshot>(
        m, "Property",
        "One property as stored: name, type ('b', 'h', 'i', 'l', 'f', "
        "'d', 's', 'v2', 'v3', 'v4'), count, and values (a read-only "
        "numpy array viewing the file, or list[str] for 's').");
    py::class_<NodeRef>(m, "Node",
                        "Any node: id, hash, properties and children as stored. Typed classes "
                        "(Mesh, Bone, ...) derive from it.");
    nodes::declare_scene(m);
    nodes::declare_materials(m);
    nodes::declare_models(m);
    nodes::declare_skeletons(m);
    nodes::declare_animations(m);
}

void register_nodes() {
    nodes::register_property();
    py::class_<NodeRef> node = nodes::register_node();
    nodes::add_node_editing(node);
    nodes::register_scene();
    nodes::register_materials();
    nodes::register_models();
    nodes::register_skeletons();
    nodes::register_animations();
}

}  // namespace castkit::python
