// The JSON names of DMF's enumerations, in binary value order (docs/dmf.md).
#pragma once

#include <array>
#include <string_view>

namespace castkit::dmf::json_names {

inline constexpr std::array<std::string_view, 3> kWrap = {"clamp", "mirror", "repeat"};
inline constexpr std::array<std::string_view, 4> kBlendEquation = {"norm", "add", "sub", "mult"};
inline constexpr std::array<std::string_view, 11> kBlendFactor = {"zero",
                                                                  "one",
                                                                  "src",
                                                                  "one_minus_src",
                                                                  "src_alpha",
                                                                  "one_minus_src_alpha",
                                                                  "dst_alpha",
                                                                  "one_minus_dst_alpha",
                                                                  "dst",
                                                                  "one_minus_dst",
                                                                  "src_alpha_saturate"};
inline constexpr std::array<std::string_view, 3> kShaderType = {"basic", "lambert", "phong"};
inline constexpr std::array<std::string_view, 3> kSide = {"front", "back", "double"};

}  // namespace castkit::dmf::json_names
