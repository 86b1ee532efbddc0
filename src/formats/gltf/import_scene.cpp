// glTF nodes and meshes into Cast Models. The hierarchy is flattened: a Model per node that
// holds meshes or skeletons (import_skeletons.cpp decides which and builds the bones), with that
// node's world transform as the Model's p/r/s; each primitive becomes a Mesh, one pass per kind
// of attribute, its vertices brought into the Model's space by one matrix (a skin's bind space,
// a rigid chain's bone, or the mesh node's own transform).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <castkit/anim/skeleton.hpp>
#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/matrix.hpp>

#include "import_internal.hpp"

namespace castkit::gltf::detail {
namespace {

bool near_identity(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (std::abs(m[c][r] - (c == r ? 1.0f : 0.0f)) > 1e-6f) return false;
    return true;
}

const tinygltf::Value* extra(const tinygltf::Value& extras, const char* key) {
    if (!extras.IsObject() || !extras.Has(key)) return nullptr;
    return &extras.Get(key);
}

// Triangle lists from triangles, strips and fans (glTF modes 4, 5, 6).
std::vector<std::uint32_t> triangles(std::vector<std::uint32_t> indices, int mode) {
    if (mode == TINYGLTF_MODE_TRIANGLES) {
        indices.resize(indices.size() / 3 * 3);
        return indices;
    }
    std::vector<std::uint32_t> out;
    for (std::size_t i = 2; i < indices.size(); ++i) {
        if (mode == TINYGLTF_MODE_TRIANGLE_FAN)
            out.insert(out.end(), {indices[0], indices[i - 1], indices[i]});
        else if (i % 2 == 0)
            out.insert(out.end(), {indices[i - 2], indices[i - 1], indices[i]});
        else
            out.insert(out.end(), {indices[i - 1], indices[i - 2], indices[i]});
    }
    return out;
}

// The largest of `n` little-endian T at `data`. O(n).
template <class T>
std::uint32_t largest_of(const std::byte* data, std::size_t n) {
    std::uint32_t largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
        T value;
        std::memcpy(&value, data + i * sizeof(T), sizeof(T));
        largest = std::max<std::uint32_t>(largest, value);
    }
    return largest;
}

}  // namespace

anim::Transform node_trs(const tinygltf::Node& node) {
    anim::Transform t;
    if (!node.translation.empty())
        t.translation = glm::vec3(node.translation[0], node.translation[1], node.translation[2]);
    if (!node.rotation.empty())
        t.rotation =
            glm::quat(static_cast<float>(node.rotation[3]), static_cast<float>(node.rotation[0]),
                      static_cast<float>(node.rotation[1]), static_cast<float>(node.rotation[2]));
    if (!node.scale.empty()) t.scale = glm::vec3(node.scale[0], node.scale[1], node.scale[2]);
    return t;
}

Expected<void> Importer::resolve_nodes() {
    const std::size_t n = gltf.nodes.size();
    parents.assign(n, -1);
    locals.assign(n, glm::mat4(1.0f));
    worlds.assign(n, glm::mat4(1.0f));
    for (std::size_t i = 0; i < n; ++i) {
        const tinygltf::Node& node = gltf.nodes[i];
        for (std::size_t c = 0; c < node.children.size(); ++c) {
            const int child = node.children[c];
            const std::string at = fmt::format("/nodes/{}/children/{}", i, c);
            if (child < 0 || static_cast<std::size_t>(child) >= n)
                return fail(at, fmt::format("node {} does not exist", child));
            if (parents[static_cast<std::size_t>(child)] != -1 ||
                static_cast<std::size_t>(child) == i)
                return fail(at, fmt::format("node {} has more than one parent", child));
            parents[static_cast<std::size_t>(child)] = static_cast<int>(i);
        }
        const std::string at = fmt::format("/nodes/{}", i);
        if (!node.matrix.empty()) {
            if (node.matrix.size() != 16) return fail(at + "/matrix", "a matrix has 16 numbers");
            for (int k = 0; k < 16; ++k)
                glm::value_ptr(locals[i])[k] =
                    static_cast<float>(node.matrix[static_cast<std::size_t>(k)]);
        } else {
            if (!node.translation.empty() && node.translation.size() != 3)
                return fail(at + "/translation", "a translation has 3 numbers");
            if (!node.rotation.empty() && node.rotation.size() != 4)
                return fail(at + "/rotation", "a rotation has 4 numbers");
            if (!node.scale.empty() && node.scale.size() != 3)
                return fail(at + "/scale", "a scale has 3 numbers");
            locals[i] = anim::to_matrix(node_trs(node));
        }
        if (const tinygltf::Value* up = extra(node.extras, "castkit_up_axis");
            up && up->IsString() && up_node < 0) {
            up_node = static_cast<int>(i);
            up_axis = up->Get<std::string>();
        }
    }
    if (up_node >= 0 && parents[static_cast<std::size_t>(up_node)] != -1) up_node = -1;
    turn_back_root_instances();
    // Worlds, parents first; a chain longer than the node count is a cycle.
    std::vector<std::uint8_t> done(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::size_t> chain;
        std::size_t at = i;
        while (!done[at]) {
            chain.push_back(at);
            if (chain.size() > n)
                return fail(fmt::format("/nodes/{}", i), "the node hierarchy has a cycle");
            if (parents[at] < 0) break;
            at = static_cast<std::size_t>(parents[at]);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const std::size_t k = *it;
            const glm::mat4 local = static_cast<int>(k) == up_node ? glm::mat4(1.0f) : locals[k];
            worlds[k] =
                parents[k] < 0 ? local : worlds[static_cast<std::size_t>(parents[k])] * local;
            done[k] = 1;
        }
    }
    return {};
}

Expected<bool> Importer::view_faces(cast::Mesh& mesh, const tinygltf::Primitive& primitive,
                                    std::size_t count, const std::string& prim) const {
    if (primitive.indices < 0 ||
        static_cast<std::size_t>(primitive.indices) >= gltf.accessors.size() ||
        (primitive.mode >= 0 && primitive.mode != TINYGLTF_MODE_TRIANGLES))
        return false;
    const int type = gltf.accessors[static_cast<std::size_t>(primitive.indices)].componentType;
    auto bytes = packed_view(primitive.indices, type, 1, false, prim + "/indices");
    if (!bytes) return make_error(bytes.error());
    if (!*bytes) return false;
    const std::byte* data = (*bytes)->data();
    std::uint32_t largest = 0;
    std::size_t n = 0;
    cast::PropertyType stored = cast::PropertyType::Integer32;
    if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) {
        n = (*bytes)->size();
        largest = largest_of<std::uint8_t>(data, n);
        stored = cast::PropertyType::Byte;
    } else if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        n = (*bytes)->size() / 2;
        largest = largest_of<std::uint16_t>(data, n);
        stored = cast::PropertyType::Short;
    } else if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) {
        n = (*bytes)->size() / 4;
        largest = largest_of<std::uint32_t>(data, n);
    } else {
        return false;
    }
    if (n > 0 && largest >= count)
        return fail(prim + "/indices",
                    fmt::format("index {} is outside the {} vertices", largest, count));
    // Cast stores faces in the smallest type that holds the largest index.
    if (n == 0 || n % 3 != 0 || cast::smallest_index_type(largest) != stored) return false;
    mesh.node().set(cast::Property(stored, "f", static_cast<std::uint32_t>(n), **bytes));
    return true;
}

Expected<std::vector<cast::Property>> Importer::view_weights(
    int joints, int weights, const std::vector<std::uint32_t>& joint_bones, std::size_t count,
    const std::string& prim) const {
    using Properties = std::vector<cast::Property>;
    // Bones are made in joint order; a view needs joint j to be bone j.
    for (std::size_t j = 0; j < joint_bones.size(); ++j)
        if (joint_bones[j] != j) return Properties();
    if (joints < 0 || static_cast<std::size_t>(joints) >= gltf.accessors.size())
        return Properties();
    const int type = gltf.accessors[static_cast<std::size_t>(joints)].componentType;
    if (type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
        type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT)
        return Properties();
    auto joint_bytes = packed_view(joints, type, 4, false, prim + "/attributes/JOINTS_0");
    if (!joint_bytes) return make_error(joint_bytes.error());
    auto weight_bytes = packed_view(weights, TINYGLTF_COMPONENT_TYPE_FLOAT, 4, false,
                                    prim + "/attributes/WEIGHTS_0");
    if (!weight_bytes) return make_error(weight_bytes.error());
    const bool bytes = type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
    const std::size_t n = count * 4;
    // A count that differs from POSITION's is reported by the decoding path.
    if (!*joint_bytes || !*weight_bytes || (*joint_bytes)->size() != n * (bytes ? 1 : 2) ||
        (*weight_bytes)->size() != n * 4)
        return Properties();
    const std::uint32_t largest = bytes ? largest_of<std::uint8_t>((*joint_bytes)->data(), n)
                                        : largest_of<std::uint16_t>((*joint_bytes)->data(), n);
    if (largest >= joint_bones.size())
        return fail(
            prim + "/attributes/JOINTS_0",
            fmt::format("joint {} is outside the skin's {} joints", largest, joint_bones.size()));
    // Cast stores `wb` in the smallest type that holds the largest bone index.
    const cast::PropertyType stored = bytes ? cast::PropertyType::Byte : cast::PropertyType::Short;
    if (cast::smallest_index_type(largest) != stored) return Properties();
    Properties views;
    views.emplace_back(stored, "wb", static_cast<std::uint32_t>(n), **joint_bytes);
    views.emplace_back(cast::PropertyType::Float, "wv", static_cast<std::uint32_t>(n),
                       **weight_bytes);
    return views;
}

Expected<std::vector<std::uint32_t>> Importer::read_faces(const tinygltf::Primitive& primitive,
                                                          std::size_t count,
                                                          const std::string& prim) const {
    std::vector<std::uint32_t> indices;
    if (primitive.indices >= 0) {
        auto read = read_integers(primitive.indices, 1, prim + "/indices");
        if (!read) return make_error(read.error());
        indices = std::move(*read);
        for (std::uint32_t index : indices)
            if (index >= count)
                return fail(prim + "/indices",
                            fmt::format("index {} is outside the {} vertices", index, count));
    } else {
        indices.resize(count);
        for (std::size_t v = 0; v < count; ++v) indices[v] = static_cast<std::uint32_t>(v);
    }
    return triangles(std::move(indices),
                     primitive.mode < 0 ? TINYGLTF_MODE_TRIANGLES : primitive.mode);
}

Expected<void> Importer::import_models(cast::Root& root) {
    // The text is kept as exported, even one that names no axis (the view reports that one).
    if (up_node >= 0 || !root_turn.empty()) root.add_metadata().set_string("up", up_axis);
    if (auto selected = select_scene(); !selected) return selected;
    if (auto planned = plan_skins(root); !planned) return planned;
    plan_rigid_chains(root);
    add_bones();
    const bool world = !world_output.empty() && is_map();
    if (auto checked = check_copies(world); !checked) return checked;
    // A world's model files name their images beside them, where the world is written.
    if (world)
        image_directory = world_output.parent_path().empty() ? std::filesystem::path(".")
                                                             : world_output.parent_path();
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i) {
        if (gltf.nodes[i].mesh < 0 || !in_scene[i]) continue;
        if (world && instanced(i)) {
            if (auto added = add_instances(root, i); !added) return added;
            continue;
        }
        auto placement = place_mesh_node(root, i);
        if (!placement) return make_error(placement.error());
        auto instances = instance_transforms(i);
        if (!instances) return make_error(instances.error());
        // Cast has no instancing of meshes: each instance is a copy of the mesh.
        for (const glm::mat4& instance : *instances) {
            MeshPlacement copy = *placement;
            copy.transform = placement->transform * instance;
            copy.transformed = !near_identity(copy.transform);
            if (auto imported = import_mesh_node(copy, i); !imported) return imported;
        }
    }
    // The official add-on imports Instances only under a scene root: the model files are
    // written beside the world, so the root is the world's own folder.
    if (world_instances > 0) root.first_metadata().set_scene_root(".");
    warn_instancing();
    warn_sheared_instances();
    return {};
}

Expected<std::vector<anim::Transform>> Importer::gpu_instances(std::size_t i) const {
    const tinygltf::Node& node = gltf.nodes[i];
    const auto found = node.extensions.find("EXT_mesh_gpu_instancing");
    std::vector<anim::Transform> transforms;
    if (found == node.extensions.end() || !found->second.Has("attributes")) return transforms;
    const tinygltf::Value& attributes = found->second.Get("attributes");
    const std::string at =
        fmt::format("/nodes/{}/extensions/EXT_mesh_gpu_instancing/attributes", i);
    auto read = [&](const char* name, int components, auto apply) -> Expected<void> {
        if (!attributes.Has(name) || !attributes.Get(name).IsInt()) return {};
        auto values = read_floats(attributes.Get(name).Get<int>(), components,
                                  fmt::format("{}/{}", at, name));
        if (!values) return make_error(values.error());
        const std::size_t count = values->size() / static_cast<std::size_t>(components);
        if (!transforms.empty() && count != transforms.size())
            return fail(at + "/" + name, fmt::format("{} instances where another attribute has {}",
                                                     count, transforms.size()));
        transforms.resize(count);
        for (std::size_t k = 0; k < count; ++k)
            apply(transforms[k], values->data() + k * static_cast<std::size_t>(components));
        return {};
    };
    if (auto done = read("TRANSLATION", 3,
                         [](anim::Transform& t, const float* v) {
                             t.translation = glm::vec3(v[0], v[1], v[2]);
                         });
        !done)
        return make_error(done.error());
    if (auto done = read("ROTATION", 4,
                         [](anim::Transform& t, const float* v) {
                             t.rotation = glm::normalize(glm::quat(v[3], v[0], v[1], v[2]));
                         });
        !done)
        return make_error(done.error());
    if (auto done =
            read("SCALE", 3,
                 [](anim::Transform& t, const float* v) { t.scale = glm::vec3(v[0], v[1], v[2]); });
        !done)
        return make_error(done.error());
    return transforms;
}

Expected<std::vector<glm::mat4>> Importer::instance_transforms(std::size_t i) {
    auto transforms = gpu_instances(i);
    if (!transforms) return make_error(transforms.error());
    if (transforms->empty()) return {{glm::mat4(1.0f)}};
    if (gltf.nodes[i].skin >= 0) {
        ++instancing.kept_nodes;
        return {{glm::mat4(1.0f)}};
    }
    // check_copies has held every copy against the file's budget.
    ++instancing.copied_nodes;
    instancing.copies += transforms->size();
    std::vector<glm::mat4> out;
    out.reserve(transforms->size());
    for (const anim::Transform& t : *transforms) out.push_back(anim::to_matrix(t));
    return out;
}

std::size_t Importer::copy_values(int mesh) const {
    // What a copy costs: every vertex value of the mesh (each count capped at 16 Mi, so the sum
    // cannot wrap), plus a Cast mesh's own node and properties, counted as 256 values, so that a
    // million instances of a one-vertex mesh are not a million meshes.
    constexpr std::size_t kValuesPerMesh = 256;
    std::size_t values = 0;
    if (mesh < 0 || static_cast<std::size_t>(mesh) >= gltf.meshes.size()) return values;
    for (const tinygltf::Primitive& primitive :
         gltf.meshes[static_cast<std::size_t>(mesh)].primitives) {
        values += kValuesPerMesh;
        for (const auto& [name, index] : primitive.attributes)
            if (index >= 0 && static_cast<std::size_t>(index) < gltf.accessors.size())
                values +=
                    std::min<std::size_t>(gltf.accessors[static_cast<std::size_t>(index)].count,
                                          kDecodeConstant) *
                    4;
    }
    return values;
}

std::size_t Importer::decode_budget() const {
    std::size_t total_buffer = 0;
    for (const cast::SharedBytes& buffer : buffers) total_buffer += buffer.size();
    return kDecodeBytesFactor * total_buffer + kDecodeConstant;
}

void Importer::warn_instancing() {
    if (instancing.copied_nodes > 0)
        warn("/nodes",
             fmt::format("EXT_mesh_gpu_instancing on {} node{}: Cast has no instancing of meshes, "
                         "so each of the {} instances is a copy of its mesh",
                         instancing.copied_nodes, instancing.copied_nodes == 1 ? "" : "s",
                         instancing.copies),
             "gltf.instances-copied");
    if (instancing.kept_nodes > 0)
        warn("/nodes",
             fmt::format("EXT_mesh_gpu_instancing on {} skinned node{} (the extension leaves "
                         "skinning undefined): only each node's own transform was kept",
                         instancing.kept_nodes, instancing.kept_nodes == 1 ? "" : "s"));
}

Expected<Importer::MeshPlacement> Importer::place_mesh_node(cast::Root& root, std::size_t i) {
    const tinygltf::Node& node = gltf.nodes[i];
    const std::string at = fmt::format("/nodes/{}", i);
    if (static_cast<std::size_t>(node.mesh) >= gltf.meshes.size())
        return fail(at + "/mesh", fmt::format("mesh {} does not exist", node.mesh));
    if (node.skin >= 0 && static_cast<std::size_t>(node.skin) >= gltf.skins.size())
        return fail(at + "/skin", fmt::format("skin {} does not exist", node.skin));
    MeshPlacement placement;
    if (node.skin >= 0) {
        // Bones rest in the bind pose, so the file's vertices (in bind space) only move into
        // Model space with the skin's bind poses.
        const auto skin = static_cast<std::size_t>(node.skin);
        placement.build = static_cast<std::size_t>(skin_build[skin]);
        const ModelBuild& build = builds[placement.build];
        placement.transform = skin_transforms[skin];
        for (int joint : gltf.skins[static_cast<std::size_t>(node.skin)].joints)
            placement.joint_bones.push_back(build.bone_of.at(joint));
    } else if (auto rigid = rigid_bones.find(static_cast<int>(i)); rigid != rigid_bones.end()) {
        // Weighted fully to the deepest animated node's bone: the vertices sit where that
        // bone's rest world puts them.
        placement.build = rigid->second.first;
        const ModelBuild& build = builds[placement.build];
        const int bone = rigid->second.second;
        placement.transform = build.rest_worlds.at(bone) *
                              glm::inverse(worlds[static_cast<std::size_t>(bone)]) * worlds[i];
        placement.rigid_bone = build.bone_of.at(bone);
    } else {
        int key = parents[i] == up_node ? -1 : parents[i];
        // A mesh node at the scene root is a Model of its own.
        if (key < 0) key = static_cast<int>(i);
        placement.build = model_for(root, key);
        if (key != static_cast<int>(i)) placement.transform = locals[i];
    }
    placement.transformed = !near_identity(placement.transform);
    return placement;
}

Expected<void> Importer::import_mesh_node(const MeshPlacement& placement, std::size_t i) {
    const tinygltf::Node& node = gltf.nodes[i];
    const tinygltf::Mesh& mesh = gltf.meshes[static_cast<std::size_t>(node.mesh)];
    std::vector<std::string> target_names;
    if (const tinygltf::Value* names = extra(mesh.extras, "targetNames"); names && names->IsArray())
        for (std::size_t k = 0; k < names->ArrayLen(); ++k)
            target_names.push_back(names->Get(static_cast<int>(k)).IsString()
                                       ? names->Get(static_cast<int>(k)).Get<std::string>()
                                       : fmt::format("target{}", k));
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
        const tinygltf::Primitive& primitive = mesh.primitives[p];
        const std::string prim = fmt::format("/meshes/{}/primitives/{}", node.mesh, p);
        if (primitive.mode != TINYGLTF_MODE_TRIANGLES &&
            primitive.mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
            primitive.mode != TINYGLTF_MODE_TRIANGLE_FAN && primitive.mode != -1) {
            warn(prim + "/mode",
                 "points and lines have no Cast equivalent; the primitive was dropped");
            continue;
        }
        Primitive in{primitive, p, prim, 0, placement, i, target_names};
        if (auto imported = import_primitive(in); !imported) return imported;
    }
    mesh_target_names[static_cast<int>(i)] = target_names;
    if (target_names.empty() && !mesh.primitives.empty())
        for (std::size_t t = 0; t < mesh.primitives[0].targets.size(); ++t)
            mesh_target_names[static_cast<int>(i)].push_back(fmt::format("target{}", t));
    return {};
}

int Importer::Primitive::attribute(const std::string& name) const {
    auto it = primitive.attributes.find(name);
    return it == primitive.attributes.end() ? -1 : it->second;
}

Expected<std::vector<float>> Importer::read_attribute(const Primitive& in, const std::string& name,
                                                      int components) const {
    auto values = read_floats(in.attribute(name), components, in.path + "/attributes/" + name);
    if (values && values->size() != in.count * static_cast<std::size_t>(components))
        return fail(in.path + "/attributes/" + name,
                    fmt::format("{} elements where POSITION has {}",
                                values->size() / static_cast<std::size_t>(components), in.count));
    return values;
}

Expected<bool> Importer::view_attribute(const Primitive& in, cast::Mesh& out,
                                        const std::string& property, cast::PropertyType type,
                                        const std::string& name, int component_type, int components,
                                        bool normalized) const {
    auto bytes = packed_view(in.attribute(name), component_type, components, normalized,
                             in.path + "/attributes/" + name);
    if (!bytes) return make_error(bytes.error());
    if (!*bytes) return false;
    if (const std::size_t n = (*bytes)->size() / cast::element_size(type); n != in.count)
        return fail(in.path + "/attributes/" + name,
                    fmt::format("{} elements where POSITION has {}", n, in.count));
    out.node().set(cast::Property(type, property, static_cast<std::uint32_t>(in.count), **bytes));
    return true;
}

Expected<void> Importer::import_primitive(Primitive& in) {
    if (in.attribute("POSITION") < 0) return fail(in.path + "/attributes", "POSITION is required");
    const glm::mat4& transform = in.placement.transform;
    const bool transformed = in.placement.transformed;
    // Positions stay a view of the file unless a transform or morph targets need them.
    const bool bake = transformed || !in.primitive.targets.empty();
    auto position_view = bake ? Expected<std::optional<cast::SharedBytes>>(std::nullopt)
                              : packed_view(in.attribute("POSITION"), TINYGLTF_COMPONENT_TYPE_FLOAT,
                                            3, false, in.path + "/attributes/POSITION");
    if (!position_view) return make_error(position_view.error());
    std::vector<float> positions;
    if (!*position_view) {
        auto read = read_floats(in.attribute("POSITION"), 3, in.path + "/attributes/POSITION");
        if (!read) return make_error(read.error());
        positions = std::move(*read);
    }
    in.count = *position_view ? (*position_view)->size() / 12 : positions.size() / 3;
    if (in.count == 0) {
        warn(in.path + "/attributes/POSITION", "primitive without vertices was dropped");
        return {};
    }
    const tinygltf::Node& node = gltf.nodes[in.node];
    const tinygltf::Mesh& mesh = gltf.meshes[static_cast<std::size_t>(node.mesh)];
    ModelBuild& build = builds[in.placement.build];
    cast::Mesh out = build.model.add_mesh();
    // An unnamed mesh takes its node's name, the object name DCC tools show for it.
    const std::string& name = mesh.name.empty() ? node.name : mesh.name;
    out.set_name(mesh.primitives.size() > 1 ? fmt::format("{}.{}", name, in.index) : name);
    if (*position_view) {
        out.node().set(cast::Property(cast::PropertyType::Vector3, "vp",
                                      static_cast<std::uint32_t>(in.count), **position_view));
    } else {
        std::vector<glm::vec3> points(in.count);
        std::memcpy(points.data(), positions.data(), in.count * sizeof(glm::vec3));
        if (transformed)
            for (glm::vec3& point : points) point = glm::vec3(transform * glm::vec4(point, 1.0f));
        out.set_positions(points);
    }
    if (auto added = add_directions(in, out); !added) return added;
    if (auto added = add_uv_layers(in, out); !added) return added;
    if (auto added = add_color_layers(in, out); !added) return added;
    if (auto added = add_weights(in, out); !added) return added;
    if (auto added = add_faces(in, out); !added) return added;
    if (in.primitive.material >= 0) {
        if (static_cast<std::size_t>(in.primitive.material) >= gltf.materials.size())
            return fail(in.path + "/material",
                        fmt::format("material {} does not exist", in.primitive.material));
        if (auto done = import_material(build.model, in.primitive.material, build.materials); !done)
            return done;
        out.set_material(build.materials[in.primitive.material]);
    }
    return add_morph_targets(in, out, positions);
}

Expected<void> Importer::add_directions(const Primitive& in, cast::Mesh& out) const {
    const bool transformed = in.placement.transformed;
    const glm::mat3 linear(in.placement.transform);
    auto directions = [&](const std::vector<float>& raw, std::size_t components) {
        std::vector<glm::vec3> dirs(in.count);
        for (std::size_t v = 0; v < in.count; ++v) {
            dirs[v] =
                glm::vec3(raw[v * components], raw[v * components + 1], raw[v * components + 2]);
            if (transformed) dirs[v] = glm::normalize(linear * dirs[v]);
        }
        return dirs;
    };
    auto normals_viewed = transformed || in.attribute("NORMAL") < 0
                              ? Expected<bool>(false)
                              : view_attribute(in, out, "vn", cast::PropertyType::Vector3, "NORMAL",
                                               TINYGLTF_COMPONENT_TYPE_FLOAT, 3, false);
    if (!normals_viewed) return make_error(normals_viewed.error());
    if (in.attribute("NORMAL") >= 0 && !*normals_viewed) {
        auto normals = read_attribute(in, "NORMAL", 3);
        if (!normals) return make_error(normals.error());
        out.set_normals(directions(*normals, 3));
    }
    if (in.attribute("TANGENT") >= 0) {
        auto tangents = read_attribute(in, "TANGENT", 4);
        if (!tangents) return make_error(tangents.error());
        out.set_tangents(directions(*tangents, 4));
    }
    return {};
}

Expected<void> Importer::add_uv_layers(const Primitive& in, cast::Mesh& out) {
    // Texture transforms (KHR_texture_transform, e.g. the dequantisation of quantized UVs) are
    // baked into the UVs where every texture on the set agrees.
    const std::map<int, glm::mat3> uv_transform = uv_transforms(in.primitive.material);
    std::uint32_t layer = 0;
    for (; in.attribute(fmt::format("TEXCOORD_{}", layer)) >= 0; ++layer) {
        const std::string uv_name = fmt::format("TEXCOORD_{}", layer);
        // The layer count first (the array follows); a 256th set does not fit its byte.
        if (auto ok = out.set_uv_layer(layer, {}); !ok)
            return fail(in.path + "/attributes/" + uv_name, ok.error().message);
        if (!uv_transform.contains(static_cast<int>(layer))) {
            auto viewed =
                view_attribute(in, out, fmt::format("u{}", layer), cast::PropertyType::Vector2,
                               uv_name, TINYGLTF_COMPONENT_TYPE_FLOAT, 2, false);
            if (!viewed) return make_error(viewed.error());
            if (*viewed) continue;
        }
        auto uvs = read_attribute(in, uv_name, 2);
        if (!uvs) return make_error(uvs.error());
        std::vector<glm::vec2> layer_uvs(in.count);
        std::memcpy(layer_uvs.data(), uvs->data(), in.count * sizeof(glm::vec2));
        if (auto it = uv_transform.find(static_cast<int>(layer)); it != uv_transform.end())
            for (glm::vec2& uv : layer_uvs) uv = glm::vec2(it->second * glm::vec3(uv, 1.0f));
        (void)out.set_uv_layer(layer, layer_uvs);  // fits: checked above
    }
    warn_unnumbered_sets(in, "TEXCOORD_", layer);
    return {};
}

void Importer::warn_unnumbered_sets(const Primitive& in, std::string_view prefix,
                                    std::uint32_t kept) {
    std::vector<std::string> dropped;
    for (const auto& [name, accessor] : in.primitive.attributes)
        if (name.starts_with(prefix) && name != fmt::format("{}{}", prefix, kept) &&
            name.size() > prefix.size()) {
            const std::string number = name.substr(prefix.size());
            if (number.find_first_not_of("0123456789") == std::string::npos &&
                std::stoul(number.substr(0, 9)) >= kept)
                dropped.push_back(name);
        }
    if (!dropped.empty())
        warn(in.path + "/attributes",
             fmt::format("Cast numbers its layers from 0 without gaps: {} (after {} layer{}) "
                         "{} dropped",
                         fmt::join(dropped, ", "), kept, kept == 1 ? "" : "s",
                         dropped.size() == 1 ? "was" : "were"),
             "gltf.attribute-set-gap");
}

Expected<void> Importer::add_color_layers(const Primitive& in, cast::Mesh& out) {
    std::uint32_t layer = 0;
    for (; in.attribute(fmt::format("COLOR_{}", layer)) >= 0; ++layer) {
        const std::string name = fmt::format("COLOR_{}", layer);
        const int index = in.attribute(name);
        if (static_cast<std::size_t>(index) >= gltf.accessors.size())
            return fail(in.path + "/attributes/" + name,
                        fmt::format("accessor {} does not exist", index));
        const tinygltf::Accessor& accessor = gltf.accessors[static_cast<std::size_t>(index)];
        const std::size_t components = accessor.type == TINYGLTF_TYPE_VEC3 ? 3 : 4;
        // Normalised RGBA bytes are Cast's packed colours, byte for byte.
        // The layer count first (the view follows); a 256th set does not fit its byte.
        if (auto ok = out.set_color_layer_packed(layer, {}); !ok)
            return fail(in.path + "/attributes/" + name, ok.error().message);
        if (components == 4) {
            auto viewed =
                view_attribute(in, out, fmt::format("c{}", layer), cast::PropertyType::Integer32,
                               name, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, 4, true);
            if (!viewed) return make_error(viewed.error());
            if (*viewed) continue;
        }
        auto colors = read_attribute(in, name, static_cast<int>(components));
        if (!colors) return make_error(colors.error());
        if (accessor.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && components == 4) {
            std::vector<std::uint32_t> packed(in.count);
            for (std::size_t v = 0; v < in.count; ++v)
                for (std::size_t c = 0; c < 4; ++c)
                    packed[v] |=
                        static_cast<std::uint32_t>(std::lround((*colors)[v * 4 + c] * 255.0f))
                        << (8 * c);
            (void)out.set_color_layer_packed(layer, packed);  // fits: checked above
        } else {
            std::vector<glm::vec4> rgba(in.count, glm::vec4(1.0f));
            for (std::size_t v = 0; v < in.count; ++v)
                for (std::size_t c = 0; c < components; ++c)
                    rgba[v][static_cast<int>(c)] = (*colors)[v * components + c];
            (void)out.set_color_layer(layer, rgba);  // fits: checked above
        }
    }
    warn_unnumbered_sets(in, "COLOR_", layer);
    return {};
}

Expected<void> Importer::add_weights(const Primitive& in, cast::Mesh& out) {
    const bool skinned = gltf.nodes[in.node].skin >= 0;
    std::uint32_t sets = 0;
    while (in.attribute(fmt::format("JOINTS_{}", sets)) >= 0) ++sets;
    if (sets > 0 && !skinned) warn(in.path, "joints without a skin on the node were dropped");
    if (in.placement.rigid_bone) {
        // A rigidly animated mesh follows its bone with every vertex.
        auto ok = out.set_weights(1, std::vector<std::uint32_t>(in.count, *in.placement.rigid_bone),
                                  std::vector<float>(in.count, 1.0f));
        return ok ? Expected<void>() : fail(in.path + "/attributes", ok.error().message);
    }
    if (sets == 0 || !skinned) return {};
    const std::vector<std::uint32_t>& joint_bones = in.placement.joint_bones;
    auto views = sets == 1 ? view_weights(in.attribute("JOINTS_0"), in.attribute("WEIGHTS_0"),
                                          joint_bones, in.count, in.path)
                           : Expected<std::vector<cast::Property>>();
    if (!views) return make_error(views.error());
    if (!views->empty()) {
        if (auto ok = out.set_weights(4, {}, {}); !ok)  // `mi`; the views follow
            return fail(in.path + "/attributes", ok.error().message);
        for (cast::Property& property : *views) out.node().set(std::move(property));
        return {};
    }
    const std::size_t width = std::size_t{sets} * 4;
    std::vector<std::uint32_t> bones(in.count * width);
    std::vector<float> values(in.count * width);
    for (std::uint32_t set = 0; set < sets; ++set) {
        const std::string joints_name = fmt::format("JOINTS_{}", set);
        auto joints =
            read_integers(in.attribute(joints_name), 4, in.path + "/attributes/" + joints_name);
        if (!joints) return make_error(joints.error());
        auto weights = read_attribute(in, fmt::format("WEIGHTS_{}", set), 4);
        if (!weights) return make_error(weights.error());
        if (joints->size() != in.count * 4)
            return fail(in.path + "/attributes/" + joints_name, "count differs from POSITION");
        for (std::size_t v = 0; v < in.count; ++v)
            for (std::size_t k = 0; k < 4; ++k) {
                const std::uint32_t joint = (*joints)[v * 4 + k];
                if (joint >= joint_bones.size())
                    return fail(in.path + "/attributes/" + joints_name,
                                fmt::format("joint {} is outside the skin's {} joints", joint,
                                            joint_bones.size()));
                bones[v * width + set * 4 + k] = joint_bones[joint];
                values[v * width + set * 4 + k] = (*weights)[v * 4 + k];
            }
    }
    auto ok = out.set_weights(sets * 4, bones, values);
    return ok ? Expected<void>() : fail(in.path + "/attributes", ok.error().message);
}

Expected<void> Importer::add_faces(const Primitive& in, cast::Mesh& out) const {
    const bool transformed = in.placement.transformed;
    auto viewed =
        transformed ? Expected<bool>(false) : view_faces(out, in.primitive, in.count, in.path);
    if (!viewed) return make_error(viewed.error());
    if (*viewed) return {};
    auto faces = read_faces(in.primitive, in.count, in.path);
    if (!faces) return make_error(faces.error());
    // A mirroring transform baked into the vertices turns the triangles inside out; reversing
    // their order keeps the front faces in front.
    if (transformed && glm::determinant(glm::mat3(in.placement.transform)) < 0.0f)
        for (std::size_t t = 0; t + 2 < faces->size(); t += 3)
            std::swap((*faces)[t + 1], (*faces)[t + 2]);
    if (!faces->empty()) out.set_faces(*faces);
    return {};
}

Expected<void> Importer::add_morph_targets(const Primitive& in, cast::Mesh& out,
                                           const std::vector<float>& positions) {
    const tinygltf::Node& node = gltf.nodes[in.node];
    const tinygltf::Mesh& mesh = gltf.meshes[static_cast<std::size_t>(node.mesh)];
    ModelBuild& build = builds[in.placement.build];
    for (std::size_t t = 0; t < in.primitive.targets.size(); ++t) {
        const auto& target = in.primitive.targets[t];
        const std::string at = fmt::format("{}/targets/{}", in.path, t);
        auto position = target.find("POSITION");
        if (target.size() > (position == target.end() ? 0u : 1u))
            warn(at, "normal and tangent morph deltas have no Cast equivalent and were dropped");
        // A target without POSITION moves no vertex: it keeps its place (weights channels index
        // targets) as an empty shape.
        auto deltas = position == target.end()
                          ? Expected<std::vector<float>>(std::vector<float>(in.count * 3, 0.0f))
                          : read_floats(position->second, 3, at + "/POSITION");
        if (!deltas) return make_error(deltas.error());
        if (deltas->size() != in.count * 3)
            return fail(at + "/POSITION", "count differs from POSITION");
        std::vector<std::uint32_t> moved;
        std::vector<glm::vec3> targets;
        for (std::size_t v = 0; v < in.count; ++v) {
            const glm::vec3 d((*deltas)[v * 3], (*deltas)[v * 3 + 1], (*deltas)[v * 3 + 2]);
            if (d == glm::vec3(0.0f)) continue;
            glm::vec3 moved_point =
                glm::vec3(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2]) + d;
            if (in.placement.transformed)
                moved_point = glm::vec3(in.placement.transform * glm::vec4(moved_point, 1.0f));
            moved.push_back(static_cast<std::uint32_t>(v));
            targets.push_back(moved_point);
        }
        // A target that moves nothing keeps its place (weights channels index targets) with
        // empty vi/vp, which the spec allows.
        cast::BlendShape shape = build.model.add_blend_shape();
        const std::string shape_name =
            t < in.target_names.size() ? in.target_names[t] : fmt::format("target{}", t);
        shape.set_name(shape_name);
        shape.set_base_shape(out);
        shape.set_targets(moved, targets);
        const std::vector<double>& defaults =
            node.weights.size() == in.primitive.targets.size() ? node.weights : mesh.weights;
        if (t < defaults.size() && defaults[t] != 0.0)
            carried["weights"][std::to_string(shape.node().hash())] = defaults[t];
    }
    return {};
}

}  // namespace castkit::gltf::detail
