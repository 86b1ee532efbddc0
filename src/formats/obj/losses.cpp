// What OBJ cannot hold, named: every kind dropped is a warning of its own id (docs/obj.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "shared.hpp"

namespace castkit::obj {
namespace {

struct Losses {
    const Source& source;
    Diagnostics& diagnostics;

    void warn(std::string path, std::string_view rule, std::string message) const {
        diagnostics.push_back(warning(source.name, std::move(path), rule, std::move(message)));
    }

    void model(const cast::ConstModel& model, const std::string& path) const {
        if (cast::ConstSkeleton skeleton = model.skeleton()) {
            if (const std::size_t bones = skeleton.bones().size(); bones > 0)
                warn(path + "/skeleton", "obj.skin-dropped",
                     fmt::format("the skeleton of {} bones and the meshes' weights were dropped: "
                                 "OBJ holds no skin (the meshes are written in their bind pose)",
                                 bones));
            if (const std::size_t handles = skeleton.ik_handles().size(); handles > 0)
                warn(path + "/skeleton", "obj.ik-dropped",
                     fmt::format("{} IK handles were dropped: OBJ holds no rig", handles));
            if (const std::size_t constraints = skeleton.constraints().size(); constraints > 0)
                warn(path + "/skeleton", "obj.constraint-dropped",
                     fmt::format("{} constraints were dropped: OBJ holds no rig", constraints));
        }
        if (const std::size_t shapes = model.blend_shapes().size(); shapes > 0)
            warn(path, "obj.blend-shape-dropped",
                 fmt::format("{} blend shapes were dropped: OBJ holds no morph targets (the base "
                             "shapes are written)",
                             shapes));
        if (const std::size_t hairs = model.hairs().size(); hairs > 0)
            warn(path, "obj.hair-dropped",
                 fmt::format("{} hair nodes were dropped: OBJ holds no strands", hairs));
        const std::vector<cast::ConstMesh> meshes = model.meshes();
        for (std::size_t m = 0; m < meshes.size(); ++m)
            mesh(meshes[m], fmt::format("{}/mesh[{}]", path, m));
    }

    void mesh(const cast::ConstMesh& mesh, const std::string& path) const {
        std::vector<std::string> dropped;
        if (const std::uint32_t uvs = mesh.uv_layer_count(); uvs > 1)
            dropped.push_back(fmt::format("UV layers 1 to {}", uvs - 1));
        if (const std::uint32_t colours = mesh.color_layer_count(); colours > 0)
            dropped.push_back(fmt::format("{} colour layers", colours));
        if (!mesh.tangents().empty()) dropped.emplace_back("the tangents");
        if (!dropped.empty())
            warn(path, "obj.layer-dropped",
                 fmt::format("{} were dropped: OBJ holds positions, one UV layer and normals",
                             fmt::join(dropped, ", ")));
        if (const std::size_t loose = loose_vertices(mesh); loose > 0)
            warn(path, "obj.loose-vertices",
                 fmt::format("{} of the {} vertices are in no triangle: they are written, but "
                             "OBJ importers (Blender's) make no vertex of them",
                             loose, mesh.vertex_count()));
    }

    // The vertices no triangle names. O(vertices + faces).
    static std::size_t loose_vertices(const cast::ConstMesh& mesh) {
        std::vector<bool> used(mesh.vertex_count(), false);
        const cast::IndexView faces = mesh.faces();
        for (std::size_t i = 0; i < faces.size(); ++i)
            if (faces[i] < used.size()) used[faces[i]] = true;
        return static_cast<std::size_t>(std::count(used.begin(), used.end(), false));
    }
};

}  // namespace

void warn_losses(const Source& source, Diagnostics& diagnostics) {
    const Losses losses{source, diagnostics};
    const std::vector<cast::ConstRoot> roots = source.document->root_nodes();
    for (std::size_t r = 0; r < roots.size(); ++r) {
        const std::vector<cast::ConstModel> models = roots[r].models();
        for (std::size_t m = 0; m < models.size(); ++m)
            losses.model(models[m], fmt::format("root[{}]/model[{}]", r, m));
        const std::vector<cast::ConstAnimation> animations = roots[r].animations();
        if (!animations.empty())
            losses.warn(fmt::format("root[{}]/animation[0]", r), "obj.animation-dropped",
                        fmt::format("{} animations were dropped: OBJ is static (the models are "
                                    "written at rest)",
                                    animations.size()));
    }
}

}  // namespace castkit::obj
