// What the OBJ writer's parts share: the text streamed into the sink, the models it places and
// the names it gives (docs/obj.md).
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/io/context.hpp>
#include <castkit/sink.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/mat4x4.hpp>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/texture_files.hpp"

namespace castkit::obj {

// Text appended into a block that goes to the sink whenever it fills: the output is never held
// whole. The first failed write is kept and every later call does nothing.
class TextWriter {
  public:
    explicit TextWriter(Sink& sink);
    void text(std::string_view text);
    // `v` as its shortest text that reads back to it (formats::write_float).
    void number(float v);
    void integer(std::uint64_t v);
    // Sends what is buffered; the first failure of any write.
    Expected<void> finish();

  private:
    void make_room(std::size_t bytes);
    Sink& sink_;
    std::string block_;
    std::size_t used_ = 0;
    std::optional<Diagnostic> failure_;
};

// A document whose Models are placed: the top one or an instance file.
struct Source {
    const cast::Document* document = nullptr;
    std::string name;  // the file diagnostics name
    // Where the file was found (an instance file), for the textures its materials name beside
    // it; empty for the top document, whose textures the registry placed beside the output.
    std::filesystem::path found_at;
};

// One Model drawn where `matrix` puts it.
struct Placement {
    cast::ConstModel model;
    glm::mat4 matrix{1.0f};
    bool identity = true;  // matrix is the identity: the values are written as stored
    std::string object;    // what its objects are named after
    bool instanced = false;
    const Source* source = nullptr;
};

// `name` as one OBJ token: whitespace and control characters become '_'; `fallback` when empty.
std::string token(std::string_view name, std::string_view fallback);

// The MTL names of the materials drawn, unique in the file, by material node.
using MaterialNames = std::map<const cast::Node*, std::string>;

// The MTL text of the materials the placements draw, each named in `names`, with texture paths
// valid from the output's folder: the top document's as the registry placed them, an instance
// file's (found beside it) as `placement` places them, named from the top document's folder;
// as named when `placement` is null. Warnings for slots MTL cannot hold. O(materials + bytes of
// the textures copied).
std::string material_library(const std::vector<Placement>& placements, MaterialNames& names,
                             formats::TexturePlacement* placement, const WriteContext& context,
                             Diagnostics& diagnostics);

// A warning of the OBJ writer: `file`, `path`, its id and its text. O(1).
Diagnostic warning(std::string_view file, std::string path, std::string_view rule,
                   std::string message);

}  // namespace castkit::obj

namespace castkit::obj {

// What the OBJ draws: every Model of the document and of the files its Instances place, each
// instance file read once and checked before it is written.
struct Scene {
    std::vector<std::unique_ptr<cast::Document>> files;  // the instance files read
    std::vector<std::unique_ptr<Source>> sources;        // the top document first
    std::vector<Placement> placements;
    std::uint64_t bytes_read = 0;  // the document's Cast size and each instance file's
};

// The placements of `document` and its Instances (found under context's side-file policy;
// obj.instance-refused for one that cannot be read), the losses of each file warned once.
// An error only when an instance file fails the check before every write under --strict.
// O(instances + nodes of the files read).
Expected<Scene> place(const cast::Document& document, const WriteContext& context,
                      Diagnostics& diagnostics);

// Every kind of thing in `source` OBJ cannot hold, a warning of its own id each (obj.*).
// O(nodes).
void warn_losses(const Source& source, Diagnostics& diagnostics);

}  // namespace castkit::obj
