// The node classes: the generic castkit.Node and one typed class per Cast node type, each
// wrapping the C++ view of the same name (attributes named as the view's getters, set_*
// methods as its setters, and the getters' attributes assignable where a setter exists).
#include <pybind11/stl.h>

#include <castkit/cast/types.hpp>
#include <castkit/cast/values.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"

namespace castkit::python {

using cast::NodeId;
using cast::PropertyType;

namespace {

// ---- conversions ----------------------------------------------------------------------------

py::object opt(const std::optional<std::uint64_t>& v) {
    return v ? py::object(py::int_(*v)) : py::object(py::none());
}
py::object opt(const std::optional<float>& v) {
    return v ? py::object(py::float_(*v)) : py::object(py::none());
}
py::tuple tuple_of(const glm::vec3& v) { return py::make_tuple(v.x, v.y, v.z); }
py::tuple tuple_of(const glm::vec4& v) { return py::make_tuple(v.x, v.y, v.z, v.w); }
py::object opt(const std::optional<glm::vec3>& v) {
    return v ? py::object(tuple_of(*v)) : py::object(py::none());
}
py::object opt(const std::optional<glm::vec4>& v) {
    return v ? py::object(tuple_of(*v)) : py::object(py::none());
}

std::string text(const py::object& value, const char* what) {
    if (!py::isinstance<py::str>(value))
        throw py::type_error(
            std::string(what) + ": expected str, got " +
            py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>());
    return from_str(py::reinterpret_borrow<py::str>(value));
}

// Exactly `n` floats from any sequence or array.
template <class Vec>
Vec vec_of(const py::object& value, const char* what) {
    constexpr std::size_t n = sizeof(Vec) / sizeof(float);
    auto array = to_f32(py::module_::import("numpy").attr("ravel")(value), 1, what);
    if (static_cast<std::size_t>(array.size()) != n)
        throw py::value_error(std::string(what) + ": expected " + std::to_string(n) +
                              " numbers, got " + std::to_string(array.size()));
    Vec out;
    std::memcpy(&out, array.data(), sizeof(Vec));
    return out;
}

template <class Vec>
std::vector<Vec> vecs_of(const py::handle& values, const char* what) {
    constexpr std::size_t n = sizeof(Vec) / sizeof(float);
    auto array = to_f32(values, n, what);
    std::vector<Vec> out(static_cast<std::size_t>(array.size()) / n);
    if (!out.empty()) std::memcpy(out.data(), array.data(), out.size() * sizeof(Vec));
    return out;
}

std::vector<float> floats_of(const py::handle& values, const char* what) {
    auto array = to_f32(values, 1, what);
    std::vector<float> out(static_cast<std::size_t>(array.size()));
    if (!out.empty()) std::memcpy(out.data(), array.data(), out.size() * sizeof(float));
    return out;
}

// The node a link setter is given, checked to be in the same document.
const NodeRef& linked(const NodeRef& self, const NodeRef& target) {
    if (target.doc != self.doc)
        raise_error("a link can only name a node of the same document", "python.link");
    return target;
}

std::string_view color_space_name(cast::ColorSpace v) {
    return v == cast::ColorSpace::Linear ? "linear" : "srgb";
}
std::string_view skinning_name(cast::SkinningMethod v) {
    return v == cast::SkinningMethod::Quaternion ? "quaternion" : "linear";
}
cast::KeyProperty key_property_of(const std::string& name) {
    if (auto property = cast::key_property_from_name(name)) return *property;
    throw py::value_error("key_property: '" + name +
                          "' is not rq, tx, ty, tz, sx, sy, sz, bs or vb");
}
cast::ConstraintType constraint_type_of(const std::string& name) {
    if (auto type = cast::constraint_type_from_name(name)) return *type;
    throw py::value_error("constraint_type: '" + name + "' is not pt, or or sc");
}
cast::CurveMode curve_mode_of(const py::object& value) {
    std::string name = text(value, "mode");
    if (auto mode = cast::curve_mode_from_name(name)) return *mode;
    throw py::value_error("mode: '" + name + "' is not absolute, relative or additive");
}

// The node a (possibly const) view resolved: a child of this node or of its parent, which
// is where every link castkit resolves points (children, or siblings for hash links). Found by
// address among the writable children, so the wrapper gets the writable node.
template <class View>
py::object wrap_linked(const NodeRef& r, const View& view) {
    if (!view) return py::none();
    const cast::Node* target = &view.node();
    for (cast::Node* parent : {r.node, r.parent})
        if (parent != nullptr)
            for (cast::Node& child : parent->children())
                if (&child == target) return wrap_node(r.doc, &child, parent);
    return py::none();
}

// ---- properties -----------------------------------------------------------------------------

// castkit.Property: one property as stored (the last of its name).
struct PropertySnapshot {
    std::string name;
    std::string type;
    std::uint32_t count = 0;
    py::object values;
};

py::object snapshot(const NodeRef& r, const cast::Property* p) {
    if (p == nullptr) return py::none();
    PropertySnapshot out{p->name(), std::string(cast::type_name(p->type())), p->count(), {}};
    out.values = property_values(r.doc, *r.node, out.name);  // may replace *p
    return py::cast(std::move(out));
}

void set_property(const NodeRef& r, const py::str& name_text, const std::string& type_text,
                  const py::object& values) {
    std::string name = encode(name_text);
    auto type = cast::type_from_name(type_text);
    if (!type)
        throw py::value_error("unknown property type '" + type_text +
                              "' (b, h, i, l, f, d, s, v2, v3, v4)");
    if (*type != PropertyType::String) {
        set_array(r.doc, *r.node, std::move(name), *type, values);
        return;
    }
    std::vector<std::string> strings;
    if (py::isinstance<py::str>(values))
        strings.push_back(text(values, "value"));
    else
        for (py::handle item : values)
            strings.push_back(text(py::reinterpret_borrow<py::object>(item), "value"));
    std::vector<std::byte> bytes;
    for (const std::string& s : strings) {
        const auto* begin = reinterpret_cast<const std::byte*>(s.data());
        bytes.insert(bytes.end(), begin, begin + s.size());
        bytes.push_back(std::byte{0});
    }
    r.node->set(cast::Property(PropertyType::String, std::move(name),
                               static_cast<std::uint32_t>(strings.size()), std::move(bytes)));
}

std::string repr_of(const NodeRef& r, const char* class_name) {
    std::string out = std::string("<castkit.") + class_name;
    // The name, or for curves and overrides the node they key.
    const cast::Property* n = r.node->find("n");
    if (n == nullptr) n = r.node->find("nn");
    if (n != nullptr && n->type() == PropertyType::String && n->size() > 0)
        out += " '" + std::string(n->string(0)) + "'";
    char hash[32];
    std::snprintf(hash, sizeof hash, " hash=0x%llx>",
                  static_cast<unsigned long long>(r.node->hash()));
    return out + hash;
}

// ---- class helpers --------------------------------------------------------------------------

// Defines attributes of a typed class over its mutable view V.
template <class Ref, class V>
struct Def {
    py::class_<Ref, NodeRef> cls;

    Def(py::module_& m, const char* name, const char* doc) : cls(m, name, doc) {
        cls.def("__repr__", [name](const NodeRef& r) { return to_str(repr_of(r, name)); });
    }

    // A read-only attribute: get(const V&, const NodeRef&) -> py::object.
    template <class G>
    Def& ro(const char* name, G get, const char* doc = "") {
        cls.def_property_readonly(
            name, [get](const NodeRef& r) -> py::object { return get(r.view<V>(), r); }, doc);
        return *this;
    }
    // An attribute with a setter, also defined as the method `setter`:
    // set(V&, const py::object&, const NodeRef&).
    template <class G, class S>
    Def& rw(const char* name, const char* setter, G get, S set, const char* doc = "") {
        auto assign = [set](const NodeRef& r, const py::object& value) {
            V v = r.view<V>();
            set(v, value, r);
        };
        cls.def_property(
            name, [get](const NodeRef& r) -> py::object { return get(r.view<V>(), r); }, assign,
            doc);
        cls.def(setter, assign, py::arg("value"));
        return *this;
    }
    // A method: f(V&, const NodeRef&, args...).
    template <class F, class... Extra>
    Def& fn(const char* name, F f, const Extra&... extra) {
        cls.def(name, f, extra...);
        return *this;
    }

    // Common shapes.
    template <class G, class S>
    Def& text_rw(const char* name, const char* setter, G get, S set, const char* doc = "") {
        return rw(
            name, setter,
            [get](const V& v, const NodeRef&) -> py::object { return to_str(get(v)); },
            [set, name](V& v, const py::object& value, const NodeRef&) {
                set(v, text(value, name));
            },
            doc);
    }
    template <class Vec, class G, class S>
    Def& vec_rw(const char* name, const char* setter, G get, S set, const char* doc = "") {
        return rw(
            name, setter, [get](const V& v, const NodeRef&) -> py::object { return opt(get(v)); },
            [set, name](V& v, const py::object& value, const NodeRef&) {
                set(v, vec_of<Vec>(value, name));
            },
            doc);
    }
    template <class G, class S>
    Def& flag_rw(const char* name, const char* setter, G get, S set, const char* doc = "") {
        return rw(
            name, setter,
            [get](const V& v, const NodeRef&) -> py::object { return py::bool_(get(v)); },
            [set](V& v, const py::object& value, const NodeRef&) { set(v, value.cast<bool>()); },
            doc);
    }
    template <class G, class S>
    Def& real_rw(const char* name, const char* setter, G get, S set, const char* doc = "") {
        return rw(
            name, setter,
            [get](const V& v, const NodeRef&) -> py::object { return py::cast(get(v)); },
            [set](V& v, const py::object& value, const NodeRef&) { set(v, value.cast<float>()); },
            doc);
    }
    template <class G>
    Def& hash_ro(const char* name, G get, const char* doc = "") {
        return ro(
            name, [get](const V& v, const NodeRef&) { return opt(get(v)); }, doc);
    }
    // A link to another node: the view the getter returns, wrapped (None when empty).
    template <class G>
    Def& link_ro(const char* name, G get, const char* doc = "") {
        return ro(
            name, [get](const V& v, const NodeRef& r) { return wrap_linked(r, get(v)); }, doc);
    }
    template <class G>
    Def& list_ro(const char* name, G get, const char* doc = "") {
        return ro(
            name,
            [get](const V& v, const NodeRef& r) -> py::object { return wrap_views(r.doc, get(v)); },
            doc);
    }
    // A new child: the view `add` returns, wrapped.
    template <class A>
    Def& add(const char* name, A add, const char* doc = "") {
        cls.def(
            name,
            [add](const NodeRef& r) {
                V v = r.view<V>();
                return wrap_view(r.doc, add(v));
            },
            doc);
        return *this;
    }
    // A link setter taking a node of class TargetRef.
    template <class TargetRef, class S>
    Def& link_set(const char* name, S set, const char* doc = "") {
        cls.def(
            name,
            [set](const NodeRef& r, const TargetRef& target) {
                V v = r.view<V>();
                set(v, linked(r, target).node->hash());
            },
            py::arg("node"), doc);
        return *this;
    }
    // An array attribute: the property `property` when it has one of `types`.
    Def& array_ro(const char* name, const char* property, std::initializer_list<PropertyType> types,
                  std::size_t rows = 1, const char* doc = "") {
        std::vector<PropertyType> kinds(types);
        std::string key(property);
        cls.def_property_readonly(
            name,
            [kinds, key, rows](const NodeRef& r) -> py::object {
                const cast::Property* p = r.node->find(key);
                if (p == nullptr || std::find(kinds.begin(), kinds.end(), p->type()) == kinds.end())
                    return py::none();
                return typed_values(r.doc, *r.node, key, {p->type()}, rows);
            },
            doc);
        return *this;
    }
};

constexpr std::initializer_list<PropertyType> kIntegers = {
    PropertyType::Byte, PropertyType::Short, PropertyType::Integer32, PropertyType::Integer64};

}  // namespace

py::object wrap_node(const DocPtr& doc, cast::Node* node, cast::Node* parent) {
    if (node == nullptr) return py::none();
    auto make = [&](auto ref) {
        ref.doc = doc;
        ref.node = node;
        ref.parent = parent;
        return py::cast(std::move(ref));
    };
    switch (static_cast<NodeId>(node->id)) {
        case NodeId::Root:
            return make(RootRef{});
        case NodeId::Model:
            return make(ModelRef{});
        case NodeId::Mesh:
            return make(MeshRef{});
        case NodeId::Hair:
            return make(HairRef{});
        case NodeId::BlendShape:
            return make(BlendShapeRef{});
        case NodeId::Skeleton:
            return make(SkeletonRef{});
        case NodeId::Bone:
            return make(BoneRef{});
        case NodeId::IKHandle:
            return make(IKHandleRef{});
        case NodeId::Constraint:
            return make(ConstraintRef{});
        case NodeId::Animation:
            return make(AnimationRef{});
        case NodeId::Curve:
            return make(CurveRef{});
        case NodeId::CurveModeOverride:
            return make(CurveModeOverrideRef{});
        case NodeId::NotificationTrack:
            return make(NotificationTrackRef{});
        case NodeId::Material:
            return make(MaterialRef{});
        case NodeId::File:
            return make(FileRef{});
        case NodeId::Color:
            return make(ColorRef{});
        case NodeId::Instance:
            return make(InstanceRef{});
        case NodeId::Metadata:
            return make(MetadataRef{});
    }
    return make(NodeRef{});
}

void register_nodes(py::module_& m) {
    py::class_<PropertySnapshot>(m, "Property",
                                 "One property as stored: name, type ('b', 'h', 'i', 'l', 'f', "
                                 "'d', 's', 'v2', 'v3', 'v4'), count, and values (a read-only "
                                 "numpy array viewing the file, or list[str] for 's').")
        .def_property_readonly("name", [](const PropertySnapshot& p) { return to_str(p.name); })
        .def_readonly("type", &PropertySnapshot::type)
        .def_readonly("count", &PropertySnapshot::count)
        .def_readonly("values", &PropertySnapshot::values)
        .def("__repr__", [](const PropertySnapshot& p) {
            return to_str("<castkit.Property '" + p.name + "' " + p.type + " × " +
                          std::to_string(p.count) + ">");
        });

    // ---- the generic node ----
    py::class_<NodeRef>(m, "Node",
                        "Any node: id, hash, properties and children as stored. Typed classes "
                        "(Mesh, Bone, ...) derive from it.")
        .def_property_readonly(
            "id", [](const NodeRef& r) { return r.node->id; }, "The node id as stored (a u32)")
        .def_property_readonly(
            "kind",
            [](const NodeRef& r) -> py::object {
                if (auto name = cast::node_name(r.node->id)) return py::str(std::string(*name));
                return py::none();
            },
            "The spec's node name ('mesh', 'curvemodeoverride', ...), None for unknown ids")
        .def_property_readonly("hash", [](const NodeRef& r) { return r.node->hash(); })
        .def_property_readonly(
            "file_offset",
            [](const NodeRef& r) -> py::object {
                if (r.node->file_offset == cast::Node::kNotRead) return py::none();
                return py::int_(r.node->file_offset);
            },
            "Where the node was read from, None for nodes made in Python")
        .def_property_readonly(
            "properties",
            [](const NodeRef& r) {
                py::list out;
                for (const cast::Property& p : r.node->properties) out.append(to_str(p.name()));
                return out;
            },
            "Property names in file order (duplicates kept)")
        .def_property_readonly(
            "children",
            [](const NodeRef& r) {
                py::list out;
                for (cast::Node& child : r.node->children())
                    out.append(wrap_node(r.doc, &child, r.node));
                return out;
            },
            "Every child, each as its typed class")
        .def_property_readonly("document", [](const NodeRef& r) { return r.doc; })
        .def(
            "property",
            [](const NodeRef& r, const py::str& name) {
                return snapshot(r, r.node->find(encode(name)));
            },
            py::arg("name"), "The last property with this name (rule 7), or None")
        .def(
            "get",
            [](const NodeRef& r, const py::str& name, const py::object& fallback) {
                py::object values = property_values(r.doc, *r.node, encode(name));
                return values.is_none() ? fallback : values;
            },
            py::arg("name"), py::arg("default") = py::none(),
            "The values of the last property with this name, else `default`")
        .def("__getitem__",
             [](const NodeRef& r, const py::str& name) {
                 py::object values = property_values(r.doc, *r.node, encode(name));
                 if (values.is_none()) {
                     PyErr_SetObject(PyExc_KeyError, name.ptr());
                     throw py::error_already_set();
                 }
                 return values;
             })
        .def("__contains__",
             [](const NodeRef& r, const py::str& name) {
                 return r.node->find(encode(name)) != nullptr;
             })
        .def("set_property", &set_property, py::arg("name"), py::arg("type"), py::arg("values"),
             "Replaces the last property with this name, or appends one: type 's' takes a str "
             "or a list of str, the others numbers ((n, k) for vk)")
        .def(
            "remove_property",
            [](const NodeRef& r, const py::str& name) { return r.node->remove(encode(name)); },
            py::arg("name"), "Removes every property with this name; returns how many")
        .def(
            "add_child",
            [](const NodeRef& r, const py::object& kind) {
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
        .def("__eq__",
             [](const NodeRef& a, const py::object& other) -> py::object {
                 if (!py::isinstance<NodeRef>(other))
                     return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(a.node == other.cast<const NodeRef&>().node);
             })
        .def("__hash__", [](const NodeRef& r) { return std::hash<const void*>()(r.node); })
        .def("__repr__", [](const NodeRef& r) { return to_str(repr_of(r, "Node")); });

    // ---- scene ----
    Def<RootRef, cast::Root>(m, "Root",
                             "A Root: the scene's models, animations, instances, metadata.")
        .list_ro("models", [](const cast::Root& v) { return v.models(); })
        .list_ro("animations", [](const cast::Root& v) { return v.animations(); })
        .list_ro("instances", [](const cast::Root& v) { return v.instances(); })
        .list_ro("metadata", [](const cast::Root& v) { return v.metadata(); })
        .add("add_model", [](cast::Root& v) { return v.add_model(); })
        .add("add_animation", [](cast::Root& v) { return v.add_animation(); })
        .add("add_instance", [](cast::Root& v) { return v.add_instance(); })
        .add("add_metadata", [](cast::Root& v) { return v.add_metadata(); });

    Def<MetadataRef, cast::Metadata>(m, "Metadata",
                                     "Scene metadata: author, software, up axis, scene root.")
        .text_rw(
            "author", "set_author", [](const cast::Metadata& v) { return v.author(); },
            [](cast::Metadata& v, const std::string& s) { v.set_author(s); })
        .text_rw(
            "software", "set_software", [](const cast::Metadata& v) { return v.software(); },
            [](cast::Metadata& v, const std::string& s) { v.set_software(s); })
        .ro(
            "up_axis_name",
            [](const cast::Metadata& v, const NodeRef&) { return to_str(v.up_axis_name()); },
            "The stored `up` text, whatever it says")
        .rw(
            "up_axis", "set_up_axis",
            [](const cast::Metadata& v, const NodeRef&) -> py::object {
                auto axis = v.up_axis();
                if (!axis) return py::none();
                return py::str(std::string(cast::axis_name(unwrap(std::move(*axis)))));
            },
            [](cast::Metadata& v, const py::object& value, const NodeRef&) {
                std::string name = text(value, "up_axis");
                auto axis = cast::axis_from_name(name);
                if (!axis) throw py::value_error("up_axis: '" + name + "' is not x, y or z");
                v.set_up_axis(*axis);
            },
            "'x', 'y', 'z' or None; castkit.Error when the file says anything else")
        .text_rw(
            "scene_root", "set_scene_root", [](const cast::Metadata& v) { return v.scene_root(); },
            [](cast::Metadata& v, const std::string& s) { v.set_scene_root(s); });

    Def<FileRef, cast::File>(m, "File", "A file a material or instance names.")
        .text_rw(
            "path", "set_path", [](const cast::File& v) { return v.path(); },
            [](cast::File& v, const std::string& s) { v.set_path(s); });

    Def<InstanceRef, cast::Instance>(m, "Instance", "An instance of another scene file.")
        .text_rw(
            "name", "set_name", [](const cast::Instance& v) { return v.name(); },
            [](cast::Instance& v, const std::string& s) { v.set_name(s); })
        .hash_ro("reference_file_hash",
                 [](const cast::Instance& v) { return v.reference_file_hash(); })
        .link_ro("reference_file", [](const cast::Instance& v) { return v.reference_file(); })
        .template link_set<FileRef>(
            "set_reference_file",
            [](cast::Instance& v, std::uint64_t h) { v.set_hash_link("rf", h); })
        .template vec_rw<glm::vec3>(
            "position", "set_position", [](const cast::Instance& v) { return v.position(); },
            [](cast::Instance& v, const glm::vec3& x) { v.set_position(x); })
        .template vec_rw<glm::vec4>(
            "rotation", "set_rotation", [](const cast::Instance& v) { return v.rotation(); },
            [](cast::Instance& v, const glm::vec4& x) { v.set_rotation(x); }, "Quaternion XYZW")
        .template vec_rw<glm::vec3>(
            "scale", "set_scale", [](const cast::Instance& v) { return v.scale(); },
            [](cast::Instance& v, const glm::vec3& x) { v.set_scale(x); })
        .list_ro("files", [](const cast::Instance& v) { return v.files(); })
        .fn(
            "add_file",
            [](const NodeRef& r, const py::str& path) {
                return wrap_view(r.doc, r.view<cast::Instance>().add_file(encode(path)));
            },
            py::arg("path"),
            "A File child naming path (the file the Instance places), which the spec requires");

    // ---- models ----
    Def<ColorRef, cast::Color>(m, "Color", "A material colour.")
        .text_rw(
            "name", "set_name", [](const cast::Color& v) { return v.name(); },
            [](cast::Color& v, const std::string& s) { v.set_name(s); })
        .ro(
            "color_space_name",
            [](const cast::Color& v, const NodeRef&) -> py::object {
                return to_str(v.color_space_name());
            },
            "The stored `cs` text; 'srgb' when missing")
        .rw(
            "color_space", "set_color_space",
            [](const cast::Color& v, const NodeRef&) -> py::object {
                return py::str(std::string(color_space_name(unwrap(v.color_space()))));
            },
            [](cast::Color& v, const py::object& value, const NodeRef&) {
                std::string name = text(value, "color_space");
                if (name != "srgb" && name != "linear")
                    throw py::value_error("color_space: '" + name + "' is not srgb or linear");
                v.set_color_space(name == "linear" ? cast::ColorSpace::Linear
                                                   : cast::ColorSpace::Srgb);
            },
            "'srgb' (the default) or 'linear'; castkit.Error when the file says anything else")
        .template vec_rw<glm::vec4>(
            "rgba", "set_rgba", [](const cast::Color& v) { return v.rgba(); },
            [](cast::Color& v, const glm::vec4& x) { v.set_rgba(x); });

    Def<MaterialRef, cast::Material>(m, "Material",
                                     "A material: type, and slots linking Files and Colors.")
        .text_rw(
            "name", "set_name", [](const cast::Material& v) { return v.name(); },
            [](cast::Material& v, const std::string& s) { v.set_name(s); })
        .text_rw(
            "type", "set_type", [](const cast::Material& v) { return v.type(); },
            [](cast::Material& v, const std::string& s) { v.set_type(s); })
        .ro(
            "slots",
            [](const cast::Material& v, const NodeRef&) -> py::object {
                py::list out;
                for (const auto& slot : v.slots())
                    out.append(py::make_tuple(to_str(slot.name), slot.hash));
                return out;
            },
            "Every slot as (name, hash), in file order")
        .fn(
            "slot_hash",
            [](const NodeRef& r, const py::str& slot) {
                return opt(r.view<cast::Material>().slot_hash(encode(slot)));
            },
            py::arg("slot"))
        .fn(
            "slot_file",
            [](const NodeRef& r, const py::str& slot) {
                return wrap_view(r.doc, r.view<cast::Material>().slot_file(encode(slot)));
            },
            py::arg("slot"), "The File the slot links to, or None")
        .fn(
            "slot_color",
            [](const NodeRef& r, const py::str& slot) {
                return wrap_view(r.doc, r.view<cast::Material>().slot_color(encode(slot)));
            },
            py::arg("slot"), "The Color the slot links to, or None")
        .fn(
            "set_slot",
            [](const NodeRef& r, const py::str& slot, const NodeRef& target) {
                r.view<cast::Material>().set_hash_link(encode(slot),
                                                       linked(r, target).node->hash());
            },
            py::arg("slot"), py::arg("node"),
            "Links slot ('albedo', 'normal', ...) to a File or Color")
        .list_ro("files", [](const cast::Material& v) { return v.files(); })
        .list_ro("colors", [](const cast::Material& v) { return v.colors(); })
        .fn(
            "add_file",
            [](const NodeRef& r, const py::str& path) {
                return wrap_view(r.doc, r.view<cast::Material>().add_file(encode(path)));
            },
            py::arg("path"),
            "A File child naming path (the image a slot links to), which the spec requires")
        .add("add_color", [](cast::Material& v) { return v.add_color(); });

    Def<MeshRef, cast::Mesh>(m, "Mesh", "A mesh: vertex arrays, faces, layers, weights.")
        .text_rw(
            "name", "set_name", [](const cast::Mesh& v) { return v.name(); },
            [](cast::Mesh& v, const std::string& s) { v.set_name(s); })
        .array_ro("positions", "vp", {PropertyType::Vector3}, 1, "(n, 3) float32, or None")
        .array_ro("normals", "vn", {PropertyType::Vector3}, 1, "(n, 3) float32, or None")
        .array_ro("tangents", "vt", {PropertyType::Vector3}, 1, "(n, 3) float32, or None")
        .array_ro("faces", "f", kIntegers, 3,
                  "(face_count, 3) in the stored dtype (uint8/16/32), counter-clockwise")
        .ro("vertex_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.vertex_count()); })
        .ro("face_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.face_count()); })
        .ro("uv_layer_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.uv_layer_count()); })
        .ro("color_layer_count",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.color_layer_count()); })
        .ro("max_weight_influence",
            [](const cast::Mesh& v, const NodeRef&) { return py::int_(v.max_weight_influence()); })
        .array_ro("weight_bones", "wb", kIntegers, 1,
                  "vertex_count × max_weight_influence bone indices, stored dtype, or None")
        .array_ro("weight_values", "wv", {PropertyType::Float}, 1, "float32 weights, or None")
        .ro("skinning_method_name",
            [](const cast::Mesh& v, const NodeRef&) -> py::object {
                return to_str(v.skinning_method_name());
            })
        .rw(
            "skinning_method", "set_skinning_method",
            [](const cast::Mesh& v, const NodeRef&) -> py::object {
                return py::str(std::string(skinning_name(unwrap(v.skinning_method()))));
            },
            [](cast::Mesh& v, const py::object& value, const NodeRef&) {
                std::string name = text(value, "skinning_method");
                if (name != "linear" && name != "quaternion")
                    throw py::value_error("skinning_method: '" + name +
                                          "' is not linear or quaternion");
                v.set_skinning_method(name == "quaternion" ? cast::SkinningMethod::Quaternion
                                                           : cast::SkinningMethod::Linear);
            })
        .hash_ro("material_hash", [](const cast::Mesh& v) { return v.material_hash(); })
        .link_ro("material", [](const cast::Mesh& v) { return v.material(); })
        .template link_set<MaterialRef>(
            "set_material", [](cast::Mesh& v, std::uint64_t h) { v.set_hash_link("m", h); })
        .fn(
            "uv_layer",
            [](const NodeRef& r, std::uint32_t layer) {
                return typed_values(r.doc, *r.node, "u" + std::to_string(layer),
                                    {PropertyType::Vector2});
            },
            py::arg("layer"), "(n, 2) float32, or None")
        .fn(
            "color_layer_is_packed",
            [](const NodeRef& r, std::uint32_t layer) {
                return r.view<cast::Mesh>().color_layer_is_packed(layer);
            },
            py::arg("layer"))
        .fn(
            "color_layer_property",
            [](const NodeRef& r, std::uint32_t layer) {
                return snapshot(r, r.view<cast::Mesh>().color_layer_property(layer));
            },
            py::arg("layer"), "The Property holding the layer (packed uint32 or (n, 4) float32)")
        .fn(
            "color_layer",
            [](const NodeRef& r, std::uint32_t layer) -> py::object {
                cast::Mesh v = r.view<cast::Mesh>();
                const cast::Property* p = v.color_layer_property(layer);
                if (p == nullptr) return py::none();
                if (p->type() == PropertyType::Vector4)
                    return typed_values(r.doc, *r.node, p->name(), {PropertyType::Vector4});
                if (p->type() != PropertyType::Integer32) return py::none();
                std::vector<glm::vec4> rgba = v.color_layer(layer);
                py::array_t<float> out({static_cast<py::ssize_t>(rgba.size()), py::ssize_t{4}});
                if (!rgba.empty())
                    std::memcpy(out.mutable_data(), rgba.data(), rgba.size() * sizeof(glm::vec4));
                return out;
            },
            py::arg("layer"),
            "(n, 4) float32 RGBA: a view of float layers, a converted copy of packed ones")
        .fn(
            "set_positions",
            [](const NodeRef& r, const py::object& values) {
                set_array(r.doc, *r.node, "vp", PropertyType::Vector3, values);
            },
            py::arg("values"), "(n, 3) floats")
        .fn(
            "set_normals",
            [](const NodeRef& r, const py::object& values) {
                set_array(r.doc, *r.node, "vn", PropertyType::Vector3, values);
            },
            py::arg("values"))
        .fn(
            "set_tangents",
            [](const NodeRef& r, const py::object& values) {
                set_array(r.doc, *r.node, "vt", PropertyType::Vector3, values);
            },
            py::arg("values"))
        .fn(
            "set_faces",
            [](const NodeRef& r, const py::object& values) {
                r.view<cast::Mesh>().set_faces(to_u32(values, "faces"));
            },
            py::arg("indices"),
            "Triangle indices ((n, 3) or flat); stored in the smallest of u8/u16/u32")
        .fn(
            "set_uv_layer",
            [](const NodeRef& r, std::uint32_t layer, const py::object& values) {
                unwrap(r.view<cast::Mesh>().set_uv_layer(layer, vecs_of<glm::vec2>(values, "uvs")));
            },
            py::arg("layer"), py::arg("uvs"), "(n, 2) floats; grows uv_layer_count to cover it")
        .fn(
            "set_color_layer",
            [](const NodeRef& r, std::uint32_t layer, const py::object& values) {
                unwrap(r.view<cast::Mesh>().set_color_layer(layer,
                                                            vecs_of<glm::vec4>(values, "rgba")));
            },
            py::arg("layer"), py::arg("rgba"), "(n, 4) float RGBA")
        .fn(
            "set_color_layer_packed",
            [](const NodeRef& r, std::uint32_t layer, const py::object& values) {
                unwrap(r.view<cast::Mesh>().set_color_layer_packed(layer, to_u32(values, "rgba8")));
            },
            py::arg("layer"), py::arg("rgba8"), "uint32 per vertex, R in the low byte")
        .fn(
            "set_weights",
            [](const NodeRef& r, std::uint32_t influences, const py::object& bones,
               const py::object& values) {
                unwrap(r.view<cast::Mesh>().set_weights(influences, to_u32(bones, "bones"),
                                                        floats_of(values, "values")));
            },
            py::arg("influences"), py::arg("bones"), py::arg("values"),
            "vertex_count × influences bone indices and weights");

    Def<HairRef, cast::Hair>(m, "Hair", "Hair strands: segments per strand and particles.")
        .text_rw(
            "name", "set_name", [](const cast::Hair& v) { return v.name(); },
            [](cast::Hair& v, const std::string& s) { v.set_name(s); })
        .array_ro("segments", "se", kIntegers)
        .array_ro("particles", "pt", {PropertyType::Vector3})
        .hash_ro("material_hash", [](const cast::Hair& v) { return v.material_hash(); })
        .link_ro("material", [](const cast::Hair& v) { return v.material(); })
        .template link_set<MaterialRef>(
            "set_material", [](cast::Hair& v, std::uint64_t h) { v.set_hash_link("m", h); })
        .fn(
            "set_segments",
            [](const NodeRef& r, const py::object& values) {
                r.view<cast::Hair>().set_segments(to_u32(values, "segments"));
            },
            py::arg("values"))
        .fn(
            "set_particles",
            [](const NodeRef& r, const py::object& values) {
                set_array(r.doc, *r.node, "pt", PropertyType::Vector3, values);
            },
            py::arg("values"));

    Def<BlendShapeRef, cast::BlendShape>(
        m, "BlendShape",
        "A blend shape: absolute target positions of some vertices of a base mesh.")
        .text_rw(
            "name", "set_name", [](const cast::BlendShape& v) { return v.name(); },
            [](cast::BlendShape& v, const std::string& s) { v.set_name(s); })
        .hash_ro("base_shape_hash", [](const cast::BlendShape& v) { return v.base_shape_hash(); })
        .link_ro("base_shape", [](const cast::BlendShape& v) { return v.base_shape(); })
        .template link_set<MeshRef>(
            "set_base_shape", [](cast::BlendShape& v, std::uint64_t h) { v.set_hash_link("b", h); })
        .array_ro("vertex_indices", "vi", kIntegers)
        .array_ro("vertex_positions", "vp", {PropertyType::Vector3})
        .real_rw(
            "target_weight_scale", "set_target_weight_scale",
            [](const cast::BlendShape& v) { return v.target_weight_scale(); },
            [](cast::BlendShape& v, float x) { v.set_target_weight_scale(x); })
        .fn(
            "set_targets",
            [](const NodeRef& r, const py::object& indices, const py::object& positions) {
                r.view<cast::BlendShape>().set_targets(to_u32(indices, "indices"),
                                                       vecs_of<glm::vec3>(positions, "positions"));
            },
            py::arg("indices"), py::arg("positions"));

    Def<BoneRef, cast::Bone>(m, "Bone", "A bone: parent index and rest transforms.")
        .text_rw(
            "name", "set_name", [](const cast::Bone& v) { return v.name(); },
            [](cast::Bone& v, const std::string& s) { v.set_name(s); })
        .rw(
            "parent_index", "set_parent_index",
            [](const cast::Bone& v, const NodeRef&) -> py::object {
                return py::int_(v.parent_index());
            },
            [](cast::Bone& v, const py::object& value, const NodeRef&) {
                v.set_parent_index(value.cast<std::int32_t>());
            },
            "-1 for none")
        .flag_rw(
            "segment_scale_compensate", "set_segment_scale_compensate",
            [](const cast::Bone& v) { return v.segment_scale_compensate(); },
            [](cast::Bone& v, bool x) { v.set_segment_scale_compensate(x); })
        .template vec_rw<glm::vec3>(
            "local_position", "set_local_position",
            [](const cast::Bone& v) { return v.local_position(); },
            [](cast::Bone& v, const glm::vec3& x) { v.set_local_position(x); })
        .template vec_rw<glm::vec4>(
            "local_rotation", "set_local_rotation",
            [](const cast::Bone& v) { return v.local_rotation(); },
            [](cast::Bone& v, const glm::vec4& x) { v.set_local_rotation(x); }, "Quaternion XYZW")
        .template vec_rw<glm::vec3>(
            "world_position", "set_world_position",
            [](const cast::Bone& v) { return v.world_position(); },
            [](cast::Bone& v, const glm::vec3& x) { v.set_world_position(x); })
        .template vec_rw<glm::vec4>(
            "world_rotation", "set_world_rotation",
            [](const cast::Bone& v) { return v.world_rotation(); },
            [](cast::Bone& v, const glm::vec4& x) { v.set_world_rotation(x); }, "Quaternion XYZW")
        .template vec_rw<glm::vec3>(
            "scale", "set_scale", [](const cast::Bone& v) { return v.scale(); },
            [](cast::Bone& v, const glm::vec3& x) { v.set_scale(x); });

    Def<IKHandleRef, cast::IKHandle>(m, "IKHandle", "An IK handle between bones.")
        .text_rw(
            "name", "set_name", [](const cast::IKHandle& v) { return v.name(); },
            [](cast::IKHandle& v, const std::string& s) { v.set_name(s); })
        .hash_ro("start_bone_hash", [](const cast::IKHandle& v) { return v.start_bone_hash(); })
        .hash_ro("end_bone_hash", [](const cast::IKHandle& v) { return v.end_bone_hash(); })
        .hash_ro("target_bone_hash", [](const cast::IKHandle& v) { return v.target_bone_hash(); })
        .hash_ro("pole_vector_bone_hash",
                 [](const cast::IKHandle& v) { return v.pole_vector_bone_hash(); })
        .hash_ro("pole_bone_hash", [](const cast::IKHandle& v) { return v.pole_bone_hash(); })
        .link_ro("start_bone", [](const cast::IKHandle& v) { return v.start_bone(); })
        .link_ro("end_bone", [](const cast::IKHandle& v) { return v.end_bone(); })
        .link_ro("target_bone", [](const cast::IKHandle& v) { return v.target_bone(); })
        .link_ro("pole_vector_bone", [](const cast::IKHandle& v) { return v.pole_vector_bone(); })
        .link_ro("pole_bone", [](const cast::IKHandle& v) { return v.pole_bone(); })
        .template link_set<BoneRef>(
            "set_start_bone", [](cast::IKHandle& v, std::uint64_t h) { v.set_hash_link("sb", h); })
        .template link_set<BoneRef>(
            "set_end_bone", [](cast::IKHandle& v, std::uint64_t h) { v.set_hash_link("eb", h); })
        .template link_set<BoneRef>(
            "set_target_bone", [](cast::IKHandle& v, std::uint64_t h) { v.set_hash_link("tb", h); })
        .template link_set<BoneRef>(
            "set_pole_vector_bone",
            [](cast::IKHandle& v, std::uint64_t h) { v.set_hash_link("pv", h); })
        .template link_set<BoneRef>(
            "set_pole_bone", [](cast::IKHandle& v, std::uint64_t h) { v.set_hash_link("pb", h); })
        .flag_rw(
            "use_target_rotation", "set_use_target_rotation",
            [](const cast::IKHandle& v) { return v.use_target_rotation(); },
            [](cast::IKHandle& v, bool x) { v.set_use_target_rotation(x); })
        .template vec_rw<glm::vec3>(
            "target_offset", "set_target_offset",
            [](const cast::IKHandle& v) { return v.target_offset(); },
            [](cast::IKHandle& v, const glm::vec3& x) { v.set_target_offset(x); });

    Def<ConstraintRef, cast::Constraint>(m, "Constraint",
                                         "A point, orient or scale constraint between bones.")
        .text_rw(
            "name", "set_name", [](const cast::Constraint& v) { return v.name(); },
            [](cast::Constraint& v, const std::string& s) { v.set_name(s); })
        .text_rw(
            "constraint_type", "set_constraint_type",
            [](const cast::Constraint& v) { return v.constraint_type(); },
            [](cast::Constraint& v, const std::string& s) {
                v.set_constraint_type(constraint_type_of(s));
            },
            "'pt', 'or' or 'sc'")
        .hash_ro("constraint_bone_hash",
                 [](const cast::Constraint& v) { return v.constraint_bone_hash(); })
        .hash_ro("target_bone_hash", [](const cast::Constraint& v) { return v.target_bone_hash(); })
        .link_ro("constraint_bone", [](const cast::Constraint& v) { return v.constraint_bone(); })
        .link_ro("target_bone", [](const cast::Constraint& v) { return v.target_bone(); })
        .template link_set<BoneRef>(
            "set_constraint_bone",
            [](cast::Constraint& v, std::uint64_t h) { v.set_hash_link("cb", h); })
        .template link_set<BoneRef>(
            "set_target_bone",
            [](cast::Constraint& v, std::uint64_t h) { v.set_hash_link("tb", h); })
        .flag_rw(
            "maintain_offset", "set_maintain_offset",
            [](const cast::Constraint& v) { return v.maintain_offset(); },
            [](cast::Constraint& v, bool x) { v.set_maintain_offset(x); })
        .ro(
            "custom_offset",
            [](const cast::Constraint& v, const NodeRef&) -> py::object {
                return tuple_of(v.custom_offset());
            },
            "`co` as 4 numbers (w 0 for a stored v3), else the constraint type's default")
        .fn(
            "set_custom_offset",
            [](const NodeRef& r, const py::object& value) {
                cast::Constraint v = r.view<cast::Constraint>();
                auto size = py::len(py::module_::import("numpy").attr("ravel")(value));
                if (size == 3)
                    v.set_custom_offset(vec_of<glm::vec3>(value, "custom_offset"));
                else
                    v.set_custom_offset(vec_of<glm::vec4>(value, "custom_offset"));
            },
            py::arg("value"), "3 or 4 numbers")
        .rw(
            "weight", "set_weight",
            [](const cast::Constraint& v, const NodeRef&) -> py::object { return opt(v.weight()); },
            [](cast::Constraint& v, const py::object& value, const NodeRef&) {
                v.set_weight(value.cast<float>());
            })
        .flag_rw(
            "skip_x", "set_skip_x", [](const cast::Constraint& v) { return v.skip_x(); },
            [](cast::Constraint& v, bool x) { v.set_skip_x(x); })
        .flag_rw(
            "skip_y", "set_skip_y", [](const cast::Constraint& v) { return v.skip_y(); },
            [](cast::Constraint& v, bool x) { v.set_skip_y(x); })
        .flag_rw(
            "skip_z", "set_skip_z", [](const cast::Constraint& v) { return v.skip_z(); },
            [](cast::Constraint& v, bool x) { v.set_skip_z(x); });

    Def<SkeletonRef, cast::Skeleton>(m, "Skeleton", "A skeleton: bones, IK handles, constraints.")
        .list_ro("bones", [](const cast::Skeleton& v) { return v.bones(); })
        .list_ro("ik_handles", [](const cast::Skeleton& v) { return v.ik_handles(); })
        .list_ro("constraints", [](const cast::Skeleton& v) { return v.constraints(); })
        .fn(
            "bone_by_hash",
            [](const NodeRef& r, std::uint64_t hash) {
                // As ConstSkeleton::bone_by_hash, over the writable children.
                for (cast::Node& child : r.node->children())
                    if (child.is(NodeId::Bone) && child.hash() == hash)
                        return wrap_node(r.doc, &child, r.node);
                return py::object(py::none());
            },
            py::arg("hash"), "The Bone child with this hash, or None")
        .add("add_bone", [](cast::Skeleton& v) { return v.add_bone(); })
        .add("add_ik_handle", [](cast::Skeleton& v) { return v.add_ik_handle(); })
        .add("add_constraint", [](cast::Skeleton& v) { return v.add_constraint(); });

    Def<ModelRef, cast::Model>(m, "Model",
                               "A model: skeleton, meshes, hairs, blend shapes, materials.")
        .text_rw(
            "name", "set_name", [](const cast::Model& v) { return v.name(); },
            [](cast::Model& v, const std::string& s) { v.set_name(s); })
        .template vec_rw<glm::vec3>(
            "position", "set_position", [](const cast::Model& v) { return v.position(); },
            [](cast::Model& v, const glm::vec3& x) { v.set_position(x); })
        .template vec_rw<glm::vec4>(
            "rotation", "set_rotation", [](const cast::Model& v) { return v.rotation(); },
            [](cast::Model& v, const glm::vec4& x) { v.set_rotation(x); }, "Quaternion XYZW")
        .template vec_rw<glm::vec3>(
            "scale", "set_scale", [](const cast::Model& v) { return v.scale(); },
            [](cast::Model& v, const glm::vec3& x) { v.set_scale(x); })
        .link_ro(
            "skeleton", [](const cast::Model& v) { return v.skeleton(); },
            "The first Skeleton child, or None")
        .list_ro("meshes", [](const cast::Model& v) { return v.meshes(); })
        .list_ro("hairs", [](const cast::Model& v) { return v.hairs(); })
        .list_ro("blend_shapes", [](const cast::Model& v) { return v.blend_shapes(); })
        .list_ro("materials", [](const cast::Model& v) { return v.materials(); })
        .add("add_skeleton", [](cast::Model& v) { return v.add_skeleton(); })
        .add("add_mesh", [](cast::Model& v) { return v.add_mesh(); })
        .add("add_hair", [](cast::Model& v) { return v.add_hair(); })
        .add("add_blend_shape", [](cast::Model& v) { return v.add_blend_shape(); })
        .add("add_material", [](cast::Model& v) { return v.add_material(); });

    // ---- animation ----
    Def<CurveRef, cast::Curve>(m, "Curve",
                               "One animated channel of one node: key frames and values.")
        .text_rw(
            "node_name", "set_node_name", [](const cast::Curve& v) { return v.node_name(); },
            [](cast::Curve& v, const std::string& s) { v.set_node_name(s); })
        .text_rw(
            "key_property", "set_key_property",
            [](const cast::Curve& v) { return v.key_property(); },
            [](cast::Curve& v, const std::string& s) { v.set_key_property(key_property_of(s)); },
            "rq, tx, ty, tz, sx, sy, sz, bs or vb")
        .array_ro("key_frames", "kb", kIntegers, 1, "Stored dtype (uint8/16/32)")
        .ro(
            "key_values",
            [](const cast::Curve&, const NodeRef& r) {
                return property_values(r.doc, *r.node, "kv");
            },
            "The raw `kv` array (float32, (n, 4) float32 quaternions, or integers)")
        .array_ro("float_values", "kv", {PropertyType::Float})
        .array_ro("quaternion_values", "kv", {PropertyType::Vector4}, 1, "(n, 4) XYZW")
        .array_ro("integer_values", "kv", kIntegers)
        .ro("mode_name", [](const cast::Curve& v, const NodeRef&) { return to_str(v.mode_name()); })
        .rw(
            "mode", "set_mode",
            [](const cast::Curve& v, const NodeRef&) -> py::object {
                return py::str(std::string(cast::curve_mode_name(unwrap(v.mode()))));
            },
            [](cast::Curve& v, const py::object& value, const NodeRef&) {
                v.set_mode(curve_mode_of(value));
            },
            "'absolute' (the default), 'relative' or 'additive'")
        .real_rw(
            "additive_blend_weight", "set_additive_blend_weight",
            [](const cast::Curve& v) { return v.additive_blend_weight(); },
            [](cast::Curve& v, float x) { v.set_additive_blend_weight(x); })
        .fn(
            "set_key_frames",
            [](const NodeRef& r, const py::object& values) {
                r.view<cast::Curve>().set_key_frames(to_u32(values, "key_frames"));
            },
            py::arg("frames"), "Stored in the smallest of u8/u16/u32")
        .fn(
            "set_float_values",
            [](const NodeRef& r, const py::object& values) {
                set_array(r.doc, *r.node, "kv", PropertyType::Float, values);
            },
            py::arg("values"))
        .fn(
            "set_quaternion_values",
            [](const NodeRef& r, const py::object& values) {
                set_array(r.doc, *r.node, "kv", PropertyType::Vector4, values);
            },
            py::arg("values"), "(n, 4) XYZW")
        .fn(
            "set_integer_values",
            [](const NodeRef& r, const py::object& values) {
                r.view<cast::Curve>().set_integer_values(to_u32(values, "values"));
            },
            py::arg("values"));

    Def<CurveModeOverrideRef, cast::CurveModeOverride>(m, "CurveModeOverride",
                                                       "Overrides the mode of curves under a node.")
        .text_rw(
            "node_name", "set_node_name",
            [](const cast::CurveModeOverride& v) { return v.node_name(); },
            [](cast::CurveModeOverride& v, const std::string& s) { v.set_node_name(s); })
        .ro("mode_name",
            [](const cast::CurveModeOverride& v, const NodeRef&) { return to_str(v.mode_name()); })
        .rw(
            "mode", "set_mode",
            [](const cast::CurveModeOverride& v, const NodeRef&) -> py::object {
                auto mode = v.mode();
                if (!mode) return py::none();
                return py::str(std::string(cast::curve_mode_name(unwrap(std::move(*mode)))));
            },
            [](cast::CurveModeOverride& v, const py::object& value, const NodeRef&) {
                v.set_mode(curve_mode_of(value));
            })
        .flag_rw(
            "override_translation", "set_override_translation",
            [](const cast::CurveModeOverride& v) { return v.override_translation(); },
            [](cast::CurveModeOverride& v, bool x) { v.set_override_translation(x); })
        .flag_rw(
            "override_rotation", "set_override_rotation",
            [](const cast::CurveModeOverride& v) { return v.override_rotation(); },
            [](cast::CurveModeOverride& v, bool x) { v.set_override_rotation(x); })
        .flag_rw(
            "override_scale", "set_override_scale",
            [](const cast::CurveModeOverride& v) { return v.override_scale(); },
            [](cast::CurveModeOverride& v, bool x) { v.set_override_scale(x); });

    Def<NotificationTrackRef, cast::NotificationTrack>(m, "NotificationTrack",
                                                       "Named events at key frames.")
        .text_rw(
            "name", "set_name", [](const cast::NotificationTrack& v) { return v.name(); },
            [](cast::NotificationTrack& v, const std::string& s) { v.set_name(s); })
        .array_ro("key_frames", "kb", kIntegers)
        .fn(
            "set_key_frames",
            [](const NodeRef& r, const py::object& values) {
                r.view<cast::NotificationTrack>().set_key_frames(to_u32(values, "key_frames"));
            },
            py::arg("frames"));

    Def<AnimationRef, cast::Animation>(m, "Animation",
                                       "An animation: curves, overrides, notification tracks.")
        .text_rw(
            "name", "set_name", [](const cast::Animation& v) { return v.name(); },
            [](cast::Animation& v, const std::string& s) { v.set_name(s); })
        .rw(
            "framerate", "set_framerate",
            [](const cast::Animation& v, const NodeRef&) -> py::object {
                return opt(v.framerate());
            },
            [](cast::Animation& v, const py::object& value, const NodeRef&) {
                v.set_framerate(value.cast<float>());
            })
        .flag_rw(
            "looping", "set_looping", [](const cast::Animation& v) { return v.looping(); },
            [](cast::Animation& v, bool x) { v.set_looping(x); })
        .link_ro("skeleton", [](const cast::Animation& v) { return v.skeleton(); })
        .list_ro("curves", [](const cast::Animation& v) { return v.curves(); })
        .list_ro("curve_mode_overrides",
                 [](const cast::Animation& v) { return v.curve_mode_overrides(); })
        .list_ro("notification_tracks",
                 [](const cast::Animation& v) { return v.notification_tracks(); })
        .add("add_skeleton", [](cast::Animation& v) { return v.add_skeleton(); })
        .add("add_curve", [](cast::Animation& v) { return v.add_curve(); })
        .add("add_curve_mode_override",
             [](cast::Animation& v) { return v.add_curve_mode_override(); })
        .add("add_notification_track",
             [](cast::Animation& v) { return v.add_notification_track(); });
}

}  // namespace castkit::python
