// The node tree of a document in one call, for castkit.cast (python/castkit/cast.py, the
// drop-in for the reference cast.py): building its Python nodes from this costs no call back
// into the module per node or property.
#include "common.hpp"

namespace castkit::python {

namespace {

// `node` and its subtree as (id, hash, [(name, type name, values), ...], [child, ...]), the
// properties in file order (duplicates kept). Numeric values are flat read-only numpy views of
// the payloads (zero copy), strings a list of str. Costs one tuple per node and property and
// one array object per numeric property.
py::tuple node_tree(const DocPtr& doc, cast::Node& node) {
    py::list properties(node.properties.size());
    for (std::size_t i = 0; i < node.properties.size(); ++i) {
        // flat_values may replace the property in place (same name, type and bytes).
        py::object values = flat_values(doc, node, node.properties[i]);
        const cast::Property& p = node.properties[i];
        properties[i] = py::make_tuple(
            to_str(p.name()), py::str(std::string(cast::type_name(p.type()))), std::move(values));
    }
    py::list children(node.children().size());
    for (std::size_t i = 0; i < node.children().size(); ++i)
        children[i] = node_tree(doc, node.children()[i]);
    return py::make_tuple(node.id, node.hash(), std::move(properties), std::move(children));
}

}  // namespace

void register_tree(py::module_& m) {
    m.def(
        "node_tree",
        [](const DocPtr& doc) {
            py::list roots(doc->document.roots().size());
            for (std::size_t i = 0; i < doc->document.roots().size(); ++i)
                roots[i] = node_tree(doc, doc->document.roots()[i]);
            return roots;
        },
        py::arg("document"),
        "Every root of `document` as (id, hash, [(name, type, values)], [children]); numeric "
        "values are flat read-only views of the file (castkit.cast builds its nodes from this)");
}

}  // namespace castkit::python
