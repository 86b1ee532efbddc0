// What the viewer shows, computed by castkit: a set of files (a model and its animations,
// merged as `castkit convert MODEL ANIM... -o OUT` merges them) turned into one glb for
// three.js and one JSON description for the page's panels. The same code serves `castkit view`
// (over HTTP) and the WebAssembly page (in the browser), so both show the same thing. It uses
// castkit's public API only.
#pragma once

#include <castkit/cast/node.hpp>
#include <castkit/expected.hpp>
#include <castkit/formats/format.hpp>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace castkit::viewer {

class Session {
  public:
    // The images a glb or a DMF embeds travel in the documents the session reads
    // (cast::Document::embedded), so the shown scene keeps its textures without a folder.
    Session() = default;

    // Adds a file. `name` is its file name (its extension picks the format); `base` is the
    // folder where the files it names (textures) are looked up. A file that cannot be read is
    // an error and changes nothing. A file with models replaces
    // the shown model; a file with only animations is merged onto it (shown alone, on the skeleton
    // its curves name, while there is no model). O(file size).
    Expected<void> add(std::string name, cast::SharedBytes bytes, std::filesystem::path base);

    // Keeps the error text of a file that could not be read or added, for the page to show.
    void record_error(std::string text) { errors_.push_back(std::move(text)); }

    // Layers the additive animations (Cast `additive` curves, SEAnim ADDITIVE files) on the
    // animation file `file`, added before: at `frame` of it, or at the same time as each frame
    // when none, as `castkit convert --base FILE[@FRAME]` does. "" layers them on the rest
    // pose. A file that is not an added animation file is an error and changes nothing. O(1).
    Expected<void> set_base(std::string file, std::optional<float> frame);

    // Forgets every file, error and base.
    void clear();

    // The page's description of the shown scene, as JSON:
    // {"files":[{"name","format","bytes","role":"model"|"animation","additive","info":TEXT}],
    //  "diagnostics":[{"file","severity","id","offset","path","message","text"}],
    //  "animations":[{"name","framerate","frames","looping","curves",
    //                 "notifications":[{"name","frames":[…]}]}],
    //  "bones":[{"name","parent"}], "blend_shapes":[NAME], "meshes":N, "models":N,
    //  "instances":N (the Instance nodes of a scene, a map's, beside its models),
    //  "base":{"file":NAME|null,"frame":F|null}, "warnings":[DIAGNOSTIC], "errors":[TEXT]}
    // A file's "additive" says it holds an additive curve, which is layered on "base".
    // "errors" are what record_error() kept (files that could not be added); "warnings"
    // what merging said and what the last glb() export dropped, each shaped as a "diagnostics"
    // entry and named by the file the user gave (the export's by the shown file). "info" is what
    // `castkit info` prints for the file; "diagnostics" what `castkit validate` reports for it.
    // Animations are listed in the order the glb holds them. O(files + nodes + keys).
    std::string scene_json() const;

    // The shown scene as a binary glTF (castkit's glTF exporter, textures embedded), or an
    // error when there is nothing to show or the export fails. A scene of Instances (a game's
    // map) is written with EXT_mesh_gpu_instancing, one node per distinct mesh that three.js
    // draws as one InstancedMesh, unless set_gpu_instancing(false). O(scene size).
    Expected<std::vector<std::byte>> glb() const;

    // Whether glb() writes a map with EXT_mesh_gpu_instancing (the default) or one node per
    // instance (`castkit view --no-gpu-instancing`, the bench's reference).
    void set_gpu_instancing(bool on) { gpu_instancing_ = on; }

  private:
    struct File {
        std::string name;
        std::string format;
        cast::SharedBytes bytes;
        std::filesystem::path base;
        bool model = false;
        bool additive = false;
        std::string info;
        std::string diagnostics_json;
    };
    struct Scene;
    const File* shown() const;
    Expected<Scene> build() const;
    // The scene build() made, kept until a file or the base changes, so that the JSON and the
    // glb of one refresh read and merge the files once.
    Expected<const Scene*> scene() const;

    // The options every read and the export use: one side-output writer for the session.
    FormatOptions options() const;

    std::shared_ptr<SideOutputs> side_outputs_ = std::make_shared<SideOutputs>();
    std::vector<File> files_;
    std::vector<std::string> errors_;
    std::string base_file_;  // "" for the rest pose
    std::optional<float> base_frame_;
    bool gpu_instancing_ = true;
    // What the last export could not carry into glTF; glb() is logically const.
    mutable std::vector<Diagnostic> export_warnings_;
    // scene()'s scene; logically const too.
    mutable std::shared_ptr<const Scene> built_;
};

}  // namespace castkit::viewer
