// Documents and helpers for the typed-API tests.
#pragma once

#include <castkit/cast/document.hpp>

namespace castkit::test {

// A scene with all 18 node types and every property the typed views know, built only through
// the views' setters (see typed_api_test.cpp for what each holds).
cast::Document every_node_type_scene();

// Writes `document` to a buffer and reads it back, expecting no warnings.
cast::Document reread(const cast::Document& document);

}  // namespace castkit::test
