#include "node_path.hpp"

#include <fmt/format.h>

#include <vector>

namespace castkit::cast {

std::string step_name(std::uint32_t id, std::uint32_t index) {
    if (auto name = node_name(id)) return fmt::format("{}[{}]", *name, index);
    return fmt::format("{:#010x}[{}]", id, index);
}

std::string format_path(const PathStep* step) {
    std::vector<const PathStep*> steps;
    for (; step != nullptr; step = step->parent) steps.push_back(step);
    std::string path;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
        if (!path.empty()) path += '/';
        path += step_name((*it)->id, (*it)->index);
    }
    return path;
}

std::uint32_t SiblingCounter::next(std::uint32_t id) {
    for (Entry& e : entries_)
        if (e.id == id) return e.count++;
    entries_.push_back({id, 1});
    return 0;
}

}  // namespace castkit::cast
