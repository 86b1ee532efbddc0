// A format added by the steps of docs/library.md, "A format of your own", and nothing else: the
// example OFF format (examples/off_format.cpp) registered at run time is found by name and
// extension, read, written, converted to and from Cast and glTF, batch-converted as a folder,
// and goes through the fuzz harnesses' checks over every truncation and a thousand bit flips.
// register_format refuses what would make lookups ambiguous.
#include <gtest/gtest.h>

#include <castkit/batch.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <fstream>
#include <memory>
#include <random>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "../../examples/off_format.hpp"
#include "../../fuzz/harnesses.hpp"
#include "../cli/character.hpp"
#include "../test_support.hpp"

namespace castkit::test::registered_format_test {
namespace {

namespace fs = std::filesystem;

// Registers OFF once for the whole test program, as a plug-in loader does: its name and extension
// built at run time in strings that are scribbled over and freed once it is registered, so that
// every lookup after it finds it only if the registry kept copies of its own.
const FormatInfo& off() {
    static const FormatInfo& format = []() -> const FormatInfo& {
        auto name = std::make_unique<std::string>(std::string("o") + "ff");
        auto extension = std::make_unique<std::string>("." + *name);
        FormatInfo info = off_format::format_info();
        info.name = *name;
        info.extensions = {*extension};
        auto registered = register_format(std::move(info));
        for (std::string* built : {name.get(), extension.get()}) built->assign(built->size(), '#');
        name.reset();
        extension.reset();
        if (!registered) throw std::runtime_error(registered.error().to_string());
        return *format_by_name("off");
    }();
    return format;
}

// A unit cube of six quads, as a modeller writes OFF: a comment, one quad a line.
constexpr std::string_view kCube = R"(OFF
# a unit cube
8 6 12
0 0 0
1 0 0
1 1 0
0 1 0
0 0 1
1 0 1
1 1 1
0 1 1
4 0 3 2 1
4 4 5 6 7
4 0 1 5 4
4 2 3 7 6
4 1 2 6 5
4 0 4 7 3
)";

std::vector<std::byte> bytes_of(std::string_view text) {
    const auto* data = reinterpret_cast<const std::byte*>(text.data());
    return {data, data + text.size()};
}

void write_text(const fs::path& path, std::string_view text) {
    std::ofstream(path, std::ios::binary) << text;
}

Expected<cast::Document> read_off(std::span<const std::byte> bytes, Diagnostics& diagnostics) {
    Context context;
    context.name = "cube.off";
    return formats::read(off(), {bytes, nullptr}, context, diagnostics);
}

std::vector<std::byte> write_as(const FormatInfo& format, const cast::Document& document,
                                Diagnostics& diagnostics) {
    BufferSink sink;
    Context context;
    context.name = "out";
    auto written = formats::write(format, document, sink, context, diagnostics);
    EXPECT_TRUE(written) << (written ? "" : written.error().to_string());
    return std::move(sink.bytes);
}

bool has_rule(const Diagnostics& diagnostics, std::string_view rule) {
    for (const Diagnostic& d : diagnostics.shown())
        if (d.rule == rule) return true;
    return false;
}

TEST(RegisteredFormat, IsFoundByNameExtensionAndNotTwice) {
    const FormatInfo* registered = &off();
    EXPECT_EQ(format_by_name("off"), registered);
    EXPECT_EQ(format_for_path("meshes/Cube.OFF"), registered);
    EXPECT_EQ(file_stem("meshes/cube.off"), "cube");
    EXPECT_EQ(all_formats().back().get().name, "off");

    auto again = register_format(off_format::format_info());
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().rule, "registry.format");
    EXPECT_NE(again.error().message.find("'off' is registered already"), std::string::npos);

    FormatInfo stealer = off_format::format_info();
    stealer.name = "stealer";
    stealer.extensions = {".cast"};
    auto taken = register_format(stealer);
    ASSERT_FALSE(taken);
    EXPECT_NE(taken.error().message.find("'.cast' is format 'cast''s already"), std::string::npos);

    stealer.extensions = {"obj"};
    EXPECT_FALSE(register_format(stealer));
    stealer.extensions = {".OBJ"};  // file names are matched in lower case: it would never match
    EXPECT_FALSE(register_format(stealer));
    stealer.extensions = {".stealer"};
    stealer.write = nullptr;
    EXPECT_FALSE(register_format(stealer));
    stealer.name = "";
    EXPECT_FALSE(register_format(stealer));
    EXPECT_EQ(format_by_name("stealer"), nullptr);
}

TEST(RegisteredFormat, ReadsIntoCastAndWritesBackByteForByte) {
    Diagnostics diagnostics;
    auto cube = read_off(bytes_of(kCube), diagnostics);
    ASSERT_TRUE(cube) << cube.error().to_string();
    EXPECT_TRUE(has_rule(diagnostics, "off.polygon"));
    const cast::ConstMesh mesh = std::as_const(*cube).models().at(0).meshes().at(0);
    EXPECT_EQ(mesh.vertex_count(), 8u);
    EXPECT_EQ(mesh.face_count(), 12u);  // six quads, two triangles each
    EXPECT_EQ(mesh.positions()[6], glm::vec3(1, 1, 1));

    // OFF → Cast → OFF, then again: the second OFF is the first, byte for byte.
    const std::vector<std::byte> cast_bytes = write_as(cast_format(), *cube, diagnostics);
    auto from_cast = formats::read(cast_format(), {cast_bytes, nullptr}, {}, diagnostics);
    ASSERT_TRUE(from_cast);
    const std::vector<std::byte> first = write_as(off(), *from_cast, diagnostics);
    auto reread = read_off(first, diagnostics);
    ASSERT_TRUE(reread);
    EXPECT_EQ(write_as(off(), *reread, diagnostics), first);
}

TEST(RegisteredFormat, NamesWhatItCannotHold) {
    Diagnostics diagnostics;
    const cast::Document original = character();
    const std::vector<std::byte> bytes = write_as(off(), original, diagnostics);
    bool named_normals = false;
    for (const Diagnostic& d : diagnostics.shown())
        if (d.rule == "off.dropped" && d.path == "root[0]/model[0]/mesh[0]")
            named_normals = d.message.find(" vn") != std::string::npos;
    EXPECT_TRUE(named_normals);
    auto back = read_off(bytes, diagnostics);
    ASSERT_TRUE(back);
    EXPECT_EQ(std::as_const(*back).models().at(0).meshes().at(0).vertex_count(),
              original.models().at(0).meshes().at(0).vertex_count());
}

TEST(RegisteredFormat, ErrorsNameTheFileOffsetPathAndId) {
    Diagnostics diagnostics;
    auto bad_index = read_off(bytes_of("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n"), diagnostics);
    ASSERT_FALSE(bad_index);
    EXPECT_EQ(bad_index.error().to_string(),
              "cube.off: offset 0x22: face[0]: vertex 7 of 3 [off.index]");
    auto huge = read_off(bytes_of("OFF\n4000000000 0 0\n"), diagnostics);
    ASSERT_FALSE(huge);
    EXPECT_EQ(huge.error().rule, "off.count");
}

#if defined(__linux__) && !defined(CASTKIT_ADDRESS_SANITIZER) && !defined(__SANITIZE_THREAD__)
// How reading the OFF file at `path` went in a child process of its own: its peak resident
// memory in KiB (wait4 gives that one child's), and its error's id ("" when it read).
struct ChildRead {
    long peak_kib = -1;
    std::string rule;
};

ChildRead read_in_child(const fs::path& path) {
    off();
    int channel[2];
    if (pipe(channel) != 0) return {};
    const pid_t child = fork();
    if (child == 0) {
        close(channel[0]);
        Diagnostics diagnostics;
        auto read = formats::read_file(off(), path, formats::context_for(path), diagnostics);
        const std::string rule = read ? "" : read.error().rule;
        const bool sent = write(channel[1], rule.data(), rule.size()) == ssize_t(rule.size());
        _exit(sent ? 0 : 1);
    }
    close(channel[1]);
    ChildRead out;
    char text[256];
    for (ssize_t got; (got = read(channel[0], text, sizeof text)) > 0;) out.rule.append(text, got);
    close(channel[0]);
    int status = 0;
    rusage usage{};
    if (child > 0 && wait4(child, &status, 0, &usage) == child && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0)
        out.peak_kib = usage.ru_maxrss;
    return out;
}

// 65,537 vertices (so the document's faces need 4-byte indices), then `faces` written by `face`.
template <class Face>
void write_large_off(const fs::path& path, std::uint32_t faces, Face face) {
    std::ofstream out(path, std::ios::binary);
    out << "OFF\n65537 " << faces << " 0\n";
    for (int i = 0; i < 65537; ++i) out << "0 0 0\n";
    for (std::uint32_t i = 0; i < faces; ++i) face(out, i);
}

// One polygon of 12 million corners in 24 MB becomes 36 million indices: a fan of 144 MB, kept
// twice (the reader's and the document's), and the corners once more (310 MB before).
TEST(RegisteredFormatMemory, APolygonOfMillionsOfCornersIsRefusedWithinTheBudget) {
    const fs::path dir = temp_dir("registered-format-memory");
    const fs::path path = dir / "fan.off";
    constexpr std::uint32_t kCorners = 12'000'000;
    write_large_off(path, 1, [&](std::ostream& out, std::uint32_t) {
        out << kCorners << " 65536";
        for (std::uint32_t i = 1; i < kCorners; ++i) out << " 0";
        out << "\n";
    });
    const ChildRead read = read_in_child(path);
    ASSERT_GT(read.peak_kib, 0);
    EXPECT_EQ(read.rule, "off.budget");
    EXPECT_LT(read.peak_kib, promised_kib(fs::file_size(path)))
        << "peaked at " << read.peak_kib << " KiB";
}

// A large file of triangles, as a modeller writes them, is read whole within the budget.
TEST(RegisteredFormatMemory, MillionsOfTrianglesAreReadWithinTheBudget) {
    const fs::path dir = temp_dir("registered-format-memory");
    const fs::path path = dir / "triangles.off";
    write_large_off(path, 200'000, [](std::ostream& out, std::uint32_t i) {
        out << "3 " << i % 65537 << " " << (i + 1) % 65537 << " " << (i + 2) % 65537 << "\n";
    });
    const ChildRead read = read_in_child(path);
    ASSERT_GT(read.peak_kib, 0);
    EXPECT_EQ(read.rule, "");
    EXPECT_LT(read.peak_kib, promised_kib(fs::file_size(path)))
        << "peaked at " << read.peak_kib << " KiB";
}
#endif

// Converts every file in `from` into `to` as `format`, as a folder run does (batch::plan, then
// batch::convert of each task); how many files the plan took.
std::size_t convert_folder(const fs::path& from, const fs::path& to, const std::string& format) {
    batch::Options options;
    options.input_dir = from;
    options.output_dir = to;
    options.to = format;
    Diagnostics diagnostics;
    auto plan = batch::plan(options, diagnostics);
    EXPECT_TRUE(plan) << (plan ? "" : plan.error().to_string());
    if (!plan) return 0;
    for (const batch::Task& task : plan->tasks)
        EXPECT_NE(batch::convert(options, task, plan->outputs).status, batch::Status::Failed)
            << task.input;
    return plan->tasks.size();
}

// The document a file the batch wrote holds.
Expected<cast::Document> read_output(const FormatInfo& format, const fs::path& path) {
    Diagnostics ignored;
    return formats::read_file(format, path, formats::context_for(path), ignored);
}

TEST(RegisteredFormat, ConvertsAFolderInABatch) {
    off();
    const fs::path dir = temp_dir("registered-format-batch");
    fs::create_directories(dir / "in");
    write_text(dir / "in" / "cube.off", kCube);
    write_text(dir / "in" / "triangle.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");

    ASSERT_EQ(convert_folder(dir / "in", dir / "glb", "glb"), 2u);
    auto glb = read_output(glb_format(), dir / "glb" / "cube.glb");
    ASSERT_TRUE(glb) << glb.error().to_string();
    EXPECT_EQ(std::as_const(*glb).models().at(0).meshes().at(0).face_count(), 12u);

    // And back: the folder of glb files to OFF.
    ASSERT_EQ(convert_folder(dir / "glb", dir / "off", "off"), 2u);
    auto triangle = read_output(off(), dir / "off" / "triangle.off");
    ASSERT_TRUE(triangle) << triangle.error().to_string();
    EXPECT_EQ(std::as_const(*triangle).models().at(0).meshes().at(0).vertex_count(), 3u);
}

// What a fuzzer finds, on every cut and a thousand flipped bits of the cube (the same checks as
// fuzz/off_fuzzer.cpp): a clean error naming where, or a document that survives every step.
std::string damage_problem(std::span<const std::byte> bytes) {
    const fuzz::Outcome outcome = fuzz::check_reader("off", cast::Bytes(bytes));
    if (!outcome.broken.empty()) return outcome.broken;
    if (outcome.error && (outcome.error->offset == Diagnostic::kNoOffset ||
                          outcome.error->path.empty() || outcome.error->rule.empty()))
        return "an error that does not say where: " + outcome.error->to_string();
    return {};
}

TEST(RegisteredFormat, SurvivesTheFuzzHarnessOnDamagedFiles) {
    off();
    const std::vector<std::byte> cube = bytes_of(kCube);
    for (std::size_t size = 0; size < cube.size(); ++size)
        ASSERT_EQ(damage_problem(std::span(cube).first(size)), "") << "cut to " << size;
    std::mt19937 random(47);
    for (int flip = 0; flip < 1000; ++flip) {
        std::vector<std::byte> damaged = cube;
        const std::size_t bit = random() % (damaged.size() * 8);
        damaged[bit / 8] ^= std::byte(1u << (bit % 8));
        ASSERT_EQ(damage_problem(damaged), "") << "bit " << bit << " flipped";
    }
}

}  // namespace
}  // namespace castkit::test::registered_format_test
