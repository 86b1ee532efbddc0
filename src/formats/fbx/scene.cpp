// The Scene's helpers: object ids and records, connections, Properties70, warnings and the byte
// budget; the local transforms and matrices as FBX stores them.
#include "scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

namespace castkit::fbx::detail {

Properties& Properties::number(std::string name, double value, std::string flags) {
    record_.add("P",
                {std::move(name), std::string("Number"), std::string(), std::move(flags), value});
    return *this;
}

Properties& Properties::integer(std::string name, std::int32_t value) {
    record_.add(
        "P", {std::move(name), std::string("int"), std::string("Integer"), std::string(), value});
    return *this;
}

Properties& Properties::real(std::string name, double value) {
    record_.add(
        "P", {std::move(name), std::string("double"), std::string("Number"), std::string(), value});
    return *this;
}

Properties& Properties::enumeration(std::string name, std::int32_t value) {
    record_.add("P", {std::move(name), std::string("enum"), std::string(), std::string(), value});
    return *this;
}

Properties& Properties::vector(std::string name, std::string type, const glm::dvec3& value,
                               std::string flags) {
    record_.add("P", {std::move(name), std::move(type), std::string(), std::move(flags), value.x,
                      value.y, value.z});
    return *this;
}

Properties& Properties::color(std::string name, const glm::dvec3& value) {
    return vector(std::move(name), "Color", value, "A");
}

Properties& Properties::text(std::string name, std::string value, std::string label) {
    record_.add("P", {std::move(name), std::string("KString"), std::move(label), std::string(),
                      std::move(value)});
    return *this;
}

Properties& Properties::time(std::string name, std::int64_t ticks) {
    record_.add("P",
                {std::move(name), std::string("KTime"), std::string("Time"), std::string(), ticks});
    return *this;
}

Properties& Properties::flag(std::string name, bool value) {
    record_.add("P", {std::move(name), std::string("bool"), std::string(), std::string(),
                      static_cast<std::int32_t>(value)});
    return *this;
}

std::int64_t Scene::add_object(std::string type, std::string_view name, std::string_view class_name,
                               std::string subclass) {
    const std::int64_t id = next_id_++;
    // Binary FBX joins a name and its class with "\x00\x01" ("hero\x00\x01Model").
    std::string full(name);
    full.append("\x00\x01", 2);
    full.append(class_name);
    counts[type] += 1;
    objects.push_back({std::move(type), {id, std::move(full), std::move(subclass)}, {}});
    return id;
}

void Scene::connect(std::int64_t child, std::int64_t parent) {
    connections.push_back({"C", {std::string("OO"), child, parent}, {}});
}

void Scene::connect(std::int64_t child, std::int64_t parent, std::string property) {
    connections.push_back({"C", {std::string("OP"), child, parent, std::move(property)}, {}});
}

void Scene::warn(std::string path, std::string message, std::string rule) {
    warnings.push_back(Diagnostic{.severity = Severity::Warning,
                                  .file = file,
                                  .path = std::move(path),
                                  .rule = std::move(rule),
                                  .message = std::move(message)});
}

bool Scene::keep_bytes(std::uint64_t more, const std::string& path, std::string_view what) {
    bytes += more;
    if (bytes <= options.max_bytes || failure) return !failure;
    failure = Diagnostic{.severity = Severity::Error,
                         .file = file,
                         .path = path,
                         .rule = "fbx.size-budget",
                         .message = fmt::format("{} take the file past its budget of {} bytes "
                                                "(fbx::ExportOptions::max_bytes)",
                                                what, options.max_bytes)};
    return false;
}

LocalTransform local_transform(const anim::Transform& transform) {
    return {glm::dvec3(transform.translation), euler_degrees(transform.rotation),
            glm::dvec3(transform.scale)};
}

namespace {

// The two XYZ Euler decompositions of rotation matrix `m` (R = Rz · Ry · Rx), in radians.
std::array<glm::dvec3, 2> euler_solutions(const glm::dmat3& m) {
    // glm is column-major: m[column][row]. Row 2, column 0 of Rz·Ry·Rx is −sin(y).
    const double sy = std::clamp(-m[0][2], -1.0, 1.0);
    const double y = std::asin(sy);
    if (std::abs(sy) > 1.0 - 1e-12) {  // gimbal lock: x and z turn about one axis; z = 0
        const double x = std::atan2(-m[2][1], m[1][1]);
        return {glm::dvec3(x, y, 0.0), glm::dvec3(x, y, 0.0)};
    }
    const double x = std::atan2(m[1][2], m[2][2]);
    const double z = std::atan2(m[0][1], m[0][0]);
    const double pi = 3.14159265358979323846;
    return {glm::dvec3(x, y, z), glm::dvec3(x + pi, pi - y, z + pi)};
}

// `angle` moved by whole turns to lie within half a turn of `near`.
double nearest_turn(double angle, double near) {
    return angle + 360.0 * std::round((near - angle) / 360.0);
}

}  // namespace

glm::dvec3 euler_degrees(const glm::quat& rotation, const glm::dvec3* previous) {
    const glm::dmat3 m = glm::mat3_cast(glm::dquat(rotation));
    glm::dvec3 best{0.0};
    double best_distance = -1.0;
    for (const glm::dvec3& radians : euler_solutions(m)) {
        glm::dvec3 degrees = glm::degrees(radians);
        if (previous != nullptr)
            for (int axis = 0; axis < 3; ++axis)
                degrees[axis] = nearest_turn(degrees[axis], (*previous)[axis]);
        else
            for (int axis = 0; axis < 3; ++axis) degrees[axis] = nearest_turn(degrees[axis], 0.0);
        const double distance =
            previous != nullptr ? glm::length(degrees - *previous) : glm::length(degrees);
        if (best_distance < 0.0 || distance < best_distance) {
            best = degrees;
            best_distance = distance;
        }
    }
    return best;
}

std::vector<double> matrix_values(const glm::mat4& matrix) {
    std::vector<double> values;
    values.reserve(16);
    for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row) values.push_back(matrix[column][row]);
    return values;
}

}  // namespace castkit::fbx::detail
