// glTF nodes, skins and meshes into Cast Models. The hierarchy is flattened: a Model per node
// that holds meshes or skeletons (the parent of a skin's root joint, or of a mesh node), with
// that node's world transform as the Model's p/r/s; bones keep their local transforms
// relative to the nearest joint above them; mesh vertices are brought into the Model's space
// (skinned ones through joint world × inverse bind matrix at rest, which is the identity for
// files whose bind pose is their rest pose).
#include <fmt/format.h>

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
            anim::Transform t;
            if (!node.translation.empty())
                t.translation =
                    glm::vec3(node.translation[0], node.translation[1], node.translation[2]);
            if (!node.rotation.empty())
                t.rotation = glm::quat(
                    static_cast<float>(node.rotation[3]), static_cast<float>(node.rotation[0]),
                    static_cast<float>(node.rotation[1]), static_cast<float>(node.rotation[2]));
            if (!node.scale.empty())
                t.scale = glm::vec3(node.scale[0], node.scale[1], node.scale[2]);
            locals[i] = anim::to_matrix(t);
        }
        if (const tinygltf::Value* up = extra(node.extras, "castkit_up_axis");
            up && up->IsString() && up_node < 0) {
            up_node = static_cast<int>(i);
            up_axis = up->Get<std::string>();
        }
    }
    if (up_node >= 0 && parents[static_cast<std::size_t>(up_node)] != -1) up_node = -1;
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
    if (primitive.indices < 0 || static_cast<std::size_t>(primitive.indices) >= gltf.accessors.size() ||
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
    if (joints < 0 || static_cast<std::size_t>(joints) >= gltf.accessors.size()) return Properties();
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
        return fail(prim + "/attributes/JOINTS_0",
                    fmt::format("joint {} is outside the skin's {} joints", largest,
                                joint_bones.size()));
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
    return triangles(std::move(indices), primitive.mode < 0 ? TINYGLTF_MODE_TRIANGLES : primitive.mode);
}

Expected<void> Importer::import_models(cast::Root& root) {
    // The text is kept as exported, even one that names no axis (the view reports that one).
    if (up_node >= 0) root.add_metadata().set_string("up", up_axis);
    const int scene_key = -1;
    auto key_of = [&](int parent) { return parent == up_node ? scene_key : parent; };

    struct ModelBuild {
        cast::Model model;
        glm::mat4 inverse_world{1.0f};
        std::map<int, std::uint32_t> bone_of;  // glTF node → bone index
        std::map<int, cast::Material> materials;
    };
    std::map<int, ModelBuild> builds;
    auto model_for = [&](int key) -> ModelBuild& {
        auto [it, fresh] = builds.try_emplace(key);
        if (fresh) {
            ModelBuild& build = it->second;
            build.model = root.add_model();
            const glm::mat4 world =
                key >= 0 ? worlds[static_cast<std::size_t>(key)] : glm::mat4(1.0f);
            build.inverse_world = glm::inverse(world);
            if (key >= 0) {
                const tinygltf::Node& node = gltf.nodes[static_cast<std::size_t>(key)];
                build.model.set_name(node.name.empty() ? fmt::format("node{}", key) : node.name);
                if (!near_identity(world)) {
                    const anim::Transform t = anim::decompose(world);
                    build.model.set_position(t.translation);
                    build.model.set_rotation(cast::xyzw_from_quat(t.rotation));
                    build.model.set_scale(t.scale);
                }
            } else {
                build.model.set_name("scene");
            }
        }
        return it->second;
    };

    // Skins: their joints become the bones of the Model above the root joint.
    std::vector<int> skin_keys(gltf.skins.size(), scene_key);
    for (std::size_t s = 0; s < gltf.skins.size(); ++s) {
        const tinygltf::Skin& skin = gltf.skins[s];
        for (std::size_t j = 0; j < skin.joints.size(); ++j)
            if (skin.joints[j] < 0 || static_cast<std::size_t>(skin.joints[j]) >= gltf.nodes.size())
                return fail(fmt::format("/skins/{}/joints/{}", s, j),
                            fmt::format("node {} does not exist", skin.joints[j]));
        if (skin.joints.empty())
            return fail(fmt::format("/skins/{}/joints", s), "a skin needs at least one joint");
        auto is_joint = [&](int node) {
            return std::find(skin.joints.begin(), skin.joints.end(), node) != skin.joints.end();
        };
        int top = skin.joints[0];
        while (parents[static_cast<std::size_t>(top)] >= 0 &&
               is_joint(parents[static_cast<std::size_t>(top)]))
            top = parents[static_cast<std::size_t>(top)];
        skin_keys[s] = key_of(parents[static_cast<std::size_t>(top)]);
        ModelBuild& build = model_for(skin_keys[s]);
        cast::Skeleton skeleton =
            build.model.skeleton() ? build.model.skeleton() : build.model.add_skeleton();
        for (int joint : skin.joints) {
            if (build.bone_of.count(joint)) continue;
            const tinygltf::Node& node = gltf.nodes[static_cast<std::size_t>(joint)];
            cast::Bone bone = skeleton.add_bone();
            bone.set_name(node.name.empty() ? fmt::format("joint{}", joint) : node.name);
            bone.set_segment_scale_compensate(false);
            build.bone_of[joint] = static_cast<std::uint32_t>(skeleton.bones().size() - 1);
            bone_names[joint] = std::string(*bone.name());
        }
    }
    // Animated nodes that move unskinned meshes (props, doors, vehicles) become bones too: the
    // chain from the topmost animated ancestor down to the deepest one joins the Skeleton of
    // the Model above it, and the mesh is weighted fully to the deepest (docs/gltf.md).
    std::vector<std::uint8_t> animated(gltf.nodes.size(), 0);
    for (const tinygltf::Animation& animation : gltf.animations)
        for (const tinygltf::AnimationChannel& channel : animation.channels)
            if (channel.target_node >= 0 &&
                static_cast<std::size_t>(channel.target_node) < gltf.nodes.size() &&
                channel.target_path != "weights")
                animated[static_cast<std::size_t>(channel.target_node)] = 1;
    std::map<int, std::pair<int, int>> rigid_bones;  // mesh node → (Model key, bone node)
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i) {
        const tinygltf::Node& node = gltf.nodes[i];
        if (node.mesh < 0 || node.skin >= 0) continue;
        int top = -1, deep = -1;
        for (int n = static_cast<int>(i); n >= 0 && n != up_node;
             n = parents[static_cast<std::size_t>(n)])
            if (animated[static_cast<std::size_t>(n)]) {
                if (deep < 0) deep = n;
                top = n;
            }
        if (top < 0) continue;
        const int key = key_of(parents[static_cast<std::size_t>(top)]);
        ModelBuild& build = model_for(key);
        cast::Skeleton skeleton =
            build.model.skeleton() ? build.model.skeleton() : build.model.add_skeleton();
        std::vector<int> chain;
        for (int n = deep; n != parents[static_cast<std::size_t>(top)];
             n = parents[static_cast<std::size_t>(n)])
            chain.push_back(n);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            if (build.bone_of.count(*it)) continue;
            const tinygltf::Node& joint = gltf.nodes[static_cast<std::size_t>(*it)];
            cast::Bone bone = skeleton.add_bone();
            bone.set_name(joint.name.empty() ? fmt::format("node{}", *it) : joint.name);
            bone.set_segment_scale_compensate(false);
            build.bone_of[*it] = static_cast<std::uint32_t>(skeleton.bones().size() - 1);
            bone_names[*it] = std::string(*bone.name());
        }
        rigid_bones[static_cast<int>(i)] = {key, deep};
    }

    // Bone parents and transforms, once every skin of a Model has added its joints.
    for (auto& [key, build] : builds) {
        cast::Skeleton skeleton = build.model.skeleton();
        if (!skeleton) continue;
        std::vector<cast::Bone> bones = skeleton.bones();
        for (auto [joint, index] : build.bone_of) {
            int above = parents[static_cast<std::size_t>(joint)];
            while (above >= 0 && above != key && !build.bone_of.count(above))
                above = parents[static_cast<std::size_t>(above)];
            const bool bone_parent = above >= 0 && build.bone_of.count(above);
            cast::Bone bone = bones[index];
            bone.set_parent_index(bone_parent ? static_cast<std::int32_t>(build.bone_of[above])
                                              : -1);
            const tinygltf::Node& node = gltf.nodes[static_cast<std::size_t>(joint)];
            anim::Transform local;
            if (above == parents[static_cast<std::size_t>(joint)] && node.matrix.empty()) {
                // The direct parent: the node's own TRS, exactly as stored.
                if (!node.translation.empty())
                    local.translation =
                        glm::vec3(node.translation[0], node.translation[1], node.translation[2]);
                if (!node.rotation.empty())
                    local.rotation = glm::quat(
                        static_cast<float>(node.rotation[3]), static_cast<float>(node.rotation[0]),
                        static_cast<float>(node.rotation[1]), static_cast<float>(node.rotation[2]));
                if (!node.scale.empty())
                    local.scale = glm::vec3(node.scale[0], node.scale[1], node.scale[2]);
            } else {
                const glm::mat4 parent_world = bone_parent || above >= 0
                                                   ? worlds[static_cast<std::size_t>(above)]
                                                   : glm::mat4(1.0f);
                local = anim::decompose(glm::inverse(parent_world) *
                                        worlds[static_cast<std::size_t>(joint)]);
            }
            bone.set_local_position(local.translation);
            bone.set_local_rotation(cast::xyzw_from_quat(local.rotation));
            bone.set_scale(local.scale);
            const anim::Transform world =
                anim::decompose(build.inverse_world * worlds[static_cast<std::size_t>(joint)]);
            bone.set_world_position(world.translation);
            bone.set_world_rotation(cast::xyzw_from_quat(world.rotation));
        }
    }

    // Mesh nodes: each primitive a Cast Mesh.
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i) {
        const tinygltf::Node& node = gltf.nodes[i];
        if (node.mesh < 0) continue;
        const std::string at = fmt::format("/nodes/{}", i);
        if (static_cast<std::size_t>(node.mesh) >= gltf.meshes.size())
            return fail(at + "/mesh", fmt::format("mesh {} does not exist", node.mesh));
        if (node.skin >= 0 && static_cast<std::size_t>(node.skin) >= gltf.skins.size())
            return fail(at + "/skin", fmt::format("skin {} does not exist", node.skin));
        const int parent = key_of(parents[i]);
        const auto rigid_bone = rigid_bones.find(static_cast<int>(i));
        const int key = node.skin >= 0 ? skin_keys[static_cast<std::size_t>(node.skin)]
                        : rigid_bone != rigid_bones.end() ? rigid_bone->second.first
                        : parent >= 0                     ? parent
                                                          : static_cast<int>(i);
        ModelBuild& build = model_for(key);
        // Per-joint matrices taking bind-space vertices into the Model's space.
        std::vector<glm::mat4> joint_matrices;
        bool transform = false;
        glm::mat4 rigid(1.0f);
        std::vector<std::uint32_t> joint_bones;
        if (node.skin >= 0) {
            const tinygltf::Skin& skin = gltf.skins[static_cast<std::size_t>(node.skin)];
            std::vector<float> inverse_binds;
            if (skin.inverseBindMatrices >= 0) {
                auto read = read_floats(skin.inverseBindMatrices, 16,
                                        fmt::format("/skins/{}/inverseBindMatrices", node.skin));
                if (!read) return make_error(read.error());
                if (read->size() < skin.joints.size() * 16)
                    return fail(fmt::format("/skins/{}/inverseBindMatrices", node.skin),
                                "fewer inverse bind matrices than joints");
                inverse_binds = std::move(*read);
            }
            for (std::size_t j = 0; j < skin.joints.size(); ++j) {
                glm::mat4 inverse_bind(1.0f);
                if (!inverse_binds.empty())
                    inverse_bind = glm::make_mat4(inverse_binds.data() + j * 16);
                joint_matrices.push_back(build.inverse_world *
                                         worlds[static_cast<std::size_t>(skin.joints[j])] *
                                         inverse_bind);
                transform |= !near_identity(joint_matrices.back());
                joint_bones.push_back(build.bone_of[skin.joints[j]]);
            }
        } else if (rigid_bone != rigid_bones.end()) {
            rigid = build.inverse_world * worlds[i];
            transform = !near_identity(rigid);
        } else if (key != static_cast<int>(i)) {
            rigid = locals[i];
            transform = !near_identity(rigid);
        }
        const std::uint32_t rigid_bone_index =
            rigid_bone != rigid_bones.end() ? build.bone_of[rigid_bone->second.second] : 0;

        const tinygltf::Mesh& mesh = gltf.meshes[static_cast<std::size_t>(node.mesh)];
        std::vector<std::string> target_names;
        if (const tinygltf::Value* names = extra(mesh.extras, "targetNames");
            names && names->IsArray())
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
            auto attribute = [&](const std::string& name) {
                auto it = primitive.attributes.find(name);
                return it == primitive.attributes.end() ? -1 : it->second;
            };
            if (attribute("POSITION") < 0)
                return fail(prim + "/attributes", "POSITION is required");
            // Positions stay a view of the file unless a transform or morph targets need them.
            const bool bake = transform || !primitive.targets.empty();
            auto position_view =
                bake ? Expected<std::optional<cast::SharedBytes>>(std::nullopt)
                     : packed_view(attribute("POSITION"), TINYGLTF_COMPONENT_TYPE_FLOAT, 3, false,
                                   prim + "/attributes/POSITION");
            if (!position_view) return make_error(position_view.error());
            std::vector<float> positions;
            if (!*position_view) {
                auto read = read_floats(attribute("POSITION"), 3, prim + "/attributes/POSITION");
                if (!read) return make_error(read.error());
                positions = std::move(*read);
            }
            const std::size_t count =
                *position_view ? (*position_view)->size() / 12 : positions.size() / 3;
            if (count == 0) {
                warn(prim + "/attributes/POSITION", "primitive without vertices was dropped");
                continue;
            }
            auto read_attribute = [&](const std::string& name,
                                      int components) -> Expected<std::vector<float>> {
                auto values =
                    read_floats(attribute(name), components, prim + "/attributes/" + name);
                if (values && values->size() != count * static_cast<std::size_t>(components))
                    return fail(
                        prim + "/attributes/" + name,
                        fmt::format("{} elements where POSITION has {}",
                                    values->size() / static_cast<std::size_t>(components), count));
                return values;
            };
            cast::Mesh out = build.model.add_mesh();
            // An unnamed mesh takes its node's name, the object name DCC tools show for it.
            const std::string& name = mesh.name.empty() ? node.name : mesh.name;
            out.set_name(mesh.primitives.size() > 1 ? fmt::format("{}.{}", name, p) : name);

            std::vector<float> weights_sum;
            std::vector<std::uint32_t> bones, joints_used;
            std::vector<float> values;
            std::uint32_t sets = 0;
            while (attribute(fmt::format("JOINTS_{}", sets)) >= 0) ++sets;
            if (sets > 0 && node.skin < 0)
                warn(prim, "joints without a skin on the node were dropped");
            auto weight_views = sets == 1 && node.skin >= 0 && !transform
                                    ? view_weights(attribute("JOINTS_0"), attribute("WEIGHTS_0"),
                                                   joint_bones, count, prim)
                                    : Expected<std::vector<cast::Property>>();
            if (!weight_views) return make_error(weight_views.error());
            if (sets > 0 && node.skin >= 0 && weight_views->empty()) {
                bones.resize(count * sets * 4);
                joints_used.resize(count * sets * 4);
                values.resize(count * sets * 4);
                for (std::uint32_t set = 0; set < sets; ++set) {
                    const std::string joints_name = fmt::format("JOINTS_{}", set);
                    auto joints = read_integers(attribute(joints_name), 4,
                                                prim + "/attributes/" + joints_name);
                    if (!joints) return make_error(joints.error());
                    auto weights = read_attribute(fmt::format("WEIGHTS_{}", set), 4);
                    if (!weights) return make_error(weights.error());
                    if (joints->size() != count * 4)
                        return fail(prim + "/attributes/" + joints_name,
                                    "count differs from POSITION");
                    for (std::size_t v = 0; v < count; ++v)
                        for (std::size_t k = 0; k < 4; ++k) {
                            const std::uint32_t joint = (*joints)[v * 4 + k];
                            if (joint >= joint_bones.size())
                                return fail(prim + "/attributes/" + joints_name,
                                            fmt::format("joint {} is outside the skin's {} joints",
                                                        joint, joint_bones.size()));
                            bones[v * sets * 4 + set * 4 + k] = joint_bones[joint];
                            joints_used[v * sets * 4 + set * 4 + k] = joint;
                            values[v * sets * 4 + set * 4 + k] = (*weights)[v * 4 + k];
                        }
                }
            }
            // The matrix that takes vertex v into the Model's space.
            auto vertex_matrix = [&](std::size_t v) {
                if (joint_matrices.empty() || bones.empty()) return rigid;
                glm::mat4 m(0.0f);
                for (std::size_t k = 0; k < sets * 4; ++k)
                    if (const float w = values[v * sets * 4 + k]; w != 0.0f)
                        m += joint_matrices[joints_used[v * sets * 4 + k]] * w;
                return m;
            };

            // Sets Cast array `property` to a view of attribute `name` when the file already
            // has it in the array's layout (zero copy); false when it must be decoded.
            auto view = [&](const std::string& property, cast::PropertyType type,
                            const std::string& name, int component_type, int components,
                            bool normalized) -> Expected<bool> {
                auto bytes = packed_view(attribute(name), component_type, components, normalized,
                                         prim + "/attributes/" + name);
                if (!bytes) return make_error(bytes.error());
                if (!*bytes) return false;
                if (const std::size_t n = (*bytes)->size() / cast::element_size(type); n != count)
                    return fail(prim + "/attributes/" + name,
                                fmt::format("{} elements where POSITION has {}", n, count));
                out.node().set(
                    cast::Property(type, property, static_cast<std::uint32_t>(count), **bytes));
                return true;
            };
            std::vector<glm::mat4> matrices;
            if (*position_view) {
                out.node().set(cast::Property(cast::PropertyType::Vector3, "vp",
                                              static_cast<std::uint32_t>(count), **position_view));
            } else {
                std::vector<glm::vec3> points(count);
                std::memcpy(points.data(), positions.data(), count * sizeof(glm::vec3));
                if (transform) {
                    matrices.resize(count);
                    for (std::size_t v = 0; v < count; ++v) {
                        matrices[v] = vertex_matrix(v);
                        points[v] = glm::vec3(matrices[v] * glm::vec4(points[v], 1.0f));
                    }
                }
                out.set_positions(points);
            }
            auto directions = [&](const std::vector<float>& raw, int components) {
                std::vector<glm::vec3> dirs(count);
                for (std::size_t v = 0; v < count; ++v) {
                    dirs[v] = glm::vec3(raw[v * static_cast<std::size_t>(components)],
                                        raw[v * static_cast<std::size_t>(components) + 1],
                                        raw[v * static_cast<std::size_t>(components) + 2]);
                    if (transform) dirs[v] = glm::normalize(glm::mat3(matrices[v]) * dirs[v]);
                }
                return dirs;
            };
            auto normals_viewed =
                transform || attribute("NORMAL") < 0
                    ? Expected<bool>(false)
                    : view("vn", cast::PropertyType::Vector3, "NORMAL",
                           TINYGLTF_COMPONENT_TYPE_FLOAT, 3, false);
            if (!normals_viewed) return make_error(normals_viewed.error());
            if (attribute("NORMAL") >= 0 && !*normals_viewed) {
                auto normals = read_attribute("NORMAL", 3);
                if (!normals) return make_error(normals.error());
                out.set_normals(directions(*normals, 3));
            }
            if (attribute("TANGENT") >= 0) {
                auto tangents = read_attribute("TANGENT", 4);
                if (!tangents) return make_error(tangents.error());
                out.set_tangents(directions(*tangents, 4));
            }
            // Texture transforms (KHR_texture_transform, e.g. the dequantisation of
            // quantized UVs) are baked into the UVs where every texture on the set agrees.
            const std::map<int, glm::mat3> uv_transform = uv_transforms(primitive.material);
            for (std::uint32_t layer = 0; attribute(fmt::format("TEXCOORD_{}", layer)) >= 0;
                 ++layer) {
                const std::string uv_name = fmt::format("TEXCOORD_{}", layer);
                out.set_uv_layer(layer, {});  // the layer count; the array follows
                if (!uv_transform.contains(static_cast<int>(layer))) {
                    auto viewed = view(fmt::format("u{}", layer), cast::PropertyType::Vector2,
                                       uv_name, TINYGLTF_COMPONENT_TYPE_FLOAT, 2, false);
                    if (!viewed) return make_error(viewed.error());
                    if (*viewed) continue;
                }
                auto uvs = read_attribute(uv_name, 2);
                if (!uvs) return make_error(uvs.error());
                std::vector<glm::vec2> layer_uvs(count);
                std::memcpy(layer_uvs.data(), uvs->data(), count * sizeof(glm::vec2));
                if (auto it = uv_transform.find(static_cast<int>(layer)); it != uv_transform.end())
                    for (glm::vec2& uv : layer_uvs)
                        uv = glm::vec2(it->second * glm::vec3(uv, 1.0f));
                out.set_uv_layer(layer, layer_uvs);
            }
            for (std::uint32_t layer = 0; attribute(fmt::format("COLOR_{}", layer)) >= 0; ++layer) {
                const std::string name = fmt::format("COLOR_{}", layer);
                const int index = attribute(name);
                if (static_cast<std::size_t>(index) >= gltf.accessors.size())
                    return fail(prim + "/attributes/" + name,
                                fmt::format("accessor {} does not exist", index));
                const tinygltf::Accessor& accessor =
                    gltf.accessors[static_cast<std::size_t>(index)];
                const int components = accessor.type == TINYGLTF_TYPE_VEC3 ? 3 : 4;
                // Normalised RGBA bytes are Cast's packed colours, byte for byte.
                if (components == 4) {
                    out.set_color_layer_packed(layer, {});  // the layer count; the view follows
                    auto viewed = view(fmt::format("c{}", layer), cast::PropertyType::Integer32,
                                       name, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, 4, true);
                    if (!viewed) return make_error(viewed.error());
                    if (*viewed) continue;
                }
                auto colors = read_attribute(name, components);
                if (!colors) return make_error(colors.error());
                if (accessor.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
                    components == 4) {
                    std::vector<std::uint32_t> packed(count);
                    for (std::size_t v = 0; v < count; ++v)
                        for (std::size_t c = 0; c < 4; ++c)
                            packed[v] |= static_cast<std::uint32_t>(
                                             std::lround((*colors)[v * 4 + c] * 255.0f))
                                         << (8 * c);
                    out.set_color_layer_packed(layer, packed);
                } else {
                    std::vector<glm::vec4> rgba(count, glm::vec4(1.0f));
                    for (std::size_t v = 0; v < count; ++v)
                        for (int c = 0; c < components; ++c)
                            rgba[v][c] = (*colors)[v * static_cast<std::size_t>(components) +
                                                   static_cast<std::size_t>(c)];
                    out.set_color_layer(layer, rgba);
                }
            }
            if (!bones.empty())
                if (auto ok = out.set_weights(sets * 4, bones, values); !ok)
                    return fail(prim + "/attributes", ok.error().message);
            if (!weight_views->empty()) {
                if (auto ok = out.set_weights(4, {}, {}); !ok)  // `mi`; the views follow
                    return fail(prim + "/attributes", ok.error().message);
                for (cast::Property& property : *weight_views) out.node().set(std::move(property));
            }
            if (rigid_bone != rigid_bones.end())
                if (auto ok = out.set_weights(1, std::vector<std::uint32_t>(count, rigid_bone_index),
                                              std::vector<float>(count, 1.0f));
                    !ok)
                    return fail(prim + "/attributes", ok.error().message);

            auto faces_viewed =
                transform ? Expected<bool>(false) : view_faces(out, primitive, count, prim);
            if (!faces_viewed) return make_error(faces_viewed.error());
            if (!*faces_viewed) {
                auto faces = read_faces(primitive, count, prim);
                if (!faces) return make_error(faces.error());
                // A mirroring transform baked into the vertices turns the triangles inside out;
                // reversing their order keeps the front faces in front.
                if (transform)
                    for (std::size_t t = 0; t + 2 < faces->size(); t += 3)
                        if (glm::determinant(glm::mat3(matrices[(*faces)[t]])) < 0.0f)
                            std::swap((*faces)[t + 1], (*faces)[t + 2]);
                if (!faces->empty()) out.set_faces(*faces);
            }

            if (primitive.material >= 0) {
                if (static_cast<std::size_t>(primitive.material) >= gltf.materials.size())
                    return fail(prim + "/material",
                                fmt::format("material {} does not exist", primitive.material));
                if (auto done = import_material(build.model, primitive.material, build.materials);
                    !done)
                    return done;
                out.set_material(build.materials[primitive.material]);
            }

            for (std::size_t t = 0; t < primitive.targets.size(); ++t) {
                const auto& target = primitive.targets[t];
                auto position = target.find("POSITION");
                if (target.size() > (position == target.end() ? 0u : 1u))
                    warn(
                        fmt::format("{}/targets/{}", prim, t),
                        "normal and tangent morph deltas have no Cast equivalent and were dropped");
                if (position == target.end()) continue;
                auto deltas = read_floats(position->second, 3,
                                          fmt::format("{}/targets/{}/POSITION", prim, t));
                if (!deltas) return make_error(deltas.error());
                if (deltas->size() != count * 3)
                    return fail(fmt::format("{}/targets/{}/POSITION", prim, t),
                                "count differs from POSITION");
                std::vector<std::uint32_t> moved;
                std::vector<glm::vec3> targets;
                for (std::size_t v = 0; v < count; ++v) {
                    const glm::vec3 d((*deltas)[v * 3], (*deltas)[v * 3 + 1], (*deltas)[v * 3 + 2]);
                    if (d == glm::vec3(0.0f)) continue;
                    glm::vec3 moved_point = glm::vec3(positions[v * 3], positions[v * 3 + 1],
                                                      positions[v * 3 + 2]) +
                                            d;
                    if (transform)
                        moved_point = glm::vec3(matrices[v] * glm::vec4(moved_point, 1.0f));
                    moved.push_back(static_cast<std::uint32_t>(v));
                    targets.push_back(moved_point);
                }
                // A target that moves nothing keeps its place (weights channels index targets)
                // with empty vi/vp, which the spec allows.
                cast::BlendShape shape = build.model.add_blend_shape();
                const std::string shape_name =
                    t < target_names.size() ? target_names[t] : fmt::format("target{}", t);
                shape.set_name(shape_name);
                shape.set_base_shape(out);
                shape.set_targets(moved, targets);
                const std::vector<double>& defaults =
                    node.weights.size() == primitive.targets.size() ? node.weights : mesh.weights;
                if (t < defaults.size() && defaults[t] != 0.0)
                    carried["weights"][shape_name] = defaults[t];
            }
        }
        mesh_target_names[static_cast<int>(i)] = target_names;
        if (target_names.empty() && !mesh.primitives.empty())
            for (std::size_t t = 0; t < mesh.primitives[0].targets.size(); ++t)
                mesh_target_names[static_cast<int>(i)].push_back(fmt::format("target{}", t));
    }
    return {};
}

}  // namespace castkit::gltf::detail
