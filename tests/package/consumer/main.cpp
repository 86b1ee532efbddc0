// Reads a Cast file through the installed castkit and prints what it holds; then writes it as
// GLB with castkit and reads that back with the consumer's own tinygltf (gltf_user.cpp).
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/gltf.hpp>
#include <castkit/version.hpp>
#include <cstdio>
#include <string>

static_assert(CASTKIT_VERSION_MAJOR == PACKAGE_VERSION_MAJOR &&
                  CASTKIT_VERSION_MINOR == PACKAGE_VERSION_MINOR &&
                  CASTKIT_VERSION_PATCH == PACKAGE_VERSION_PATCH,
              "castkit/version.hpp and the installed package disagree");

int gltf_mesh_count(const std::string& path);

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: castkit_consumer FILE.cast OUT.glb\n");
        return 2;
    }
    castkit::Diagnostics warnings;
    auto document = castkit::cast::open(argv[1], warnings);
    if (!document) {
        std::fprintf(stderr, "%s\n", document.error().to_string().c_str());
        return 1;
    }
    std::size_t meshes = 0, vertices = 0;
    for (castkit::cast::Model& model : document->models())
        for (castkit::cast::Mesh& mesh : model.meshes()) {
            ++meshes;
            vertices += mesh.vertex_count();
        }
    auto bytes = castkit::cast::write_to_buffer(*document);
    int gltf_meshes =
        castkit::gltf::write(*document, argv[2], {}, warnings) ? gltf_mesh_count(argv[2]) : -1;
    std::printf("models=%zu meshes=%zu vertices=%zu bytes=%zu gltf_meshes=%d\n",
                document->models().size(), meshes, vertices, bytes ? bytes->size() : std::size_t{0},
                gltf_meshes);
    return 0;
}
