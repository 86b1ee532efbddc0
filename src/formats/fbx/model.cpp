// Cast Models as FBX: a Null per Model, a LimbNode per bone under it (with its NodeAttribute), a
// Mesh Model per Cast Mesh, the bind pose, and each skinned mesh's Skin with a Cluster per bone.
#include <fmt/format.h>

#include <castkit/anim/local_to_world_job.hpp>

#include "scene.hpp"

namespace castkit::fbx::detail {
namespace {

anim::Transform model_transform(const cast::ConstModel& model) {
    anim::Transform transform;
    transform.translation = model.position().value_or(glm::vec3(0.0f));
    transform.rotation =
        glm::normalize(cast::quat_from_xyzw(model.rotation().value_or(glm::vec4(0, 0, 0, 1))));
    transform.scale = model.scale().value_or(glm::vec3(1.0f));
    return transform;
}

}  // namespace

void fill_model(Record& record, const anim::Transform& local) {
    const LocalTransform lcl = local_transform(local);
    record.add("Version", {std::int32_t{232}});
    Properties p;
    p.vector("Lcl Translation", "Lcl Translation", lcl.translation, "A")
        .vector("Lcl Rotation", "Lcl Rotation", lcl.rotation, "A")
        .vector("Lcl Scaling", "Lcl Scaling", lcl.scaling, "A")
        .enumeration("InheritType", 1);  // RrSs: the parent's scale passes to the child
    record.children.push_back(p.take());
    record.add("Shading", {true});
    record.add("Culling", {std::string("CullingOff")});
}

namespace {

// Whether any bone compensates a parent scale other than 1 at rest, which FBX's inheritance
// does not (InheritType RrSs scales the child).
bool compensates_scale(const anim::Skeleton& skeleton) {
    for (std::size_t bone = 0; bone < skeleton.bone_count(); ++bone) {
        const std::int32_t parent = skeleton.parents()[bone];
        if (parent >= 0 && skeleton.segment_scale_compensate()[bone] &&
            skeleton.rest()[static_cast<std::size_t>(parent)].scale != glm::vec3(1.0f))
            return true;
    }
    return false;
}

}  // namespace

void Scene::write_skeleton(WrittenModel& written, const cast::ConstSkeleton& skeleton,
                           const std::string& path) {
    Diagnostics reports;
    auto built = anim::build_skeleton(skeleton, reports);
    for (const Diagnostic& report : reports) warnings.push_back(report);
    if (!built) {
        warn(path + "/skeleton", fmt::format("skeleton not written: {}", built.error().message),
             "fbx.skeleton");
        return;
    }
    written.skeleton = std::move(*built);
    const anim::Skeleton& bones = written.skeleton;
    written.bones.assign(bones.bone_count(), 0);
    for (std::uint32_t bone : bones.order()) {
        const std::string& name = bones.names()[bone];
        const std::int64_t id = add_object("Model", name, "Model", "LimbNode");
        fill_model(object(), bones.rest()[bone]);
        const std::int64_t attribute =
            add_object("NodeAttribute", name, "NodeAttribute", "LimbNode");
        object().add("TypeFlags", {std::string("Skeleton")});
        connect(attribute, id);
        const std::int32_t up = bones.parents()[bone];
        connect(id, up < 0 ? written.node : written.bones[static_cast<std::size_t>(up)]);
        written.bones[bone] = id;
    }
    if (compensates_scale(bones))
        warn(path + "/skeleton",
             "segment scale compensation under a parent scale other than 1 has no FBX "
             "equivalent: the children were written scaled by their parents",
             "fbx.scale-compensation");
    if (!skeleton.ik_handles().empty() || !skeleton.constraints().empty())
        warn(path + "/skeleton",
             options.solve_rig ? "IK handles and constraints have no FBX equivalent: the "
                                 "animations carry their solved motion, the handles themselves "
                                 "were dropped"
                               : "IK handles and constraints have no FBX equivalent and were "
                                 "dropped (--no-rig: the animations carry the curves alone)",
             "fbx.rig");
}

void Scene::write_bind_pose(const WrittenModel& written, const std::vector<std::int64_t>& meshes,
                            const glm::mat4& model_world) {
    const std::string name(written.model.name().value_or("model"));
    add_object("Pose", name, "Pose", "BindPose");
    Record& pose = object();
    pose.add("Type", {std::string("BindPose")});
    pose.add("Version", {std::int32_t{100}});
    pose.add("NbPoseNodes", {static_cast<std::int32_t>(1 + meshes.size() + written.bones.size())});
    const auto node = [&pose](std::int64_t id, const glm::mat4& world) {
        Record& entry = pose.add("PoseNode");
        entry.add("Node", {id});
        entry.add("Matrix", {matrix_values(world)});
    };
    node(written.node, model_world);
    for (std::int64_t mesh : meshes) node(mesh, model_world);
    for (std::size_t bone = 0; bone < written.bones.size(); ++bone)
        node(written.bones[bone], model_world * written.skeleton.rest_worlds()[bone]);
}

void Scene::write_skin(const cast::ConstMesh& mesh, std::int64_t geometry,
                       const WrittenModel& written, const glm::mat4& mesh_world,
                       const std::string& path) {
    const std::size_t vertices = mesh.vertex_count();
    const std::size_t influences = mesh.max_weight_influence();
    const cast::IndexView bones = mesh.weight_bones();
    const auto values = mesh.weight_values();
    if (bones.size() < vertices * influences || values.size() < vertices * influences) {
        warn(path,
             "the weight buffers are shorter than the vertices need: the mesh was written "
             "without its skin",
             "fbx.skin");
        return;
    }
    const std::size_t bone_count = written.bones.size();
    // Per bone, its vertices and their weights; a bone named twice for a vertex adds up.
    std::vector<std::vector<std::int32_t>> indexes(bone_count);
    std::vector<std::vector<double>> weights(bone_count);
    std::size_t unknown = 0;
    for (std::size_t v = 0; v < vertices; ++v)
        for (std::size_t k = 0; k < influences; ++k) {
            const std::uint32_t bone = bones[v * influences + k];
            const float weight = values[v * influences + k];
            if (weight == 0.0f) continue;
            if (bone >= bone_count) {
                ++unknown;
                continue;
            }
            auto& list = indexes[bone];
            if (!list.empty() && list.back() == static_cast<std::int32_t>(v)) {
                weights[bone].back() += weight;
                continue;
            }
            list.push_back(static_cast<std::int32_t>(v));
            weights[bone].push_back(weight);
        }
    if (unknown > 0)
        warn(path,
             fmt::format("{} weights name a bone the skeleton lacks and were dropped", unknown),
             "fbx.skin");
    if (!keep_bytes(vertices * influences * 12 + bone_count * 300, path, "the skin's clusters"))
        return;
    const std::string name(mesh.name().value_or("mesh"));
    const std::int64_t skin = add_object("Deformer", name, "Deformer", "Skin");
    object().add("Version", {std::int32_t{101}});
    object().add("Link_DeformAcuracy", {50.0});
    connect(skin, geometry);
    for (std::size_t bone = 0; bone < bone_count; ++bone) {
        // A cluster for every bone, weighted or not: importers take the bind pose from it.
        const std::int64_t cluster =
            add_object("Deformer", written.skeleton.names()[bone], "SubDeformer", "Cluster");
        Record& record = object();
        record.add("Version", {std::int32_t{100}});
        record.add("UserData", {std::string(), std::string()});
        if (!indexes[bone].empty()) {
            record.add("Indexes", {std::move(indexes[bone])});
            record.add("Weights", {std::move(weights[bone])});
        }
        const glm::mat4 bone_world = mesh_world * written.skeleton.rest_worlds()[bone];
        // Transform is the mesh in the bone's space at bind time, as Blender's exporter writes
        // it; TransformLink the bone's world matrix then.
        record.add("Transform", {matrix_values(glm::inverse(bone_world) * mesh_world)});
        record.add("TransformLink", {matrix_values(bone_world)});
        connect(cluster, skin);
        connect(written.bones[bone], cluster);
    }
}

bool Scene::write_animation_skeleton(const cast::ConstAnimation& animation,
                                     const std::string& path) {
    cast::ConstSkeleton skeleton = animation.skeleton();
    // Once per skeleton: a stack its own bones do not take is dropped, not tried again.
    if (!skeleton || skeleton.bones().empty() ||
        !animation_skeletons_.insert(&skeleton.node()).second)
        return false;
    WrittenModel written;
    written.node =
        add_object("Model", fmt::format("{} skeleton", animation.name().value_or("animation")),
                   "Model", "Null");
    fill_model(object(), anim::Transform{});
    connect(written.node, 0);
    write_skeleton(written, skeleton, path);
    if (written.bones.empty()) return false;
    models.push_back(std::move(written));
    return true;
}

void Scene::write_model(const cast::ConstModel& model, const std::string& path) {
    if (failure) return;
    WrittenModel written;
    written.model = model;
    const glm::mat4 model_world = anim::to_matrix(model_transform(model));
    const std::string name(model.name().value_or("model"));
    written.node = add_object("Model", name, "Model", "Null");
    fill_model(object(), anim::decompose(model_world));
    connect(written.node, 0);
    if (model.skeleton()) write_skeleton(written, model.skeleton(), path);
    if (!model.hairs().empty())
        warn(path,
             fmt::format("{} hairs have no FBX equivalent and were dropped", model.hairs().size()),
             "fbx.hair");
    std::vector<std::int64_t> skinned;
    const auto meshes = model.meshes();
    for (std::size_t i = 0; i < meshes.size(); ++i) {
        const std::string mesh_path = fmt::format("{}/mesh[{}]", path, i);
        const std::string mesh_name(meshes[i].name().value_or(fmt::format("mesh{}", i)));
        const std::int64_t mesh_model = add_object("Model", mesh_name, "Model", "Mesh");
        fill_model(object(), anim::Transform{});
        const std::int64_t geometry =
            write_geometry(model, meshes[i], written, model_world, mesh_path);
        if (geometry == 0) {
            // The Model stays (its name kept), without a mesh to show.
            connect(mesh_model, written.node);
            continue;
        }
        connect(geometry, mesh_model);
        connect(mesh_model, written.node);
        if (cast::ConstMaterial material = meshes[i].material())
            connect(write_material(material, fmt::format("{}/material", mesh_path)), mesh_model);
        if (meshes[i].max_weight_influence() > 0 && !written.bones.empty())
            skinned.push_back(mesh_model);
    }
    if (!written.bones.empty()) write_bind_pose(written, skinned, model_world);
    models.push_back(std::move(written));
}

}  // namespace castkit::fbx::detail
