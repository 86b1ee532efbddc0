// The registry owns what it keeps (issue 58, item 1), each probe written as a plug-in would write
// it: names and extensions built at run time and freed, registering from 8 threads while others
// look formats up, names that differ only in case, extensions no file name ends with, a family
// castkit named, and a plug-in that borrows its input and throws (examples/careless_format.cpp).
// In the program of registered_format_test: the registry is the process's.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <castkit/batch.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/registry.hpp>
#include <castkit/version.hpp>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../../examples/careless_format.hpp"
#include "../cli/character.hpp"
#include "../test_support.hpp"

namespace castkit::test::plugin_registry_test {
namespace {

namespace fs = std::filesystem;

Expected<cast::Document> read_nothing(const cast::SharedBytes&, const ReadContext&, Diagnostics&) {
    return cast::Document();
}
Expected<void> write_nothing(const cast::Document&, Sink&, const WriteContext&, Diagnostics&) {
    return {};
}

// A format that reads and writes nothing, named `name` with the one extension `extension`.
FormatInfo plain(std::string name, std::string extension) {
    return {.name = std::move(name),
            .extensions = {std::move(extension)},
            .read = read_nothing,
            .write = write_nothing};
}

const FormatInfo& careless() {
    static const FormatInfo& format = []() -> const FormatInfo& {
        if (auto registered = register_format(careless_format::format_info()); !registered)
            throw std::runtime_error(registered.error().to_string());
        return *format_by_name("careless");
    }();
    return format;
}

std::string refusal(const FormatInfo& format) {
    auto registered = register_format(format);
    if (registered) return "registered";
    EXPECT_EQ(registered.error().rule, "registry.format");
    return registered.error().message;
}

TEST(PluginRegistry, KeepsCopiesOfNamesBuiltAtRunTime) {
    {
        auto name = std::make_unique<std::string>("runtime-" + std::to_string(58));
        auto extension = std::make_unique<std::string>(".rt" + std::to_string(58));
        FormatInfo info = plain("", "");
        info.name = *name;
        info.extensions = {*extension};
        ASSERT_TRUE(register_format(info));
        // What a plug-in loader's unloading does to the strings, made visible without ASan.
        for (std::string* built : {name.get(), extension.get()}) built->assign(built->size(), '#');
    }
    const FormatInfo* found = format_by_name("runtime-58");
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(format_for_path("any/file.rt58"), found);
    EXPECT_EQ(format_for_path("any/file.cast"), &cast_format());
    EXPECT_EQ(file_stem("a/b.rt58"), "b");
}

// 8 threads each register 25 formats of names built at run time while looking formats up; every
// one is registered once and found after.
TEST(PluginRegistry, RegistersFromEightThreadsBesideLookups) {
    constexpr int kThreads = 8, kEach = 25;
    std::atomic<int> refused = 0, lost_lookups = 0;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i) {
                const std::string id = std::to_string(t) + "x" + std::to_string(i);
                if (!register_format(plain("thread-" + id, ".t" + id))) ++refused;
                if (format_for_path("scene.glb") != &glb_format() ||
                    format_by_name("thread-" + id) == nullptr || all_formats().size() < 8)
                    ++lost_lookups;
            }
        });
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(refused, 0);
    EXPECT_EQ(lost_lookups, 0);
    for (int t = 0; t < kThreads; ++t)
        for (int i = 0; i < kEach; ++i) {
            const std::string id = std::to_string(t) + "x" + std::to_string(i);
            const FormatInfo* format = format_by_name("thread-" + id);
            ASSERT_NE(format, nullptr) << id;
            EXPECT_EQ(format_for_path("f.t" + id), format);
        }
    const auto all = all_formats();
    const auto threaded = std::count_if(all.begin(), all.end(), [](const FormatInfo& format) {
        return format.name.starts_with("thread-");
    });
    EXPECT_EQ(threaded, kThreads * kEach);
}

TEST(PluginRegistry, ComparesNamesBlindToCase) {
    ASSERT_TRUE(register_format(plain("Mixed", ".mixed")));
    EXPECT_EQ(format_by_name("mixed"), format_by_name("MIXED"));
    EXPECT_NE(format_by_name("mixed"), nullptr);
    EXPECT_EQ(format_by_name("GLB"), &glb_format());
    EXPECT_NE(refusal(plain("MIXED", ".other")).find("'Mixed' is registered already"),
              std::string::npos);
    EXPECT_NE(refusal(plain("CAST", ".notcast")).find("'cast' is registered already"),
              std::string::npos);
}

TEST(PluginRegistry, RefusesExtensionsNoFileNameEndsWith) {
    for (const std::string& bad :
         {std::string(".a/b"), std::string(".x y"), std::string(".a\\b"), std::string(".c:d"),
          std::string("."), std::string(".."), std::string(".a..b"), std::string(".end."),
          std::string(".t\tb"), std::string(".nul\0x", 6), std::string(".ctl\x01"),
          std::string(".q?"), std::string(".Upper")})
        EXPECT_NE(refusal(plain("bad-extension", bad)).find("a file name can end with"),
                  std::string::npos)
            << bad;
    FormatInfo beside = plain("bad-beside", ".good");
    beside.written_beside = ".b/in";
    EXPECT_NE(refusal(beside).find("'.b/in'"), std::string::npos);
    EXPECT_EQ(format_by_name("bad-extension"), nullptr);
    EXPECT_EQ(format_by_name("bad-beside"), nullptr);
    EXPECT_EQ(refusal(plain("good-extension", ".tar.gz2")), "registered");
    EXPECT_EQ(format_for_path("a.TAR.GZ2"), format_by_name("good-extension"));
}

Expected<void> convert_nothing(std::span<const std::byte>, std::string_view, const FormatInfo&,
                               const fs::path&, Diagnostics&) {
    return {};
}

// castkit's DMF writes DMF into every member of its family: a plug-in joining it would get DMF
// written under its own extension. A family is named by its first member only.
TEST(PluginRegistry, RefusesAFamilyAnotherFormatNamed) {
    FormatInfo joiner = plain("dmf-joiner", ".joiner");
    joiner.family = "dmf";
    joiner.convert_in_family = convert_nothing;
    EXPECT_NE(refusal(joiner).find("family 'dmf' is named by format 'dmf' already"),
              std::string::npos);
    joiner.family = "DMF";
    EXPECT_NE(refusal(joiner).find("is named by format 'dmf'"), std::string::npos);
    joiner.convert_in_family = nullptr;
    EXPECT_NE(refusal(joiner).find("both a family and a convert_in_family"), std::string::npos);
    joiner.family.clear();
    joiner.convert_in_family = convert_nothing;
    EXPECT_NE(refusal(joiner).find("both a family and a convert_in_family"), std::string::npos);
    EXPECT_EQ(format_by_name("dmf-joiner"), nullptr);

    FormatInfo first = plain("own-family", ".ownfamily");
    first.family = "own";
    first.convert_in_family = convert_nothing;
    EXPECT_EQ(refusal(first), "registered");
    FormatInfo second = plain("own-family-2", ".ownfamily2");
    second.family = "own";
    second.convert_in_family = convert_nothing;
    EXPECT_NE(refusal(second).find("named by format 'own-family'"), std::string::npos);
}

// A Cast file under the careless format's extension.
fs::path careless_file(const fs::path& dir, const std::string& name) {
    fs::create_directories(dir);
    const fs::path path = dir / name;
    write_as(character(), dir / "tmp.cast");
    fs::rename(dir / "tmp.cast", path);
    return path;
}

// The careless reader's document views the mapped input without its owner: read_file unmaps it
// on return, and every payload would then point at unmapped pages (a SIGSEGV before).
TEST(PluginRegistry, ABorrowingReaderLeavesADocumentThatOutlivesItsInput) {
    const fs::path path = careless_file(temp_dir("plugin-borrows"), "hero.careless");
    Diagnostics diagnostics;
    auto document = formats::read_file(careless(), path, formats::context_for(path), diagnostics);
    ASSERT_TRUE(document) << document.error().to_string();
    const cast::Document expected = character();
    const auto mesh = std::as_const(*document).models().at(0).meshes().at(0);
    const auto original = expected.models().at(0).meshes().at(0);
    ASSERT_EQ(mesh.vertex_count(), original.vertex_count());
    for (std::size_t i = 0; i < mesh.vertex_count(); ++i)
        ASSERT_EQ(mesh.positions()[i], original.positions()[i]) << i;
    // And it writes as any document does.
    BufferSink sink;
    EXPECT_TRUE(formats::write(glb_format(), *document, sink, {}, diagnostics));
}

// Bytes the caller lent (a null owner) stay lent, not copied: the caller keeps them alive.
TEST(PluginRegistry, LentBytesStayViewedInPlace) {
    auto bytes = cast::write_to_buffer(character());
    ASSERT_TRUE(bytes);
    Diagnostics diagnostics;
    auto document = formats::read(careless(), {*bytes, nullptr}, {}, diagnostics);
    ASSERT_TRUE(document);
    const auto positions = std::as_const(*document).models().at(0).meshes().at(0).positions();
    const std::byte* at = positions.bytes().data();
    EXPECT_TRUE(at >= bytes->data() && at < bytes->data() + bytes->size());
}

void expect_exception(const Diagnostic& error, std::string_view file, std::string_view what) {
    EXPECT_EQ(error.rule, "registry.exception");
    EXPECT_EQ(error.file, file);
    EXPECT_NE(error.message.find(what), std::string::npos) << error.message;
}

TEST(PluginRegistry, AThrowingReadOrWriteIsAnError) {
    const fs::path dir = temp_dir("plugin-throws");
    const fs::path text = dir / "not.careless";
    std::ofstream(text) << "not a Cast file";
    Diagnostics diagnostics;
    auto read = formats::read_file(careless(), text, formats::context_for(text), diagnostics);
    ASSERT_FALSE(read);
    expect_exception(read.error(), formats::context_for(text).name,
                     "format 'careless' threw from its read: not a careless file");

    BufferSink sink;
    Context context;
    context.name = "out.careless";
    auto written = formats::write(careless(), character(), sink, context, diagnostics);
    ASSERT_FALSE(written);
    expect_exception(written.error(), "out.careless", "writing is not done yet");
    const fs::path output = dir / "out.careless";
    auto filed = formats::write_file(careless(), character(), output, formats::context_for(output),
                                     diagnostics);
    ASSERT_FALSE(filed);
    EXPECT_EQ(filed.error().rule, "registry.exception");
    EXPECT_FALSE(fs::exists(output));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(PluginRegistry, AThrowingListingOrConversionIsAnError) {
    FormatInfo thrower = plain("thrower", ".thrower");
    thrower.referenced_files = [](std::span<const std::byte>) -> std::vector<std::string> {
        throw std::runtime_error("cannot list");
    };
    thrower.family = "thrower";
    thrower.convert_in_family = [](std::span<const std::byte>, std::string_view, const FormatInfo&,
                                   const fs::path&, Diagnostics&) -> Expected<void> {
        throw 58;  // not even a std::exception
    };
    ASSERT_TRUE(register_format(thrower));
    const FormatInfo& format = *format_by_name("thrower");
    auto listed = formats::referenced_files(format, {});
    ASSERT_FALSE(listed);
    EXPECT_EQ(listed.error().rule, "registry.exception");
    Diagnostics warnings;
    auto converted =
        formats::convert_in_family(format, {}, "in.thrower", format, "out.thrower", warnings);
    ASSERT_FALSE(converted);
    expect_exception(converted.error(), "in.thrower", "not a std::exception");
    auto outside =
        formats::convert_in_family(format, {}, "in.thrower", glb_format(), "out.glb", warnings);
    ASSERT_FALSE(outside);
    EXPECT_EQ(outside.error().rule, "registry.format");

    // A batch lists a thrower's side files as none, and does not end the process.
    const fs::path dir = temp_dir("plugin-lists");
    fs::create_directories(dir / "in");
    std::ofstream(dir / "in/a.thrower") << "x";
    batch::Options options;
    options.input_dir = dir / "in";
    options.output_dir = dir / "out";
    options.to = "glb";
    batch::Task task;
    task.input = dir / "in/a.thrower";
    task.output = dir / "out/a.glb";
    EXPECT_TRUE(batch::side_files(options, task).empty());
}

// A folder converted on 8 threads through the careless format, which throws on every file (its
// writer always; its reader on files without the Cast magic): every file fails with the format's
// error, and the process goes on (std::terminate from a worker thread before).
TEST(PluginRegistry, ABatchOnThreadsReportsAThrowingFormat) {
    careless();
    const fs::path dir = temp_dir("plugin-batch");
    fs::create_directories(dir / "in");
    for (int i = 0; i < 8; ++i) write_as(character(), dir / "in" / (std::to_string(i) + ".cast"));
    for (int i = 0; i < 8; ++i) std::ofstream(dir / "in" / (std::to_string(i) + ".careless")) << i;
    // Into careless: 8 Cast files fail to write and 8 careless ones to read; into glb, the 8
    // careless ones to read.
    for (const auto& [to, failing] : {std::pair<std::string, std::size_t>{"careless", 16},
                                      std::pair<std::string, std::size_t>{"glb", 8}}) {
        batch::Options options;
        options.input_dir = dir / "in";
        options.output_dir = dir / ("out-" + to);
        options.to = to;
        Diagnostics diagnostics;
        auto plan = batch::plan(options, diagnostics);
        ASSERT_TRUE(plan) << plan.error().to_string();
        std::vector<batch::Result> results(plan->tasks.size());
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < plan->tasks.size(); ++i)
            threads.emplace_back(
                [&, i] { results[i] = batch::convert(options, plan->tasks[i], plan->outputs); });
        for (std::thread& thread : threads) thread.join();
        std::size_t thrown = 0;
        for (const batch::Result& result : results)
            for (const Diagnostic& error : result.errors)
                thrown +=
                    result.status == batch::Status::Failed && error.rule == "registry.exception";
        EXPECT_EQ(thrown, failing) << to;
    }
}

// A plug-in checks the castkit it is built against with CASTKIT_VERSION: the version the
// project says it is.
TEST(PluginRegistry, VersionMacroIsTheProjectsVersion) {
    const std::string parts = std::to_string(CASTKIT_VERSION_MAJOR) + "." +
                              std::to_string(CASTKIT_VERSION_MINOR) + "." +
                              std::to_string(CASTKIT_VERSION_PATCH);
    EXPECT_EQ(parts, CASTKIT_PROJECT_VERSION);
    EXPECT_STREQ(CASTKIT_VERSION_STRING, CASTKIT_PROJECT_VERSION);
    EXPECT_EQ(CASTKIT_VERSION,
              CASTKIT_VERSION_MAJOR * 10000 + CASTKIT_VERSION_MINOR * 100 + CASTKIT_VERSION_PATCH);
}

}  // namespace
}  // namespace castkit::test::plugin_registry_test
