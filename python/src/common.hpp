// Shared pieces of the castkit Python module: the document a Python object keeps alive, the
// node handles the typed classes wrap, errors, strings and the numpy views of payloads.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <castkit/anim/root_motion.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/formats/format.hpp>
#include <castkit/scene/axis_change.hpp>
#include <castkit/scene/instance_selection.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "typing.hpp"

namespace castkit::python {

// One document and the storage its payloads may view. Python's Document and every node object
// share it (shared_ptr), so a node keeps its document alive and nodes never dangle: nodes are
// only ever added, never removed, and each sits in its own heap allocation (unique_ptr), so a
// node's address is stable for the document's life. The document itself never moves either.
struct DocState {
    cast::Document document;
    // The name of the format the document was read from; empty when made in Python.
    std::string format;
    // The reader's findings, which validate() reports first.
    Diagnostics read_warnings;
    // The folder of the file it was read from: writers find the side files the document names
    // (textures, instanced scenes) there, as `castkit convert` does.
    std::filesystem::path base;

    // Buffers payloads may view, by first byte: each entry's owner keeps [begin, end) alive.
    // Weak: a buffer no property views any more is released; an expired entry is a miss.
    struct Buffer {
        const std::byte* end;
        std::weak_ptr<const void> owner;
    };
    std::map<const std::byte*, Buffer> buffers;

    // Records that `bytes` stay alive while `bytes.owner` does.
    void register_buffer(const cast::SharedBytes& bytes);
    // The owner keeping `bytes` alive when they lie inside a registered buffer, else null.
    std::shared_ptr<const void> owner_of(cast::Bytes bytes) const;
};
using DocPtr = std::shared_ptr<DocState>;

// What every Python node object holds: its document, the node, and the node's parent (links
// such as a mesh's material resolve among the parent's children).
struct NodeRef {
    DocPtr doc;
    cast::Node* node = nullptr;
    cast::Node* parent = nullptr;

    template <class View>
    View view() const {
        return cast::view_of<View>(*node);
    }
};

// The C++ types behind the typed Python classes (each a NodeRef; pybind11 tells them apart), and
// RefOf<View>, the one behind a view's node type (RefOf<cast::Mesh> is MeshRef).
template <cast::NodeId id>
struct RefFor {
    using type = NodeRef;
};
template <class View>
using RefOf = typename RefFor<std::remove_cvref_t<View>::kId>::type;
#define CASTKIT_NODE_REF(Name)          \
    struct Name##Ref : NodeRef {};      \
    template <>                         \
    struct RefFor<cast::NodeId::Name> { \
        using type = Name##Ref;         \
    }
CASTKIT_NODE_REF(Root);
CASTKIT_NODE_REF(Model);
CASTKIT_NODE_REF(Mesh);
CASTKIT_NODE_REF(Hair);
CASTKIT_NODE_REF(BlendShape);
CASTKIT_NODE_REF(Skeleton);
CASTKIT_NODE_REF(Bone);
CASTKIT_NODE_REF(IKHandle);
CASTKIT_NODE_REF(Constraint);
CASTKIT_NODE_REF(Animation);
CASTKIT_NODE_REF(Curve);
CASTKIT_NODE_REF(CurveModeOverride);
CASTKIT_NODE_REF(NotificationTrack);
CASTKIT_NODE_REF(Material);
CASTKIT_NODE_REF(File);
CASTKIT_NODE_REF(Color);
CASTKIT_NODE_REF(Instance);
CASTKIT_NODE_REF(Metadata);
#undef CASTKIT_NODE_REF

// The Python object for `node`: the typed class its id names, else the generic Node.
py::object wrap_node(const DocPtr& doc, cast::Node* node, cast::Node* parent);
// The Python object for a view, or None for an empty view.
template <class View>
OptionalOf<RefOf<View>> wrap_view(const DocPtr& doc, const View& view) {
    if (!view) return py::none();
    return wrap_node(doc, &view.node(), view.parent());
}
template <class View>
ListOf<RefOf<View>> wrap_views(const DocPtr& doc, const std::vector<View>& views) {
    py::list out;
    for (const View& view : views) out.append(wrap_view(doc, view));
    return out;
}

// The castkit.Error class.
py::handle error_type();
// castkit.Error: raised with the diagnostic's text, carrying its fields as attributes.
[[noreturn]] void raise_error(const Diagnostic& diagnostic);
// A failure that is not the library's (a bad argument): castkit.Error without file or offset.
[[noreturn]] void raise_error(std::string message, std::string rule = {});
template <class T>
T unwrap(Expected<T> result) {
    if (!result) raise_error(result.error());
    return std::move(*result);
}
inline void unwrap(Expected<void> result) {
    if (!result) raise_error(result.error());
}

// Text from the file as Python str: UTF-8, bytes that are not UTF-8 kept as surrogates
// (surrogateescape), so any name reads and writes back unchanged.
py::str to_str(std::string_view text);
Typed<types::OptionalStr> to_str(const std::optional<std::string_view>& text);
inline py::str to_str(const std::string& text) { return to_str(std::string_view(text)); }
inline py::str to_str(const char* text) { return to_str(std::string_view(text)); }
// A Python str as UTF-8 bytes (surrogates back to the bytes they stand for).
std::string encode(const py::str& text);
// A Python str as the bytes of a Cast string value; refuses NUL, which ends one.
std::string from_str(const py::str& text);

// glTF export's texture placement (FormatOptions::textures) by name; a ValueError naming
// `option` (the keyword the caller took it as) for any other.
TextureMode texture_mode(const std::string& name, const char* option);
inline TextureMode texture_mode(const Word<types::TextureWords>& name, const char* option) {
    return texture_mode(name.text, option);
}
// --root-motion's mode by its word ("keep", "strip", "extract"); a ValueError naming `option`
// for any other.
anim::RootMotion root_motion(const std::string& name, const char* option);
inline anim::RootMotion root_motion(const Word<types::RootMotionWords>& name, const char* option) {
    return root_motion(name.text, option);
}
// The root motion of `state`'s document stripped or extracted as `castkit convert --root-motion`
// does, in the file's own axes (`from_up` when given); its warnings. castkit.Error
// (anim.root-bone) when `root_bone` names no bone.
Diagnostics move_root_motion(const DocPtr& state, anim::RootMotion mode,
                             const std::string& root_bone, std::optional<cast::Axis> from_up);
// The axes request of `up`, `from_up` ("x", "y", "z"), `units`, `from_units` ("mm", "cm", "m",
// "in", "ft") and `scale`; ValueError naming the argument for any other word.
scene::AxesRequest axes_request(const AxisWord& up, const AxisWord& from_up, const UnitWord& units,
                                const UnitWord& from_units, double scale);
// within=, box=, include= and exclude= as a selection of Instances, checked; ValueError naming
// the keyword for a tuple of the wrong length or an invalid selection.
namespace types {
CASTKIT_PYTHON_TYPE(Sphere, "Optional[Tuple[float, float, float, float]]");
CASTKIT_PYTHON_TYPE(Box, "Optional[Tuple[float, float, float, float, float, float]]");
}  // namespace types
scene::InstanceSelection selection_from(const py::handle& within, const py::handle& box,
                                        std::vector<std::string> include,
                                        std::vector<std::string> exclude);
// The kept findings, then one "... and N more" Diagnostic per kind that was only counted.
ListOf<Diagnostic> diagnostics_list(const Diagnostics& diagnostics);

// Declares every class a signature names (Document, Property, Node and the typed node
// classes) before any member is defined, so that each signature names them as Python does.
void declare_classes(py::module_& m);
// The class declare_classes made for T, to define its members.
template <class T, class... Options>
py::class_<T, Options...> declared() {
    return py::reinterpret_borrow<py::class_<T, Options...>>(py::type::of<T>());
}

// Registration, one file each.
void register_errors(py::module_& m);
void register_document(py::module_& m);
void register_nodes();
void register_anim(py::module_& m);
void register_tree(py::module_& m);
void register_values(py::module_& m);
void register_batch(py::module_& m);
void register_selection();

// ---- numpy ----------------------------------------------------------------------------------

// The payload of the last property `name` of `node` as a read-only numpy array viewing the
// payload's storage (zero copy), whose base keeps that storage alive; strings as list[str].
// None when the node has no such property. A payload castkit owns in the node (made in code,
// or by a reader that converts) is moved once into a shared buffer so it can be viewed too.
Typed<types::OptionalValues> property_values(const DocPtr& doc, cast::Node& node,
                                             std::string_view name);
// The payload of `p` (a property of `node`) for castkit.cast: a CastValues (values.cpp) of n·k
// components for vectors, flat as the reference cast.py's tuples; strings a list of str.
py::object flat_values(const DocPtr& doc, cast::Node& node, const cast::Property& p);
// A CastValues of `count` components of `type` (a vector type's are floats) at `data`, which
// `owner` keeps alive.
py::object cast_values(cast::PropertyType type, const std::byte* data, std::size_t count,
                       std::shared_ptr<const void> owner);
// As property_values, but None unless the property has one of the types in `types`; vectors
// keep their (n, k) shape; `rows` > 1 reshapes a flat array to (n / rows, rows), dropping a
// partial last row.
Typed<types::OptionalArray> typed_values(const DocPtr& doc, cast::Node& node, std::string_view name,
                                         std::initializer_list<cast::PropertyType> types,
                                         std::size_t rows = 1);

// Sets the property `name` to a copy of `values` converted to `type`: (n, k) for vectors (a
// flat array of n·k also works), any shape for scalars (flattened). The copy is the property's
// payload, viewable without another copy.
void set_array(const DocPtr& doc, cast::Node& node, std::string name, cast::PropertyType type,
               const py::handle& values);
// `values` as a flat vector of u32 (indices, frames), refusing negative or larger values.
std::vector<std::uint32_t> to_u32(const py::handle& values, const char* what);
// `values` as contiguous float32 rows of `width` (1 for scalars).
py::array_t<float, py::array::c_style> to_f32(const py::handle& values, std::size_t width,
                                              const char* what);

}  // namespace castkit::python
