// The hero's albedo texture, painted pixel by pixel: skin, hair and a face on the head, a blue
// shirt with a yellow emblem, a belt, dark trousers and red shoes with white soles. Each body
// part's region is painted from (u, v) in [0, 1]², u going round the part (0.5 facing front)
// and v from its top end (0) to its bottom end (1), as the mesh maps it.
#include <cstring>

#if CASTKIT_EXAMPLE_PNG
// The implementation, static in this file: the same encoder whatever libraries castkit links.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#endif

#include "hero.hpp"

namespace hero {
namespace {

using Rgb = std::array<std::uint8_t, 3>;

constexpr Rgb kSkin = {226, 174, 140}, kCheek = {232, 150, 132}, kHair = {84, 52, 30};
constexpr Rgb kEyeWhite = {250, 250, 250}, kIris = {60, 104, 160}, kPupil = {20, 20, 24};
constexpr Rgb kMouth = {164, 58, 58}, kShirt = {38, 110, 190}, kCollar = {26, 78, 140};
constexpr Rgb kEmblem = {250, 200, 40}, kEmblemRim = {200, 50, 40}, kCuff = {240, 240, 240};
constexpr Rgb kBelt = {70, 45, 25}, kBuckle = {210, 186, 70}, kTrousers = {56, 60, 84};
constexpr Rgb kHem = {44, 46, 66}, kShoe = {180, 40, 40}, kSole = {236, 236, 236};
constexpr Rgb kUnused = {128, 128, 128};

// Inside the ellipse centred on (cu, cv) with half-axes ru, rv.
bool in_ellipse(double u, double v, double cu, double cv, double ru, double rv) {
    const double du = (u - cu) / ru, dv = (v - cv) / rv;
    return du * du + dv * dv <= 1;
}

// An eye centred on (cu, cv): white, iris, pupil.
bool paint_eye(double u, double v, double cu, double cv, Rgb& out) {
    if (!in_ellipse(u, v, cu, cv, 0.022, 0.032)) return false;
    out = in_ellipse(u, v, cu, cv + 0.004, 0.007, 0.012)  ? kPupil
          : in_ellipse(u, v, cu, cv + 0.004, 0.013, 0.02) ? kIris
                                                          : kEyeWhite;
    return true;
}

Rgb head(double u, double v) {
    const double side = u - 0.5;  // 0 at the middle of the face
    // Hair: the crown, and the back of the head down to the nape.
    if (v < 0.3 || (v < 0.62 && (side < -0.2 || side > 0.2))) return kHair;
    Rgb eye;
    if (paint_eye(u, v, 0.44, 0.45, eye) || paint_eye(u, v, 0.56, 0.45, eye)) return eye;
    // Eyebrows: short bars above the eyes.
    const double brow = v - 0.385;
    if (brow > -0.008 && brow < 0.008 && side * side > 0.0012 && side * side < 0.0065) return kHair;
    // A smile: an arc whose corners rise.
    const double mouth = v - (0.655 - 6 * side * side);
    if (side * side < 0.004 && mouth > -0.011 && mouth < 0.011) return kMouth;
    if (in_ellipse(u, v, 0.41, 0.56, 0.03, 0.03) || in_ellipse(u, v, 0.59, 0.56, 0.03, 0.03))
        return kCheek;
    return kSkin;
}

Rgb chest(double u, double v) {
    if (v < 0.1) return kCollar;
    // The emblem on the front: a yellow disc in a red ring. Round on the body: u goes round
    // 0.9 m of chest, v down 0.35 m of it.
    const double du = (u - 0.5) * 0.9 / 0.35, dv = v - 0.34;
    const double r2 = du * du + dv * dv;
    if (r2 < 0.013) return kEmblem;
    if (r2 < 0.021) return kEmblemRim;
    return kShirt;
}

Rgb hips(double u, double v) {
    // The belt shows below the shirt's hem.
    if (v < 0.3) return u > 0.47 && u < 0.53 && v > 0.12 && v < 0.28 ? kBuckle : kBelt;
    return kTrousers;
}

Rgb shoe(double u, double v) {
    // u = 0.5 is the top of the foot; the sole is the underside, u near 0 and 1.
    if (u < 0.2 || u > 0.8) return kSole;
    // Laces: three white bars across the instep.
    const bool lace = u > 0.42 && u < 0.58 &&
                      ((v > 0.38 && v < 0.41) || (v > 0.45 && v < 0.48) || (v > 0.52 && v < 0.55));
    return lace ? kSole : kShoe;
}

Rgb paint(Paint part, double u, double v) {
    switch (part) {
        case Paint::Head:
            return head(u, v);
        case Paint::Chest:
            return chest(u, v);
        case Paint::Belly:
            return kShirt;
        case Paint::Hips:
            return hips(u, v);
        case Paint::Sleeve:
            return v > 0.86 ? kCuff : kShirt;
        case Paint::Neck:
        case Paint::Forearm:
        case Paint::Hand:
            return kSkin;
        case Paint::Thigh:
            return kTrousers;
        case Paint::Shin:
            return v > 0.9 ? kHem : kTrousers;
        case Paint::Shoe:
            return shoe(u, v);
    }
    return kUnused;
}

constexpr std::array<Paint, 11> kParts = {Paint::Head,  Paint::Neck,   Paint::Chest,   Paint::Belly,
                                          Paint::Hips,  Paint::Sleeve, Paint::Forearm, Paint::Hand,
                                          Paint::Thigh, Paint::Shin,   Paint::Shoe};

Rgb pixel(int x, int y) {
    for (Paint part : kParts) {
        const Region r = region(part);
        if (x < r.x || x >= r.x + r.width || y < r.y || y >= r.y + r.height) continue;
        // The same (u, v) the mesh gives the texel centres (hero_mesh.cpp, uv_in_region).
        return paint(part, double(x - r.x) / (r.width - 1), double(y - r.y) / (r.height - 1));
    }
    return kUnused;
}

#if CASTKIT_EXAMPLE_PNG
void append(void* context, void* data, int size) {
    auto& out = *static_cast<std::vector<std::byte>*>(context);
    const std::size_t at = out.size();
    out.resize(at + std::size_t(size));
    std::memcpy(out.data() + at, data, std::size_t(size));
}
#endif

}  // namespace

std::vector<std::byte> albedo_png() {
    std::vector<std::uint8_t> rgb;
    rgb.reserve(std::size_t(kTextureSize) * kTextureSize * 3);
    for (int y = 0; y < kTextureSize; ++y)
        for (int x = 0; x < kTextureSize; ++x) {
            const Rgb c = pixel(x, y);
            rgb.insert(rgb.end(), c.begin(), c.end());
        }
    std::vector<std::byte> png;
#if CASTKIT_EXAMPLE_PNG
    if (!stbi_write_png_to_func(append, &png, kTextureSize, kTextureSize, 3, rgb.data(),
                                kTextureSize * 3))
        png.clear();
#endif
    return png;  // empty: built without stb_image_write, or the encoder failed
}

}  // namespace hero
