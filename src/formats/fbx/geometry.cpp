// Cast Meshes as FBX Geometry (vertices, triangles, per-vertex normals, tangents, UV and colour
// layers, one material), their blend shapes as a BlendShape deformer, and materials as Phong
// Materials with their Textures and Videos.
#include <fmt/format.h>

#include <array>
#include <filesystem>

#include "io/side_files.hpp"
#include "scene.hpp"

namespace castkit::fbx::detail {
namespace {

// A LayerElement of per-vertex values, as Blender, Assimp and the FBX SDK read them.
Record& add_layer_element(Record& geometry, std::string element, std::int32_t index,
                          std::string name) {
    Record& layer = geometry.add(std::move(element), {index});
    layer.add("Version", {std::int32_t{101}});
    layer.add("Name", {std::move(name)});
    layer.add("MappingInformationType", {std::string("ByVertice")});
    layer.add("ReferenceInformationType", {std::string("Direct")});
    return layer;
}

std::vector<double> flatten(const cast::ArrayView<glm::vec3>& values) {
    std::vector<double> out;
    out.reserve(values.size() * 3);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const glm::vec3 v = values[i];
        out.insert(out.end(), {v.x, v.y, v.z});
    }
    return out;
}

// The Layer records that list each LayerElement by type and index.
void add_layers(Record& geometry) {
    std::map<std::int32_t, std::vector<std::pair<std::string, std::int32_t>>> by_layer;
    for (const Record& child : geometry.children)
        if (child.name.starts_with("LayerElement")) {
            const std::int32_t index = std::get<std::int32_t>(child.properties[0]);
            // The material's one index belongs in every layer's first.
            by_layer[index].emplace_back(child.name, index);
        }
    for (const auto& [index, elements] : by_layer) {
        Record& layer = geometry.add("Layer", {index});
        layer.add("Version", {std::int32_t{100}});
        for (const auto& [type, typed_index] : elements) {
            Record& element = layer.add("LayerElement");
            element.add("Type", {type});
            element.add("TypedIndex", {typed_index});
        }
    }
}

// The FBX material property a Cast slot's texture goes to; empty for a slot FBX has none for.
std::string texture_property(std::string_view slot) {
    if (slot == "albedo" || slot == "diffuse") return "DiffuseColor";
    if (slot == "normal") return "NormalMap";
    if (slot == "specular") return "SpecularColor";
    if (slot == "emissive") return "EmissiveColor";
    if (slot == "ao") return "AmbientColor";
    if (slot == "gloss" || slot == "roughness") return "ShininessExponent";
    return {};
}

}  // namespace

std::int64_t Scene::write_geometry(const cast::ConstModel& model, const cast::ConstMesh& mesh,
                                   WrittenModel& written, const glm::mat4& mesh_world,
                                   const std::string& path) {
    const std::size_t count = mesh.vertex_count();
    const cast::IndexView faces = mesh.faces();
    if (faces.size() > 0 && faces.largest() >= count) {
        warn(path, "a face names a vertex the mesh does not have: the mesh was dropped",
             "fbx.mesh");
        return 0;
    }
    const std::uint32_t uv_layers = mesh.uv_layer_count();
    const std::uint32_t color_layers = mesh.color_layer_count();
    const std::uint64_t size =
        count * 8 * (3 + 3 + 3 + 2 * uv_layers + 4 * color_layers) + faces.size() * 4;
    if (!keep_bytes(size, path, fmt::format("the mesh's {} vertices", count))) return 0;

    const std::string name(mesh.name().value_or("mesh"));
    const std::int64_t id = add_object("Geometry", name, "Geometry", "Mesh");
    Record& geometry = object();
    geometry.add("GeometryVersion", {std::int32_t{124}});
    geometry.add("Vertices", {flatten(mesh.positions())});
    std::vector<std::int32_t> polygons;
    polygons.reserve(faces.size());
    for (std::size_t i = 0; i < faces.size(); ++i) {
        const auto index = static_cast<std::int32_t>(faces[i]);
        // The last index of each polygon is stored as −index − 1.
        polygons.push_back(i % 3 == 2 ? -index - 1 : index);
    }
    geometry.add("PolygonVertexIndex", {std::move(polygons)});

    if (const auto normals = mesh.normals(); normals.size() == count && count > 0)
        add_layer_element(geometry, "LayerElementNormal", 0, "").add("Normals", {flatten(normals)});
    else if (!normals.empty())
        warn(path, "the normals are not one per vertex and were dropped", "fbx.mesh");
    if (const auto tangents = mesh.tangents(); tangents.size() == count && count > 0)
        add_layer_element(geometry, "LayerElementTangent", 0, "")
            .add("Tangents", {flatten(tangents)});
    for (std::uint32_t layer = 0; layer < uv_layers; ++layer) {
        const auto uvs = mesh.uv_layer(layer);
        if (uvs.size() != count) {
            warn(path, fmt::format("UV layer {} is not one per vertex and was dropped", layer),
                 "fbx.mesh");
            continue;
        }
        std::vector<double> values;
        values.reserve(count * 2);
        // Cast's V runs down the image, FBX's up it.
        for (std::size_t i = 0; i < count; ++i)
            values.insert(values.end(), {uvs[i].x, 1.0 - uvs[i].y});
        add_layer_element(geometry, "LayerElementUV", static_cast<std::int32_t>(layer),
                          fmt::format("map{}", layer + 1))
            .add("UV", {std::move(values)});
    }
    for (std::uint32_t layer = 0; layer < color_layers; ++layer) {
        const std::vector<glm::vec4> colors = mesh.color_layer(layer);
        if (colors.size() != count) {
            warn(path, fmt::format("colour layer {} is not one per vertex and was dropped", layer),
                 "fbx.mesh");
            continue;
        }
        std::vector<double> values;
        values.reserve(count * 4);
        for (const glm::vec4& c : colors) values.insert(values.end(), {c.r, c.g, c.b, c.a});
        add_layer_element(geometry, "LayerElementColor", static_cast<std::int32_t>(layer),
                          fmt::format("color{}", layer + 1))
            .add("Colors", {std::move(values)});
    }
    if (mesh.material()) {
        Record& material = geometry.add("LayerElementMaterial", {std::int32_t{0}});
        material.add("Version", {std::int32_t{101}});
        material.add("Name", {std::string()});
        material.add("MappingInformationType", {std::string("AllSame")});
        material.add("ReferenceInformationType", {std::string("IndexToDirect")});
        material.add("Materials", {std::vector<std::int32_t>{0}});
    }
    add_layers(geometry);
    if (mesh.max_weight_influence() > 0 && !written.bones.empty())
        write_skin(mesh, id, written, mesh_world, path);
    write_blend_shapes(model, mesh, id, written, path);
    return id;
}

void Scene::write_blend_shapes(const cast::ConstModel& model, const cast::ConstMesh& mesh,
                               std::int64_t geometry, WrittenModel& written,
                               const std::string& path) {
    std::int64_t deformer = 0;
    const auto base = mesh.positions();
    for (const cast::ConstBlendShape& shape : model.blend_shapes()) {
        if (shape.base_shape_hash() != mesh.hash()) continue;
        const std::string name(shape.name().value_or("shape"));
        const cast::IndexView indices = shape.vertex_indices();
        const auto targets = shape.vertex_positions();
        const std::size_t count = std::min(indices.size(), targets.size());
        if (indices.size() != targets.size())
            warn(path,
                 fmt::format("blend shape '{}': vi and vp differ in length; the extra entries "
                             "were ignored",
                             name),
                 "fbx.blend-shape");
        if (shape.target_weight_scale() != 1.0f)
            warn(path,
                 fmt::format("blend shape '{}': target weight scale {} has no FBX equivalent", name,
                             shape.target_weight_scale()),
                 "fbx.blend-shape");
        std::vector<std::int32_t> shape_indexes;
        std::vector<double> deltas;
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint32_t vertex = indices[i];
            if (vertex >= base.size()) continue;
            shape_indexes.push_back(static_cast<std::int32_t>(vertex));
            const glm::vec3 delta = targets[i] - base[vertex];
            deltas.insert(deltas.end(), {delta.x, delta.y, delta.z});
        }
        if (!keep_bytes(deltas.size() * 16 + shape_indexes.size() * 4, path, "the blend shapes"))
            return;
        if (deformer == 0) {
            deformer = add_object("Deformer", std::string(mesh.name().value_or("mesh")), "Deformer",
                                  "BlendShape");
            object().add("Version", {std::int32_t{100}});
            connect(deformer, geometry);
        }
        const std::int64_t channel =
            add_object("Deformer", name, "SubDeformer", "BlendShapeChannel");
        object().add("Version", {std::int32_t{100}});
        object().add("DeformPercent", {0.0});
        object().add("FullWeights", {std::vector<double>{100.0}});
        Properties p;
        p.number("DeformPercent", 0.0, "A");
        object().children.push_back(p.take());
        connect(channel, deformer);
        const std::int64_t target = add_object("Geometry", name, "Geometry", "Shape");
        object().add("Version", {std::int32_t{100}});
        const std::size_t written_count = shape_indexes.size();
        object().add("Indexes", {std::move(shape_indexes)});
        object().add("Vertices", {std::move(deltas)});
        object().add("Normals", {std::vector<double>(written_count * 3, 0.0)});
        connect(target, channel);
        written.shape_channels[name].push_back(channel);
    }
}

void Scene::embed_content(Record& video, const std::string& named, const std::string& where) {
    if (!images.embed) return;
    Expected<cast::SharedBytes> bytes =
        formats::image_bytes(*images.carried, named, *images.context);
    if (!bytes) {
        warn(where,
             fmt::format("texture '{}' could not be embedded ({}); the file names it", named,
                         bytes.error().message),
             "texture.not-found");
        return;
    }
    if (!keep_bytes(bytes->size(), where, "the embedded images")) return;
    video.add("Content", {Raw{{bytes->begin(), bytes->end()}}});
}

std::int64_t Scene::write_texture(const std::string& named, std::string_view name,
                                  const std::string& where) {
    const std::string file_name = images.placement ? images.placement->place(named, where) : named;
    auto video = videos_.find(file_name);
    if (video == videos_.end()) {
        const std::int64_t id = add_object("Video", name, "Video", "Clip");
        Record& record = object();
        record.add("Type", {std::string("Clip")});
        Properties p;
        p.text("Path", file_name, "XRefUrl");
        record.children.push_back(p.take());
        record.add("UseMipMap", {std::int32_t{0}});
        record.add("Filename", {file_name});
        record.add("RelativeFilename", {file_name});
        embed_content(record, file_name, where);
        video = videos_.emplace(file_name, id).first;
    }
    const std::int64_t id = add_object("Texture", name, "Texture", "");
    Record& record = object();
    record.add("Type", {std::string("TextureVideoClip")});
    record.add("Version", {std::int32_t{202}});
    std::string full(name);
    record.add("TextureName", {full.append("\x00\x01Texture", 9)});
    Properties p;
    p.flag("UseMaterial", true);
    record.children.push_back(p.take());
    std::string media(name);
    record.add("Media", {media.append("\x00\x01Video", 7)});
    record.add("FileName", {file_name});
    record.add("RelativeFilename", {file_name});
    connect(video->second, id);
    return id;
}

std::int64_t Scene::write_material(const cast::ConstMaterial& material, const std::string& path) {
    if (auto found = materials_.find(&material.node()); found != materials_.end())
        return found->second;
    const std::string name(material.name().value_or("material"));
    const std::int64_t id = add_object("Material", name, "Material", "");
    materials_.emplace(&material.node(), id);
    glm::dvec3 diffuse(0.8);
    std::vector<std::pair<std::string, std::string>> textures;  // property, image path
    for (const cast::ConstMaterial::Slot& slot : material.slots()) {
        const std::string property = texture_property(slot.name);
        if (cast::ConstColor color = material.slot_color(slot.name)) {
            if (property == "DiffuseColor" && color.rgba())
                diffuse = glm::dvec3(glm::vec3(*color.rgba()));
            else
                warn(path,
                     fmt::format("slot '{}': its colour has no FBX property and was dropped",
                                 slot.name),
                     "fbx.material-slot");
            continue;
        }
        const cast::ConstFile file = material.slot_file(slot.name);
        if (!file || !file.path()) continue;
        if (property.empty()) {
            warn(path,
                 fmt::format("slot '{}' has no FBX material property: its texture '{}' was "
                             "dropped",
                             slot.name, *file.path()),
                 "fbx.material-slot");
            continue;
        }
        textures.emplace_back(
            property,
            texture_folder_.empty()
                ? std::string(*file.path())
                : (texture_folder_ / formats::portable_path(*file.path())).generic_string());
    }
    Record& record = object();
    record.add("Version", {std::int32_t{102}});
    record.add("ShadingModel", {std::string("phong")});
    record.add("MultiLayer", {std::int32_t{0}});
    Properties p;
    p.color("DiffuseColor", diffuse).number("DiffuseFactor", 1.0, "A");
    record.children.push_back(p.take());
    for (const auto& [property, image] : textures) {
        // Named after the image file, as importers name the image they make of it.
        const std::int64_t texture =
            write_texture(image, std::filesystem::path(image).stem().string(), path + "/file");
        connect(texture, id, property);
    }
    return id;
}

}  // namespace castkit::fbx::detail
