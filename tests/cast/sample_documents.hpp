// Documents built in code for tests that need more than the fixtures hold.
#pragma once

#include <castkit/cast/document.hpp>

namespace castkit::test {

// One Root > Model holding every property type (b h i l f d s v2 v3 v4, a two-string `s`,
// an empty array), an unknown node id with a child, and a node whose tail is opaque (rule 6).
cast::Document every_property_type_document();

}  // namespace castkit::test
