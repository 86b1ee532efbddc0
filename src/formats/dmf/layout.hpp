// The binary DMF layout shared by the reader and writer (docs/dmf.md): header, attribute table
// and the fixed struct sizes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace castkit::dmf::layout {

inline constexpr std::size_t kHeaderSize = 16;
inline constexpr std::size_t kAttributeSize = 16;
inline constexpr std::size_t kAttributeCount = 6;
inline constexpr std::size_t kNameSize = 32;

inline constexpr std::size_t kTextureSize = 64;
inline constexpr std::size_t kMaterialSize = 112;
inline constexpr std::size_t kVertexSize = 36;
inline constexpr std::size_t kFaceSize = 88;
inline constexpr std::size_t kBoneSize = 112;
inline constexpr std::size_t kAnimationSize = 48;
inline constexpr std::size_t kTrackSize = 48;

// Attribute labels: four lowercase ASCII bytes read as a little-endian u32.
enum Label : std::uint32_t {
    kTex = 0x00786574,
    kMat = 0x0074616D,
    kVert = 0x74726576,
    kFace = 0x65636166,
    kBone = 0x656E6F62,
    kAnim = 0x6D696E61,
};
inline constexpr Label kTableOrder[kAttributeCount] = {kTex, kMat, kVert, kFace, kBone, kAnim};
inline constexpr std::size_t kStructSizes[kAttributeCount] = {
    kTextureSize, kMaterialSize, kVertexSize, kFaceSize, kBoneSize, kAnimationSize};

}  // namespace castkit::dmf::layout
