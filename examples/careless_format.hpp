// A format of the user's own written carelessly, as castkit must survive one (docs/library.md,
// "A format of your own"): its files are Cast files under another extension, and its reader
// hands the document views of the bytes it was lent without their owner (cast::read of the bare
// span), so that the document would point into a file unmapped once formats::read_file returns;
// it throws where castkit's own formats return an error (a file without the Cast magic), and its
// writer throws always. The registry holds the borrowed views alive and turns each exception into
// an error registry.exception (tests/formats/plugin_registry_test.cpp).
#pragma once

#include <castkit/registry.hpp>

namespace careless_format {

// The registry entry: name "careless", extension ".careless".
castkit::FormatInfo format_info();

}  // namespace careless_format
