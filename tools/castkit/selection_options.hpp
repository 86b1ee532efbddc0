// --within, --box, --include and --exclude: the Instances of a map `castkit convert` keeps
// (castkit/scene/instance_selection.hpp), as words on the command line.
#pragma once

#include <CLI/CLI.hpp>
#include <castkit/scene/instance_selection.hpp>
#include <optional>
#include <string>
#include <vector>

namespace castkit::cli {

struct SelectionWords {
    std::string within, box;  // "X,Y,Z,R" and "X0,Y0,Z0,X1,Y1,Z1"
    std::vector<std::string> include, exclude;
};

// Adds the four options to `command`, their words kept in `words`.
void add_selection_options(CLI::App* command, SelectionWords& words);

// The selection `words` say, checked (InstanceSelection::validate); nullopt, the mistake printed
// on stderr, when a list is not numbers of the right count or the selection is not valid.
std::optional<scene::InstanceSelection> selection_of(const SelectionWords& words);

}  // namespace castkit::cli
