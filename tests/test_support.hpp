// Helpers shared by the tests: fixture paths, file I/O and running the CLI.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/cast/validate.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

// Where the checkout and the build's programs are: tests/CMakeLists.txt generates their
// definitions (test_paths.cpp), so that no other test file names a path of its clone.
namespace castkit::test::paths {
extern const char* const fixtures;
extern const char* const cli;
extern const char* const build_scene;
extern const char* const source_dir;
extern const char* const gltf_validator;  // used where CASTKIT_HAVE_GLTF_VALIDATOR is defined
}  // namespace castkit::test::paths
#define CASTKIT_FIXTURES ::castkit::test::paths::fixtures
#define CASTKIT_CLI ::castkit::test::paths::cli
#define CASTKIT_BUILD_SCENE ::castkit::test::paths::build_scene
#define CASTKIT_SOURCE_DIR ::castkit::test::paths::source_dir

// Defined in a build under AddressSanitizer (GCC says so with __SANITIZE_ADDRESS__, clang with
// __has_feature), where memory figures are the sanitizer's more than castkit's.
#if defined(__SANITIZE_ADDRESS__)
#define CASTKIT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CASTKIT_ADDRESS_SANITIZER 1
#endif
#endif

namespace castkit::test {

std::filesystem::path fixtures();
// This process's id (keeps files of concurrent test processes apart).
int process_id();
// The exit code in what std::system or pclose returned; -1 when the program did not exit.
int exit_code_of(int system_status);
// Runs `command` (UTF-8) in the platform's shell (sh, or cmd.exe on Windows); its exit code.
int run_shell(const std::string& command);
std::vector<std::byte> read_bytes(const std::filesystem::path& path);
void write_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes);
// A GLB of `json` (padded with spaces) and `bin` (padded with zeros).
std::vector<std::byte> glb(std::string json, std::vector<std::byte> bin);
// A fresh empty directory for one test.
std::filesystem::path temp_dir(const std::string& name);

struct CommandResult {
    int exit_code;
    std::string out;
    std::string err;
};
// Runs the castkit CLI with `arguments` (a shell-quoted UTF-8 string).
CommandResult run_cli(const std::string& arguments);
// run_cli with `prefix` before the command (such as "cd DIR && ") and, when `stdout_redirect` is
// not empty, it as the shell's redirection of standard output (such as `>"FILE"`) instead of
// capturing it.
CommandResult run_cli_in(const std::string& prefix, const std::string& arguments,
                         const std::string& stdout_redirect = "");

// The memory promise of docs/security.md for an input of `bytes` (anim::memory_budget: 8 bytes
// a byte plus 64 MiB), in KiB as cli_peak measures.
long promised_kib(std::uintmax_t bytes);

#if defined(__linux__)
// `castkit <arguments>` run once: its peak resident memory in KiB (-1 when it could not run),
// its exit code, and its standard error (written to `stderr_file` when one is given, and read
// back), its output discarded. Linux only: wait4 gives the rusage of that one child (whose peak
// counts this process's present size, not its past peak: /proc/self/clear_refs).
struct CliPeak {
    long peak_kib = -1;
    int exit_code = -1;
    std::string errors;
};
CliPeak cli_peak(const std::vector<std::string>& arguments,
                 const std::filesystem::path& stderr_file = {});
#endif

// Every node's hash in `document`, and how many nodes there are: the hashes are unique when
// hashes.size() == nodes.
struct HashTally {
    std::set<std::uint64_t> hashes;
    std::size_t nodes = 0;
};
HashTally tally_hashes(const cast::Document& document);

// The Cast reader for a test that checks the document, not the reader's warnings (the reader's
// own tests check those, each with a sink of its own): the warnings go to a sink dropped on
// return.
Expected<cast::Document> open_cast(const std::filesystem::path& path);
// validate() into a sink of its own: the validator's findings alone.
Diagnostics validation_findings(const cast::Document& document,
                                const cast::ValidateOptions& options = {});
template <class Input>
Expected<cast::Document> read_cast(Input&& input) {
    Diagnostics dropped;
    return cast::read(std::forward<Input>(input), "", dropped);
}

}  // namespace castkit::test
