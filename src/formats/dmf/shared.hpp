// What both DMF conversion directions agree on: the values Cast cannot carry are written back as
// these defaults, so a DMF whose fields equal them survives DMF → Cast → DMF unchanged.
#pragma once

#include <castkit/formats/dmf.hpp>
#include <string>
#include <vector>

namespace castkit::dmf {

// Frames per second assumed when an animation says 0.
inline constexpr std::uint16_t kDefaultFps = 30;

// The file name a texture gets in Cast: its name plus ".png" (or "texture<index>.png"), with
// path separators, control characters and a leading dot replaced by '_'.
std::string texture_file_name(const Texture& texture, std::size_t index);

// The texture from_cast writes for an image: id = index, flip_y 1, wrap repeat.
Texture default_texture(std::string name, std::size_t index, std::vector<std::byte> png,
                        std::uint16_t width, std::uint16_t height);

// The material from_cast writes: id = index, Three.js blending defaults, Lambert shading,
// front side, skinning on when the model has bones.
Material default_material(std::string name, std::size_t index, bool skinned);

// The names of the fields of `material` that differ from default_material (colours, texture
// and name excluded: Cast carries those).
std::vector<std::string> non_default_fields(const Material& material, std::size_t index,
                                            bool skinned);

// Checks every index between structs (faces → vertices and materials, materials → textures,
// bones → parents, skins and tracks → bones). Errors name JSON paths ("$.faces[2].indices")
// when `json_paths`, else structs ("face[2]"); `section_offsets`, when given, are the file
// offsets of the six sections so that errors also name a byte offset. O(model size).
Expected<void> check_references(const Model& model, const std::string& file, bool json_paths,
                                const std::uint32_t* section_offsets = nullptr);

// Width and height from a PNG's IHDR chunk, or nullopt when `png` is not a PNG.
std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(const std::vector<std::byte>& png);

}  // namespace castkit::dmf
