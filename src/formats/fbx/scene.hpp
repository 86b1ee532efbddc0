// The FBX scene being written: the object records (Objects), the links between them
// (Connections), what Definitions counts, and the helpers every part of the export uses to make
// them. One Scene per written file.
#pragma once

#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/formats/fbx.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/mat4x4.hpp>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/texture_files.hpp"
#include "records.hpp"

namespace castkit::fbx::detail {

// FBX's time unit: 46,186,158,000 ticks a second.
inline constexpr std::int64_t kTicksPerSecond = 46186158000;

// The Properties70 list of an object: `P` records of a name, a type, a label, flags and values.
class Properties {
  public:
    Properties& number(std::string name, double value, std::string flags = "");
    Properties& integer(std::string name, std::int32_t value);
    Properties& real(std::string name, double value);  // a "double" (GlobalSettings)
    Properties& enumeration(std::string name, std::int32_t value);
    Properties& vector(std::string name, std::string type, const glm::dvec3& value,
                       std::string flags = "");
    Properties& color(std::string name, const glm::dvec3& value);
    Properties& text(std::string name, std::string value, std::string label = "");
    Properties& time(std::string name, std::int64_t ticks);
    Properties& flag(std::string name, bool value);
    Record take() { return std::move(record_); }

  private:
    Record record_{"Properties70", {}, {}};
};

// What the export left of one Cast Model: its FBX ids, for the animation export.
struct WrittenModel {
    std::int64_t node = 0;            // the Null of the Model
    std::vector<std::int64_t> bones;  // per skeleton bone, its LimbNode
    anim::Skeleton skeleton;
    // Per blend shape name of the model: the BlendShapeChannels of that name.
    std::map<std::string, std::vector<std::int64_t>> shape_channels;
    cast::ConstModel model;
};

class Scene {
  public:
    Scene(std::string file, const ExportOptions& options, Diagnostics& warnings)
        : file(std::move(file)), options(options), warnings(warnings) {}

    std::string file;
    ExportOptions options;
    Diagnostics& warnings;
    std::vector<Record> objects;
    std::vector<Record> connections;
    std::map<std::string, int> counts;  // objects by record name, for Definitions
    std::vector<WrittenModel> models;
    std::optional<Diagnostic> failure;  // the first error that stops the export
    std::uint64_t bytes = 0;            // of the records so far (arrays), against the budget
    float framerate = 0.0f;             // the first animation's, for GlobalSettings
    double samples = 0.0;               // sampling work so far (anim::sampling_work)
    std::uint64_t input_keys = 0;       // keys of the animations sampled so far
    // Each stack's name and time span, for Takes.
    struct Take {
        std::string name;
        std::int64_t start = 0, stop = 0;
    };
    std::vector<Take> takes;
    // How the images materials name are written, set before the first Model: inside their
    // Video's Content (TextureMode::Embed: the document's carried images, else the files found
    // under the side-file policy), else named by the path `placement` gives them (copied beside
    // an output written to another folder), or as the document names them when there is no
    // output file (memory, standard output).
    struct Images {
        bool embed = false;
        const cast::EmbeddedFiles* carried = nullptr;
        const WriteContext* context = nullptr;
        std::unique_ptr<formats::TexturePlacement> placement;
    } images;

    // A new object record `type` ("Model") named `name` of class `class_name` ("Model") and
    // subclass `subclass` ("Mesh"); its id. The record stays valid until the next object.
    std::int64_t add_object(std::string type, std::string_view name, std::string_view class_name,
                            std::string subclass);
    Record& object() { return objects.back(); }
    // `child` belongs to `parent` (OO), or feeds its property `property` (OP).
    void connect(std::int64_t child, std::int64_t parent);
    void connect(std::int64_t child, std::int64_t parent, std::string property);
    // A warning with its own id (docs/diagnostics.md, "fbx.*").
    void warn(std::string path, std::string message, std::string rule);
    // Counts `more` bytes of arrays against options.max_bytes; false, with `failure` set, past
    // it (`fbx.size-budget`), naming `what`.
    bool keep_bytes(std::uint64_t more, const std::string& path, std::string_view what);

    // Writes one Cast Model (its skeleton, meshes, skins, blend shapes, materials) under the
    // scene's root.
    void write_model(const cast::ConstModel& model, const std::string& path);
    // Writes the document's Instances (a map): each file they name read once (the side-file
    // policy, the check before every write), its meshes' Geometry written once, and per
    // Instance one Mesh Model per mesh placed by the Instance, sharing that Geometry.
    void write_instances(const cast::Document& document, const WriteContext& context);
    // Writes one Cast Animation as an AnimationStack with one layer over the written models.
    void write_animation(const cast::ConstAnimation& animation, const cast::Document& document,
                         const std::string& path);

  private:
    std::int64_t next_id_ = 1000000;
    std::map<const cast::Node*, std::int64_t> materials_;
    std::map<std::string, std::int64_t> videos_;       // by path
    std::set<const cast::Node*> animation_skeletons_;  // written by write_animation_skeleton
    // A mesh of an instance file written once: its Geometry, material and model's placement.
    struct SharedMesh {
        std::int64_t geometry = 0, material = 0;
        glm::mat4 model_world{1.0f};
    };
    // An instance file: its meshes, then those of the files its own Instances name, placed
    // by them (nested Instances flattened into the file's list).
    struct InstanceFile {
        std::unique_ptr<cast::Document> document;
        std::filesystem::path found_at;  // where it was found: its own Instances resolve beside
        std::vector<SharedMesh> meshes;
        bool expanding = false;  // its meshes are being gathered: an Instance of it is a cycle
    };
    std::map<std::filesystem::path, InstanceFile> instance_files_;  // by real path
    // While an instance file's materials are written: its folder from the map's, which the
    // images they name lie in (empty for the map's own).
    std::filesystem::path texture_folder_;

    // Where an Instance is looked up from: the file naming it (found_at empty for the map), its
    // scene root, and how deep it nests.
    struct InstanceSite {
        std::filesystem::path found_at;
        std::optional<std::string> scene_root;
        int depth = 0;
    };
    // The file an Instance names, read and written once; null with a warning when refused (a
    // cycle, too deep, unreadable).
    const InstanceFile* instance_file(const cast::ConstInstance& instance, const InstanceSite& site,
                                      const WriteContext& context, const std::string& path);
    void write_instance_meshes(InstanceFile& file, const std::string& name,
                               const WriteContext& context, int depth);
    // Calls place(instance, its file, its ordinal among the document's Instances) for each
    // Instance of `document` whose file is read and whose Models the budget keeps (`what` names
    // them past it); node paths begin with `prefix`. Stops at the first failure.
    template <class Place>
    void for_each_instance_file(const cast::Document& document, const InstanceSite& site,
                                std::string_view prefix, const WriteContext& context,
                                std::string_view what, Place&& place);
    // The meshes of the files `file`'s own Instances name, added to its list as they place them.
    void add_nested_meshes(InstanceFile& file, const std::string& name, const WriteContext& context,
                           int depth);

    std::int64_t write_material(const cast::ConstMaterial& material, const std::string& path);
    // The Texture of image `named` (its Video written once per image), named `name`.
    std::int64_t write_texture(const std::string& named, std::string_view name,
                               const std::string& where);
    // The Video record's Content: the image's bytes when the export embeds them and they can be
    // read, else nothing (a warning says why).
    void embed_content(Record& video, const std::string& named, const std::string& where);
    // The Geometry of `mesh`, with its skin and blend shape deformers; 0 when the mesh cannot
    // be written (a warning says why).
    std::int64_t write_geometry(const cast::ConstModel& model, const cast::ConstMesh& mesh,
                                WrittenModel& written, const glm::mat4& mesh_world,
                                const std::string& path);
    void write_skin(const cast::ConstMesh& mesh, std::int64_t geometry, const WrittenModel& written,
                    const glm::mat4& mesh_world, const std::string& path);
    void write_blend_shapes(const cast::ConstModel& model, const cast::ConstMesh& mesh,
                            std::int64_t geometry, WrittenModel& written, const std::string& path);
    void write_skeleton(WrittenModel& written, const cast::ConstSkeleton& skeleton,
                        const std::string& path);
    // The animation's own Skeleton (an animation file alone, or one `--model` lent a skeleton)
    // as a Null with its LimbNodes, for a stack that moves no written model; false when it has
    // none.
    bool write_animation_skeleton(const cast::ConstAnimation& animation, const std::string& path);
    void write_bind_pose(const WrittenModel& written, const std::vector<std::int64_t>& meshes,
                         const glm::mat4& model_world);
};

// Version, Properties70 with the Lcl transform, and the flags every Model record carries.
void fill_model(Record& record, const anim::Transform& local);

// The Lcl Translation, Rotation (XYZ Euler degrees) and Scaling of `transform`.
struct LocalTransform {
    glm::dvec3 translation{0.0}, rotation{0.0}, scaling{1.0};
};
LocalTransform local_transform(const anim::Transform& transform);
// Euler XYZ degrees (R = Rz · Ry · Rx, FBX's eEulerXYZ) of `rotation`; the solution nearest
// `previous` (either decomposition, each angle moved by whole turns) when given, so that curves
// interpolate the short way. O(1).
glm::dvec3 euler_degrees(const glm::quat& rotation, const glm::dvec3* previous = nullptr);
// A matrix as FBX stores it: 16 doubles, column by column.
std::vector<double> matrix_values(const glm::mat4& matrix);

// The records before Objects (FBXHeaderExtension, GlobalSettings, Documents, References) and
// Definitions, for `document` with the counts of `scene`. O(types).
std::vector<Record> header_records(const cast::Document& document, const Scene& scene,
                                   std::int64_t document_id);
Record definitions(const Scene& scene);

}  // namespace castkit::fbx::detail
