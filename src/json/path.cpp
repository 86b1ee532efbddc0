#include "path.hpp"

#include <fmt/format.h>

namespace castkit::json {

std::string Path::json_path() const {
    if (parent_ == nullptr) return std::string(1, '$');
    std::string out = parent_->json_path();
    if (is_index_) return out + fmt::format("[{}]", index_);
    out.push_back('.');
    out.append(key_);
    return out;
}

std::string Path::pointer() const {
    if (parent_ == nullptr) return {};
    return parent_->pointer() + (is_index_ ? fmt::format("/{}", index_) : fmt::format("/{}", key_));
}

}  // namespace castkit::json
