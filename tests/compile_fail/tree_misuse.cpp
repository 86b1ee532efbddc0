// Misuse of the document model that must not compile (issue 30): the tree is const all the way
// down through a const Document or a const view, and views are made only by the library.
// tests/compile_fail/compile_fail_test.cmake compiles this file once with no CASE (it must
// compile, so a failure below is the misuse and not a typo) and once per CASE (each must fail,
// on the line under its `#elif`).
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>

using namespace castkit::cast;

void misuse(const Document& document, const ConstModel& model, Document& editable) {
    const Node& root = document.roots()[0];
    Node& editable_root = editable.roots()[0];
    (void)root;
    (void)editable_root;
    (void)model;
#if CASE == 1  // a const document gives const roots
    document.roots()[0].set_hash(42);
#elif CASE == 2  // ... and const children, at every depth
    document.roots()[0].children()[0].properties.clear();
#elif CASE == 3  // a const view gives a const node
    model.node().children()[0].set(make_string("n", "changed"));
#elif CASE == 4  // its const document gives no mutable views either
    document.models()[0].add_mesh();
#elif CASE == 5  // a mutable view of a const node
    (void)view_of<Mesh>(document.roots()[0]);
#elif CASE == 6  // views are not made from raw pointers: the key is the library's
    Mesh mesh(ViewKey(), &editable_root);
#elif CASE == 7  // nodes are never copied (clone() copies a subtree, with its hashes handled)
    Node copy = root;
#elif CASE == 8  // hashes change through set_hash, which the document's counter hears of
    editable_root.hash_ = 42;
#elif CASE == 9  // a const document's range gives no way to its mutable node pointers
    document.roots().begin().base()->get()->set_hash(42);
#endif
}
