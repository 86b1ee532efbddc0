// The castkit Python module's entry point (castkit._castkit; castkit/__init__.py re-exports it).
#include "common.hpp"

PYBIND11_MODULE(_castkit, m) {
    m.doc() =
        "castkit: read, write, validate and convert Cast 3D assets (and SEAnim, SEModel, "
        "DMF, K3D, glTF); arrays are numpy views of the file.";
    castkit::python::register_errors(m);
    castkit::python::declare_classes(m);
    castkit::python::register_document(m);
    castkit::python::register_selection();
    castkit::python::register_nodes();
    castkit::python::register_anim(m);
    castkit::python::register_tree(m);
    castkit::python::register_values(m);
    castkit::python::register_batch(m);
}
