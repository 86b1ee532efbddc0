// The OBJ text: the MTL beside it first (its name goes in `mtllib`), then every placed mesh's
// positions, UVs, normals and triangles, streamed through the sink.
#include <fmt/format.h>

#include <castkit/formats/obj.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <optional>

#include "io/side_outputs.hpp"
#include "shared.hpp"

namespace castkit::obj {
namespace {

namespace fs = std::filesystem;

// The longest text of one line: a float's shortest text takes at most 15 characters
// ("-1.17549435e-38").
constexpr std::uint64_t kFloatText = 16;  // with its separator
constexpr std::uint64_t kVertexLine = 2 + 3 * kFloatText;
constexpr std::uint64_t kUvLine = 3 + 2 * kFloatText;
constexpr std::uint64_t kNormalLine = 3 + 3 * kFloatText;

// The decimal digits of `v`. O(digits).
std::uint64_t digits(std::uint64_t v) {
    std::uint64_t count = 1;
    for (; v >= 10; v /= 10) ++count;
    return count;
}

// The object and group names of mesh `m` of `placement`'s model.
struct MeshNames {
    std::string object;
    std::string group;
};
MeshNames names_of(const Placement& placement, const cast::ConstMesh& mesh, std::size_t m,
                   std::size_t meshes) {
    const std::string own = token(mesh.name().value_or(""), "");
    const std::string numbered = fmt::format("{}_{}", placement.object, m);
    const std::string group = own.empty() ? numbered : own;
    if (!placement.instanced) return {group, group};
    return {meshes == 1
                ? placement.object
                : fmt::format("{}_{}", placement.object, own.empty() ? std::to_string(m) : own),
            group};
}

// What one mesh of a placement writes, the buffers OBJ takes read once.
struct MeshBuffers {
    cast::ArrayView<glm::vec3> positions;
    cast::ArrayView<glm::vec2> uvs;      // empty unless one per vertex
    cast::ArrayView<glm::vec3> normals;  // empty unless one per vertex
    cast::IndexView faces;

    explicit MeshBuffers(const cast::ConstMesh& mesh)
        : positions(mesh.positions()), faces(mesh.faces()) {
        if (mesh.uv_layer_count() > 0 && mesh.uv_layer(0).size() == positions.size())
            uvs = mesh.uv_layer(0);
        if (mesh.normals().size() == positions.size()) normals = mesh.normals();
    }
};

// Running totals of what the file holds so far: OBJ indices count from 1 over the whole file.
struct Counts {
    std::uint64_t positions = 0;
    std::uint64_t uvs = 0;
    std::uint64_t normals = 0;
};

// The longest text the placements can take, names included. O(meshes).
std::uint64_t text_bound(const Scene& scene) {
    std::uint64_t bound = 0;
    Counts counts;
    for (const Placement& placement : scene.placements) {
        const std::vector<cast::ConstMesh> meshes = placement.model.meshes();
        for (std::size_t m = 0; m < meshes.size(); ++m) {
            const MeshBuffers buffers(meshes[m]);
            const MeshNames names = names_of(placement, meshes[m], m, meshes.size());
            counts.positions += buffers.positions.size();
            counts.uvs += buffers.uvs.size();
            counts.normals += buffers.normals.size();
            const std::uint64_t corner = 3 + 3 * digits(counts.positions);
            bound += buffers.positions.size() * kVertexLine + buffers.uvs.size() * kUvLine +
                     buffers.normals.size() * kNormalLine +
                     buffers.faces.size() / 3 * (2 + 3 * corner) + names.object.size() +
                     names.group.size() + 64;
        }
    }
    return bound;
}

struct GeometryWriter {
    TextWriter& out;
    const MaterialNames& materials;
    Counts counts;

    void vector(std::string_view tag, const glm::vec3& v) {
        out.text(tag);
        out.number(v.x);
        out.text(" ");
        out.number(v.y);
        out.text(" ");
        out.number(v.z);
        out.text("\n");
    }

    void mesh(const Placement& placement, const cast::ConstMesh& mesh, const MeshNames& names) {
        const MeshBuffers buffers(mesh);
        out.text(fmt::format("o {}\n", names.object));
        const glm::mat3 turn = glm::transpose(glm::inverse(glm::mat3(placement.matrix)));
        for (std::size_t i = 0; i < buffers.positions.size(); ++i) {
            const glm::vec3 p = buffers.positions[i];
            vector("v ", placement.identity ? p : glm::vec3(placement.matrix * glm::vec4(p, 1.0f)));
        }
        for (std::size_t i = 0; i < buffers.uvs.size(); ++i) {
            const glm::vec2 uv = buffers.uvs[i];
            out.text("vt ");
            out.number(uv.x);
            out.text(" ");
            out.number(1.0f - uv.y);  // Cast's V runs down from the top, OBJ's up (rule 16)
            out.text("\n");
        }
        for (std::size_t i = 0; i < buffers.normals.size(); ++i) {
            const glm::vec3 n = buffers.normals[i];
            const glm::vec3 turned = turn * n;
            const float length = glm::length(turned);
            vector("vn ", placement.identity || !(length > 0.0f) ? n : turned / length);
        }
        out.text(fmt::format("g {}\n", names.group));
        if (const cast::ConstMaterial material = mesh.material())
            if (auto named = materials.find(&material.node()); named != materials.end())
                out.text(fmt::format("usemtl {}\n", named->second));
        faces(buffers);
        counts.positions += buffers.positions.size();
        counts.uvs += buffers.uvs.size();
        counts.normals += buffers.normals.size();
    }

    // `f v/vt/vn` (v/vt, v//vn or v, for what the mesh has) per triangle, counter-clockwise in
    // both formats (rule 17).
    void faces(const MeshBuffers& buffers) {
        const bool uvs = !buffers.uvs.empty();
        const bool normals = !buffers.normals.empty();
        for (std::size_t f = 0; f + 2 < buffers.faces.size(); f += 3) {
            out.text("f");
            for (std::size_t c = 0; c < 3; ++c) {
                const std::uint64_t index = buffers.faces[f + c];
                out.text(" ");
                out.integer(counts.positions + index + 1);
                if (!uvs && !normals) continue;
                out.text("/");
                if (uvs) out.integer(counts.uvs + index + 1);
                if (!normals) continue;
                out.text("/");
                out.integer(counts.normals + index + 1);
            }
            out.text("\n");
        }
    }
};

// The MTL written beside `output` through the run's side outputs; the name `mtllib` gives, or
// empty when there is none (no material drawn, or nowhere to put it).
Expected<std::string> write_library(const Scene& scene, MaterialNames& names,
                                    const fs::path& output, const WriteContext& context,
                                    Diagnostics& diagnostics) {
    const std::shared_ptr<SideOutputs> outputs = formats::side_outputs_for(context.options);
    // The instance files' images go through the MTL's side outputs, so neither takes the
    // other's name; standard output has no folder to place them in (nor an MTL to name them).
    WriteContext placing = context;
    placing.options.side_outputs = outputs;
    const cast::EmbeddedFiles none;  // an instance file read from disk carries no image
    std::optional<formats::TexturePlacement> placement;
    if (!output.empty()) placement.emplace(none, output, placing, diagnostics);
    const std::string text = material_library(
        scene.placements, names, placement ? &*placement : nullptr, placing, diagnostics);
    if (text.empty()) return std::string();
    if (output.empty()) {
        names.clear();
        diagnostics.push_back(warning(context.name, "/", "obj.mtl-not-written",
                                      "the output is no file, so no MTL was written beside it: "
                                      "the materials and textures are dropped"));
        return std::string();
    }
    const fs::path wanted = fs::path(output).replace_extension(".mtl");
    auto written = outputs->write(wanted, std::as_bytes(std::span(text)));
    if (!written) return make_error(written.error());
    if (written->renamed)
        diagnostics.push_back(
            warning(context.name, "/", "obj.mtl-renamed",
                    formats::renamed_message("the material library", wanted, *written)));
    return written->path.filename().generic_string();
}

}  // namespace

Expected<void> write(const cast::Document& document, Sink& sink, const WriteContext& context,
                     Diagnostics& diagnostics) {
    auto scene = place(document, context, diagnostics);
    if (!scene) return make_error(scene.error());
    const std::uint64_t bound = text_bound(*scene);
    const std::uint64_t budget = kBudgetFloor + kBudgetPerByteRead * scene->bytes_read;
    if (bound > budget)
        return make_error(Diagnostic{
            Severity::Error, context.name, Diagnostic::kNoOffset, "/", "obj.map-budget",
            fmt::format("the OBJ would take up to {} bytes, more than its budget of {} bytes "
                        "({} MiB plus {} per byte of the {} bytes of files read): place fewer "
                        "instances (convert --within, --box, --include, --exclude)",
                        bound, budget, kBudgetFloor >> 20, kBudgetPerByteRead, scene->bytes_read)});
    MaterialNames materials;
    auto library = write_library(*scene, materials, sink.file(), context, diagnostics);
    if (!library) return make_error(library.error());
    TextWriter out(sink);
    if (!library->empty()) out.text(fmt::format("mtllib {}\n", *library));
    GeometryWriter geometry{out, materials, {}};
    for (const Placement& placement : scene->placements) {
        const std::vector<cast::ConstMesh> meshes = placement.model.meshes();
        for (std::size_t m = 0; m < meshes.size(); ++m)
            geometry.mesh(placement, meshes[m], names_of(placement, meshes[m], m, meshes.size()));
    }
    return out.finish();
}

}  // namespace castkit::obj
