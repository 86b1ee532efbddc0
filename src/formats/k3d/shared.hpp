// Values K3D stores that Cast does not: both conversion directions derive them the same way, so
// a model whose stored values match these derivations survives K3D → Cast → K3D exactly.
#pragma once

#include <castkit/formats/k3d.hpp>
#include <glm/common.hpp>
#include <glm/matrix.hpp>

namespace castkit::k3d {

// from_cast of a document that has passed the check before every write (the registry's write,
// which checks first): what from_cast does after its own check.
Expected<Model> from_checked_cast(const cast::Document& document, Diagnostics& warnings);

// Cast's fr when a K3D animation says 0 ticks per second ("unspecified").
inline constexpr float kDefaultRate = 30.0f;

// The bounds of the positions; zero extents when there are none. O(vertices).
inline Extents bounds(const std::vector<Vertex>& vertices) {
    if (vertices.empty()) return {};
    Extents e{vertices.front().position, vertices.front().position};
    for (const Vertex& v : vertices) {
        e.min = glm::min(e.min, v.position);
        e.max = glm::max(e.max, v.position);
    }
    return e;
}

// The midpoint of the extents.
inline glm::vec3 center(const Extents& e) { return (e.min + e.max) * 0.5f; }

// The bounds of every submesh's positions. O(vertices).
inline Extents model_bounds(const std::vector<Submesh>& submeshes) {
    bool any = false;
    Extents all;
    for (const Submesh& s : submeshes) {
        if (s.vertices.empty()) continue;
        Extents e = bounds(s.vertices);
        all = any ? Extents{glm::min(all.min, e.min), glm::max(all.max, e.max)} : e;
        any = true;
    }
    return all;
}

// The inverse of the first node's local transform (Kohi's importer stores the inverse of the
// root transform), identity without nodes.
inline glm::mat4 inverse_global(const std::vector<SceneNode>& nodes) {
    return nodes.empty() ? glm::mat4(1.0f) : glm::inverse(nodes.front().local);
}

}  // namespace castkit::k3d
