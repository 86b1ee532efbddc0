#include "test_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace castkit::test {

std::filesystem::path fixtures() { return CASTKIT_FIXTURES; }

std::vector<std::byte> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::memcpy(bytes.data(), chars.data(), chars.size());
    return bytes;
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
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
               ("castkit-test-" + name + "-" + std::to_string(::getpid()));
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
                         const std::string& stdout_path) {
    static int counter = 0;
    auto dir = std::filesystem::temp_directory_path();
    std::string stem =
        "castkit-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    auto out = dir / (stem + ".out");
    auto err = dir / (stem + ".err");
    const std::string target = stdout_path.empty() ? out.string() : stdout_path;
    std::string command = prefix + "\"" + CASTKIT_CLI + "\" " + arguments + " >\"" + target +
                          "\" 2>\"" + err.string() + "\"";
    int status = std::system(command.c_str());
    CommandResult result{WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                         stdout_path.empty() ? slurp(out) : std::string(), slurp(err)};
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return result;
}

}  // namespace castkit::test
