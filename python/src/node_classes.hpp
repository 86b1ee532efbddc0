// How the node classes of the castkit Python module are declared (nodes.cpp and one file per
// family of nodes, nodes_*.cpp): conversions between Python values and the views' values, and
// Def, the builder that gives a typed class its attributes, each the view's getter of that name,
// assignable and with a set_<name> method where the view has a setter.
#pragma once

#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <castkit/cast/types.hpp>
#include <castkit/cast/values.hpp>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"

namespace castkit::python::nodes {

using cast::NodeId;
using cast::PropertyType;

// ---- conversions ----------------------------------------------------------------------------

inline Typed<types::OptionalInt> opt(const std::optional<std::uint64_t>& v) {
    return v ? py::object(py::int_(*v)) : py::object(py::none());
}
inline Typed<types::OptionalFloat> opt(const std::optional<float>& v) {
    return v ? py::object(py::float_(*v)) : py::object(py::none());
}
inline py::tuple tuple_of(const glm::vec3& v) { return py::make_tuple(v.x, v.y, v.z); }
inline py::tuple tuple_of(const glm::vec4& v) { return py::make_tuple(v.x, v.y, v.z, v.w); }
inline Typed<types::OptionalVec3> opt(const std::optional<glm::vec3>& v) {
    return v ? py::object(tuple_of(*v)) : py::object(py::none());
}
inline Typed<types::OptionalVec4> opt(const std::optional<glm::vec4>& v) {
    return v ? py::object(tuple_of(*v)) : py::object(py::none());
}

inline std::string text(const py::object& value, const char* what) {
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

inline std::vector<float> floats_of(const py::handle& values, const char* what) {
    auto array = to_f32(values, 1, what);
    std::vector<float> out(static_cast<std::size_t>(array.size()));
    if (!out.empty()) std::memcpy(out.data(), array.data(), out.size() * sizeof(float));
    return out;
}

// The node link setter `call` is given, checked to be in the same document: a hash link binds
// only inside its document (in another, the hash names whatever node holds it there). The C++
// setters stop the program on this misuse; Python raises castkit.Error cast.foreign-link.
inline const NodeRef& linked(const NodeRef& self, const NodeRef& target, const std::string& call) {
    if (target.doc != self.doc)
        raise_error(call +
                        ": the node is of another document; a link names a node of the same "
                        "document only (in another, its hash names whatever node holds it)",
                    "cast.foreign-link");
    return target;
}

inline cast::KeyProperty key_property_of(const std::string& name) {
    if (auto property = cast::key_property_from_name(name)) return *property;
    throw py::value_error("key_property: '" + name +
                          "' is not rq, tx, ty, tz, sx, sy, sz, bs or vb");
}
inline cast::ConstraintType constraint_type_of(const std::string& name) {
    if (auto type = cast::constraint_type_from_name(name)) return *type;
    throw py::value_error("constraint_type: '" + name + "' is not pt, or or sc");
}
inline cast::CurveMode curve_mode_of(const py::object& value) {
    std::string name = text(value, "mode");
    if (auto mode = cast::curve_mode_from_name(name)) return *mode;
    throw py::value_error("mode: '" + name + "' is not absolute, relative or additive");
}

// The node a (possibly const) view resolved: a child of this node or of its parent, which
// is where every link castkit resolves points (children, or siblings for hash links). Found by
// address among the writable children, so the wrapper gets the writable node.
template <class View>
inline OptionalOf<RefOf<View>> wrap_linked(const NodeRef& r, const View& view) {
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
    Typed<types::Values> values;
};

inline OptionalOf<PropertySnapshot> snapshot(const NodeRef& r, const cast::Property* p) {
    if (p == nullptr) return py::none();
    PropertySnapshot out{p->name(), std::string(cast::type_name(p->type())), p->count(), {}};
    out.values = property_values(r.doc, *r.node, out.name);  // may replace *p
    return py::cast(std::move(out));
}

CASTKIT_PYTHON_TYPE(PropertyValues, "Union[numpy.typing.ArrayLike, str, Sequence[str]]");
CASTKIT_PYTHON_TYPE(TypeWord, "Literal['b', 'h', 'i', 'l', 'f', 'd', 's', 'v2', 'v3', 'v4']");

inline void set_property(const NodeRef& r, const py::str& name_text,
                         const Word<TypeWord>& type_word, const Typed<PropertyValues>& values) {
    std::string name = encode(name_text);
    const std::string& type_text = type_word.text;
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

inline std::string repr_of(const NodeRef& r, const char* class_name) {
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

constexpr std::initializer_list<PropertyType> kIntegers = {
    PropertyType::Byte, PropertyType::Short, PropertyType::Integer32, PropertyType::Integer64};

// Defines attributes of a typed class over its mutable view V. Getters and setters are the
// view's member functions or callables taking the view.
template <class Ref, class V>
struct Def {
    py::class_<Ref, NodeRef> cls;

    explicit Def(const char* name) : cls(declared<Ref, NodeRef>()) {
        cls.def("__repr__", [name](const NodeRef& r) { return to_str(repr_of(r, name)); });
    }

    // A read-only attribute: get(const V&, const NodeRef&) gives its value, whose type names
    // the attribute's type.
    template <class G>
    Def& ro(const char* name, G get, const char* doc = "") {
        cls.def_property_readonly(
            name, [get](const NodeRef& r) { return get(r.view<V>(), r); }, doc);
        return *this;
    }
    // An attribute with a setter, also defined as the method set_<name>: get as for ro,
    // set(V&, const Value&, const NodeRef&); Value (a Typed) names the type set takes.
    template <class Value, class G, class S>
    Def& rw(const char* name, G get, S set, const char* doc = "") {
        auto assign = [set](const NodeRef& r, const Value& value) {
            V v = r.view<V>();
            set(v, value, r);
        };
        cls.def_property(
            name, [get](const NodeRef& r) { return get(r.view<V>(), r); }, assign, doc);
        cls.def(("set_" + std::string(name)).c_str(), assign, py::arg("value"));
        return *this;
    }
    // An attribute of one of two words (Words, a Literal of both), stored as an enum E: the
    // getter V::*get gives Expected<E>, the setter V::*set takes E; choices[0] is the default
    // and what any other value reads as. ValueError for a word that is neither.
    template <class E, class Words, class G, class S>
    Def& choice_rw(const char* name, G get, S set, std::array<std::pair<const char*, E>, 2> choices,
                   const char* doc = "") {
        return rw<Typed<Words>>(
            name,
            [get, choices](const V& v, const NodeRef&) {
                const bool second = unwrap((v.*get)()) == choices[1].second;
                return Word<Words>{choices[second ? 1 : 0].first};
            },
            [name, set, choices](V& v, const py::object& value, const NodeRef&) {
                const std::string word = text(value, name);
                for (const auto& [choice_word, choice] : choices)
                    if (word == choice_word) return (v.*set)(choice);
                throw py::value_error(std::string(name) + ": '" + word + "' is not " +
                                      choices[0].first + " or " + choices[1].first);
            },
            doc);
    }
    // A method: f(const NodeRef&, args...).
    template <class F, class... Extra>
    Def& fn(const char* name, F f, const Extra&... extra) {
        cls.def(name, f, extra...);
        return *this;
    }

    // An attribute whose Python value is convert(get(view)), set through set(view, read(value))
    // from a Value.
    template <class Value, class G, class S, class Convert, class Read>
    Def& value_rw(const char* name, G get, S set, Convert convert, Read read,
                  const char* doc = "") {
        return rw<Value>(
            name,
            [get, convert](const V& v, const NodeRef&) { return convert(std::invoke(get, v)); },
            [set, read, name](V& v, const py::object& value, const NodeRef&) {
                std::invoke(set, v, read(value, name));
            },
            doc);
    }
    template <class G, class S>
    Def& text_rw(const char* name, G get, S set, const char* doc = "") {
        return value_rw<Typed<types::Str>>(
            name, get, set, [](const auto& s) { return to_str(s); },
            [](const py::object& value, const char* what) { return text(value, what); }, doc);
    }
    template <class Vec, class G, class S>
    Def& vec_rw(const char* name, G get, S set, const char* doc = "") {
        return value_rw<Typed<types::ArrayLike>>(
            name, get, set, [](const auto& x) { return opt(x); },
            [](const py::object& value, const char* what) { return vec_of<Vec>(value, what); },
            doc);
    }
    template <class G, class S>
    Def& flag_rw(const char* name, G get, S set, const char* doc = "") {
        return value_rw<Typed<types::Bool>>(
            name, get, set, [](bool x) { return py::bool_(x); },
            [](const py::object& value, const char*) { return value.cast<bool>(); }, doc);
    }
    template <class G, class S>
    Def& real_rw(const char* name, G get, S set, const char* doc = "") {
        return value_rw<Typed<types::Float>>(
            name, get, set, [](float x) { return py::float_(x); },
            [](const py::object& value, const char*) { return value.cast<float>(); }, doc);
    }

    // The node's name: `name`, and set_name.
    Def& name() { return text_rw("name", &V::name, &V::set_name); }
    // position, rotation (a quaternion, XYZW) and scale.
    Def& transform() {
        vec_rw<glm::vec3>("position", &V::position, &V::set_position);
        vec_rw<glm::vec4>("rotation", &V::rotation, &V::set_rotation, "Quaternion XYZW");
        return vec_rw<glm::vec3>("scale", &V::scale, &V::set_scale);
    }

    // Children of the view: the views `get` returns, wrapped.
    template <class G>
    Def& list_ro(const char* name, G get, const char* doc = "") {
        return ro(
            name,
            [get](const V& v, const NodeRef& r) { return wrap_views(r.doc, std::invoke(get, v)); },
            doc);
    }
    // A linked node: the view `get` returns, wrapped (None when empty).
    template <class G>
    Def& link_ro(const char* name, G get, const char* doc = "") {
        return ro(
            name,
            [get](const V& v, const NodeRef& r) { return wrap_linked(r, std::invoke(get, v)); },
            doc);
    }
    // A link by hash to a node of class TargetRef, stored in the property `key`:
    // `<name>_hash` (None when missing), `<name>` (the node, or None) and set_<name>(node).
    template <class TargetRef, class H, class G>
    Def& link(const char* name, const char* key, H hash, G get, const char* doc = "") {
        cls.def_property_readonly((std::string(name) + "_hash").c_str(), [hash](const NodeRef& r) {
            return opt(std::invoke(hash, r.view<V>()));
        });
        link_ro(name, get, doc);
        std::string property(key);
        std::string setter = "set_" + std::string(name);
        cls.def(
            setter.c_str(),
            [property, setter](const NodeRef& r, const TargetRef& target) {
                r.view<V>().set_hash_link(property, linked(r, target, setter).node->hash());
            },
            py::arg("node"));
        return *this;
    }
    // A new child: the view `add` returns, wrapped.
    template <class A>
    Def& add(const char* name, A add, const char* doc = "") {
        cls.def(
            name,
            [add](const NodeRef& r) {
                V v = r.view<V>();
                auto child = std::invoke(add, v);
                return NodeOf<RefOf<decltype(child)>>(wrap_view(r.doc, child));
            },
            doc);
        return *this;
    }
    // add_file(path): a File child naming `path`.
    Def& add_file(const char* doc) {
        cls.def(
            "add_file",
            [](const NodeRef& r, const py::str& path) {
                return NodeOf<FileRef>(wrap_view(r.doc, r.view<V>().add_file(encode(path))));
            },
            py::arg("path"), doc);
        return *this;
    }
    // An array attribute: the property `property` when it has one of `types`.
    Def& array_ro(const char* name, const char* property, std::initializer_list<PropertyType> types,
                  std::size_t rows = 1, const char* doc = "") {
        std::vector<PropertyType> kinds(types);
        std::string key(property);
        cls.def_property_readonly(
            name,
            [kinds, key, rows](const NodeRef& r) -> Typed<types::OptionalArray> {
                const cast::Property* p = r.node->find(key);
                if (p == nullptr || std::find(kinds.begin(), kinds.end(), p->type()) == kinds.end())
                    return py::none();
                return typed_values(r.doc, *r.node, key, {p->type()}, rows);
            },
            doc);
        return *this;
    }
    // name(values): the property `property` set to `values` as `type`.
    Def& array_set(const char* name, const char* property, PropertyType type,
                   const char* doc = "") {
        std::string key(property);
        cls.def(
            name,
            [key, type](const NodeRef& r, const Typed<types::ArrayLike>& values) {
                set_array(r.doc, *r.node, key, type, values);
            },
            py::arg("values"), doc);
        return *this;
    }
    // name(<argument>): set(view, the argument as unsigned 32-bit integers), whose errors call
    // it `what`.
    template <class S>
    Def& u32_set(const char* name, const char* argument, const char* what_text, S set,
                 const char* doc = "") {
        std::string what(what_text);
        cls.def(
            name,
            [set, what](const NodeRef& r, const Typed<types::ArrayLike>& values) {
                V v = r.view<V>();
                std::invoke(set, v, to_u32(values, what.c_str()));
            },
            py::arg(argument), doc);
        return *this;
    }
};

// The class of a node type, declared before any member (declare_classes).
template <class Ref>
void declare(py::module_& m, const char* name, const char* doc) {
    py::class_<Ref, NodeRef>(m, name, doc);
}

// Each family of node classes: its classes (for declare_classes), then their members.
void declare_scene(py::module_& m);
void declare_materials(py::module_& m);
void declare_models(py::module_& m);
void declare_skeletons(py::module_& m);
void declare_animations(py::module_& m);
void register_scene();
void register_materials();
void register_models();
void register_skeletons();
void register_animations();

}  // namespace castkit::python::nodes
