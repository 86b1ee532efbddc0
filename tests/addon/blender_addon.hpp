// The rules the official Blender add-on (dtzxporter/cast, plugins/blender/import_cast.py, read
// through cast.py) applies when it imports a Cast file: every property it reads without a
// fallback, and every link it follows without checking. docs/blender-addon.md lists them.
#pragma once

#include <castkit/cast/document.hpp>
#include <string>
#include <vector>

namespace castkit::test {

// What would make the add-on's import fail, one line per finding ("model[0]/bone[2]: no lp"),
// in file order; empty when the add-on imports the file. Instances count as importable when
// the first Metadata (of the first Root that has one) names a scene root `sr`: the add-on's
// fallback is a folder the user sets in its preferences. O(nodes + weights).
std::vector<std::string> blender_addon_failures(cast::Document& document);

}  // namespace castkit::test
