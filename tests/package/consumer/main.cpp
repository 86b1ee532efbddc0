// Reads a Cast file through the installed castkit and prints what it holds.
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: castkit_consumer FILE.cast\n");
        return 2;
    }
    auto document = castkit::cast::open(argv[1]);
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
    std::printf("models=%zu meshes=%zu vertices=%zu bytes=%zu\n", document->models().size(), meshes,
                vertices, bytes ? bytes->size() : std::size_t{0});
    return 0;
}
