// The castkit CLI's commands. Each file registers its subcommands on the app; each command's
// callback raises `exit_code` (0 success, 1 invalid input or failed output, 2 usage) with fail().
#pragma once

#include <CLI/CLI.hpp>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/io/side_outputs.hpp>
#include <castkit/registry.hpp>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace castkit::cli {

enum ExitCode { kSuccess = 0, kInvalidInput = 1, kUsage = 2 };

void register_cast_commands(CLI::App& app, int& exit_code);
void register_validate_commands(CLI::App& app, int& exit_code);
void register_anim_commands(CLI::App& app, int& exit_code);
// `castkit diff`: two clips or two rest poses compared pose by pose.
void register_diff_command(CLI::App& app, int& exit_code);
void register_convert_command(CLI::App& app, int& exit_code);
// `castkit view`, in builds with the viewer (CASTKIT_VIEWER).
void register_view_command(CLI::App& app, int& exit_code);

// Ends `command`'s --help with `examples`, commands that run as written from the top of
// castkit's source folder on its bundled files (tests/docs/help_test.py runs every one).
void add_examples(CLI::App* command, std::initializer_list<std::string_view> examples);

// Raises `exit_code` to `code`: a usage error outranks invalid input, which outranks success.
inline void fail(int& exit_code, ExitCode code) {
    if (exit_code < code) exit_code = code;
}

// The names --from and --to accept, for CLI11's check (an unknown name is a usage error).
std::vector<std::string> format_names();
// Two lines, "castkit reads: cast (.cast), …" and "castkit writes: …", from the registry's
// entries, for a message about a file of no format castkit reads or writes. O(formats).
std::string formats_read_and_written();
// --from or --to on `command`: one of the registered names.
CLI::Option* add_format_option(CLI::App* command, const char* flag, std::string& target,
                               const char* help);
// The format an output is written in: the one `name` (--to) names, else the one `path`'s
// extension names; Cast for "-". An unknown name or extension is printed and raises
// `exit_code` to 2 (usage).
const FormatInfo* output_format(const std::string& path, const std::string& name, int& exit_code);

// An input's bytes and the format they are read as.
struct Source {
    formats::Input input;
    const FormatInfo* format = nullptr;
    // The input's folder, opened before the input was read (Context::folder).
    std::shared_ptr<const platform::OpenedFolder> folder;
};
// Why an input cannot be read: the reader's finding, the exit code (1 for a path that is
// missing or cannot be read, 2 for a folder or bytes of no known format) and, when not empty,
// the words that say it better than the finding ("no such file or folder").
struct SourceError {
    Diagnostic diagnostic;
    ExitCode code = kInvalidInput;
    std::string words;
};
// Why `path` could not be read, `why` being the system's finding: a missing path (exit 1) and a
// folder (exit 2) said in words.
SourceError unreadable(const std::string& path, Diagnostic why);
// Reads `path` ("-" is standard input) and picks the format to read it as: the one
// `format_name` names (--from), else the one the extension names, else the one the first bytes
// name (format_for_bytes). O(1) for a file (mapped); O(size) for standard input and JSON.
std::variant<Source, SourceError> open_source(const std::string& path,
                                              const std::string& format_name);
// The format to read `input`, the bytes of `path`, as (open_source()'s choice), with the folder
// `path` was read from (null: none held).
std::variant<Source, SourceError> source_of(const std::string& path, formats::Input input,
                                            const std::string& format_name,
                                            std::shared_ptr<const platform::OpenedFolder> folder);
// Prints `error` for `path` to stderr: "castkit: PATH: WORDS", else the finding.
void print_source_error(const std::string& path, const SourceError& error);
// open_source(), printing why it failed (or that standard input did not fit in memory) and
// raising `exit_code` as load() does; nullopt then.
std::optional<Source> open_or_fail(const std::string& path, const std::string& format_name,
                                   int& exit_code);

// Everything pose, bake and diff need: the animation compiled against the skeleton it is
// applied to.
struct LoadedAnimation {
    cast::Document model_document;
    cast::Document animation_document;
    anim::Skeleton skeleton;
    anim::Animation animation;
    anim::BindingTargets targets;              // of the Model the skeleton is in
    const cast::Node* own_skeleton = nullptr;  // the animation's own Skeleton child, if any
};
// The animation `selector` names: digits are a 0-based index into the file's animations (in
// file order, over every root), anything else an exact name; empty picks the first. Returns
// nullopt, having printed the choices, when nothing matches. O(animations).
std::optional<std::size_t> pick_animation(const std::vector<cast::ConstAnimation>& animations,
                                          const std::string& selector,
                                          const std::string& anim_path);
// Loads and compiles the animation of `anim_path` that `selector` picks, on the skeleton of
// `model_path` (empty: the animation's own, else a Model's in its file); on failure prints why
// and returns nullopt (a selector matching no animation, or a format that cannot be told,
// raises `exit_code` to a usage error).
std::optional<LoadedAnimation> load_animation(const std::string& model_path,
                                              const std::string& anim_path,
                                              const std::string& selector, int& exit_code);
// As load_animation, for the document already read from `anim_path`.
std::optional<LoadedAnimation> compile_animation(cast::Document animation_document,
                                                 const std::string& model_path,
                                                 const std::string& anim_path,
                                                 const std::string& selector, int& exit_code);

// The animation of `path` that `selector` picks, compiled against `on`'s skeleton (its curves
// bound by bone name), for a second clip played beside or under the first (diff, bake --base).
// On failure prints why and returns nullopt.
std::optional<anim::Animation> load_clip_on(const LoadedAnimation& on, const std::string& path,
                                            const std::string& selector, int& exit_code);
// As load_clip_on, for the document already read from `path`.
std::optional<anim::Animation> clip_on(const LoadedAnimation& on, const cast::Document& document,
                                       const std::string& path, const std::string& selector,
                                       int& exit_code);

// `--base FILE[@FRAME]` (bake, convert): the base clip's file and, after its last '@' when a
// number follows, the one frame of it to layer an additive clip on.
struct BaseClip {
    std::string path;
    std::optional<float> frame;
};
BaseClip split_base(const std::string& text);
// `text` as a frame: the whole text one finite number, else nullopt.
std::optional<float> parse_frame(const std::string& text);

// A document a command read and the size of the input it came from.
struct Loaded {
    cast::Document document;
    std::uint64_t input_bytes = 0;
    const FormatInfo* format = nullptr;
    // The input's folder as it was read from: its side files are read beneath it.
    std::shared_ptr<const platform::OpenedFolder> folder;
};

// Reads `path` ("-" is standard input) in the format open_source() picks. Warnings and errors go
// to stderr; on failure returns nullopt after raising `exit_code` (2 when no format can be told
// or the path is a folder, 1 for input that is missing or cannot be read).
std::optional<Loaded> load(const std::string& path, const std::string& format,
                           const FormatOptions& options, int& exit_code);
// Parses `source` (opened from `path`) as load() does.
std::optional<Loaded> read_source(const std::string& path, Source source,
                                  const FormatOptions& options, int& exit_code);
// Prints to stderr what `diagnostics` kept, then one "... and N more" line per kind it counted.
void print_diagnostics(const Diagnostics& diagnostics);
// Prints `error` to stderr naming `file` when it names none (the animation jobs' errors are
// about data, not files: the command knows which file it read).
void print_error(Diagnostic error, const std::string& file);
// Writes `text` to standard output; when that fails (a full disk, a closed pipe) prints why and
// raises `exit_code` to 1. Returns whether everything was written.
bool print_stdout(std::string_view text, int& exit_code);

// --events FILE.json on `command` (convert, bake), into `target`, and --events-beside (the
// events beside the output, named for it), into `beside`; the two exclude each other.
void add_events_option(CLI::App* command, std::string& target, bool& beside);
// With --events-beside, sets `events` to the file scene::events_beside names for `output`;
// false, with a usage error raising `exit_code`, for an output on standard output ("-").
bool place_events_beside(std::string& events, bool beside, const std::string& output,
                         int& exit_code);
// Writes every clip's events of `document`, the document a command wrote, as `path` through
// `outputs` (scene::write_events); prints its warnings, and why it failed, raising `exit_code`
// to 1.
void write_events_file(const cast::Document& document, const std::string& path,
                       SideOutputs& outputs, int& exit_code);

}  // namespace castkit::cli
