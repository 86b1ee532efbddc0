// Models, skeletons, meshes, skins and morph targets into glTF nodes, meshes and skins.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/anim/skeleton.hpp>
#include <cmath>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/matrix.hpp>
#include <glm/vector_relational.hpp>
#include <limits>

#include "export_internal.hpp"

namespace castkit::gltf::detail {
namespace {

std::vector<double> as_doubles(const glm::vec3& v) { return {v.x, v.y, v.z}; }

void set_transform(tinygltf::Node& node, const anim::Transform& transform) {
    if (transform.translation != glm::vec3(0.0f))
        node.translation = as_doubles(transform.translation);
    const glm::quat& r = transform.rotation;
    if (r != glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) node.rotation = {r.x, r.y, r.z, r.w};
    if (transform.scale != glm::vec3(1.0f)) node.scale = as_doubles(transform.scale);
}

// The component-wise bounds glTF requires on POSITION accessors. A NaN anywhere makes both
// bounds NaN, as an infinity makes one infinite, so the export refuses both alike (glm::min and
// max would pass over a NaN).
template <class Values>
std::pair<std::vector<double>, std::vector<double>> bounds(const Values& values) {
    glm::vec3 low(std::numeric_limits<float>::max()), high(std::numeric_limits<float>::lowest());
    bool any_nan = false;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const glm::vec3 value(values[i]);
        any_nan = any_nan || glm::any(glm::isnan(value));
        low = glm::min(low, value);
        high = glm::max(high, value);
    }
    if (values.size() == 0) low = high = glm::vec3(0.0f);
    if (any_nan) low = high = glm::vec3(std::numeric_limits<float>::quiet_NaN());
    return {as_doubles(low), as_doubles(high)};
}

// Influences per vertex after merging repeated bones and dropping zero weights, strongest
// first, normalised to sum 1. Writes `n` entries into `out` (capacity `influences`); counts a
// vertex whose weights summed to more than the validator's 2e-3 away from 1 in `renormalised`.
struct Influence {
    std::uint32_t bone;
    float weight;
};
template <class Bone>
std::uint32_t vertex_influences(const Bone& bone_at, const std::byte* values,
                                std::uint32_t influences, std::size_t bone_count, Influence* out,
                                std::size_t& out_of_range, std::size_t& renormalised) {
    std::uint32_t n = 0;
    float sum = 0.0f;
    for (std::uint32_t i = 0; i < influences; ++i) {
        const std::uint32_t bone = bone_at(i);
        const float value = cast::load<float>(values + 4 * i);
        if (!(value > 0.0f)) continue;
        if (bone >= bone_count) {
            ++out_of_range;
            continue;
        }
        Influence* same =
            std::find_if(out, out + n, [&](const Influence& w) { return w.bone == bone; });
        if (same != out + n)
            same->weight += value;
        else
            out[n++] = {bone, value};
        sum += value;
    }
    if (n == 0) return 0;
    if (std::abs(sum - 1.0f) > 2e-3f) ++renormalised;
    // Insertion sort, strongest first: n is a handful.
    for (std::uint32_t i = 1; i < n; ++i)
        for (std::uint32_t j = i; j > 0 && out[j].weight > out[j - 1].weight; --j)
            std::swap(out[j], out[j - 1]);
    // The strongest takes the rounding remainder, so the floats sum to 1 as closely as they can.
    const float scale = 1.0f / sum;
    float rest = 1.0f;
    for (std::uint32_t i = 1; i < n; ++i) rest -= out[i].weight *= scale;
    out[0].weight = rest;
    return n;
}

// Calls fn(a, b, c) for each of the first `triangles` triangles of a face property, loading
// each index at its stored width (the loop is specialised per width).
template <class F>
void for_each_triangle(const cast::Property& faces, std::size_t triangles, F&& fn) {
    const std::byte* data = faces.bytes().data();
    auto run = [&](auto width) {
        using T = decltype(width);
        for (std::size_t t = 0; t < triangles; ++t)
            fn(static_cast<std::uint32_t>(cast::load<T>(data + (3 * t) * sizeof(T))),
               static_cast<std::uint32_t>(cast::load<T>(data + (3 * t + 1) * sizeof(T))),
               static_cast<std::uint32_t>(cast::load<T>(data + (3 * t + 2) * sizeof(T))));
    };
    switch (faces.type()) {
        case cast::PropertyType::Byte:
            run(std::uint8_t{});
            break;
        case cast::PropertyType::Short:
            run(std::uint16_t{});
            break;
        case cast::PropertyType::Integer32:
            run(std::uint32_t{});
            break;
        default: {
            const auto view = cast::IndexView::of(&faces);
            for (std::size_t t = 0; t < triangles; ++t)
                fn(view[3 * t], view[3 * t + 1], view[3 * t + 2]);
        }
    }
}

// A unit vector; `fallback` when `v` has no direction. Counts the replacements.
glm::vec3 unit(const glm::vec3& v, const glm::vec3& fallback, std::size_t& replaced) {
    const float length = glm::length(v);
    if (!(length > 1e-12f) || !std::isfinite(length)) {
        ++replaced;
        return fallback;
    }
    return v / length;
}

// Per vertex, the sums over its triangles of the directions in which the u and the v of UV
// layer `layer` grow (Lengyel's method): the tangent, and the bitangent from which glTF's
// TANGENT.w handedness follows. Both empty when the layer has not one UV per vertex. O(faces).
struct UvFrames {
    std::vector<glm::vec3> tangents, bitangents;
};
UvFrames uv_frames(const cast::ConstMesh& mesh, std::size_t count, std::uint32_t layer) {
    auto uvs = mesh.uv_layer(layer);
    auto positions = mesh.positions();
    const cast::Property* faces = mesh.node().find("f");
    if (uvs.size() < count || faces == nullptr) return {};
    UvFrames frames{std::vector<glm::vec3>(count, glm::vec3(0.0f)),
                    std::vector<glm::vec3>(count, glm::vec3(0.0f))};
    for_each_triangle(*faces, faces->size() / 3,
                      [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
                          if (a >= count || b >= count || c >= count) return;
                          const glm::vec3 pa = positions[a];
                          const glm::vec3 e1 = positions[b] - pa, e2 = positions[c] - pa;
                          const glm::vec2 ua = uvs[a];
                          const glm::vec2 d1 = uvs[b] - ua, d2 = uvs[c] - ua;
                          const float det = d1.x * d2.y - d2.x * d1.y;
                          if (det == 0.0f) return;
                          const glm::vec3 tangent = (e1 * d2.y - e2 * d1.y) / det;
                          const glm::vec3 bitangent = (e2 * d1.x - e1 * d2.x) / det;
                          for (std::uint32_t v : {a, b, c}) {
                              frames.tangents[v] += tangent;
                              frames.bitangents[v] += bitangent;
                          }
                      });
    return frames;
}

// True when every normal is of unit length (within float rounding): glTF can take them as
// stored.
template <class Normals>
bool all_unit(const Normals& normals) {
    for (std::size_t v = 0; v < normals.size(); ++v)
        if (!(std::abs(glm::dot(normals[v], normals[v]) - 1.0f) <= 2e-6f)) return false;
    return true;
}

// A stored tangent as glTF's TANGENT: a unit vector perpendicular to normal `n` (any
// perpendicular for one along it, counted in `replaced`), w the handedness that `bitangent`
// (null without UVs) gives. "Along it" is within float rounding of parallel: what is left of
// such a tangent across the normal is rounding noise, whose direction means nothing (a sample's
// tangents equal to their normals came out in a direction that depended on the last bit).
glm::vec4 gltf_tangent(const glm::vec3& n, const glm::vec3& stored, const glm::vec3* bitangent,
                       std::size_t& replaced) {
    glm::vec3 t = stored - n * glm::dot(stored, n);
    const float length = glm::length(t);
    if (length > 1e-4f * glm::length(stored) && std::isfinite(length)) {
        t /= length;
    } else {
        t = glm::normalize(
            glm::cross(n, std::abs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0)));
        ++replaced;
    }
    const bool mirrored = bitangent != nullptr && glm::dot(glm::cross(n, t), *bitangent) < 0.0f;
    return {t, mirrored ? -1.0f : 1.0f};
}

// The JOINTS_n and WEIGHTS_n data of a skinned mesh: every set of 4 influences the widest
// vertex could need; only the first `used` are written.
struct JointSets {
    JointSets(std::uint32_t influences, std::size_t count, bool wide_joints)
        : wide(wide_joints),
          joints16(wide ? (influences + 3) / 4 : 0, std::vector<std::uint16_t>(count * 4)),
          joints8(wide ? 0 : (influences + 3) / 4, std::vector<std::uint8_t>(count * 4)),
          weights((influences + 3) / 4, std::vector<float>(count * 4)) {}

    // Vertex `v`'s `n` influences, strongest first, into the sets.
    void place(std::size_t v, const Influence* influences, std::uint32_t n) {
        used = std::max(used, (n + 3) / 4);
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::size_t slot = v * 4 + i % 4;
            if (wide)
                joints16[i / 4][slot] = static_cast<std::uint16_t>(influences[i].bone);
            else
                joints8[i / 4][slot] = static_cast<std::uint8_t>(influences[i].bone);
            weights[i / 4][slot] = influences[i].weight;
        }
    }

    bool wide;  // more than 256 bones: 16-bit joints
    std::vector<std::vector<std::uint16_t>> joints16;
    std::vector<std::vector<std::uint8_t>> joints8;
    std::vector<std::vector<float>> weights;
    std::uint32_t used = 1;
};

// What the weights of a skinned mesh needed repairing, counted for the warnings.
struct WeightRepairs {
    std::size_t unweighted = 0, out_of_range = 0, renormalised = 0;
};

// Every vertex's influences into `sets`, its bone indices stored as T: `influences` bones
// (`bone_bytes`) and weights (`value_bytes`) per vertex. A vertex without weights is bound to
// bone 0.
template <class T>
void fill_joint_sets(const std::byte* bone_bytes, const std::byte* value_bytes, std::size_t count,
                     std::uint32_t influences, std::size_t bone_count, JointSets& sets,
                     WeightRepairs& repairs) {
    std::vector<Influence> scratch(influences);
    for (std::size_t v = 0; v < count; ++v) {
        const std::size_t first = v * influences;
        auto bone_at = [&](std::uint32_t i) {
            return static_cast<std::uint32_t>(cast::load<T>(bone_bytes + (first + i) * sizeof(T)));
        };
        std::uint32_t n =
            vertex_influences(bone_at, value_bytes + first * 4, influences, bone_count,
                              scratch.data(), repairs.out_of_range, repairs.renormalised);
        if (n == 0) {
            scratch[0] = {0, 1.0f};
            n = 1;
            ++repairs.unweighted;
        }
        sets.place(v, scratch.data(), n);
    }
}

// fill_joint_sets for bone indices stored as `type` (the loop is specialised per width).
void fill_joint_sets(cast::PropertyType type, const std::byte* bone_bytes,
                     const std::byte* value_bytes, std::size_t count, std::uint32_t influences,
                     std::size_t bone_count, JointSets& sets, WeightRepairs& repairs) {
    switch (type) {
        case cast::PropertyType::Byte:
            return fill_joint_sets<std::uint8_t>(bone_bytes, value_bytes, count, influences,
                                                 bone_count, sets, repairs);
        case cast::PropertyType::Short:
            return fill_joint_sets<std::uint16_t>(bone_bytes, value_bytes, count, influences,
                                                  bone_count, sets, repairs);
        case cast::PropertyType::Integer32:
            return fill_joint_sets<std::uint32_t>(bone_bytes, value_bytes, count, influences,
                                                  bone_count, sets, repairs);
        default:
            return fill_joint_sets<std::uint64_t>(bone_bytes, value_bytes, count, influences,
                                                  bone_count, sets, repairs);
    }
}

// The largest vertex index of the first `triangles` triangles of `faces`.
std::uint32_t largest_index(const cast::Property& faces, std::size_t triangles) {
    std::uint32_t largest = 0;
    for_each_triangle(faces, triangles, [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        largest = std::max({largest, a, b, c});
    });
    return largest;
}

// A blend shape's POSITION deltas: its targets minus the base positions at its vertex indices
// (vi and vp paired up to the shorter; indices past the vertices ignored), 0 elsewhere.
template <class Positions>
std::vector<glm::vec3> position_deltas(const cast::ConstBlendShape& shape,
                                       const Positions& positions) {
    const std::size_t count = positions.size();
    std::vector<glm::vec3> deltas(count, glm::vec3(0.0f));
    auto indices = shape.vertex_indices();
    auto targets = shape.vertex_positions();
    for (std::size_t k = 0; k < std::min(indices.size(), targets.size()); ++k)
        if (indices[k] < count) deltas[indices[k]] = targets[k] - positions[indices[k]];
    return deltas;
}

}  // namespace

bool needs_compensation(const anim::Skeleton& skeleton, std::span<const anim::Transform> locals,
                        std::size_t bone) {
    const std::int32_t parent = skeleton.parents()[bone];
    return parent >= 0 && skeleton.segment_scale_compensate()[bone] &&
           locals[static_cast<std::size_t>(parent)].scale != glm::vec3(1.0f);
}

anim::Transform gltf_local(const anim::Skeleton& skeleton, std::span<const anim::Transform> locals,
                           std::size_t bone) {
    const anim::Transform& local = locals[bone];
    if (!needs_compensation(skeleton, locals, bone)) return local;
    const glm::vec3 parent_scale = locals[static_cast<std::size_t>(skeleton.parents()[bone])].scale;
    if (parent_scale.x == 0.0f || parent_scale.y == 0.0f || parent_scale.z == 0.0f) return local;
    glm::mat4 matrix = glm::translate(glm::mat4(1.0f), local.translation);
    matrix = glm::scale(matrix, 1.0f / parent_scale);
    matrix *= glm::mat4_cast(local.rotation);
    matrix = glm::scale(matrix, local.scale);
    return anim::decompose(matrix);
}

void Exporter::export_model(const cast::ConstModel& model, int parent, const std::string& path) {
    if (failure) return;
    ExportedModel exported;
    tinygltf::Node node;
    node.name = std::string(model.name().value_or(""));
    anim::Transform transform;
    transform.translation = model.position().value_or(glm::vec3(0.0f));
    transform.rotation =
        glm::normalize(cast::quat_from_xyzw(model.rotation().value_or(glm::vec4(0, 0, 0, 1))));
    transform.scale = model.scale().value_or(glm::vec3(1.0f));
    set_transform(node, transform);
    exported.node = add_node(std::move(node), parent);

    if (cast::ConstSkeleton skeleton = model.skeleton()) {
        const auto children = skeleton.node().children();
        const auto bone_count = static_cast<std::size_t>(
            std::count_if(children.begin(), children.end(),
                          [](const cast::Node& child) { return child.is(cast::NodeId::Bone); }));
        if (!keep_bytes(bone_count * kBoneBytes, path + "/skeleton",
                        fmt::format("the skeleton's {} bones as glTF nodes", bone_count)))
            return;
        reserve_nodes(bone_count);
        Diagnostics reports;
        auto built = anim::build_skeleton(skeleton, reports);
        for (const Diagnostic& report : reports) warn(path, report.message);
        if (!built) {
            warn(path + "/skeleton",
                 fmt::format("skeleton not exported: {}", built.error().message));
        } else {
            exported.skeleton = std::move(*built);
            const anim::Skeleton& bones = exported.skeleton;
            exported.bone_nodes.assign(bones.bone_count(), -1);
            bool sheared = false;
            const auto cast_bones = skeleton.bones();
            for (std::uint32_t bone : bones.order()) {
                tinygltf::Node joint;
                joint.name = bones.names()[bone];
                // A bone resting in its bind pose stands where the imported glTF rested it.
                const auto rest = carried_rest.find(cast_bones[bone].node().hash());
                set_transform(joint, rest != carried_rest.end()
                                         ? rest->second
                                         : gltf_local(bones, bones.rest(), bone));
                if (needs_compensation(bones, bones.rest(), bone)) {
                    const glm::vec3 s =
                        bones.rest()[static_cast<std::size_t>(bones.parents()[bone])].scale;
                    sheared |= !(s.x == s.y && s.y == s.z);
                }
                const std::int32_t up = bones.parents()[bone];
                exported.bone_nodes[bone] = add_node(
                    std::move(joint),
                    up < 0 ? exported.node : exported.bone_nodes[static_cast<std::size_t>(up)]);
            }
            if (sheared)
                warn(path + "/skeleton",
                     "segment scale compensation under a non-uniform parent scale has no glTF "
                     "equivalent; the nearest rotation and scale were written");
            if (!skeleton.ik_handles().empty() || !skeleton.constraints().empty())
                warn(path + "/skeleton",
                     options.solve_rig
                         ? "IK handles and constraints have no glTF equivalent: the animations "
                           "carry their solved motion, the nodes themselves were dropped"
                         : "IK handles and constraints have no glTF equivalent and were dropped "
                           "(--no-rig: the animations carry the curves alone)");
        }
    }
    if (!model.hairs().empty()) warn(path, "hair has no glTF equivalent and was dropped");

    int skin = -1;
    const auto meshes = model.meshes();
    for (std::size_t i = 0; i < meshes.size(); ++i) {
        const std::string mesh_path = fmt::format("{}/mesh[{}]", path, i);
        if (skin < 0 && exported.skeleton.bone_count() > 0 && meshes[i].max_weight_influence() > 0)
            skin = export_skin(exported, path);
        export_mesh(model, meshes[i], exported, meshes[i].max_weight_influence() > 0 ? skin : -1,
                    mesh_path);
    }
    models.push_back(std::move(exported));
}

int Exporter::export_skin(ExportedModel& exported, const std::string&) {
    const std::vector<glm::mat4>& worlds = exported.skeleton.rest_worlds();
    std::vector<float> inverse_binds;
    inverse_binds.reserve(worlds.size() * 16);
    for (const glm::mat4& world : worlds) {
        glm::mat4 inverse = glm::inverse(world);
        // Affine by construction: pin the last row so rounding cannot make it projective.
        inverse[0][3] = inverse[1][3] = inverse[2][3] = 0.0f;
        inverse[3][3] = 1.0f;
        const float* values = glm::value_ptr(inverse);
        inverse_binds.insert(inverse_binds.end(), values, values + 16);
    }
    tinygltf::Skin skin;
    skin.joints = exported.bone_nodes;
    skin.inverseBindMatrices =
        add_accessor(own(std::move(inverse_binds)), worlds.size(), TINYGLTF_TYPE_MAT4,
                     TINYGLTF_COMPONENT_TYPE_FLOAT, false, 0);
    model.skins.push_back(std::move(skin));
    return static_cast<int>(model.skins.size() - 1);
}

void Exporter::export_mesh(const cast::ConstModel& cast_model, const cast::ConstMesh& mesh,
                           ExportedModel& exported, int skin, const std::string& path) {
    const auto positions = mesh.positions();
    const std::size_t count = positions.size();
    if (count == 0) {
        warn(path, "mesh without vertex positions was dropped");
        return;
    }
    // Where Cast already stores what glTF wants (positions, UVs, colours, unit normals, faces of
    // the right width), the accessors borrow the document's bytes instead of copying them.
    tinygltf::Primitive primitive;
    {
        auto [low, high] = bounds(positions);
        primitive.attributes["POSITION"] = add_accessor(
            borrow(positions.bytes()), count, TINYGLTF_TYPE_VEC3, TINYGLTF_COMPONENT_TYPE_FLOAT,
            false, TINYGLTF_TARGET_ARRAY_BUFFER, low, high);
    }
    const auto normals = add_normals_and_tangents(mesh, count, primitive, path);
    add_uv_layers(mesh, count, primitive, path);
    add_color_layers(mesh, count, primitive, path);
    if (skin >= 0 &&
        !add_joints_and_weights(mesh, count, exported.skeleton.bone_count(), primitive, path))
        skin = -1;
    if (!add_indices(mesh, count, primitive, path)) return;
    if (cast::ConstMaterial material = mesh.material()) {
        primitive.material = export_material(material, path + "/material");
        add_generated_tangents(mesh, count, normals.get(), primitive);
    }

    tinygltf::Mesh gltf_mesh;
    gltf_mesh.name = std::string(mesh.name().value_or(""));
    ExportedMesh exported_mesh;
    add_morph_targets(cast_model, mesh, primitive, gltf_mesh, exported_mesh, path);
    gltf_mesh.primitives.push_back(std::move(primitive));
    model.meshes.push_back(std::move(gltf_mesh));

    tinygltf::Node node;
    node.name = std::string(mesh.name().value_or(""));
    node.mesh = static_cast<int>(model.meshes.size() - 1);
    node.skin = skin;
    // glTF ignores a skinned mesh node's own transform and parents: such nodes sit at the root.
    exported_mesh.node = add_node(std::move(node), skin >= 0 ? -1 : exported.node);
    exported.meshes.push_back(std::move(exported_mesh));
}

std::shared_ptr<const std::vector<glm::vec3>> Exporter::add_normals_and_tangents(
    const cast::ConstMesh& mesh, std::size_t count, tinygltf::Primitive& primitive,
    const std::string& path) {
    std::size_t replaced = 0;
    auto normals = add_normals(mesh, count, primitive, replaced, path);
    add_tangents(mesh, count, normals.get(), primitive, replaced, path);
    if (replaced > 0)
        warn(path, fmt::format("{} zero-length normals or tangents were replaced by unit vectors "
                               "(a tangent along its normal has no length across it)",
                               replaced));
    return normals;
}

void Exporter::add_generated_tangents(const cast::ConstMesh& mesh, std::size_t count,
                                      const std::vector<glm::vec3>* fixed_normals,
                                      tinygltf::Primitive& primitive) {
    if (primitive.material < 0 || fixed_normals == nullptr ||
        primitive.attributes.contains("TANGENT"))
        return;
    const tinygltf::NormalTextureInfo& normal_texture =
        model.materials[static_cast<std::size_t>(primitive.material)].normalTexture;
    if (normal_texture.index < 0 || normal_texture.texCoord < 0) return;
    const UvFrames frames =
        uv_frames(mesh, count, static_cast<std::uint32_t>(normal_texture.texCoord));
    if (frames.tangents.empty()) return;
    const auto stored_normals = mesh.normals();
    // A vertex whose triangles give its UVs no direction gets any tangent perpendicular to
    // its normal, as MikkTSpace gives it: nothing of the input is lost, so no warning.
    std::size_t without_direction = 0;
    std::vector<glm::vec4> packed;
    packed.reserve(count);
    for (std::size_t v = 0; v < count; ++v)
        packed.push_back(
            gltf_tangent(fixed_normals->empty() ? stored_normals[v] : (*fixed_normals)[v],
                         frames.tangents[v], &frames.bitangents[v], without_direction));
    primitive.attributes["TANGENT"] =
        add_floats(std::move(packed), TINYGLTF_TYPE_VEC4, TINYGLTF_TARGET_ARRAY_BUFFER);
}

std::shared_ptr<const std::vector<glm::vec3>> Exporter::add_normals(const cast::ConstMesh& mesh,
                                                                    std::size_t count,
                                                                    tinygltf::Primitive& primitive,
                                                                    std::size_t& replaced,
                                                                    const std::string& path) {
    const auto view = mesh.normals();
    if (view.size() != count) {
        if (!view.empty()) warn(path, "normals do not match the vertex count and were dropped");
        return nullptr;
    }
    auto fixed = std::make_shared<std::vector<glm::vec3>>();
    if (all_unit(view)) {
        primitive.attributes["NORMAL"] =
            add_accessor(borrow(view.bytes()), count, TINYGLTF_TYPE_VEC3,
                         TINYGLTF_COMPONENT_TYPE_FLOAT, false, TINYGLTF_TARGET_ARRAY_BUFFER);
        return fixed;
    }
    fixed->resize(count);
    for (std::size_t v = 0; v < count; ++v)
        (*fixed)[v] = unit(view[v], glm::vec3(0, 0, 1), replaced);
    primitive.attributes["NORMAL"] =
        add_accessor({std::as_bytes(std::span(*fixed)), fixed}, count, TINYGLTF_TYPE_VEC3,
                     TINYGLTF_COMPONENT_TYPE_FLOAT, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    return fixed;
}

void Exporter::add_tangents(const cast::ConstMesh& mesh, std::size_t count,
                            const std::vector<glm::vec3>* fixed_normals,
                            tinygltf::Primitive& primitive, std::size_t& replaced,
                            const std::string& path) {
    const auto view = mesh.tangents();
    if (view.size() != count || fixed_normals == nullptr) {
        if (!view.empty())
            warn(path, "tangents without normals (or of the wrong count) were dropped");
        return;
    }
    const auto stored_normals = mesh.normals();
    const std::vector<glm::vec3> bitangents = uv_frames(mesh, count, 0).bitangents;
    std::vector<glm::vec4> packed;
    packed.reserve(count);
    for (std::size_t v = 0; v < count; ++v)
        packed.push_back(
            gltf_tangent(fixed_normals->empty() ? stored_normals[v] : (*fixed_normals)[v], view[v],
                         bitangents.empty() ? nullptr : &bitangents[v], replaced));
    primitive.attributes["TANGENT"] =
        add_floats(std::move(packed), TINYGLTF_TYPE_VEC4, TINYGLTF_TARGET_ARRAY_BUFFER);
}

void Exporter::add_uv_layers(const cast::ConstMesh& mesh, std::size_t count,
                             tinygltf::Primitive& primitive, const std::string& path) {
    for (std::uint32_t layer = 0; layer < mesh.uv_layer_count(); ++layer) {
        auto uvs = mesh.uv_layer(layer);
        if (uvs.size() != count) {
            warn(path,
                 fmt::format("UV layer {} does not match the vertex count and was dropped", layer));
            continue;
        }
        primitive.attributes[fmt::format("TEXCOORD_{}", layer)] =
            add_accessor(borrow(uvs.bytes()), count, TINYGLTF_TYPE_VEC2,
                         TINYGLTF_COMPONENT_TYPE_FLOAT, false, TINYGLTF_TARGET_ARRAY_BUFFER);
    }
}

void Exporter::add_color_layers(const cast::ConstMesh& mesh, std::size_t count,
                                tinygltf::Primitive& primitive, const std::string& path) {
    for (std::uint32_t layer = 0; layer < mesh.color_layer_count(); ++layer) {
        const cast::Property* colors = mesh.color_layer_property(layer);
        if (colors == nullptr || colors->size() != count) {
            warn(path,
                 fmt::format("colour layer {} does not match the vertex count and was dropped",
                             layer));
            continue;
        }
        // The bytes are borrowed as they are: only i (packed RGBA8) and v4 (float RGBA) fit.
        const bool packed = mesh.color_layer_is_packed(layer);
        if (!packed && colors->type() != cast::PropertyType::Vector4) {
            warn(path, fmt::format("colour layer {} is of type {}, neither i (packed RGBA) nor v4, "
                                   "and was dropped",
                                   layer, cast::type_name(colors->type())));
            continue;
        }
        primitive.attributes[fmt::format("COLOR_{}", layer)] = add_accessor(
            borrow(colors->bytes()), count, TINYGLTF_TYPE_VEC4,
            packed ? TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE : TINYGLTF_COMPONENT_TYPE_FLOAT, packed,
            TINYGLTF_TARGET_ARRAY_BUFFER);
    }
}

bool Exporter::add_joints_and_weights(const cast::ConstMesh& mesh, std::size_t count,
                                      std::size_t bone_count, tinygltf::Primitive& primitive,
                                      const std::string& path) {
    const std::uint32_t influences = mesh.max_weight_influence();
    const auto bone_view = mesh.weight_bones();
    const auto value_view = mesh.weight_values();
    if (bone_view.size() < count * influences || value_view.size() < count * influences) {
        warn(path, "weight buffers are shorter than vertices × influences; the skin was dropped");
        return false;
    }
    JointSets sets(influences, count, bone_count > 256);
    WeightRepairs repairs;
    fill_joint_sets(bone_view.stored_type(), mesh.node().find("wb")->bytes().data(),
                    value_view.bytes().data(), count, influences, bone_count, sets, repairs);
    if (repairs.unweighted)
        warn(path, fmt::format("{} vertices without weights were bound to the first bone",
                               repairs.unweighted));
    if (repairs.out_of_range)
        warn(path, fmt::format("{} weights naming bones outside the skeleton were dropped",
                               repairs.out_of_range));
    if (repairs.renormalised)
        warn(path,
             fmt::format("the weights of {} vertices did not sum to 1; glTF requires it, "
                         "so they were scaled to 1 (as Cast consumers apply them)",
                         repairs.renormalised),
             "gltf.weights-renormalised");
    for (std::uint32_t set = 0; set < sets.used; ++set) {
        primitive.attributes[fmt::format("JOINTS_{}", set)] =
            sets.wide ? add_accessor(own(std::move(sets.joints16[set])), count, TINYGLTF_TYPE_VEC4,
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, false,
                                     TINYGLTF_TARGET_ARRAY_BUFFER)
                      : add_accessor(own(std::move(sets.joints8[set])), count, TINYGLTF_TYPE_VEC4,
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, false,
                                     TINYGLTF_TARGET_ARRAY_BUFFER);
        primitive.attributes[fmt::format("WEIGHTS_{}", set)] = add_floats(
            std::move(sets.weights[set]), TINYGLTF_TYPE_VEC4, TINYGLTF_TARGET_ARRAY_BUFFER);
    }
    if (bone_count > 65536) warn(path, "more than 65536 bones: glTF joints cannot index them all");
    return true;
}

bool Exporter::add_indices(const cast::ConstMesh& mesh, std::size_t count,
                           tinygltf::Primitive& primitive, const std::string& path) {
    const auto faces = mesh.faces();
    if (faces.empty()) {
        primitive.mode = TINYGLTF_MODE_POINTS;
        return true;
    }
    primitive.mode = TINYGLTF_MODE_TRIANGLES;
    const std::size_t index_count = faces.size() / 3 * 3;
    const cast::Property* stored = mesh.node().find("f");
    const std::uint32_t largest = largest_index(*stored, index_count / 3);
    if (largest >= count) {
        warn(path, "faces index vertices that do not exist; the mesh was dropped");
        return false;
    }
    const auto type = faces.stored_type();
    // glTF reserves the largest index value of each width (primitive restart).
    if (type == cast::PropertyType::Integer32 ||
        (type == cast::PropertyType::Short && largest < 65535)) {
        const bool is32 = type == cast::PropertyType::Integer32;
        primitive.indices = add_accessor(
            borrow(stored->bytes().first(index_count * (is32 ? 4 : 2))), index_count,
            TINYGLTF_TYPE_SCALAR,
            is32 ? TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT : TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
            false, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
        return true;
    }
    std::vector<std::uint32_t> indices(index_count);
    faces.copy_to(indices);
    if (largest < 65535) {
        std::vector<std::uint16_t> narrow(indices.begin(), indices.end());
        primitive.indices = add_accessor(own(std::move(narrow)), index_count, TINYGLTF_TYPE_SCALAR,
                                         TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, false,
                                         TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    } else {
        primitive.indices = add_accessor(own(std::move(indices)), index_count, TINYGLTF_TYPE_SCALAR,
                                         TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, false,
                                         TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    }
    return true;
}

void Exporter::add_morph_targets(const cast::ConstModel& cast_model, const cast::ConstMesh& mesh,
                                 tinygltf::Primitive& primitive, tinygltf::Mesh& gltf_mesh,
                                 ExportedMesh& exported_mesh, const std::string& path) {
    std::vector<tinygltf::Value> names;
    for (const cast::ConstBlendShape& shape : cast_model.blend_shapes()) {
        if (shape.base_shape_hash() != mesh.hash()) continue;
        const std::string name(
            shape.name().value_or(fmt::format("shape{}", exported_mesh.target_names.size())));
        if (shape.vertex_indices().size() != shape.vertex_positions().size())
            warn(path,
                 fmt::format(
                     "blend shape '{}': vi and vp differ in length; the extra entries were ignored",
                     name));
        std::vector<glm::vec3> deltas = position_deltas(shape, mesh.positions());
        if (shape.target_weight_scale() != 1.0f)
            warn(path,
                 fmt::format("blend shape '{}': target weight scale {} has no glTF equivalent",
                             name, shape.target_weight_scale()));
        auto [low, high] = bounds(deltas);
        primitive.targets.push_back(
            {{"POSITION", add_floats(std::move(deltas), TINYGLTF_TYPE_VEC3,
                                     TINYGLTF_TARGET_ARRAY_BUFFER, low, high)}});
        exported_mesh.target_names.push_back(name);
        names.push_back(string_value(name));
        exported_mesh.default_weights.push_back(default_weight(shape, name));
        gltf_mesh.weights.push_back(exported_mesh.default_weights.back());
    }
    if (!names.empty())
        gltf_mesh.extras = tinygltf::Value(
            tinygltf::Value::Object{{"targetNames", tinygltf::Value(std::move(names))}});
}

float Exporter::default_weight(const cast::ConstBlendShape& shape, const std::string& name) const {
    // Keyed by the shape's node hash since imports that keep duplicate names; by name before.
    auto found = default_weights.find(std::to_string(shape.node().hash()));
    if (found == default_weights.end()) found = default_weights.find(name);
    return found == default_weights.end() ? 0.0f : found->second;
}

}  // namespace castkit::gltf::detail
