// The turn castkit's glTF export gives a scene whose Metadata says it is Z up or X up, so that
// it stands +Y up as glTF asks, and its inverse for the import: one place for both directions.
#pragma once

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <string_view>

namespace castkit::gltf::detail {

// Z up ("z"): a -90° turn about X takes +Z to +Y; X up ("x"): +90° about Z takes +X to +Y.
inline glm::quat up_turn(std::string_view up) {
    return up == "z" ? glm::angleAxis(-glm::half_pi<float>(), glm::vec3(1, 0, 0))
                     : glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1));
}

// A point of a scene in `up` as up_turn() places it, and back: the axes swapped and negated
// exactly, where rotating by the quaternion would round.
inline glm::vec3 turned_to_y_up(glm::vec3 p, std::string_view up) {
    return up == "z" ? glm::vec3(p.x, p.z, -p.y) : glm::vec3(-p.y, p.x, p.z);
}
inline glm::vec3 turned_from_y_up(glm::vec3 p, std::string_view up) {
    return up == "z" ? glm::vec3(p.x, -p.z, p.y) : glm::vec3(p.y, -p.x, p.z);
}

}  // namespace castkit::gltf::detail
