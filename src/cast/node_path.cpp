#include "node_path.hpp"

#include <fmt/format.h>

#include <castkit/cast/document.hpp>
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

std::string path_of(const Node& node) {
    std::vector<std::string> steps;
    for (const Node* at = &node; at != nullptr; at = at->parent()) {
        std::uint32_t index = 0;
        auto count_before = [&](const auto& siblings) {
            for (const Node& sibling : siblings) {
                if (&sibling == at) break;
                index += sibling.id == at->id ? 1 : 0;
            }
        };
        if (at->parent() != nullptr)
            count_before(at->parent()->children());
        else if (at->document() != nullptr)
            count_before(at->document()->roots());
        steps.push_back(step_name(at->id, index));
    }
    std::string path;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
        path += (path.empty() ? "" : "/") + *it;
    return path;
}

std::uint32_t SiblingCounter::next(std::uint32_t id) {
    if (!many_.empty()) return many_[id]++;
    for (Entry& e : entries_)
        if (e.id == id) return e.count++;
    if (entries_.size() < kListed) {
        entries_.push_back({id, 1});
        return 0;
    }
    for (const Entry& e : entries_) many_.emplace(e.id, e.count);
    entries_.clear();
    return many_[id]++;
}

}  // namespace castkit::cast
