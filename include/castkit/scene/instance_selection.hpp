// Crops and filters for a map (a world file of Instances): the Instances outside a sphere or a
// box, or whose names a glob leaves out, taken out of the document before it is converted, so a
// map too large for a DCC arrives as the part the user wants (`castkit convert --within`,
// `--box`, `--include`, `--exclude`). docs/workflows.md ("Cropping a map") gives the rules.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::scene {

// A point in the file's own units and axes (before any --up or --units change).
struct Point {
    double x = 0, y = 0, z = 0;
};

// The Instances kept: those whose position lies in the sphere (when set, its surface included)
// and in the box (when set, its faces included), whose instance name or model name matches one
// of `include` (when any is given), and neither of whose names matches one of `exclude`. An
// Instance without a position is at the origin. The model name is the stem of the path of the
// File the Instance references (`rf`): "models/rock_01.cast" is "rock_01". Globs match a whole
// name: `*` any run of characters, `?` one, `[abc]`, `[a-z]` and `[!abc]` (or `[^abc]`) one of a
// set; letters are compared blind to ASCII case, as the file systems maps are ripped on name
// their files (a `Rock_01.cast` and a `rock_01.cast` are one file there).
struct InstanceSelection {
    struct Sphere {
        Point centre{};
        double radius = 0;
    };
    struct Box {
        Point min{}, max{};
    };
    std::optional<Sphere> within{};
    std::optional<Box> box{};
    std::vector<std::string> include{}, exclude{};

    // True when the selection keeps every Instance.
    bool empty() const { return !within && !box && include.empty() && exclude.empty(); }
    // A sphere whose radius is negative or not finite, a centre or corner not finite, a box
    // whose min exceeds its max on an axis, an empty glob or one with an unclosed `[` is an
    // error (scene.selection) that names the option; nothing is selected with it.
    Expected<void> validate() const;
};

// Whether `name` matches the whole of `glob` (InstanceSelection's syntax, blind to ASCII case).
// A glob validate() refuses matches nothing. O(|glob| × |name|) at worst.
bool glob_matches(std::string_view glob, std::string_view name);

// An Instance's model name: the stem of the path of the File it references, either separator
// ("models/rock_01.cast" is "rock_01"). A view of `path`. O(length).
std::string_view model_name(std::string_view path);

// What select_instances() did.
struct SelectionCount {
    std::size_t kept = 0, removed = 0;
};

// Takes every Instance (a child of a Root) that `selection` does not keep out of `document`.
// A document holding Instances gets one info line (scene.instances-selected) saying how many
// were kept and removed, or a warning (scene.nothing-selected) when none was kept, naming
// `file`; a document without Instances gets none. `selection` must be valid (validate()).
// O(instances + their names' lengths × the globs').
SelectionCount select_instances(cast::Document& document, const InstanceSelection& selection,
                                std::string_view file, Diagnostics& diagnostics);

}  // namespace castkit::scene
