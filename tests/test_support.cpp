#include "test_support.hpp"

#ifdef _WIN32
#include <process.h>
#else
#include <sys/wait.h>
#include <unistd.h>
#endif
#if defined(__linux__)
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
extern char** environ;
#endif

#include <fmt/format.h>

#include <castkit/anim/budget.hpp>
#include <castkit/cast/document.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace castkit::test {

std::filesystem::path fixtures() { return CASTKIT_FIXTURES; }

int process_id() {
#ifdef _WIN32
    return _getpid();
#else
    return static_cast<int>(::getpid());
#endif
}

int exit_code_of(int system_status) {
#ifdef _WIN32
    return system_status;  // the program's exit code itself
#else
    return WIFEXITED(system_status) ? WEXITSTATUS(system_status) : -1;
#endif
}

int run_shell(const std::string& command) {
#ifdef _WIN32
    // cmd.exe /c drops the first and the last quote of a line that starts with one: wrap it.
    // The command is UTF-8; _wsystem passes it on whole, where system() would go through the
    // ANSI code page.
    const std::string line = fmt::format("\"{}\"", command);
    const std::wstring wide =
        std::filesystem::path(std::u8string(line.begin(), line.end())).native();
    return exit_code_of(_wsystem(wide.c_str()));
#else
    return exit_code_of(std::system(command.c_str()));
#endif
}

std::vector<std::byte> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    if (!chars.empty()) std::memcpy(bytes.data(), chars.data(), chars.size());  // never null
    return bytes;
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::byte> glb(std::string json, std::vector<std::byte> bin) {
    while (json.size() % 4) json += ' ';
    while (bin.size() % 4) bin.push_back(std::byte{0});
    std::vector<std::byte> out(12 + 8 + json.size() + 8 + bin.size());
    auto put = [&](std::size_t at, std::uint32_t value) {
        std::memcpy(out.data() + at, &value, 4);
    };
    put(0, 0x46546C67u);
    put(4, 2);
    put(8, static_cast<std::uint32_t>(out.size()));
    put(12, static_cast<std::uint32_t>(json.size()));
    put(16, 0x4E4F534Au);
    std::memcpy(out.data() + 20, json.data(), json.size());
    put(20 + json.size(), static_cast<std::uint32_t>(bin.size()));
    put(24 + json.size(), 0x004E4942u);
    if (!bin.empty()) std::memcpy(out.data() + 28 + json.size(), bin.data(), bin.size());
    return out;
}

namespace {
// Removes the directories temp_dir made when the test process exits.
struct TempDirs {
    std::vector<std::filesystem::path> made;
    ~TempDirs() {
        std::error_code ignored;
        for (const auto& dir : made) std::filesystem::remove_all(dir, ignored);
    }
};
TempDirs temp_dirs;
}  // namespace

std::filesystem::path temp_dir(const std::string& name) {
    // The pid keeps concurrent runs (several build trees, ctest -j) out of each other's way.
    auto dir = std::filesystem::temp_directory_path() /
               ("castkit-test-" + name + "-" + std::to_string(process_id()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    temp_dirs.made.push_back(dir);
    return dir;
}

namespace {
std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

CommandResult run_cli(const std::string& arguments) { return run_cli_in("", arguments); }

CommandResult run_cli_in(const std::string& prefix, const std::string& arguments,
                         const std::string& stdout_redirect) {
    static int counter = 0;
    auto dir = std::filesystem::temp_directory_path();
    std::string stem =
        "castkit-cli-" + std::to_string(process_id()) + "-" + std::to_string(counter++);
    auto out = dir / (stem + ".out");
    auto err = dir / (stem + ".err");
    const std::string redirect =
        stdout_redirect.empty() ? fmt::format(">\"{}\"", out.string()) : stdout_redirect;
    std::string command = prefix + "\"" + CASTKIT_CLI + "\" " + arguments + " " + redirect +
                          " 2>\"" + err.string() + "\"";
    CommandResult result{run_shell(command), stdout_redirect.empty() ? slurp(out) : std::string(),
                         slurp(err)};
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return result;
}

namespace {
void tally(const cast::Node& node, HashTally& out) {
    out.hashes.insert(node.hash());
    ++out.nodes;
    for (const cast::Node& child : node.children()) tally(child, out);
}
}  // namespace

HashTally tally_hashes(const cast::Document& document) {
    HashTally out;
    for (const cast::Node& root : document.roots()) tally(root, out);
    return out;
}

Expected<cast::Document> open_cast(const std::filesystem::path& path) {
    Diagnostics dropped;
    return cast::open(path, dropped);
}

Diagnostics validation_findings(const cast::Document& document,
                                const cast::ValidateOptions& options) {
    Diagnostics findings;
    cast::validate(document, findings, options);
    return findings;
}

long promised_kib(std::uintmax_t bytes) {
    return static_cast<long>(anim::memory_budget(bytes) / 1024);
}

#if defined(__linux__)
CliPeak cli_peak(const std::vector<std::string>& arguments,
                 const std::filesystem::path& stderr_file) {
    std::vector<std::string> words{CASTKIT_CLI};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    const std::string errors = stderr_file.empty() ? "/dev/null" : stderr_file.string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    // The child's peak starts from this process's (it is spawned from this address space): set
    // that to this process's present size first, not the peak of the tests that ran before.
    std::ofstream("/proc/self/clear_refs") << "5";
    pid_t child = 0;
    const int spawned = posix_spawn(&child, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return {};
    int status = 0;
    rusage usage{};
    if (wait4(child, &status, 0, &usage) != child) return {};
    std::ostringstream written;
    if (!stderr_file.empty()) written << std::ifstream(stderr_file).rdbuf();
    return {.peak_kib = usage.ru_maxrss,
            .exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1,
            .errors = written.str()};
}
#endif

}  // namespace castkit::test
