// Crops and filters for a map: which Instances a selection keeps, and taking out the others.
#include <fmt/format.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/scene/instance_selection.hpp>
#include <cmath>

namespace castkit::scene {
namespace {

Diagnostic selection_error(std::string message) {
    Diagnostic d;
    d.rule = "scene.selection";
    d.message = std::move(message);
    return d;
}

bool finite(const Point& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

std::optional<std::string> sphere_problem(const InstanceSelection::Sphere& sphere) {
    if (!finite(sphere.centre)) return "within: the centre is not a finite point";
    if (!std::isfinite(sphere.radius)) return "within: the radius is not a finite number";
    if (sphere.radius < 0) return fmt::format("within: the radius {} is negative", sphere.radius);
    return std::nullopt;
}

std::optional<std::string> box_problem(const InstanceSelection::Box& box) {
    if (!finite(box.min) || !finite(box.max)) return "box: a corner is not a finite point";
    const double min[] = {box.min.x, box.min.y, box.min.z};
    const double max[] = {box.max.x, box.max.y, box.max.z};
    for (int axis = 0; axis < 3; ++axis)
        if (min[axis] > max[axis])
            return fmt::format("box: the minimum {} on {} exceeds the maximum {}", min[axis],
                               "xyz"[axis], max[axis]);
    return std::nullopt;
}

// Where the set that opens at glob[open] ('[') closes: the index of its ']', else npos. A ']'
// first in the set (after a '!' or '^') is one of its characters.
std::size_t set_end(std::string_view glob, std::size_t open) {
    std::size_t i = open + 1;
    if (i < glob.size() && (glob[i] == '!' || glob[i] == '^')) ++i;
    if (i < glob.size() && glob[i] == ']') ++i;
    return glob.find(']', i);
}

std::optional<std::string> glob_problem(std::string_view option, std::string_view glob) {
    if (glob.empty()) return fmt::format("{}: an empty glob matches no name", option);
    for (std::size_t i = 0; i < glob.size(); ++i) {
        if (glob[i] != '[') continue;
        const std::size_t close = set_end(glob, i);
        if (close == std::string_view::npos)
            return fmt::format("{}: the glob '{}' opens a set with '[' that no ']' closes", option,
                               glob);
        i = close;
    }
    return std::nullopt;
}

// A byte of a name, ASCII letters lowered; bytes past ASCII (UTF-8) as they are, above it.
unsigned char lower(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 'A' && byte <= 'Z' ? static_cast<unsigned char>(byte - 'A' + 'a') : byte;
}

// Whether `c` is in the set glob[open..close] (the brackets included), blind to ASCII case.
bool in_set(std::string_view glob, std::size_t open, std::size_t close, char c) {
    std::size_t i = open + 1;
    const bool negated = glob[i] == '!' || glob[i] == '^';
    if (negated) ++i;
    bool found = false;
    while (i < close) {
        const unsigned char from = lower(glob[i]);
        if (i + 2 < close && glob[i + 1] == '-') {
            const unsigned char to = lower(glob[i + 2]);
            found = found || (from <= lower(c) && lower(c) <= to);
            i += 3;
        } else {
            found = found || from == lower(c);
            ++i;
        }
    }
    return found != negated;
}

bool any_matches(const std::vector<std::string>& globs, std::string_view name) {
    for (const std::string& glob : globs)
        if (glob_matches(glob, name)) return true;
    return false;
}

struct Names {
    std::optional<std::string_view> instance{}, model{};
};

bool either_matches(const std::vector<std::string>& globs, const Names& names) {
    return (names.instance && any_matches(globs, *names.instance)) ||
           (names.model && any_matches(globs, *names.model));
}

bool in_sphere(const InstanceSelection::Sphere& sphere, const glm::vec3& p) {
    const double dx = p.x - sphere.centre.x, dy = p.y - sphere.centre.y, dz = p.z - sphere.centre.z;
    return dx * dx + dy * dy + dz * dz <= sphere.radius * sphere.radius;
}

bool in_box(const InstanceSelection::Box& box, const glm::vec3& p) {
    return box.min.x <= p.x && p.x <= box.max.x && box.min.y <= p.y && p.y <= box.max.y &&
           box.min.z <= p.z && p.z <= box.max.z;
}

bool keeps(const InstanceSelection& selection, const cast::ConstInstance& instance) {
    const glm::vec3 position = instance.position().value_or(glm::vec3(0));
    if (selection.within && !in_sphere(*selection.within, position)) return false;
    if (selection.box && !in_box(*selection.box, position)) return false;
    if (selection.include.empty() && selection.exclude.empty()) return true;
    Names names{.instance = instance.name()};
    if (cast::ConstFile file = instance.reference_file())
        if (auto path = file.path()) names.model = model_name(*path);
    if (!selection.include.empty() && !either_matches(selection.include, names)) return false;
    return !either_matches(selection.exclude, names);
}

Diagnostic count_line(const SelectionCount& count, std::string_view file) {
    Diagnostic d;
    d.file = std::string(file);
    if (count.kept == 0) {
        d.severity = Severity::Warning;
        d.rule = "scene.nothing-selected";
        d.message = fmt::format(
            "the selection keeps none of the {} instances: its coordinates are in the map's own "
            "units and axes",
            count.removed);
        return d;
    }
    d.severity = Severity::Info;
    d.rule = "scene.instances-selected";
    d.message = fmt::format("kept {} of {} instances, removed {}", count.kept,
                            count.kept + count.removed, count.removed);
    return d;
}

}  // namespace

Expected<void> InstanceSelection::validate() const {
    std::optional<std::string> problem;
    if (within) problem = sphere_problem(*within);
    if (!problem && box) problem = box_problem(*box);
    for (const std::string& glob : include)
        if (!problem) problem = glob_problem("include", glob);
    for (const std::string& glob : exclude)
        if (!problem) problem = glob_problem("exclude", glob);
    if (problem) return make_error(selection_error(std::move(*problem)));
    return {};
}

// Matches left to right; on a mismatch, the last `*` takes one more character and the match
// goes on after it (no recursion, so no glob can exhaust the stack).
bool glob_matches(std::string_view glob, std::string_view name) {
    std::size_t g = 0, n = 0;
    std::size_t star = std::string_view::npos, star_name = 0;
    while (n < name.size()) {
        if (g < glob.size() && glob[g] == '*') {
            star = g++;
            star_name = n;
            continue;
        }
        if (g < glob.size() && glob[g] == '[') {
            const std::size_t close = set_end(glob, g);
            if (close == std::string_view::npos) return false;
            if (in_set(glob, g, close, name[n])) {
                g = close + 1;
                ++n;
                continue;
            }
        } else if (g < glob.size() && (glob[g] == '?' || lower(glob[g]) == lower(name[n]))) {
            ++g;
            ++n;
            continue;
        }
        if (star == std::string_view::npos) return false;
        g = star + 1;
        n = ++star_name;
    }
    while (g < glob.size() && glob[g] == '*') ++g;
    return g == glob.size();
}

std::string_view model_name(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
    const std::size_t dot = path.rfind('.');
    return dot == 0 || dot == std::string_view::npos ? path : path.substr(0, dot);
}

SelectionCount select_instances(cast::Document& document, const InstanceSelection& selection,
                                std::string_view file, Diagnostics& diagnostics) {
    SelectionCount count;
    for (cast::Node& root : document.roots()) {
        if (!root.is(cast::NodeId::Root)) continue;
        // The nodes taken out are freed at the end of the statement.
        root.take_children_if([&](const cast::Node& child) {
            if (!child.is(cast::NodeId::Instance)) return false;
            const bool kept = keeps(selection, cast::view_of<cast::ConstInstance>(child));
            ++(kept ? count.kept : count.removed);
            return !kept;
        });
    }
    if (count.kept + count.removed > 0) diagnostics.push_back(count_line(count, file));
    return count;
}

}  // namespace castkit::scene
