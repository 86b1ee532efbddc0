// Sampling an animation over many frames is bounded by the one promise (docs/security.md): what
// a file declares may take at most 8 bytes of memory per input byte plus 64 MiB
// (anim::memory_budget), and the work, the rig's solve included, at most the keys' sample
// budget (anim::sample_budget, anim::sampling_work). The audit's reproducers, scaled down with
// their ratio to the promise kept: one curve of many keys on a 255-bone skeleton took 10 KB of
// poses per key to become a glb (a 2.1 MB Cast took 2,638 MB), a bake of far-apart keys kept
// 400 times its input (2 MB took 999 MB), and 100 IK handles over 200,000 frames kept convert,
// bake and diff busy for tens of seconds in a 10 KB file.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <castkit/anim/budget.hpp>
#include <castkit/cast/document.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "../anim/scene.hpp"
#include "../test_support.hpp"

namespace castkit::test::sampling_budget_test {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBones = 255;

std::string quoted(const fs::path& path) { return fmt::format("\"{}\"", path.string()); }

fs::path written(AnimScene scene, const fs::path& path) {
    EXPECT_TRUE(cast::write(scene.document, path).has_value());
    return path;
}

// 100 IK handles solved on 20,001 frames are 2 million solves from 2 keys: refused at once by
// each command that samples, with the sample budget's id, instead of run for seconds (the
// audit's 200,000 frames ran 26 to 83 s).
TEST(SamplingBudget, ManyIkHandlesOverManyFramesAreRefusedByConvertBakeAndDiff) {
    const fs::path dir = temp_dir("sampling-budget-rig");
    const fs::path file = written(many_ik_handles(20000), dir / "rig.cast");
    ASSERT_LT(fs::file_size(file), 20000u);
    const CommandResult convert =
        run_cli(fmt::format("convert {} {}", quoted(file), quoted(dir / "rig.glb")));
    EXPECT_NE(convert.exit_code, 0);
    EXPECT_NE(convert.err.find("[gltf.sample-limit]"), std::string::npos) << convert.err;
    EXPECT_NE(convert.err.find("rig"), std::string::npos) << convert.err;
    EXPECT_FALSE(fs::exists(dir / "rig.glb"));
    const CommandResult bake =
        run_cli(fmt::format("bake --anim {} -o {}", quoted(file), quoted(dir / "baked.cast")));
    EXPECT_NE(bake.exit_code, 0);
    EXPECT_NE(bake.err.find("[anim.sample-budget]"), std::string::npos) << bake.err;
    const CommandResult diff = run_cli(fmt::format("diff {} {}", quoted(file), quoted(file)));
    EXPECT_EQ(diff.exit_code, 2) << diff.err;
    EXPECT_NE(diff.err.find("[anim.sample-budget]"), std::string::npos) << diff.err;
    // Without the rig the same file is two keys of one curve: cheap, and converted.
    EXPECT_EQ(run_cli(fmt::format("convert {} {} --no-rig", quoted(file), quoted(dir / "rig.glb")))
                  .exit_code,
              0);
}

#if defined(__linux__) && !defined(CASTKIT_ADDRESS_SANITIZER) && !defined(__SANITIZE_THREAD__)
// The memory tests' inputs and helpers (Linux only: a child's peak is read through wait4).
std::vector<std::uint32_t> frames_up_to(std::uint32_t count) {
    std::vector<std::uint32_t> frames(count);
    for (std::uint32_t i = 0; i < count; ++i) frames[i] = i;
    return frames;
}

// `bones` bones in a row, the first with a `tx` curve keyed on each of its first `keys` frames.
AnimScene many_bones_one_long_curve(std::uint32_t keys, std::size_t bones = kBones) {
    AnimScene scene;
    for (std::size_t b = 0; b < bones; ++b)
        scene.bone(fmt::format("bone{}", b), static_cast<std::int32_t>(b) - 1, {0, 1, 0});
    std::vector<float> values(keys);
    for (std::uint32_t i = 0; i < keys; ++i) values[i] = 0.001f * static_cast<float>(i % 100);
    scene.curve("bone0", "tx", frames_up_to(keys), values);
    return scene;
}

// `bones` bones of which the first is keyed in tx, ty and tz on each of `frames` frames, and
// every one turned by a rotation curve (of `mode`) keyed at the first and last frame only: a
// file that glTF and bake resample at every frame of its range.
AnimScene dense_curves_sparse_turns(std::uint32_t frames, std::size_t bones, const char* mode) {
    AnimScene scene = many_bones_one_long_curve(frames, bones);
    const std::vector<float> values(frames, 0.5f);
    scene.curve("bone0", "ty", frames_up_to(frames), values);
    scene.curve("bone0", "tz", frames_up_to(frames), values);
    for (std::size_t b = 0; b < bones; ++b)
        scene.rotation(fmt::format("bone{}", b), {0, frames - 1},
                       {axis_angle_xyzw({0, 0, 1}, 0.0f), axis_angle_xyzw({0, 0, 1}, 90.0f)}, mode);
    return scene;
}

// One curve of 30,000 keys on a 255-bone skeleton (a 240 KB file) becomes a glb within the
// promise: the export keeps the sampled values of the one channel glTF gets, not every bone's
// pose at every key (306 MB before).
TEST(SamplingBudgetMemory, OneLongCurveOnManyBonesConvertsWithinThePromise) {
    const fs::path dir = temp_dir("sampling-budget-poses");
    const fs::path file = written(many_bones_one_long_curve(30000), dir / "long.cast");
    const CliPeak run =
        cli_peak({"convert", file.string(), (dir / "long.glb").string()}, dir / "stderr.txt");
    EXPECT_EQ(run.exit_code, 0) << run.errors;
    ASSERT_GT(run.peak_kib, 0);
    EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file)))
        << "peaked at " << run.peak_kib << " KiB";
    ASSERT_TRUE(fs::exists(dir / "long.glb"));
}

// 120 bones turned by additive rotation curves keyed at frames 0 and 59,999 (glTF bakes those
// at every frame) and three curves keyed on each of those frames (a 1.4 MB file): the glb would
// hold 116 MB of rotations, past the promise, and is refused before sampling, within it (about
// 400 MB were kept before).
TEST(SamplingBudgetMemory, AGlbThatWouldKeepMoreThanThePromiseIsRefusedWithinIt) {
    const fs::path dir = temp_dir("sampling-budget-glb");
    const fs::path file =
        written(dense_curves_sparse_turns(60000, 120, "additive"), dir / "baked.cast");
    const CliPeak run =
        cli_peak({"convert", file.string(), (dir / "baked.glb").string()}, dir / "stderr.txt");
    const std::string& err = run.errors;
    EXPECT_NE(run.exit_code, 0);
    EXPECT_NE(err.find("[gltf.memory-budget]"), std::string::npos) << err;
    EXPECT_NE(err.find("baked.cast"), std::string::npos) << err;
    ASSERT_GT(run.peak_kib, 0);
    EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file)))
        << "peaked at " << run.peak_kib << " KiB";
    EXPECT_FALSE(fs::exists(dir / "baked.glb"));
}

// 255 rotation curves keyed at frames 0 and 19,999 and three curves keyed on each of those
// frames (a 0.5 MB file): a bake of every frame would keep 100 MB of keys, past the promise, and
// is refused before sampling, within it (200 MB were kept before; the audit's 2 MB, 999 MB).
TEST(SamplingBudgetMemory, ABakeThatWouldKeepMoreThanThePromiseIsRefusedWithinIt) {
    const fs::path dir = temp_dir("sampling-budget-bake");
    const fs::path file =
        written(dense_curves_sparse_turns(20000, kBones, "absolute"), dir / "sparse.cast");
    const CliPeak run = cli_peak(
        {"bake", "--anim", file.string(), "-o", (dir / "baked.cast").string()}, dir / "stderr.txt");
    const std::string& err = run.errors;
    EXPECT_NE(run.exit_code, 0);
    EXPECT_NE(err.find("[anim.memory-budget]"), std::string::npos) << err;
    EXPECT_NE(err.find("sparse.cast"), std::string::npos) << err;
    ASSERT_GT(run.peak_kib, 0);
    EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file)))
        << "peaked at " << run.peak_kib << " KiB";
    EXPECT_FALSE(fs::exists(dir / "baked.cast"));
}

// A real clip of 255 bones, every bone's rotation keyed on every one of 300 frames, still bakes
// and converts, within the promise.
TEST(SamplingBudgetMemory, AClipKeyedOnEveryFrameOfEveryBoneBakesAndConverts) {
    const fs::path dir = temp_dir("sampling-budget-real");
    AnimScene scene = many_bones_one_long_curve(300);
    for (std::size_t b = 0; b < kBones; ++b) {
        std::vector<glm::vec4> turns;
        for (int f = 0; f < 300; ++f)
            turns.push_back(axis_angle_xyzw({0, 0, 1}, static_cast<float>((f + b) % 90)));
        scene.rotation(fmt::format("bone{}", b), frames_up_to(300), turns);
    }
    const fs::path file = written(std::move(scene), dir / "real.cast");
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"bake", "--anim", file.string(), "-o",
                                   (dir / "baked.cast").string()},
          std::vector<std::string>{"convert", file.string(), (dir / "real.glb").string()}}) {
        const CliPeak run = cli_peak(command, dir / "stderr.txt");
        EXPECT_EQ(run.exit_code, 0) << command[0] << ": " << run.errors;
        EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file))) << command[0];
    }
}
#endif

}  // namespace
}  // namespace castkit::test::sampling_budget_test
