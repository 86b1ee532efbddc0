// Node paths for diagnostics ("root[0]/model[2]/mesh[0]"), built only when a message needs one.
#pragma once

#include <castkit/cast/node.hpp>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace castkit::cast {

// One step of a path: a node's id and its index among the siblings with the same id.
// Steps link to their parent on the stack, so walking a tree costs nothing until formatted.
struct PathStep {
    const PathStep* parent = nullptr;
    std::uint32_t id = 0;
    std::uint32_t index = 0;
};

// "model[2]" for known ids, "0x12345678[0]" for unknown ones.
std::string step_name(std::uint32_t id, std::uint32_t index);
std::string format_path(const PathStep* step);

// The path of a node in its tree ("root[0]/model[1]/mesh[0]"), counted among its siblings (the
// document's roots for a root). O(depth × siblings).
std::string path_of(const Node& node);

// Counts siblings by id so each child gets its per-id index. O(1) per child: a short list
// while there are few distinct ids (the usual case), a hash map beyond that, so a node with a
// million children of distinct (unknown) ids does not make reading quadratic.
class SiblingCounter {
  public:
    std::uint32_t next(std::uint32_t id);

  private:
    static constexpr std::size_t kListed = 16;
    struct Entry {
        std::uint32_t id;
        std::uint32_t count;
    };
    std::vector<Entry> entries_;
    std::unordered_map<std::uint32_t, std::uint32_t> many_;
};

}  // namespace castkit::cast
