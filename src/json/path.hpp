// Where a JSON reader is in its document, for its error messages: a chain of steps kept on the
// stack, so that making one per value costs nothing; it is rendered only when an error needs it,
// as a JSON path ("$.faces[3].indices") or as a JSON pointer ("/faces/3/indices"). A step
// refers to its parent and its key, which must outlive it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace castkit::json {

class Path {
  public:
    Path() = default;  // the document's root
    Path operator/(std::string_view key) const { return {this, key, 0, false}; }
    Path operator[](std::size_t index) const { return {this, {}, index, true}; }

    // "$" for the root, then ".key" or "[index]" per step. O(depth).
    std::string json_path() const;
    // "" for the root, then "/key" or "/index" per step (keys are not escaped). O(depth).
    std::string pointer() const;

  private:
    Path(const Path* parent, std::string_view key, std::size_t index, bool is_index)
        : parent_(parent), key_(key), index_(index), is_index_(is_index) {}
    const Path* parent_ = nullptr;
    std::string_view key_;
    std::size_t index_ = 0;
    bool is_index_ = false;
};

}  // namespace castkit::json
