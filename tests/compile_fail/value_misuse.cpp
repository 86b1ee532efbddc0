// Values the document model must refuse at compile time (issue 30): the key property and the
// constraint type are enums, not free text, and make_value stores exactly the type it names.
// Built as tree_misuse.cpp is (compile_fail_test.cmake): once with no CASE, once per CASE.
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/values.hpp>
#include <cstdint>

using namespace castkit::cast;

void misuse(Curve& curve, Constraint& constraint) {
    curve.set_key_property(KeyProperty::Rotation);
    constraint.set_constraint_type(ConstraintType::Orient);
    (void)make_value<std::uint8_t>("mi", std::uint8_t{200});
#if CASE == 1  // any text as a key property ("banana" was stored as it stood)
    curve.set_key_property("banana");
#elif CASE == 2  // any text as a constraint type
    constraint.set_constraint_type("aim");
#elif CASE == 3  // an int narrowed to the byte make_value names (300 was stored as 44)
    (void)make_value<std::uint8_t>("mi", 300);
#endif
}
