// --events FILE.json (convert, bake): every clip's events beside the output (docs/events.md).
#include <fmt/format.h>

#include <castkit/platform.hpp>
#include <castkit/scene/events.hpp>

#include "commands.hpp"

namespace castkit::cli {

void add_events_option(CLI::App* command, std::string& target, bool& beside) {
    CLI::Option* file = command->add_option(
        "--events", target,
        "Also write every clip's events (notification tracks: name, frame, time in seconds) to "
        "this JSON file, for engines that read sidecars; never replaces a file this run did not "
        "write");
    command
        ->add_flag("--events-beside", beside,
                   "As --events, into a file beside each output named for it (out/hero.glb: "
                   "out/hero.events.json); with a folder, one per output")
        ->excludes(file);
}

bool place_events_beside(std::string& events, bool beside, const std::string& output,
                         int& exit_code) {
    if (!beside) return true;
    if (output == "-") {
        fmt::print(stderr,
                   "castkit: --events-beside needs an output file to name the events for: "
                   "with the output on standard output, give --events FILE.json\n");
        fail(exit_code, kUsage);
        return false;
    }
    events = platform::utf8_of(scene::events_beside(platform::path_from_utf8(output)));
    return true;
}

void write_events_file(const cast::Document& document, const std::string& path,
                       SideOutputs& outputs, int& exit_code) {
    Diagnostics diagnostics;
    auto written =
        scene::write_events(document, platform::path_from_utf8(path), outputs, diagnostics);
    print_diagnostics(diagnostics);
    if (written) return;
    fmt::print(stderr, "{}\n", written.error().to_string());
    fail(exit_code, kInvalidInput);
}

}  // namespace castkit::cli
