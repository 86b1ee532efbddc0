// The castkit CLI's commands. Each file registers its subcommands on the app; each command's
// callback stores its exit code (0 success, 1 invalid input, 2 usage) in `exit_code`.
#pragma once

#include <CLI/CLI.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/formats.hpp>
#include <string>

namespace castkit::cli {

enum ExitCode { kSuccess = 0, kInvalidInput = 1, kUsage = 2 };

void register_cast_commands(CLI::App& app, int& exit_code);
void register_validate_commands(CLI::App& app, int& exit_code);
void register_anim_commands(CLI::App& app, int& exit_code);
void register_convert_command(CLI::App& app, int& exit_code);

// Reads any supported format (chosen by extension, or `format` when not empty) into a
// document, printing warnings to stderr. Errors are printed and returned as nullopt.
std::optional<cast::Document> load(const std::string& path, const std::string& format);
void print_diagnostics(const Diagnostics& diagnostics);
// The format `name` names, else the one `path`'s extension names ("-" is Cast); prints why
// when there is none.
const FormatInfo* pick_format(const std::string& path, const std::string& name);

}  // namespace castkit::cli
