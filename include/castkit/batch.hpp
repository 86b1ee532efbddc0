// Converting a folder: the library half of `castkit convert DIR -o OUT --to FORMAT`
// (docs/workflows.md, "Whole folders"). Which files are converted, what each output is called,
// which outputs are up to date, one file's conversion, and the JSON report. The CLI runs the
// tasks on threads, castkit.batch in Python on processes or a Dask cluster; both call these, so
// the rules live in one place.
#pragma once

#include <castkit/anim/root_motion.hpp>
#include <castkit/io/side_outputs.hpp>
#include <castkit/registry.hpp>
#include <castkit/scene/axis_change.hpp>
#include <castkit/scene/instance_selection.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace castkit::batch {

// The animation files of a run (--anims), each opened once and read into memory: every model
// of the run merges the same bytes, so a file replaced or swapped for a link while the run goes
// on changes no output. Shared by every copy of the Options holding it; safe to use from
// several threads at once.
class AnimationFiles {
  public:
    // The bytes of `path`: those put() gave, else read_animation_file(path) on the first call
    // and the same result (bytes or refusal) on every later one. O(file size) once.
    Expected<formats::Input> get(const std::filesystem::path& path);
    // Holds `input` as what `path` gives (the CLI reads --anims folders as it lists them).
    void put(const std::filesystem::path& path, Expected<formats::Input> input);

  private:
    std::mutex mutex_;
    std::map<std::filesystem::path, Expected<formats::Input>> files_;
};

// `path` opened once without ever waiting (O_NONBLOCK: a FIFO cannot block the open) and read
// into memory from that descriptor; refused with io.animation-file unless what was opened is a
// regular file (no FIFO, no device). O(file size).
Expected<formats::Input> read_animation_file(const std::filesystem::path& path);

// Every animation file under `dir` (readable_files()), each opened beneath `dir`'s descriptor,
// held open from before the listing (a link in it that leads out, or swapped in after the
// listing, is refused with io.animation-file unless `allow_any_path`), read once into `files`.
// The paths, sorted. O(entries + bytes).
Expected<std::vector<std::filesystem::path>> read_animation_folder(const std::filesystem::path& dir,
                                                                   bool recursive,
                                                                   bool allow_any_path,
                                                                   AnimationFiles& files,
                                                                   Diagnostics& warnings);

struct Options {
    std::filesystem::path input_dir, output_dir;
    std::string from;  // a format name, or empty: each file's extension says
    std::string to;    // a format name (required)
    // Animation files merged into every input whose models have a skeleton (--anims).
    std::vector<std::filesystem::path> animations;
    // Their bytes, each read once for the whole run (by the first task that needs it, unless
    // read before): copies of these Options share it.
    std::shared_ptr<AnimationFiles> animation_files = std::make_shared<AnimationFiles>();
    FormatOptions format_options;
    // Every output turned and scaled as this asks (castkit/scene/axis_change.hpp), after the merge.
    scene::AxesRequest axes;
    // The model whose Skeleton animation-only inputs play on (--model): lent to each of them
    // (scene::lend_skeleton) after the merge, so that the axis change turns their root bones and
    // root motion finds them; empty for none.
    std::filesystem::path model;
    // Every output's root motion kept, stripped or extracted on `root_bone` (empty: each
    // skeleton's top bone) as castkit/anim/root_motion.hpp says, after the merge and before the
    // axis change, in the input's own axes.
    anim::RootMotion root_motion = anim::RootMotion::Keep;
    std::string root_bone;
    // The Instances every input keeps (castkit/scene/instance_selection.hpp), taken out after
    // the read, before the merge and the axis change; an invalid one fails every task.
    scene::InstanceSelection selection;
    // Every output's events (castkit/scene/events.hpp) also written beside it, as
    // scene::events_beside names them (--events-beside).
    bool events_beside = false;
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
    // Side-output names (textures written beside the output) that hold other files where the
    // run's client writes, which the conversion must not take: a run whose workers do not see
    // the client's folders converts a task again with those that place_outputs() found taken.
    std::vector<std::filesystem::path> taken;
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

// Strips or extracts the root motion of `document`, read from `input` as `from`, as
// Options::root_motion and root_bone say, in the file's own axes (Options::axes.from_up when
// given); false, the refusal in `diagnostics`, when the root bone named is not there. What the
// convert of one file and of every task of a folder calls.
bool move_root_motion(const Options& options, const FormatInfo& from,
                      const std::filesystem::path& input, cast::Document& document,
                      Diagnostics& diagnostics);

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

// Reads `task.input`, keeps the Instances of Options::selection, merges Options::animations into
// it when it has a skeleton (else lends it Options::model's), applies Options::root_motion and
// Options::axes, and writes
// `task.output` through the format registry (a fresh task is skipped unless forced). Every
// problem lands in the result; an input too large for memory fails alone (io.out-of-memory).
// `outputs` is the run's side-file writer (Plan::outputs); null gives the task one of its own.
// Safe to call from several threads at once. O(file size).
Result convert(const Options& options, const Task& task, std::shared_ptr<SideOutputs> outputs);

// The finding for a task that ended without a result (io.worker-failed): its worker process
// died, more often than the runner retries, or the runner lost it; `reason` says how.
Diagnostic task_failure(const std::filesystem::path& input, std::string_view reason);

// The JSON report of a run (`--report`), results[i] being that of tasks[i] (a task past the end
// of `results` is reported as not started; results past the end of `tasks` are left out): the input
// and output folders, the format, `jobs`, `seconds`, a summary by status and one entry per file
// (input, output, status, warnings, errors, bytes, output_bytes, milliseconds).
std::string report(const Options& options, std::span<const Task> tasks,
                   std::span<const Result> results, unsigned jobs, double seconds);

// ---- Workers that do not see the client's folders (docs/batch.md, "Bytes only") ----------
// The client sends an input's bytes with those of side_files(); the worker lays them out in a
// private folder as they are laid out on the client, converts there with convert(), and sends
// back every file it wrote; the client writes them with place_outputs() and gives the findings
// the client's paths with relocated(). Same outputs, byte for byte, as converting where the
// files are.

// The files converting `task` may read besides its input and Options::animations, found under
// the side-file policy as the conversion finds them (resolve_side_file, with the run's read
// and write options): a .gltf's or .glb's buffers and images named by
// URI; the files every Cast File node of the input names (textures, instanced scenes), for
// inputs of the other formats as their reader gives them (read with no texture folder, so
// nothing is written); with Options::format_options.inline_instances and a glTF output, the
// instanced scenes' own files, recursively. Names the policy refuses (outside the folders, a
// link out of them) or that are missing are not listed: the conversion does not read them
// either. A superset of what is read (a name is tried beside the input and in the policy's
// folders alike); no file twice, in the order met. An input that does not read gives none.
// O(input size) for the formats read (Cast's payloads are not copied); a glTF's JSON only.
std::vector<std::filesystem::path> side_files(const Options& options, const Task& task);

// The bytes to send of `path`, a task's input, a file side_files() listed or one of
// Options::animations: opened once and read from that descriptor, which must lie inside the
// input folder or a side-file folder (Options::format_options.side_files; any path with its
// allow_any_path), so that a link swapped in after the listing cannot send a file from outside.
// An animation is read as the options name it. O(file size).
Expected<std::vector<std::byte>> read_sent_file(const Options& options,
                                                const std::filesystem::path& path);

// A file a worker wrote for a task: where it goes on the client, and its bytes.
struct OutputFile {
    std::filesystem::path path;
    std::vector<std::byte> bytes;
};

// Writes what a worker wrote for `task` where the client keeps it, as converting there would
// have: the task's outputs (formats::output_files) each replaced whole (a temporary file, then
// a rename), after every side output (a texture beside the output, an image a reader unpacked)
// is in place; a side output is written only under a name that is free, or reused when that
// file holds the same bytes, never over another file. The names taken by other files are
// returned, and nothing is written: convert the task again with them in Task::taken. A file
// outside the output folder and the texture folders (Options::format_options.side_files), or
// no output of the task, is refused (io.worker-output). O(bytes).
Expected<std::vector<std::filesystem::path>> place_outputs(const Options& options, const Task& task,
                                                           std::span<const OutputFile> files);

// `result`, of `task` converted where the client's paths are spelled otherwise (a worker sent
// the bytes, or given absolute paths for the client's relative ones) and sent without the
// plan's warnings: those first (as convert() gives them), and the paths its own findings name
// put back in the client's spelling: each finding's file starting with one of the `files`
// prefixes (first match, whole path parts) gets that prefix's client spelling; in the other
// files and in messages, each `folders` pair's first becomes its second, in order. A converted
// file that now has warnings is Warned, as convert() would have said. O(findings × length).
using PathPrefix = std::pair<std::string, std::string>;
Result relocated(Result result, const Task& task, std::span<const PathPrefix> files,
                 std::span<const PathPrefix> folders);

}  // namespace castkit::batch
