// The consumer's own tinygltf, compiled here with a configuration of its own, linked into the
// same program as castkit (which compiles tinygltf too): both must link and work side by side.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#include <tiny_gltf.h>

#include <string>

// Meshes in the glTF file at `path` as the consumer's tinygltf reads it, or -1.
int gltf_mesh_count(const std::string& path) {
    tinygltf::TinyGLTF loader;
    tinygltf::Model model;
    std::string error, warning;
    if (!loader.LoadBinaryFromFile(&model, &error, &warning, path)) return -1;
    return static_cast<int>(model.meshes.size());
}
