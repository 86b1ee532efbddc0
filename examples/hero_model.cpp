// The hero's model: a skeleton of 21 bones and one skinned mesh made of rounded body parts
// (each a surface of revolution around its own axis, like a capsule), with a UV layer into the
// texture's regions, smooth weights across the joints, and two blend shapes.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "hero.hpp"

namespace cast = castkit::cast;

namespace hero {
namespace {

// A body part's surface: revolved from `top` to `bottom`, its cross-section an ellipse whose
// radii (side, front) go linearly from the top's to the bottom's, in `rings` steps along the
// axis and `segments` around it. `front` picks the direction the texture's middle (u = 0.5)
// faces. A capsule has flatter sides and rounder ends than an ellipsoid (a superellipse
// profile), as limbs do.
struct Shape {
    glm::dvec3 top, bottom;
    glm::dvec2 top_radii, bottom_radii;
    int segments, rings;
    bool boxy;
    glm::dvec3 front = {0, 0, 1};
};

Shape capsule(glm::dvec3 top, glm::dvec3 bottom, glm::dvec2 top_radii, glm::dvec2 bottom_radii,
              int segments, int rings) {
    return {top, bottom, top_radii, bottom_radii, segments, rings, true};
}

Shape ellipsoid(glm::dvec3 top, glm::dvec3 bottom, glm::dvec2 top_radii, glm::dvec2 bottom_radii,
                int segments, int rings) {
    return {top, bottom, top_radii, bottom_radii, segments, rings, false};
}

// Skinning: the part follows `bone`; across the joints at `from` and `to` it blends into
// `parent` and `child` (-1: no blend at that end) over `zone`, a fraction of from-to.
struct Skin {
    int bone, parent, child;
    glm::dvec3 from, to;
    double zone;
};

Skin skin(int bone, int parent, int child, glm::dvec3 from, glm::dvec3 to, double zone) {
    return {bone, parent, child, from, to, zone};
}

struct Part {
    Paint paint;
    Shape shape;
    Skin skin;
};

glm::dvec3 joint(int bone) { return skeleton()[bone].world; }

// The left limbs; the right ones are their mirror images (mirrored()).
std::vector<Part> left_limbs() {
    const glm::dvec3 wrist = joint(HandL), ankle = joint(FootL), fingertips = {0.3, 0.74, 0.02};
    // The shoe lies along +Z, with its texture's middle on top and the sole underneath.
    Shape shoe =
        capsule({0.1, 0.06, -0.06}, {0.1, 0.05, 0.18}, {0.048, 0.055}, {0.05, 0.045}, 12, 10);
    shoe.front = {0, 1, 0};
    return {
        {Paint::Sleeve,
         capsule({0.175, 1.45, 0}, {0.238, 1.12, 0}, {0.05, 0.052}, {0.04, 0.042}, 12, 10),
         skin(UpperArmL, ClavicleL, ForearmL, joint(UpperArmL), joint(ForearmL), 0.15)},
        {Paint::Forearm,
         capsule({0.232, 1.17, 0}, {0.287, 0.88, 0.01}, {0.04, 0.042}, {0.03, 0.033}, 12, 10),
         skin(ForearmL, UpperArmL, HandL, joint(ForearmL), wrist, 0.15)},
        // The hand is flat: thin across (side), wide front to back.
        {Paint::Hand,
         ellipsoid({0.285, 0.915, 0.01}, fingertips, {0.022, 0.042}, {0.018, 0.034}, 10, 8),
         skin(HandL, ForearmL, -1, wrist, fingertips, 0.2)},
        {Paint::Thigh,
         capsule({0.095, 0.98, 0}, {0.1, 0.47, 0.01}, {0.08, 0.08}, {0.055, 0.058}, 14, 12),
         skin(ThighL, Pelvis, CalfL, joint(ThighL), joint(CalfL), 0.12)},
        {Paint::Shin,
         capsule({0.1, 0.53, 0.01}, {0.1, 0.07, -0.01}, {0.055, 0.058}, {0.04, 0.042}, 12, 12),
         skin(CalfL, ThighL, FootL, joint(CalfL), ankle, 0.1)},
        {Paint::Shoe, shoe, skin(FootL, -1, ToeL, {0.1, 0.05, -0.06}, joint(ToeL), 0.2)},
    };
}

// Left and right bones alternate in a fixed pattern in the Bone enum: the right twin of a left
// bone is a fixed distance further on.
int mirrored_bone(int bone) {
    if (bone >= ClavicleL && bone <= HandL) return bone + (ClavicleR - ClavicleL);
    if (bone >= ThighL && bone <= ToeL) return bone + (ThighR - ThighL);
    return bone;
}

Part mirrored(Part part) {
    for (glm::dvec3* p :
         {&part.shape.top, &part.shape.bottom, &part.shape.front, &part.skin.from, &part.skin.to})
        p->x = -p->x;
    for (int* b : {&part.skin.bone, &part.skin.parent, &part.skin.child})
        if (*b >= 0) *b = mirrored_bone(*b);
    return part;
}

std::vector<Part> parts() {
    const glm::dvec3 crown = {0, 1.79, 0};
    // Head, nose and ears follow the head bone alone; the neck blends into both ends.
    std::vector<Part> all = {
        {Paint::Head,
         ellipsoid({0, 1.79, 0.01}, {0, 1.55, 0.01}, {0.095, 0.105}, {0.085, 0.1}, 24, 16),
         skin(Head, -1, -1, joint(Head), crown, 0.1)},
        // Nose and ears: small ellipsoids painted plain skin (the neck's region).
        {Paint::Neck,
         ellipsoid({0, 1.685, 0.1}, {0, 1.645, 0.118}, {0.016, 0.016}, {0.014, 0.018}, 8, 5),
         skin(Head, -1, -1, joint(Head), crown, 0.1)},
        {Paint::Neck,
         ellipsoid({0.095, 1.7, -0.005}, {0.095, 1.63, -0.005}, {0.012, 0.022}, {0.012, 0.02}, 8,
                   5),
         skin(Head, -1, -1, joint(Head), crown, 0.1)},
        {Paint::Neck, capsule({0, 1.6, 0}, {0, 1.43, 0}, {0.048, 0.05}, {0.052, 0.054}, 12, 6),
         skin(Neck, Chest, Head, joint(Neck), joint(Head), 0.4)},
        {Paint::Chest, capsule({0, 1.48, 0}, {0, 1.13, 0}, {0.155, 0.1}, {0.135, 0.095}, 20, 10),
         skin(Chest, Spine, -1, joint(Chest), joint(Neck), 0.25)},
        {Paint::Belly, capsule({0, 1.2, 0}, {0, 1.0, 0}, {0.13, 0.09}, {0.135, 0.092}, 20, 6),
         skin(Spine, Pelvis, Chest, joint(Spine), joint(Chest), 0.3)},
        {Paint::Hips, capsule({0, 1.04, 0}, {0, 0.8, 0}, {0.15, 0.1}, {0.14, 0.095}, 20, 8),
         skin(Pelvis, -1, Spine, joint(Pelvis), joint(Spine), 0.4)},
    };
    all.push_back(mirrored(all[2]));  // the right ear
    for (const Part& limb : left_limbs()) {
        all.push_back(limb);
        all.push_back(mirrored(limb));
    }
    return all;
}

// x rounded to whole 1/scale-ths (scale a power of ten): the files then hold short decimals
// (DMF JSON prints each number as text), and the result is the same on every platform.
double rounded(double x, double scale) { return std::round(x * scale) / scale; }
glm::dvec3 rounded(const glm::dvec3& v, double scale) {
    return {rounded(v.x, scale), rounded(v.y, scale), rounded(v.z, scale)};
}
constexpr double kTenthMillimetre = 1e4, kFine = 1e5, kWeightStep = 1e4;

// 3t² - 2t³ of t clamped to [0, 1].
double smoothstep(double t) {
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

// One vertex as built, with what the blend shapes need to know of it.
struct Vertex {
    glm::dvec3 position;
    glm::dvec2 uv;
    std::size_t part;
    double along;        // 0 at the part's top, 1 at its bottom
    glm::dvec3 outward;  // from the part's axis to the vertex
    double facing;       // cosine between `outward` and the part's front
    glm::dvec3 around;   // the direction u grows in, round the part's axis
};

struct Geometry {
    std::vector<Vertex> vertices;
    std::vector<std::uint32_t> faces;
    std::vector<glm::dvec3> normals;
};

// Texel centres of the region's edges map to u, v = 0 and 1, so no texel of a neighbouring
// region is sampled at the seams. V grows downwards (Cast rule 16).
glm::dvec2 uv_in_region(Paint paint, double u, double v) {
    const Region r = region(paint);
    return {rounded((r.x + 0.5 + u * (r.width - 1)) / kTextureSize, kFine),
            rounded((r.y + 0.5 + v * (r.height - 1)) / kTextureSize, kFine)};
}

// A superellipse's profile: the square root of an ellipse's, keeping the sign.
double boxy(double x) { return x < 0 ? -std::sqrt(-x) : std::sqrt(x); }

// Rings from the top pole to the bottom one, each of segments + 1 vertices (the first and last
// of a ring coincide, with u = 0 and 1, where the texture wraps).
void add_vertices(const Shape& part, Paint paint, std::size_t index, Geometry& out) {
    const glm::dvec3 centre = (part.top + part.bottom) / 2.0;
    const glm::dvec3 axis = glm::normalize(part.bottom - part.top);
    const double half_length = glm::length(part.bottom - part.top) / 2;
    const glm::dvec3 front = glm::normalize(part.front - axis * glm::dot(axis, part.front));
    const glm::dvec3 side = glm::cross(front, axis);
    for (int i = 0; i <= part.rings; ++i) {
        const SinCos polar = sin_cos(kPi * i / part.rings);
        const double axial = part.boxy ? boxy(-polar.cos) : -polar.cos;
        const double radial = part.boxy ? boxy(polar.sin) : polar.sin;
        const double along = (axial + 1) / 2;
        // A boxy part's texture runs evenly along its axis; an ellipsoid's evenly over its
        // polar angle, which keeps the face undistorted.
        const glm::dvec2 radii = part.top_radii + (part.bottom_radii - part.top_radii) * along;
        for (int j = 0; j <= part.segments; ++j) {
            // u = 0 at the back, 0.5 at the front.
            const double u = double(j) / part.segments;
            const SinCos around = sin_cos(2 * kPi * u - kPi / 2);
            const glm::dvec3 outward =
                radial * (side * around.cos * radii.x + front * around.sin * radii.y);
            out.vertices.push_back(
                {rounded(centre + axis * (axial * half_length) + outward, kTenthMillimetre),
                 uv_in_region(paint, u, part.boxy ? along : double(i) / part.rings), index, along,
                 outward, around.sin,
                 side * (-around.sin * radii.x) + front * (around.cos * radii.y)});
        }
    }
}

// Two counter-clockwise (outward-facing) triangles per quad, one where a quad touches a pole.
void add_faces(const Shape& part, std::uint32_t first, Geometry& out) {
    const auto at = [&](int i, int j) {
        return first + std::uint32_t(i * (part.segments + 1) + j);
    };
    for (int i = 0; i < part.rings; ++i)
        for (int j = 0; j < part.segments; ++j) {
            const std::uint32_t a = at(i, j), b = at(i, j + 1), c = at(i + 1, j + 1),
                                d = at(i + 1, j);
            if (i != 0) out.faces.insert(out.faces.end(), {a, b, c});
            if (i != part.rings - 1) out.faces.insert(out.faces.end(), {a, c, d});
        }
}

// Smooth normals: the area-weighted face normals summed over each point of the surface, so
// the vertices that coincide (a ring's first and last, a pole's) share one normal.
void add_normals(const Shape& part, std::uint32_t first, std::size_t first_face, Geometry& out) {
    const auto point = [&](std::uint32_t vertex) {
        const int i = int(vertex - first) / (part.segments + 1);
        const int j = int(vertex - first) % (part.segments + 1);
        if (i == 0 || i == part.rings) return i == 0 ? 0 : 1;
        return 2 + (i - 1) * part.segments + j % part.segments;
    };
    std::vector<glm::dvec3> sums(2 + std::size_t(part.rings - 1) * part.segments, glm::dvec3(0));
    for (std::size_t f = first_face; f < out.faces.size(); f += 3) {
        const glm::dvec3 a = out.vertices[out.faces[f]].position;
        const glm::dvec3 n = glm::cross(out.vertices[out.faces[f + 1]].position - a,
                                        out.vertices[out.faces[f + 2]].position - a);
        for (int k = 0; k < 3; ++k) sums[point(out.faces[f + k])] += n;
    }
    for (std::uint32_t v = first; v < out.vertices.size(); ++v)
        out.normals.push_back(rounded(glm::normalize(sums[point(v)]), kFine));
}

Geometry build_geometry(const std::vector<Part>& all) {
    Geometry out;
    for (std::size_t p = 0; p < all.size(); ++p) {
        const auto first = std::uint32_t(out.vertices.size());
        const std::size_t first_face = out.faces.size();
        add_vertices(all[p].shape, all[p].paint, p, out);
        add_faces(all[p].shape, first, out);
        add_normals(all[p].shape, first, first_face, out);
    }
    return out;
}

// Up to three influences: the part's bone, and its parent's or child's across a joint, 50/50
// at the joint itself. Unused slots hold bone 0 with weight 0, which readers skip.
constexpr std::uint32_t kInfluences = 3;

void add_weights(const Skin& skin, const glm::dvec3& p, std::vector<std::uint32_t>& bones,
                 std::vector<float>& values) {
    // t: 0 at the `from` joint, 1 at the `to` joint.
    const glm::dvec3 span = skin.to - skin.from;
    const double t = glm::dot(p - skin.from, span) / glm::dot(span, span);
    const double z = skin.zone;
    const double parent =
        skin.parent < 0 ? 0 : rounded(1 - smoothstep((t + z) / (2 * z)), kWeightStep);
    const double child =
        skin.child < 0 ? 0 : rounded(smoothstep((t - 1 + z) / (2 * z)), kWeightStep);
    // The part's own bone takes the rest, so the weights sum to 1.
    std::array<std::pair<double, int>, kInfluences> slots = {
        {{1 - parent - child, skin.bone}, {parent, skin.parent}, {child, skin.child}}};
    // Heaviest first; an empty slot becomes (0, bone 0).
    std::sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [weight, bone] : slots) {
        bones.push_back(weight > 0 ? std::uint32_t(bone) : 0);
        values.push_back(weight > 0 ? float(weight) : 0.0f);
    }
}

void add_skeleton(cast::Model& model) {
    cast::Skeleton skeleton = model.add_skeleton();
    for (const BoneSpec& spec : hero::skeleton()) {
        cast::Bone bone = skeleton.add_bone();
        bone.set_name(spec.name);
        bone.set_parent_index(spec.parent);
        const glm::dvec3 parent =
            spec.parent < 0 ? glm::dvec3(0) : hero::skeleton()[spec.parent].world;
        bone.set_local_position(glm::vec3(spec.world - parent));
        bone.set_local_rotation({0, 0, 0, 1});
        bone.set_world_position(glm::vec3(spec.world));
        bone.set_world_rotation({0, 0, 0, 1});
        bone.set_scale({1, 1, 1});
    }
}

void check(castkit::Expected<void> ok) {
    if (!ok) throw std::runtime_error(ok.error().to_string());
}

// Tangents along u, for normal maps (and for K3D, whose vertices always carry one).
glm::dvec3 tangent(const Vertex& vertex, const glm::dvec3& normal) {
    return rounded(glm::normalize(vertex.around - normal * glm::dot(normal, vertex.around)), kFine);
}

void set_mesh(cast::Mesh& mesh, const std::vector<Part>& all, const Geometry& geometry) {
    std::vector<glm::vec3> positions, normals, tangents;
    std::vector<glm::vec2> uvs;
    std::vector<std::uint32_t> bones;
    std::vector<float> values;
    for (std::size_t v = 0; v < geometry.vertices.size(); ++v) {
        const Vertex& vertex = geometry.vertices[v];
        positions.emplace_back(vertex.position);
        normals.emplace_back(geometry.normals[v]);
        tangents.emplace_back(tangent(vertex, geometry.normals[v]));
        uvs.emplace_back(vertex.uv);
        add_weights(all[vertex.part].skin, vertex.position, bones, values);
    }
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    mesh.set_tangents(tangents);
    mesh.set_faces(geometry.faces);
    check(mesh.set_uv_layer(0, uvs));
    check(mesh.set_weights(kInfluences, bones, values));
}

// A blend shape moving the vertices of the parts painted `paint` by `offset(vertex)`.
template <class Offset>
void add_blend_shape(cast::Model& model, const cast::Mesh& mesh, const char* name,
                     const std::vector<Part>& all, const Geometry& geometry,
                     std::initializer_list<Paint> paints, Offset offset) {
    std::vector<std::uint32_t> indices;
    std::vector<glm::vec3> targets;
    for (std::size_t v = 0; v < geometry.vertices.size(); ++v) {
        const Vertex& vertex = geometry.vertices[v];
        const Paint paint = all[vertex.part].paint;
        if (std::find(paints.begin(), paints.end(), paint) == paints.end()) continue;
        indices.push_back(std::uint32_t(v));
        // Absolute target positions, not offsets (rule 19).
        targets.emplace_back(rounded(vertex.position + offset(vertex), kTenthMillimetre));
    }
    cast::BlendShape shape = model.add_blend_shape();
    shape.set_name(name);
    shape.set_base_shape(mesh);
    shape.set_targets(indices, targets);
}

void add_blend_shapes(cast::Model& model, const cast::Mesh& mesh, const std::vector<Part>& all,
                      const Geometry& geometry) {
    // A deep breath: the chest swells, most at the front, and the belly a little.
    add_blend_shape(model, mesh, "breathe_in", all, geometry, {Paint::Chest, Paint::Belly},
                    [&](const Vertex& v) {
                        const bool chest = all[v.part].paint == Paint::Chest;
                        const double front = v.facing > 0 ? v.facing : 0;
                        return v.outward * ((chest ? 0.06 : 0.03) + 0.06 * front);
                    });
    // Cartoon biceps: the upper arms swell in the middle, most at the front.
    add_blend_shape(model, mesh, "bulge", all, geometry, {Paint::Sleeve}, [](const Vertex& v) {
        const double bump = 4 * v.along * (1 - v.along);
        const double front = v.facing > 0 ? v.facing : 0;
        return v.outward * (0.5 * bump * bump * (0.4 + 0.6 * front));
    });
}

}  // namespace

cast::Document model(const char* texture_path) {
    cast::Document document;
    cast::Root root = document.add_root();
    add_example_metadata(root);
    cast::Model model = root.add_model();
    model.set_name("hero");
    add_skeleton(model);

    cast::Material material = model.add_material();
    material.set_name("hero");
    material.set_type("pbr");
    cast::File albedo = material.add_file(texture_path);
    material.set_slot("albedo", albedo);
    // Cloth and skin, not metal: glTF's default metallic factor is 1, which renders dark grey
    // under a viewer's plain lights.
    for (const auto& [slot, value] : {std::pair{"metal", 0.0f}, std::pair{"roughness", 0.8f}}) {
        cast::Color color = material.add_color();
        color.set_name(slot);
        color.set_color_space(cast::ColorSpace::Linear);
        color.set_rgba({value, value, value, 1});
        material.set_slot(slot, color);
    }

    const std::vector<Part> all = parts();
    const Geometry geometry = build_geometry(all);
    cast::Mesh mesh = model.add_mesh();
    mesh.set_name("hero_body");
    set_mesh(mesh, all, geometry);
    mesh.set_material(material);
    add_blend_shapes(model, mesh, all, geometry);
    return document;
}

}  // namespace hero
