// tinygltf's implementation, compiled once into castkit without image decoding or encoding:
// castkit references textures by URI and never loads them.
#define TINYGLTF_IMPLEMENTATION
#include "tiny_gltf_config.hpp"

namespace castkit::gltf::detail {

// tinygltf's own serialisation of one node (its SerializeGltfNode, then the dump its writer
// makes), so that the node array can be written one node at a time and the bytes stay those
// tinygltf would write; a node with nothing to say is {} (tinygltf's null is not glTF).
std::string node_json(const tinygltf::Node& node) {
    json out;
    tinygltf::SerializeGltfNode(node, out);
    return out.is_null() ? "{}" : tinygltf::JsonToString(out);
}

}  // namespace castkit::gltf::detail
