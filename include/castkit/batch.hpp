// Converting a folder: the library half of `castkit convert DIR -o OUT --to FORMAT`
// (docs/workflows.md, "Whole folders"). Which files are converted, what each output is called,
// which outputs are up to date, one file's conversion, and the JSON report. The CLI runs the
// tasks on threads, castkit.batch in Python on processes or a Dask cluster; both call these, so
// the rules live in one place.
#pragma once

#include <castkit/formats.hpp>
#include <castkit/side_outputs.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::batch {

struct Options {
    std::filesystem::path input_dir, output_dir;
    std::string from;  // a format name, or empty: each file's extension says
    std::string to;    // a format name (required)
    // Animation files merged into every input whose models have a skeleton (--anims).
    std::vector<std::filesystem::path> animations;
    FormatOptions format_options;
    bool recursive = false;
    bool force = false;  // convert even the inputs whose outputs are up to date
};

enum class Status : std::uint8_t { NotStarted, Converted, Warned, Failed, Skipped };
// "not-started", "converted", "warned", "failed", "skipped": the report's words.
std::string_view status_name(Status status);

// One input and where it goes, as the plan decided.
struct Task {
    std::filesystem::path input, output;
    std::uint64_t bytes = 0;
    // The output is newer than the input and every animation: skipped unless Options::force.
    bool fresh = false;
    // The plan's findings about this input (output.renamed).
    Diagnostics warnings;
};

// What converting one task did.
struct Result {
    Status status = Status::NotStarted;
    Diagnostics warnings, errors;
    std::uint64_t output_bytes = 0;
    double milliseconds = 0;
};

struct Plan {
    std::vector<Task> tasks;
    // The run's writer of side files, every output (and a .gltf's .bin) reserved in it, so that
    // no texture copied beside an output takes another output's name. Share it with convert().
    std::shared_ptr<SideOutputs> outputs;
};

// The format names Options holds, checked: the format `to` names, or an error naming the
// formats there are; and `from`, when set, known.
Expected<const FormatInfo*> output_format(const Options& options);

// Every file under `dir` whose extension names a format castkit reads, sorted. Links to folders
// are not followed; a link to a file outside `dir` is skipped with an io.link-outside warning in
// `warnings` unless `allow_any_path`. O(entries).
Expected<std::vector<std::filesystem::path>> readable_files(const std::filesystem::path& dir,
                                                            bool recursive, bool allow_any_path,
                                                            Diagnostics& warnings);

// The tasks: every readable file under the input folder except the animations and anything
// already under the output folder, in path order, each output named `<stem><extension of to>`
// in the same relative folder. Outputs two inputs would share (blind to case, as on Windows and
// macOS) go to the first input; a later one takes its input's whole file name
// ("hero.semodel.glb"), else that name numbered, with an output.renamed warning on its task.
// Which outputs are up to date is decided here, before anything is written, and the output
// folders are made. Links skipped go to `diagnostics`. O(inputs × log inputs).
Expected<Plan> plan(const Options& options, Diagnostics& diagnostics);

// Reads `task.input`, merges Options::animations into it when it has a skeleton, and writes
// `task.output` through the format registry (a fresh task is skipped unless forced). Every
// problem lands in the result; an input too large for memory fails alone (io.out-of-memory).
// `outputs` is the run's side-file writer (Plan::outputs); null gives the task one of its own.
// Safe to call from several threads at once. O(file size).
Result convert(const Options& options, const Task& task, std::shared_ptr<SideOutputs> outputs);

// The finding for a task that ended without a result (io.worker-failed): its worker process
// died, more often than the runner retries, or the runner lost it; `reason` says how.
Diagnostic task_failure(const std::filesystem::path& input, std::string_view reason);

// The JSON report of a run (`--report`), results[i] being that of tasks[i]: the input and
// output folders, the format, `jobs`, `seconds`, a summary by status and one entry per file
// (input, output, status, warnings, errors, bytes, output_bytes, milliseconds).
std::string report(const Options& options, std::span<const Task> tasks,
                   std::span<const Result> results, unsigned jobs, double seconds);

// The options to read an input with for a conversion to `output` in `format`: without
// folders of its own (--textures), images embedded in the input (glTF, DMF) are written beside
// a file output that is not glTF (whose document then names them by file name); a glTF output
// embeds or copies textures itself. That folder is also searched for the files the input names,
// so standard input ("-"), which has no folder of its own, gets none. O(1).
FormatOptions read_options_for(FormatOptions options, const FormatInfo& format,
                               const std::filesystem::path& input,
                               const std::filesystem::path& output);

}  // namespace castkit::batch
