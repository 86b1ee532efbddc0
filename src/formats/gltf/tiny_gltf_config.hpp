// The one way castkit includes tinygltf: no image loading or writing (textures stay URIs), and
// tinygltf renamed into castkit's own namespace. Its implementation is compiled into the static
// library, so under its usual name it would collide, at link time or silently, with the copy of
// tinygltf a user's program compiles itself (another version or configuration).
#pragma once

#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#define tinygltf castkit_tinygltf
#include <tiny_gltf.h>
