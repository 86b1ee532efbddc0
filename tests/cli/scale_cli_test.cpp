// `convert --scale` (issue 57): a scale is checked as the float lengths are scaled by, and a
// scaled length that a float cannot hold is refused (`--scale 1e-46` wrote every vertex at the
// origin, `--scale 1e39` NaN positions, both exiting 0).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>

#include "../test_support.hpp"

namespace castkit::test::scale_cli_test {
namespace {

namespace fs = std::filesystem;

std::string quoted(const fs::path& path) { return "\"" + path.string() + "\""; }

// One triangle with a vertex at `far` on x, the others at 0 and 1, as a Cast file in `dir`.
fs::path triangle(const fs::path& dir, float far) {
    cast::Document document;
    cast::Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.set_positions(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {far, 1, 0}});
    mesh.set_faces(std::vector<std::uint32_t>{0, 1, 2});
    const fs::path path = dir / "triangle.cast";
    EXPECT_TRUE(cast::write(document, path).has_value());
    return path;
}

struct Converted {
    CommandResult result;
    bool written;
};
Converted convert(const fs::path& input, const std::string& options) {
    const fs::path output = input.parent_path() / "out.cast";
    fs::remove(output);
    CommandResult result =
        run_cli(fmt::format("convert {} {} {}", quoted(input), quoted(output), options));
    fmt::print("[figures] convert {}: exit {}, {}\n", options, result.exit_code,
               fs::exists(output) ? "written" : "nothing written");
    return {std::move(result), fs::exists(output)};
}

void expect_refused(const Converted& converted, int exit_code) {
    EXPECT_EQ(converted.result.exit_code, exit_code) << converted.result.err;
    EXPECT_NE(converted.result.err.find("[axes.scale]"), std::string::npos) << converted.result.err;
    EXPECT_FALSE(converted.written);
}

TEST(ScaleCli, AScaleWhoseFloatIsZeroSubnormalOrInfiniteIsRefused) {
    const fs::path input = triangle(temp_dir("scale-float"), 2.0f);
    expect_refused(convert(input, "--scale 1e-46"), 2);  // 0 as a float
    expect_refused(convert(input, "--scale 1e-40"), 2);  // subnormal
    expect_refused(convert(input, "--scale 1e39"), 2);   // infinite
    // Units and a scale multiplying into a factor past the largest float: 1000 × 1e36.
    expect_refused(convert(input, "--from-units m --units mm --scale 1e36"), 2);
    const Converted fine = convert(input, "--scale 1e-30");
    EXPECT_EQ(fine.result.exit_code, 0) << fine.result.err;
    EXPECT_TRUE(fine.written);
}

TEST(ScaleCli, ALengthThatOverflowsOrFlushesToZeroIsRefused) {
    const fs::path dir = temp_dir("scale-lengths");
    // 1e30 × 1e10 is past the largest float; every other length fits.
    expect_refused(convert(triangle(dir, 1e30f), "--scale 1e10"), 1);
    // 1e-30 × 1e-16 is below the smallest subnormal (1.4e-45): it would become 0.
    expect_refused(convert(triangle(dir, 1e-30f), "--scale 1e-16"), 1);
    const Converted fine = convert(triangle(dir, 1e20f), "--scale 1e10");
    EXPECT_EQ(fine.result.exit_code, 0) << fine.result.err;
}

}  // namespace
}  // namespace castkit::test::scale_cli_test
