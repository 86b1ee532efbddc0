// tinygltf's implementation, compiled once into castkit without image decoding or encoding:
// castkit references textures by URI and never loads them.
#define TINYGLTF_IMPLEMENTATION
#include "tiny_gltf_config.hpp"
