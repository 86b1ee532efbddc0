// What a file declares, parsed within its memory budget (docs/security.md, "Memory and time
// bounded by the input": 8 bytes per byte of the file plus 64 MiB): a glTF JSON of values too
// many for a DOM is refused before simdjson builds one, tinygltf's structures are counted before
// they are allocated, application extras are not converted at all, carried glTF settings (a
// Metadata `gltf` string) too large to parse are ignored, and a skeleton of half a million bones
// is validated and dumped. Each is measured as the peak resident memory of a `castkit` child
// process.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../test_support.hpp"

namespace castkit::test::parse_budget_test {
namespace {

namespace fs = std::filesystem;

#if defined(__linux__) && !defined(CASTKIT_ADDRESS_SANITIZER) && !defined(__SANITIZE_THREAD__)
// A glTF of no content but `member`, whose value is `open`, `count` times `item` (comma
// separated), then `close`: `"pad":[0,0,…]` takes 2 bytes a value.
fs::path padded_gltf(const fs::path& path, const std::string& member, const std::string& open,
                     const std::string& item, std::size_t count, const std::string& close) {
    std::ofstream out(path, std::ios::binary);
    out << R"({"asset":{"version":"2.0"},")" << member << "\":" << open;
    for (std::size_t i = 0; i < count; ++i) out << (i == 0 ? "" : ",") << item;
    out << close << "}";
    return path;
}

// Runs `castkit info` on `file`, expects its peak within the promise, and returns the run.
CliPeak info_within_budget(const fs::path& file) {
    const CliPeak run = cli_peak({"info", file.string()}, file.string() + ".errors");
    EXPECT_GT(run.peak_kib, 0) << file;
    EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file)))
        << file << " peaked at " << run.peak_kib << " KiB";
    return run;
}

// 20 MB of "0," in a member nothing reads: simdjson's DOM alone took 278 MB (the budget: 224).
TEST(GltfJsonBudget, ADomPastTheBudgetIsRefusedBeforeItIsBuilt) {
    const fs::path dir = temp_dir("parse-budget");
    const CliPeak run =
        info_within_budget(padded_gltf(dir / "pad.gltf", "pad", "[", "0", 10'000'000, "]"));
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_NE(run.errors.find("[gltf.json-budget]"), std::string::npos) << run.errors;
    EXPECT_NE(run.errors.find("pad.gltf: offset 0x0: $:"), std::string::npos) << run.errors;
}

// 5 MB of application extras: each value became a 152-byte tinygltf::Value (702 MB). They are
// not converted now, and the file reads.
TEST(GltfJsonBudget, ApplicationExtrasCostNothing) {
    const fs::path dir = temp_dir("parse-budget");
    const CliPeak run = info_within_budget(
        padded_gltf(dir / "extras.gltf", "extras", R"({"pad":[)", "0", 2'500'000, "]}"));
    EXPECT_EQ(run.exit_code, 0) << run.errors;
}

// 5 MB of an extension's values (702 MB before), and 900 KB of empty materials, 2,144 bytes each
// in tinygltf (1,104 MB before): both refused as the walk counts what it would allocate.
TEST(GltfJsonBudget, TinygltfStructuresPastTheBudgetAreRefused) {
    const fs::path dir = temp_dir("parse-budget");
    for (const fs::path& file :
         {padded_gltf(dir / "extension.gltf", "extensions", R"({"X":[)", "0", 2'500'000, "]}"),
          padded_gltf(dir / "materials.gltf", "materials", "[", "{}", 300'000, "]")}) {
        const CliPeak run = info_within_budget(file);
        EXPECT_EQ(run.exit_code, 1) << file;
        EXPECT_NE(run.errors.find("[gltf.json-budget]"), std::string::npos) << run.errors;
    }
}

template <class T>
void put(std::ostream& out, T value) {
    out.write(reinterpret_cast<const char*>(&value), sizeof value);  // Cast is little-endian
}

// A Cast file of one root holding one Metadata whose `gltf` string is `{"pad":[0,0,…]}` of
// `values` zeros, written as it goes: the test process never holds it (a child's peak starts
// from its parent's).
fs::path carried_cast(const fs::path& path, std::uint32_t values) {
    const std::uint32_t text = 9 + 2 * (values - 1) + 2;  // {"pad":[0 ,0… ]}
    const std::uint32_t property = 8 + 4 + text + 1, metadata = 24 + property;
    std::ofstream out(path, std::ios::binary);
    for (std::uint32_t word : {0x74736163u, 1u, 1u, 0u}) put(out, word);  // header
    put(out, 0x746F6F72u), put(out, 24 + metadata), put(out, std::uint64_t{1});
    put(out, 0u), put(out, 1u);  // a root: no properties, one child
    put(out, 0x6174656Du), put(out, metadata), put(out, std::uint64_t{2});
    put(out, 1u), put(out, 0u);  // a Metadata: one property, no children
    put(out, std::uint16_t{'s'}), put(out, std::uint16_t{4}), put(out, 1u);
    out << "gltf"
        << R"({"pad":[0)";
    for (std::uint32_t i = 1; i < values; ++i) out << ",0";
    out << "]}" << '\0';
    return path;
}

// A Cast whose Metadata carries 20 MB of glTF settings: converting it to glb, or turning its
// axes, parsed them into a DOM of 450 MB. They are ignored now, with a warning.
TEST(GltfJsonBudget, CarriedSettingsPastTheBudgetAreIgnored) {
    const fs::path dir = temp_dir("parse-budget");
    const fs::path file = carried_cast(dir / "carried.cast", 10'000'000);
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"convert", file.string(), (dir / "carried.glb").string()},
          std::vector<std::string>{"convert", "--up", "z", file.string(),
                                   (dir / "turned.cast").string()}}) {
        const CliPeak run = cli_peak(command, dir / "errors.txt");
        EXPECT_EQ(run.exit_code, 0) << run.errors;
        EXPECT_GT(run.peak_kib, 0);
        EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file)))
            << command[0] << " " << command[1] << " " << command[2] << " peaked at " << run.peak_kib
            << " KiB";
        if (command.size() == 3) {
            EXPECT_NE(run.errors.find("[gltf.carried-budget]"), std::string::npos) << run.errors;
        }
    }
}

// A Cast file of one Model whose Skeleton has `bones` bones, each named ("b<i>") and with parent
// 0, written as it goes (54 bytes a bone).
fs::path skeleton_cast(const fs::path& path, std::uint32_t bones) {
    std::vector<std::uint32_t> sizes(bones);  // each bone node's size
    std::uint32_t total = 0;
    for (std::uint32_t i = 0; i < bones; ++i) {
        const auto name = static_cast<std::uint32_t>(std::to_string(i).size() + 2);  // b…\0
        sizes[i] = 24 + (8 + 1 + name) + (i > 0 ? 8 + 1 + 4 : 0);
        total += sizes[i];
    }
    std::ofstream out(path, std::ios::binary);
    for (std::uint32_t word : {0x74736163u, 1u, 1u, 0u}) put(out, word);  // header
    auto node = [&](std::uint32_t id, std::uint32_t size, std::uint64_t hash,
                    std::uint32_t properties, std::uint32_t children) {
        put(out, id), put(out, size), put(out, hash), put(out, properties), put(out, children);
    };
    node(0x746F6F72u, 72 + total, 1, 0, 1);      // root
    node(0x6C646F6Du, 48 + total, 2, 0, 1);      // model
    node(0x6C656B73u, 24 + total, 3, 0, bones);  // skeleton
    for (std::uint32_t i = 0; i < bones; ++i) {
        node(0x656E6F62u, sizes[i], 4 + i, i > 0 ? 2 : 1, 0);
        const std::string name = "b" + std::to_string(i);
        put(out, std::uint16_t{'s'}), put(out, std::uint16_t{1}), put(out, 1u);
        out << "n" << name << '\0';
        if (i == 0) continue;
        put(out, std::uint16_t{'i'}), put(out, std::uint16_t{1}), put(out, 1u);
        out << "p", put(out, 0u);
    }
    return path;
}

// Half a million bones in 27 MB (the budget is 269 MiB). `validate` kept every name in four hash
// sets and a map (324 MiB); it keeps the names curves may bind to only when the file has curves,
// and finds duplicate names by sorting. `dump` held its 41 MB of text whole, grown by doubling
// (286 MiB); it prints it in pieces as it is made.
TEST(SkeletonBudget, HalfAMillionBonesAreValidatedAndDumpedWithinTheBudget) {
    const fs::path dir = temp_dir("parse-budget");
    const fs::path file = skeleton_cast(dir / "bones.cast", 500'000);
    for (const char* command : {"validate", "dump"}) {
        const CliPeak run = cli_peak({command, file.string()}, dir / "errors.txt");
        EXPECT_EQ(run.exit_code, 0) << command << ": " << run.errors;
        EXPECT_GT(run.peak_kib, 0);
        EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file)))
            << command << " peaked at " << run.peak_kib << " KiB";
    }
}

// `castkit convert FILE FILE.glb`: its peak within the promise, and the exit code, with what
// it wrote to standard error.
std::pair<int, std::string> glb_within_budget(const fs::path& file) {
    const CliPeak run =
        cli_peak({"convert", file.string(), file.string() + ".glb"}, file.string() + ".errors");
    EXPECT_GT(run.peak_kib, 0);
    EXPECT_LT(run.peak_kib, promised_kib(fs::file_size(file)))
        << file << " peaked at " << run.peak_kib << " KiB; " << run.errors;
    return {run.exit_code, run.errors};
}

// 200,000 bones (54 bytes a bone) to a glb: each became a tinygltf::Node (in a vector grown by
// doubling), its part of tinygltf's JSON DOM and of the text, and a bone of anim::Skeleton,
// 1.2 KB a bone over the document's 450 bytes: 10.7 MB (the budget 146 MiB) took 312 MiB. The
// export counts the document and what each bone will keep before it builds them, and refuses
// what the budget cannot hold; 60,000 bones (3.2 MB, the budget 88 MiB; 104 MiB before) fit and
// are converted: the nodes are reserved at once, written one at a time without a DOM, and the
// skeletons dropped before the JSON is made.
TEST(SkeletonBudget, ASkeletonIsConvertedToGlbOrRefusedWithinTheBudget) {
    const fs::path dir = temp_dir("parse-budget");
    const auto [refused, refusal] = glb_within_budget(skeleton_cast(dir / "many.cast", 200'000));
    EXPECT_EQ(refused, 1) << refusal;
    EXPECT_NE(refusal.find("[gltf.memory-budget]"), std::string::npos) << refusal;
    EXPECT_NE(refusal.find("many.cast + 64 MiB"), std::string::npos) << refusal;
    const auto [converted, errors] = glb_within_budget(skeleton_cast(dir / "fewer.cast", 60'000));
    EXPECT_EQ(converted, 0) << errors;
}
#endif

}  // namespace
}  // namespace castkit::test::parse_budget_test
