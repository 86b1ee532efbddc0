// DMF faces made from Cast meshes a range at a time. from_cast builds them all into Model::faces;
// Cast → DMF JSON instead lets the writer make each chunk of faces as it formats it, on both
// threads, so that the faces (35 MB for 400k triangles, a third of the conversion on one thread)
// never exist all at once.
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace castkit::dmf {

class CastFaces {
  public:
    // One Cast mesh's triangles, none past its vertices (the check before writing).
    struct Mesh {
        std::uint16_t material = 0;
        cast::IndexView indices;  // three per face
        cast::ArrayView<glm::vec3> normals;
        cast::ArrayView<glm::vec2> uvs;
        cast::Bytes packed_colors;          // the first colour layer when packed (`i`)
        std::vector<glm::u8vec4> colors;    // else the first layer made bytes
        std::vector<std::uint32_t> merged;  // the DMF vertex of each Cast vertex
    };

    explicit CastFaces(bool flip_v) : flip_v_(flip_v) {}

    // Appends `mesh`'s faces after those added before.
    void add(Mesh mesh);
    std::size_t size() const { return size_; }
    // Writes faces [first, first + out.size()) to `out` (all within size()). O(out.size()).
    void make(std::size_t first, std::span<Face> out) const;
    // Whether every normal and UV of the meshes is finite, so every face made is (JSON holds
    // only finite floats). O(vertices).
    bool all_finite() const;

  private:
    // The mesh holding face `face`, by binary search of the meshes' first faces.
    std::size_t mesh_of(std::size_t face) const;
    static glm::u8vec4 color(const Mesh& mesh, std::uint32_t index);
    Face face(const Mesh& mesh, std::size_t corner) const;

    bool flip_v_;
    std::vector<Mesh> meshes_;
    std::vector<std::size_t> first_faces_;  // per mesh, the number of its first face
    std::size_t size_ = 0;
};

// A Cast document as a DMF model whose faces are still to be made: `model.faces` is empty and
// `faces` makes them. What from_cast returns is this with the faces made.
struct ModelToMake {
    Model model;
    CastFaces faces;
};
// Expects a document that has passed the check before every write, as the registry's write does
// first. from_cast checks itself; this cannot, since the faces it makes view the document's
// buffers and a repaired copy made here would not outlive them.
Expected<ModelToMake> from_cast_faces_apart(const cast::Document& document, Diagnostics& warnings,
                                            const ConvertOptions& options);
// from_cast of a document that has passed the check before every write (the registry's write,
// which checks first): what from_cast does after its own check.
Expected<Model> from_checked_cast(const cast::Document& document, Diagnostics& warnings,
                                  const ConvertOptions& options);

}  // namespace castkit::dmf
