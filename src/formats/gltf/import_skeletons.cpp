// glTF skins and animated node chains into Cast Skeletons (docs/gltf.md, "Skins").
//
// glTF keeps two poses per joint: the node's rest transform and the bind pose its skin's
// inverse bind matrix stands for. Cast bones hold one rest transform, which Cast consumers use
// as the bind pose. So a joint's Cast rest is its bind pose, which keeps every animated pose
// exact whatever the rig, and the skinned vertices stay as the file has them; where the
// node's rest differs, it is carried for the glTF export and set by a one-key curve in each
// animation, so that bones no channel moves still stand where glTF puts them.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <glm/matrix.hpp>
#include <unordered_map>
#include <unordered_set>

#include "import_internal.hpp"

namespace castkit::gltf::detail {
namespace {

// Two bind poses of one joint are the same when no entry differs by more than this (relative
// to the matrix's largest entry): float rounding of one matrix written by two skins.
constexpr float kSameBind = 1e-4f;

bool same_matrix(const glm::mat4& a, const glm::mat4& b) {
    float largest = 1.0f, difference = 0.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            largest = std::max({largest, std::abs(a[c][r]), std::abs(b[c][r])});
            difference = std::max(difference, std::abs(a[c][r] - b[c][r]));
        }
    return difference <= kSameBind * largest;
}

// The node's own TRS, exactly as stored (decomposed when it is a matrix).
anim::Transform node_transform(const tinygltf::Node& node, const glm::mat4& local) {
    return node.matrix.empty() ? node_trs(node) : anim::decompose(local);
}

// Which parts of `a` and `b` differ beyond float rounding of a matrix product.
struct Differences {
    bool translation, rotation, scale;
    bool any() const { return translation || rotation || scale; }
};
Differences differences(const anim::Transform& a, const anim::Transform& b) {
    const float size = std::max({1.0f, glm::length(a.translation), glm::length(b.translation)});
    const glm::vec3 scale_gap = glm::abs(a.scale - b.scale);
    return {glm::length(a.translation - b.translation) > 1e-4f * size,
            anim::rotation_angle(a.rotation, b.rotation) > 1e-4f,
            std::max({scale_gap.x, scale_gap.y, scale_gap.z}) >
                1e-4f * std::max(1.0f, glm::length(a.scale))};
}

nlohmann::json transform_json(const anim::Transform& t) {
    return {{"translation", {t.translation.x, t.translation.y, t.translation.z}},
            {"rotation", {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w}},
            {"scale", {t.scale.x, t.scale.y, t.scale.z}}};
}

}  // namespace

glm::mat4 Importer::bind_space_to_model(const tinygltf::Skin& skin,
                                        const std::vector<glm::mat4>& binds,
                                        const glm::mat4& inverse_world) const {
    // Each joint's rest world × inverse bind matrix: the same matrix for every joint when the
    // file binds in its rest pose. The one most joints share.
    std::vector<glm::mat4> candidates;
    for (std::size_t j = 0; j < binds.size(); ++j)
        candidates.push_back(inverse_world * worlds[static_cast<std::size_t>(skin.joints[j])] *
                             glm::inverse(binds[j]));
    std::size_t best = 0, best_count = 0;
    const std::size_t tried = std::min<std::size_t>(candidates.size(), 64);
    for (std::size_t c = 0; c < tried; ++c) {
        std::size_t count = 0;
        for (const glm::mat4& other : candidates) count += same_matrix(candidates[c], other);
        if (count > best_count) {
            best = c;
            best_count = count;
        }
    }
    return candidates[best];
}

Importer::SkinNodes Importer::skin_nodes(const tinygltf::Skin& skin) const {
    // Walk up from every joint, marking each node once: the marked nodes are the union of the
    // joints' ancestor chains, visited in O(marked) however deep or wide the hierarchy is.
    const std::unordered_set<int> joints(skin.joints.begin(), skin.joints.end());
    std::unordered_map<int, int> marked_children;  // marked node → its marked children
    std::vector<int> marked, roots;
    for (int joint : skin.joints) {
        int below = -1;
        for (int n = joint;; n = parents[static_cast<std::size_t>(n)]) {
            const auto [entry, fresh] = marked_children.try_emplace(n, 0);
            if (below >= 0) ++entry->second;
            if (!fresh) break;
            marked.push_back(n);
            const int parent = parents[static_cast<std::size_t>(n)];
            if (parent < 0 || parent == up_node) {
                roots.push_back(n);
                break;
            }
            below = n;
        }
    }
    SkinNodes out;
    std::unordered_set<int> above;  // marked nodes above the lowest common ancestor
    if (roots.size() == 1) {
        // Down from the one root while a single marked branch goes on and no joint is met.
        int n = roots[0];
        while (!joints.contains(n) && marked_children[n] == 1) {
            above.insert(n);
            for (int child : gltf.nodes[static_cast<std::size_t>(n)].children)
                if (marked_children.contains(child)) {
                    n = child;
                    break;
                }
        }
        out.common = n;
        out.joint_on_top = joints.contains(n);
        above.insert(n);  // the ancestor itself is a joint (added as one) or the Model's node
    }
    for (int n : marked)
        if (!above.contains(n) && !joints.contains(n)) out.between.push_back(n);
    return out;
}

std::vector<std::uint8_t> Importer::moved_nodes() const {
    std::vector<std::uint8_t> moved(gltf.nodes.size(), 0);
    for (const tinygltf::Animation& animation : gltf.animations)
        for (const tinygltf::AnimationChannel& channel : animation.channels)
            if (channel.target_node >= 0 &&
                static_cast<std::size_t>(channel.target_node) < gltf.nodes.size() &&
                channel.target_path != "weights")
                moved[static_cast<std::size_t>(channel.target_node)] = 1;
    return moved;
}

std::size_t Importer::new_build(cast::Root& root, int key) {
    ModelBuild build;
    build.key = key;
    build.model = root.add_model();
    const glm::mat4 world = key >= 0 ? worlds[static_cast<std::size_t>(key)] : glm::mat4(1.0f);
    build.inverse_world = glm::inverse(world);
    if (key >= 0) {
        const tinygltf::Node& node = gltf.nodes[static_cast<std::size_t>(key)];
        build.model.set_name(node.name.empty() ? fmt::format("node{}", key) : node.name);
        if (world != glm::mat4(1.0f)) {
            const anim::Transform t = anim::decompose(world);
            build.model.set_position(t.translation);
            build.model.set_rotation(cast::xyzw_from_quat(t.rotation));
            build.model.set_scale(t.scale);
        }
    } else {
        build.model.set_name("scene");
    }
    builds.push_back(std::move(build));
    builds_of_key[key].push_back(builds.size() - 1);
    return builds.size() - 1;
}

std::size_t Importer::model_for(cast::Root& root, int key) {
    const auto& of_key = builds_of_key[key];
    return of_key.empty() ? new_build(root, key) : of_key.front();
}

const std::string& Importer::bone_name(int node) {
    if (auto found = bone_names.find(node); found != bone_names.end()) return found->second;
    const std::string& own = gltf.nodes[static_cast<std::size_t>(node)].name;
    const std::string base = own.empty() ? fmt::format("node{}", node) : own;
    std::string name = base;
    for (int n = 2; used_bone_names.contains(name); ++n) name = fmt::format("{}-{}", base, n);
    used_bone_names.insert(name);
    return bone_names[node] = name;
}

Expected<void> Importer::plan_skins(cast::Root& root) {
    const std::vector<std::uint8_t> animated = moved_nodes();
    // A skin is imported when a mesh node of the imported scene uses it.
    std::vector<std::uint8_t> used(gltf.skins.size(), 0);
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i)
        if (const int skin = gltf.nodes[i].skin; in_scene[i] && gltf.nodes[i].mesh >= 0 &&
                                                 skin >= 0 &&
                                                 static_cast<std::size_t>(skin) < gltf.skins.size())
            used[static_cast<std::size_t>(skin)] = 1;

    skin_build.assign(gltf.skins.size(), -1);
    skin_transforms.assign(gltf.skins.size(), glm::mat4(1.0f));
    for (std::size_t s = 0; s < gltf.skins.size(); ++s) {
        const tinygltf::Skin& skin = gltf.skins[s];
        const std::string at = fmt::format("/skins/{}", s);
        if (skin.joints.empty()) return fail(at + "/joints", "a skin needs at least one joint");
        for (std::size_t j = 0; j < skin.joints.size(); ++j)
            if (skin.joints[j] < 0 || static_cast<std::size_t>(skin.joints[j]) >= gltf.nodes.size())
                return fail(fmt::format("{}/joints/{}", at, j),
                            fmt::format("node {} does not exist", skin.joints[j]));
        if (!used[s]) continue;

        // Bind poses: the inverses of the inverse bind matrices (identity without them).
        std::vector<glm::mat4> binds(skin.joints.size(), glm::mat4(1.0f));
        if (skin.inverseBindMatrices >= 0) {
            auto read = read_floats(skin.inverseBindMatrices, 16, at + "/inverseBindMatrices");
            if (!read) return make_error(read.error());
            if (read->size() < skin.joints.size() * 16)
                return fail(at + "/inverseBindMatrices", "fewer inverse bind matrices than joints");
            for (std::size_t j = 0; j < binds.size(); ++j)
                binds[j] = glm::inverse(glm::make_mat4(read->data() + j * 16));
        }

        // The bones: every joint, every node between a joint and the joints' lowest common
        // ancestor, and the animated nodes above (moving a skeleton's parent moves the mesh).
        const SkinNodes nodes = skin_nodes(skin);
        std::vector<int> others = nodes.between;
        int key =
            nodes.joint_on_top ? parents[static_cast<std::size_t>(nodes.common)] : nodes.common;
        // Up to the topmost animated node above, every node between becomes a bone too.
        int topmost_animated = -1;
        for (int n = key; n >= 0 && n != up_node; n = parents[static_cast<std::size_t>(n)])
            if (animated[static_cast<std::size_t>(n)]) topmost_animated = n;
        if (topmost_animated >= 0)
            for (int n = key; n != parents[static_cast<std::size_t>(topmost_animated)];
                 n = parents[static_cast<std::size_t>(n)])
                others.push_back(n);
        if (topmost_animated >= 0) key = parents[static_cast<std::size_t>(topmost_animated)];
        if (key == up_node) key = -1;

        // The Model: one of this key whose shared joints have the same bind pose, else a new one.
        const glm::mat4 inverse_world =
            key >= 0 ? glm::inverse(worlds[static_cast<std::size_t>(key)]) : glm::mat4(1.0f);
        const glm::mat4 to_model = bind_space_to_model(skin, binds, inverse_world);
        skin_transforms[s] = to_model;
        auto agrees = [&](const ModelBuild& build) {
            for (std::size_t j = 0; j < skin.joints.size(); ++j)
                if (build.bind_of.contains(skin.joints[j]) &&
                    !same_matrix(build.rest_worlds.at(skin.joints[j]), to_model * binds[j]))
                    return false;
            return true;
        };
        std::size_t chosen = builds.size();
        for (std::size_t candidate : builds_of_key[key])
            if (agrees(builds[candidate])) {
                chosen = candidate;
                break;
            }
        if (chosen == builds.size()) chosen = new_build(root, key);
        ModelBuild& build = builds[chosen];
        skin_build[s] = static_cast<int>(chosen);
        for (std::size_t j = 0; j < skin.joints.size(); ++j) {
            const int joint = skin.joints[j];
            build.add_bone(joint);
            if (!build.bind_of.try_emplace(joint, static_cast<int>(s)).second) continue;
            build.rest_worlds[joint] = to_model * binds[j];
        }
        for (int node : others)
            if (build.add_bone(node))
                build.rest_worlds[node] = inverse_world * worlds[static_cast<std::size_t>(node)];
    }
    return {};
}

void Importer::plan_rigid_chains(cast::Root& root) {
    const std::vector<std::uint8_t> animated = moved_nodes();
    for (std::size_t i = 0; i < gltf.nodes.size(); ++i) {
        const tinygltf::Node& node = gltf.nodes[i];
        if (node.mesh < 0 || node.skin >= 0 || !in_scene[i]) continue;
        int top = -1, deep = -1;
        for (int n = static_cast<int>(i); n >= 0 && n != up_node;
             n = parents[static_cast<std::size_t>(n)])
            if (animated[static_cast<std::size_t>(n)]) {
                if (deep < 0) deep = n;
                top = n;
            }
        if (top < 0) continue;
        int key = parents[static_cast<std::size_t>(top)];
        if (key == up_node) key = -1;
        const std::size_t index = model_for(root, key);
        ModelBuild& build = builds[index];
        std::vector<int> chain;
        for (int n = deep; n != parents[static_cast<std::size_t>(top)];
             n = parents[static_cast<std::size_t>(n)])
            chain.push_back(n);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            if (build.add_bone(*it))
                build.rest_worlds[*it] =
                    build.inverse_world * worlds[static_cast<std::size_t>(*it)];
        rigid_bones[static_cast<int>(i)] = {index, deep};
    }
}

void Importer::add_bones() {
    // Per skin, how many of its joints rest elsewhere than they bind.
    std::vector<std::size_t> moved_joints(gltf.skins.size(), 0);
    for (ModelBuild& build : builds) {
        if (build.bone_nodes.empty()) continue;
        cast::Skeleton skeleton = build.model.add_skeleton();
        std::vector<cast::Bone> bones;
        for (int node : build.bone_nodes) {
            bones.push_back(skeleton.add_bone());
            bones.back().set_name(bone_name(node));
            bones.back().set_segment_scale_compensate(false);
        }
        for (std::size_t b = 0; b < bones.size(); ++b) {
            const int node = build.bone_nodes[b];
            const int parent = parents[static_cast<std::size_t>(node)];
            const auto parent_bone = build.bone_of.find(parent);
            const bool has_parent = parent_bone != build.bone_of.end();
            cast::Bone& bone = bones[b];
            bone.set_parent_index(has_parent ? static_cast<std::int32_t>(parent_bone->second) : -1);
            const glm::mat4 parent_rest = has_parent ? build.rest_worlds[parent] : glm::mat4(1.0f);
            const glm::mat4& rest_world = build.rest_worlds[node];
            // The glTF local: the node's own TRS when its parent is the Cast parent (always,
            // but for a root bone whose parent is not the Model's node).
            const anim::Transform node_local =
                has_parent || parent == build.key ||
                        (build.key < 0 && (parent < 0 || parent == up_node))
                    ? node_transform(gltf.nodes[static_cast<std::size_t>(node)],
                                     locals[static_cast<std::size_t>(node)])
                    : anim::decompose(build.inverse_world * worlds[static_cast<std::size_t>(node)]);
            anim::Transform local = anim::decompose(glm::inverse(parent_rest) * rest_world);
            const Differences differ = differences(local, node_local);
            if (!differ.any()) {
                local = node_local;  // the bind pose is the rest pose: keep the file's values
            } else {
                RestCurves& curves = rest_curves[node];
                curves.rest = node_local;
                curves.translation |= differ.translation;
                curves.rotation |= differ.rotation;
                curves.scale |= differ.scale;
                carried["rest"][std::to_string(bone.node().hash())] = transform_json(node_local);
                if (auto skin = build.bind_of.find(node); skin != build.bind_of.end())
                    ++moved_joints[static_cast<std::size_t>(skin->second)];
            }
            bone.set_local_position(local.translation);
            bone.set_local_rotation(cast::xyzw_from_quat(local.rotation));
            bone.set_scale(local.scale);
            const anim::Transform world = anim::decompose(rest_world);
            bone.set_world_position(world.translation);
            bone.set_world_rotation(cast::xyzw_from_quat(world.rotation));
        }
    }
    for (std::size_t s = 0; s < moved_joints.size(); ++s)
        if (moved_joints[s] > 0)
            warn(fmt::format("/skins/{}", s),
                 fmt::format("{} of {} joints have a bind pose other than their rest pose: the "
                             "Cast skeleton rests in the bind pose (so every animated pose is "
                             "exact), the rest pose is kept for glTF export and set by one-key "
                             "curves in each animation; a Cast viewer with no animation playing "
                             "(the Blender add-on) shows the bind pose",
                             moved_joints[s], gltf.skins[s].joints.size()),
                 "gltf.skin-bind-pose");
}

Expected<void> Importer::select_scene() {
    const std::size_t n = gltf.nodes.size();
    in_scene.assign(n, 1);
    if (gltf.scenes.size() <= 1) return {};
    const std::size_t chosen =
        gltf.defaultScene >= 0 && static_cast<std::size_t>(gltf.defaultScene) < gltf.scenes.size()
            ? static_cast<std::size_t>(gltf.defaultScene)
            : 0;
    // 1: reached from the chosen scene; 2: only from another scene.
    std::vector<std::uint8_t> reached(n, 0);
    for (std::size_t s = 0; s < gltf.scenes.size(); ++s) {
        const std::uint8_t mark = s == chosen ? 1 : 2;
        const std::vector<int>& roots = gltf.scenes[s].nodes;
        for (std::size_t r = 0; r < roots.size(); ++r) {
            if (roots[r] < 0 || static_cast<std::size_t>(roots[r]) >= n)
                return fail(fmt::format("/scenes/{}/nodes/{}", s, r),
                            fmt::format("node {} does not exist", roots[r]));
            std::vector<int> stack{roots[r]};
            while (!stack.empty()) {
                const auto at = static_cast<std::size_t>(stack.back());
                stack.pop_back();
                if (reached[at] == 1 || reached[at] == mark) continue;
                reached[at] = mark;
                for (int child : gltf.nodes[at].children) stack.push_back(child);
            }
        }
    }
    std::vector<std::string> dropped;
    for (std::size_t s = 0; s < gltf.scenes.size(); ++s)
        if (s != chosen)
            dropped.push_back(gltf.scenes[s].name.empty()
                                  ? fmt::format("{}", s)
                                  : fmt::format("{} '{}'", s, gltf.scenes[s].name));
    std::size_t left_out = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (reached[i] == 2) {
            in_scene[i] = 0;
            ++left_out;
        }
    // Scenes that list only nodes the default one has lose nothing.
    if (left_out == 0) return {};
    warn("/scenes",
         fmt::format("Cast holds one scene: the default scene {} was imported; {} node{} only in "
                     "the other scene{} ({}) were left out",
                     chosen, left_out, left_out == 1 ? "" : "s", dropped.size() == 1 ? "" : "s",
                     fmt::join(dropped, ", ")),
         "gltf.scene-dropped");
    return {};
}

}  // namespace castkit::gltf::detail
