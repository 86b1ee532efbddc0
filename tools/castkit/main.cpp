// castkit: read, write, inspect and convert Cast files and the formats around them.
#include <fmt/format.h>

#include <castkit/platform.hpp>
#include <castkit/version.hpp>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "castkit_version.hpp"
#include "commands.hpp"
#include "program/program.hpp"

namespace {

// The compiler that built this program, for --version.
std::string compiler() {
#if defined(__clang__)
    return fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#elif defined(_MSC_VER)
    return fmt::format("MSVC {}", _MSC_FULL_VER);
#else
    return "an unknown compiler";
#endif
}

// The system the program was built for.
constexpr const char* kTarget =
#if defined(_WIN32)
    "Windows";
#elif defined(__APPLE__)
    "macOS";
#else
    "Linux";
#endif

// The subcommand names, comma-separated, for the unknown-command message.
std::string command_list(CLI::App& app) {
    std::string names;
    for (const CLI::App* command : app.get_subcommands({}))
        names += (names.empty() ? "" : ", ") + command->get_name();
    return names;
}

// True (having said so) when the first argument is a word that names no command. CLI11 would
// say "A subcommand is required", which reads as if none had been given.
bool unknown_command(CLI::App& app, const std::vector<std::string>& arguments) {
    if (arguments.size() < 2 || arguments[1].empty() || arguments[1][0] == '-') return false;
    for (const CLI::App* command : app.get_subcommands({}))
        if (command->check_name(arguments[1])) return false;
    fmt::print(stderr, "castkit: unknown command '{}'\ncommands: {}\nRun with --help for more.\n",
               arguments[1], command_list(app));
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // Ctrl-C or SIGTERM during a conversion leaves no temporary file beside the output.
    castkit::platform::remove_temporaries_on_interrupt();
    CLI::App app{"castkit: inspect, validate and convert Cast 3D assets", "castkit"};
    app.require_subcommand(1);
    // CLI11 reads "/x" as an option on Windows by default; castkit's options are "--x" there too,
    // and "/x" is a path (Wine, MSYS).
    app.allow_windows_style_options(false);
    app.set_version_flag("--version",
                         fmt::format("castkit {} (commit {}, {}, {})", CASTKIT_VERSION_STRING,
                                     CASTKIT_COMMIT, compiler(), kTarget));
    castkit::cli::add_examples(
        &app, {"castkit info examples/data/hero/hero.cast",
               "castkit convert examples/data/hero/hero.cast examples/data/hero/hero_walk.seanim "
               "-o scratch/hero.glb",
               "castkit convert --help"});
    int exit_code = castkit::cli::kSuccess;
    castkit::cli::register_cast_commands(app, exit_code);
    castkit::cli::register_validate_commands(app, exit_code);
    castkit::cli::register_anim_commands(app, exit_code);
    castkit::cli::register_diff_command(app, exit_code);
    castkit::cli::register_convert_command(app, exit_code);
#ifdef CASTKIT_HAVE_VIEWER
    castkit::cli::register_view_command(app, exit_code);
#endif
    try {
        // UTF-8 arguments on every system (file names outside the Windows code page).
        std::vector<std::string> arguments = castkit::program::utf8_arguments(argc, argv);
        if (unknown_command(app, arguments)) return castkit::cli::kUsage;
        std::vector<char*> pointers;
        for (std::string& argument : arguments) pointers.push_back(argument.data());
        app.parse(static_cast<int>(pointers.size()), pointers.data());
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return castkit::cli::kUsage;
    } catch (const std::bad_alloc&) {
        // Commands name the file they were reading (load()); this is the last resort.
        std::fputs("castkit: out of memory\n", stderr);
        return castkit::cli::kInvalidInput;
    }
    return exit_code;
}
