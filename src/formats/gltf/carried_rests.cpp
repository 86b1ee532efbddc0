// glTF's rests carried in a Metadata, moved by an axis change (carried_rests.hpp).
#include "carried_rests.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "json_depth.hpp"

namespace castkit::gltf::detail {
namespace {

// True when `value` is an array of `count` numbers.
bool numbers_of_count(const nlohmann::json& value, std::size_t count) {
    if (!value.is_array() || value.size() != count) return false;
    return std::all_of(value.begin(), value.end(),
                       [](const nlohmann::json& v) { return v.is_number(); });
}

}  // namespace

void move_carried_rests(cast::Metadata metadata, const scene::AxisMove& move) {
    const auto text = metadata.string("gltf");
    // Settings nested too deep or too large for the glTF export to read are left as they are
    // (it ignores them); parsing and writing them back would recurse that deep, or take more
    // memory than the file's budget.
    if (!text || first_too_deep(*text) || carried_too_large(*text)) return;
    nlohmann::json carried = nlohmann::json::parse(*text, nullptr, false);
    if (!carried.is_object() || !carried.contains("rest") || !carried["rest"].is_object()) return;
    for (auto& [hash, rest] : carried["rest"].items()) {
        const auto t = rest.find("translation");
        const auto r = rest.find("rotation");
        if (t == rest.end() || r == rest.end() || !numbers_of_count(*t, 3) ||
            !numbers_of_count(*r, 4))
            continue;
        const bool root = move.is_root_bone(std::strtoull(hash.c_str(), nullptr, 10));
        const glm::vec3 translation((*t)[0].get<float>(), (*t)[1].get<float>(),
                                    (*t)[2].get<float>());
        const glm::vec3 moved = root ? move.point(translation) : move.scaled(translation);
        *t = {moved.x, moved.y, moved.z};
        if (!root) continue;
        const glm::vec4 rotation = move.turned({(*r)[0].get<float>(), (*r)[1].get<float>(),
                                                (*r)[2].get<float>(), (*r)[3].get<float>()});
        *r = {rotation.x, rotation.y, rotation.z, rotation.w};
    }
    metadata.set_string("gltf", carried.dump());
}

}  // namespace castkit::gltf::detail
