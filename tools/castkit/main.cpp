// castkit: read, write, inspect and convert Cast files and the formats around them.
#include <fmt/format.h>

#include "commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{"castkit: inspect, validate and convert Cast 3D assets", "castkit"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "castkit 0.1.0");
    int exit_code = castkit::cli::kSuccess;
    castkit::cli::register_cast_commands(app, exit_code);
    castkit::cli::register_validate_commands(app, exit_code);
    castkit::cli::register_anim_commands(app, exit_code);
    castkit::cli::register_convert_command(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return castkit::cli::kUsage;
    }
    return exit_code;
}
