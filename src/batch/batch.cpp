// The folder conversion's plan, one task's conversion and the report (castkit/batch.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <castkit/batch.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/json.hpp>
#include <castkit/platform.hpp>
#include <castkit/scene/events.hpp>
#include <castkit/scene/merge.hpp>
#include <cerrno>
#include <chrono>
#include <limits>
#include <map>
#include <new>
#include <set>

#include "../platform/opened_file.hpp"
#include "io/binary_io.hpp"
#include "io/side_files.hpp"
#include "io/side_outputs.hpp"

namespace castkit::batch {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t file_bytes(const fs::path& path) {
    std::error_code error;
    const auto size = fs::file_size(path, error);
    return error ? 0 : size;
}

// True when `output` exists and is newer than `input` and every animation (to the system's
// finest time unit, platform::last_write_ticks). One stat per file.
bool up_to_date(const fs::path& input, const fs::path& output,
                const std::vector<fs::path>& animations) {
    const std::optional<std::int64_t> written = platform::last_write_ticks(output);
    if (!written) return false;
    auto older = [&](const fs::path& path) {
        const std::optional<std::int64_t> time = platform::last_write_ticks(path);
        return time && *time < *written;
    };
    return older(input) && std::all_of(animations.begin(), animations.end(), older);
}

// The warning for a file of a folder that is a link to somewhere outside it: skipped.
Diagnostic link_outside(const fs::path& link, const fs::path& folder) {
    Diagnostic d;
    d.file = platform::utf8_of(link);
    d.rule = "io.link-outside";
    d.severity = Severity::Warning;
    d.message = fmt::format("a link to a file outside '{}': skipped (--allow-any-path follows it)",
                            platform::utf8_of(folder));
    return d;
}

// The error for `file`, whose opened descriptor lies outside `folder` (a link swapped in): not
// read, as the refusal says, unless the run allows any path.
Diagnostic read_outside(const fs::path& file, const fs::path& folder) {
    Diagnostic d;
    d.file = platform::utf8_of(file);
    d.rule = "io.link-outside";
    d.message =
        fmt::format("leads outside '{}' through a link: not read (--allow-any-path follows it)",
                    platform::utf8_of(folder));
    return d;
}

// `path` opened once, refused unless what was opened (its descriptor's real path, not the
// path's) lies inside one of `folders`, or the run allows any path: a link swapped in after the
// plan listed a file cannot lead a read outside. O(folders) file-system queries.
Expected<std::unique_ptr<platform::OpenedFile>> open_within(const Options& options,
                                                            const fs::path& path,
                                                            std::span<const fs::path> folders) {
    auto opened = platform::open_regular_file(path, std::numeric_limits<std::uint64_t>::max());
    if (!opened || options.format_options.side_files.allow_any_path) return opened;
    for (const fs::path& folder : folders)
        if (auto real = platform::real_path(folder);
            real && platform::inside((*opened)->real_path(), *real))
            return opened;
    return make_error(read_outside(path, folders.empty() ? path : folders.front()));
}

// `input` opened beneath `folder`, its folder held open (Context::folder), refused unless what
// was opened lies inside the input folder: the input and the side files it names then come
// from the one folder, whatever is swapped for a link after it was opened.
Expected<std::unique_ptr<platform::OpenedFile>> open_beneath(const Options& options,
                                                             const platform::OpenedFolder& folder,
                                                             const fs::path& input) {
    auto opened = folder.open_file(input.filename(), std::numeric_limits<std::uint64_t>::max());
    if (!opened) return make_error(opened.error());
    if (!*opened) return make_error(platform::os_error(input, "cannot open", ENOENT));
    auto real = platform::real_path(options.input_dir);
    if (real && platform::inside((*opened)->real_path(), *real)) return opened;
    return make_error(read_outside(input, options.input_dir));
}

// The task's input, opened and checked once and read from that descriptor: beneath its
// context's folder where it holds one (with --allow-any-path, as named). O(file size).
Expected<formats::Input> read_task_input(const Options& options, const fs::path& input,
                                         const Context& context) {
    auto opened = context.folder && !options.format_options.side_files.allow_any_path
                      ? open_beneath(options, *context.folder, input)
                      : open_within(options, input, std::span(&options.input_dir, 1));
    if (!opened) return make_error(opened.error());
    auto held = (*opened)->load();
    if (!held) return make_error(held.error());
    const cast::Bytes bytes = (*held)->bytes();
    return formats::Input{bytes, std::move(*held)};
}

// The inputs under the input folder, without the animations and what lies in the output folder,
// each with its output named in the same relative folder.
std::vector<Task> tasks_for(const Options& options, const FormatInfo& to,
                            const std::vector<fs::path>& inputs) {
    std::error_code error;
    const fs::path output_dir = fs::weakly_canonical(options.output_dir, error);
    std::vector<fs::path> animations;
    for (const fs::path& animation : options.animations)
        animations.push_back(fs::weakly_canonical(animation, error));
    std::vector<Task> tasks;
    for (const fs::path& input : inputs) {
        const fs::path canonical = fs::weakly_canonical(input, error);
        auto [in_output, _] =
            std::mismatch(output_dir.begin(), output_dir.end(), canonical.begin(), canonical.end());
        if (in_output == output_dir.end()) continue;
        if (std::find(animations.begin(), animations.end(), canonical) != animations.end())
            continue;
        Task task;
        task.input = input;
        task.bytes = file_bytes(input);
        const fs::path relative = input.lexically_relative(options.input_dir);
        task.output =
            options.output_dir / relative.parent_path() /
            platform::path_from_utf8(file_stem(input) + std::string(to.extensions.front()));
        tasks.push_back(std::move(task));
    }
    return tasks;
}

Diagnostic renamed(const Task& task, const fs::path& wanted, const Task* owner) {
    return {.severity = Severity::Warning,
            .file = platform::utf8_of(task.input),
            .path = "/",
            .rule = "output.renamed",
            .message = fmt::format("written as '{}': '{}' is the output of {}",
                                   platform::utf8_of(task.output.filename()),
                                   platform::utf8_of(wanted.filename()),
                                   owner == nullptr ? std::string("another input")
                                                    : "'" + platform::utf8_of(owner->input) + "'")};
}

// Outputs two inputs would share: the first input in path order keeps the name, a later one
// takes its input's full file name, else that name numbered. Every output (and a .gltf's .bin)
// is then reserved in `outputs`. O(inputs × log inputs).
void name_outputs(std::vector<Task>& tasks, const FormatInfo& to, SideOutputs& outputs) {
    std::map<fs::path, const Task*> owners;
    std::vector<Task*> clashing;
    for (Task& task : tasks) {
        if (outputs.reserve(task.output))
            owners[task.output] = &task;
        else
            clashing.push_back(&task);
    }
    for (Task* task : clashing) {
        const fs::path wanted = task->output;
        const fs::path full = wanted.parent_path() /
                              platform::path_from_utf8(platform::utf8_of(task->input.filename()) +
                                                       std::string(to.extensions.front()));
        task->output = full;
        // Bounded: fewer outputs than numbers tried, so one of them is free.
        for (int n = 2;
             !outputs.reserve(task->output) && static_cast<std::size_t>(n) <= tasks.size() + 1; ++n)
            task->output = SideOutputs::numbered(full, n);
        const auto owner = owners.find(wanted);
        task->warnings.push_back(
            renamed(*task, wanted, owner == owners.end() ? nullptr : owner->second));
    }
    for (const Task& task : tasks)
        for (const fs::path& file : formats::output_files(to, task.output)) outputs.reserve(file);
}

bool has_skeleton(cast::Document& document) {
    for (const cast::Model& model : document.models())
        if (model.skeleton()) return true;
    return false;
}

// The findings of one task's reads and writes: errors (a strict write's further findings)
// apart from the rest, as the report lists them.
void take(Result& result, const Diagnostics& diagnostics) {
    result.errors.append(diagnostics.with_severity(Severity::Error));
    result.warnings.append(diagnostics.with_severity(Severity::Warning));
    result.warnings.append(diagnostics.with_severity(Severity::Info));
}

// --anims: every animation parsed again for each model (merging consumes them), from the bytes
// read once for the run (Options::animation_files).
void merge(const Options& options, cast::Document& document, Result& result,
           Diagnostics& diagnostics) {
    std::vector<scene::AnimationSource> sources;
    AnimationFiles own;  // Options made without one: read for this task alone
    AnimationFiles& files = options.animation_files ? *options.animation_files : own;
    for (const fs::path& path : options.animations) {
        const FormatInfo* format = format_for_path(path);
        auto input = files.get(path);
        if (!input) {
            result.errors.push_back(input.error());
            continue;
        }
        auto animation =
            formats::read(*format, std::move(*input), formats::context_for(path), diagnostics);
        if (!animation) {
            result.errors.push_back(animation.error());
            continue;
        }
        sources.push_back({std::move(*animation), file_stem(path)});
    }
    scene::merge(document, std::move(sources), diagnostics);
}

// --model: an animation-only input lent the model's skeleton (its bytes read once for the run,
// as an animation's); false, the refusal in `result`, when it cannot be.
bool lend_model(const Options& options, cast::Document& document, Result& result,
                Diagnostics& diagnostics) {
    AnimationFiles own;
    AnimationFiles& files = options.animation_files ? *options.animation_files : own;
    auto input = files.get(options.model);
    if (!input) {
        result.errors.push_back(input.error());
        return false;
    }
    const FormatInfo* format = format_for_path(options.model);
    auto model =
        formats::read(*format, std::move(*input), formats::context_for(options.model), diagnostics);
    if (!model) {
        result.errors.push_back(model.error());
        return false;
    }
    auto lent = scene::lend_skeleton(document, *model);
    if (!lent) result.errors.push_back(lent.error());
    return lent.has_value();
}

// Turns and scales `document`, read as `from`, as `request` asks; false when it cannot.
bool change_axes(const scene::AxesRequest& request, const FormatInfo& from, const fs::path& input,
                 cast::Document& document, Diagnostics& diagnostics) {
    const std::string name = platform::utf8_of(input);
    auto change =
        scene::plan_axis_change(document, request, declared_axes(from), name, diagnostics);
    if (!change) {
        diagnostics.push_back(change.error());
        return false;
    }
    if (auto applied = formats::apply_axis_change(document, *change, name, diagnostics); !applied) {
        diagnostics.push_back(applied.error());
        return false;
    }
    return true;
}

// Takes the Instances `selection` leaves out of `document`; false, the refusal in
// `diagnostics`, when the selection is not valid.
bool select(const scene::InstanceSelection& selection, const fs::path& input,
            cast::Document& document, Diagnostics& diagnostics) {
    if (selection.empty()) return true;
    if (auto valid = selection.validate(); !valid) {
        Diagnostic refused = valid.error();
        refused.file = platform::utf8_of(input);
        diagnostics.push_back(std::move(refused));
        return false;
    }
    scene::select_instances(document, selection, platform::utf8_of(input), diagnostics);
    return true;
}

// What a conversion that ran came to: failed with any error, warned with any warning (the
// plan's included), else converted.
Status outcome(const Result& result) {
    return !result.errors.empty()     ? Status::Failed
           : !result.warnings.empty() ? Status::Warned
                                      : Status::Converted;
}

// Reads, merges and writes one file into `result`. O(file size).
void convert_into(const Options& options, const FormatInfo& to, const Task& task,
                  const FormatOptions& format_options, Result& result) {
    const FormatInfo* from =
        options.from.empty() ? format_for_path(task.input) : format_by_name(options.from);
    // Images embedded in the input travel in the document; the writer embeds them or writes
    // them beside the output.
    const ReadContext read_context = formats::context_for(task.input, format_options);
    Diagnostics diagnostics;
    auto input = read_task_input(options, task.input, read_context);
    if (!input) {
        result.errors.push_back(input.error());
        result.status = Status::Failed;
        return;
    }
    auto document = formats::read(*from, std::move(*input), read_context, diagnostics);
    if (!document) {
        take(result, diagnostics);
        result.errors.push_back(document.error());
        result.status = Status::Failed;
        return;
    }
    if (!select(options.selection, task.input, *document, diagnostics)) {
        take(result, diagnostics);
        result.status = Status::Failed;
        return;
    }
    if (!options.animations.empty() && has_skeleton(*document))
        merge(options, *document, result, diagnostics);
    if ((!options.model.empty() && !has_skeleton(*document) &&
         !lend_model(options, *document, result, diagnostics)) ||
        !move_root_motion(options, *from, task.input, *document, diagnostics)) {
        take(result, diagnostics);
        result.status = Status::Failed;
        return;
    }
    if (!options.axes.empty() &&
        !change_axes(options.axes, *from, task.input, *document, diagnostics)) {
        take(result, diagnostics);
        result.status = Status::Failed;
        return;
    }
    // Relative names in the document (textures, instances) resolve beside the input.
    WriteContext write_context = formats::context_for(task.output, format_options);
    write_context.base = read_context.base;
    write_context.folder = read_context.folder;
    auto written = formats::write_file(to, *document, task.output, write_context, diagnostics);
    if (written && options.events_beside) {
        auto events = scene::write_events(*document, scene::events_beside(task.output),
                                          *format_options.side_outputs, diagnostics);
        if (!events) result.errors.push_back(events.error());
    }
    take(result, diagnostics);
    if (!written) result.errors.push_back(written.error());
    result.output_bytes = written ? file_bytes(task.output) : 0;
    result.status = outcome(result);
}

// A file too large for the memory castkit can get fails on its own; the batch goes on.
Diagnostic out_of_memory(const fs::path& input) {
    Diagnostic d;
    d.file = platform::utf8_of(input);
    d.rule = "io.out-of-memory";
    d.message = "out of memory reading the file";
    return d;
}

void add_messages(json::Writer& out, std::string_view name, const Diagnostics& diagnostics) {
    out.key(name);
    out.begin_array();
    for (const Diagnostic& d : diagnostics.shown()) out.string(d.to_string());
    out.end_array();
}

// `path` with '/' separators, as UTF-8.
std::string generic_utf8(const fs::path& path) {
    const std::u8string text = path.generic_u8string();
    return std::string(text.begin(), text.end());
}

// A folder conversion asked for a format castkit does not have: no file, no path, no offset.
Diagnostic usage(std::string message) {
    Diagnostic d;
    d.rule = "output.format";
    d.message = std::move(message);
    return d;
}

// ---- Bytes only ------------------------------------------------------------------------------

// Every File node's path under `node`, in file order. O(nodes).
void file_paths(const cast::Node& node, std::vector<std::string>& paths) {
    if (node.is(cast::NodeId::File))
        if (auto path = cast::view_of<cast::ConstFile>(node).path()) paths.emplace_back(*path);
    for (const cast::Node& child : node.children()) file_paths(child, paths);
}

// The scene roots (`sr`) the document's metadata give. O(roots).
std::vector<std::string> scene_roots(const cast::Document& document) {
    std::vector<std::string> roots;
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstMetadata& metadata : root.metadata())
            if (auto sr = metadata.scene_root()) roots.emplace_back(*sr);
    return roots;
}

// The files side_files() lists, found as the conversion finds them.
class SideFileList {
  public:
    SideFileList(const Context& read, const Context& write) : read_(read), write_(write) {}

    // `name` as the reader and as the writer resolve it; the file it leads to, when new.
    std::vector<fs::path> add(const std::string& name) {
        std::vector<fs::path> added;
        for (const Context* context : {&read_, &write_}) {
            auto found = formats::resolve_side_file(*context, name);
            if (!found) continue;
            std::error_code error;
            const fs::path path = fs::absolute(*found, error).lexically_normal();
            if (seen_.insert(path).second) {
                files_.push_back(path);
                added.push_back(path);
            }
        }
        return added;
    }

    // The files `document` names (found under `folder`, relative to the allowed folders, for
    // an instanced scene), and with `instances` those of the scenes it instances, recursively.
    void add_document(const cast::Document& document, const fs::path& folder, bool instances,
                      int depth) {
        std::vector<std::string> names;
        for (const cast::Node& root : document.roots()) file_paths(root, names);
        const std::vector<std::string> roots = scene_roots(document);
        for (const std::string& name : names) {
            // Tried as written, below the scene roots and below the instancing file's folder,
            // as the glTF export looks up an Instance's file (a superset of what it reads).
            std::vector<fs::path> texts{formats::portable_path(name)};
            for (const std::string& root : roots)
                texts.push_back(formats::portable_path(root) / formats::portable_path(name));
            if (!folder.empty())
                for (std::size_t i = 0, n = texts.size(); i < n; ++i)
                    texts.push_back(folder / texts[i]);
            for (const fs::path& text : texts)
                for (const fs::path& file : add(platform::utf8_of(text)))
                    if (instances && depth < kInstanceDepth) add_instance(file, depth + 1);
        }
    }

    std::vector<fs::path> take() { return std::move(files_); }

  private:
    static constexpr int kInstanceDepth = 16;

    // A found file that is a Cast scene: its own names, relative to its folder.
    void add_instance(const fs::path& file, int depth) {
        const FormatInfo* format = format_for_path(file);
        if (format == nullptr || !format->holds_instances) return;
        auto bytes = formats::read_input(file, formats::InputMode::Copy);
        if (!bytes) return;
        Diagnostics ignored;
        auto document =
            formats::read(*format, std::move(*bytes), formats::context_for(file), ignored);
        if (document) add_document(*document, relative_to_allowed(file.parent_path()), true, depth);
    }

    // `folder` relative to the folder of the input or the policy folder that holds it.
    fs::path relative_to_allowed(const fs::path& folder) const {
        std::error_code error;
        std::vector<fs::path> roots{fs::absolute(write_.base, error).lexically_normal()};
        for (const fs::path& extra : write_.options.side_files.folders)
            roots.push_back(fs::absolute(extra, error).lexically_normal());
        for (const fs::path& root : roots)
            if (folder == root || platform::inside(folder, root)) {
                const fs::path relative = folder.lexically_relative(root);
                return relative == "." ? fs::path() : relative;
            }
        return folder;
    }

    const Context& read_;
    const Context& write_;
    std::set<fs::path> seen_;
    std::vector<fs::path> files_;
};

Diagnostic worker_output(const fs::path& path, std::string message) {
    Diagnostic d;
    d.file = platform::utf8_of(path);
    d.rule = "io.worker-output";
    d.message = std::move(message);
    return d;
}

// `text` with every `from` written as `to`. O(length).
std::string replaced(std::string text, const PathPrefix& prefix) {
    if (prefix.first.empty()) return text;
    for (std::size_t at = text.find(prefix.first); at != std::string::npos;
         at = text.find(prefix.first, at + prefix.second.size()))
        text.replace(at, prefix.first.size(), prefix.second);
    return text;
}

// `text` with each folder's `from` written as its `to`, in order. O(folders × length).
std::string replaced(std::string text, std::span<const PathPrefix> folders) {
    for (const PathPrefix& folder : folders) text = replaced(std::move(text), folder);
    return text;
}

// A finding's file as the client names it.
std::string relocated_file(const std::string& file, std::span<const PathPrefix> files,
                           std::span<const PathPrefix> folders) {
    for (const auto& [from, to] : files) {
        if (from.empty() || file.compare(0, from.size(), from) != 0) continue;
        if (file.size() == from.size() || file[from.size()] == '/' || file[from.size()] == '\\')
            return to + file.substr(from.size());
    }
    return replaced(file, folders);
}

Diagnostics relocated(const Diagnostics& diagnostics, std::span<const PathPrefix> files,
                      std::span<const PathPrefix> folders) {
    Diagnostics out;
    for (Diagnostic d : diagnostics) {
        d.file = relocated_file(d.file, files, folders);
        d.message = replaced(std::move(d.message), folders);
        out.push_back(std::move(d));
    }
    // Each finding only counted, counted again under its new file.
    for (const Diagnostics::Suppressed& kind : diagnostics.suppressed()) {
        Diagnostic counted;
        counted.severity = kind.severity;
        counted.file = relocated_file(kind.file, files, folders);
        counted.rule = kind.rule;
        for (std::uint64_t n = kind.count; n > 0; --n) out.push_back(counted);
    }
    return out;
}

}  // namespace

bool move_root_motion(const Options& options, const FormatInfo& from, const fs::path& input,
                      cast::Document& document, Diagnostics& diagnostics) {
    const std::string name = platform::utf8_of(input);
    const anim::RootMotionJob job{
        .mode = options.root_motion,
        .document = &document,
        .up = options.axes.from_up.value_or(scene::file_up_axis(document, declared_axes(from))),
        .root_bone = options.root_bone,
        .name = name,
        .warnings = &diagnostics};
    auto moved = job.run();
    if (!moved) diagnostics.push_back(moved.error());
    return moved.has_value();
}

std::string_view status_name(Status status) {
    switch (status) {
        case Status::NotStarted:
            return "not-started";
        case Status::Converted:
            return "converted";
        case Status::Warned:
            return "warned";
        case Status::Failed:
            return "failed";
        case Status::Skipped:
            return "skipped";
    }
    return "failed";
}

Expected<const FormatInfo*> output_format(const Options& options) {
    const FormatInfo* to = options.to.empty() ? nullptr : format_by_name(options.to);
    if (to == nullptr) {
        std::string names;
        for (const FormatInfo& format : all_formats()) names += fmt::format(" {}", format.name);
        const std::string wanted = options.to.empty()
                                       ? std::string("a folder needs a format to convert to")
                                       : fmt::format("unknown format '{}'", options.to);
        return make_error(usage(fmt::format("{} (one of:{})", wanted, names)));
    }
    if (!options.from.empty() && format_by_name(options.from) == nullptr)
        return make_error(usage(fmt::format("unknown format '{}'", options.from)));
    return to;
}

Expected<std::vector<fs::path>> readable_files(const fs::path& dir, bool recursive,
                                               bool allow_any_path, Diagnostics& warnings) {
    std::vector<fs::path> files;
    std::error_code error;
    const fs::path real_dir = fs::canonical(dir, error);
    auto add = [&](const fs::directory_entry& entry) {
        std::error_code ignored;
        if (!entry.is_regular_file(ignored) || format_for_path(entry.path()) == nullptr) return;
        if (entry.is_symlink(ignored) && !allow_any_path &&
            !platform::inside(fs::canonical(entry.path(), ignored), real_dir))
            warnings.push_back(link_outside(entry.path(), dir));
        else
            files.push_back(entry.path());
    };
    if (recursive) {
        for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
             it.increment(error))
            add(*it);
    } else {
        for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
            add(*it);
    }
    if (error) return make_error(platform::os_error(dir, "cannot list the folder", error.value()));
    std::sort(files.begin(), files.end());
    return files;
}

Expected<Plan> plan(const Options& options, Diagnostics& diagnostics) {
    auto to = output_format(options);
    if (!to) return make_error(to.error());
    auto inputs = readable_files(options.input_dir, options.recursive,
                                 options.format_options.side_files.allow_any_path, diagnostics);
    if (!inputs) return make_error(inputs.error());
    Plan plan;
    plan.outputs = options.format_options.side_outputs ? options.format_options.side_outputs
                                                       : std::make_shared<SideOutputs>();
    plan.tasks = tasks_for(options, **to, *inputs);
    name_outputs(plan.tasks, **to, *plan.outputs);
    // An output is as old as the newest of its input, the animations and the model it is given.
    std::vector<fs::path> given = options.animations;
    if (!options.model.empty()) given.push_back(options.model);
    for (Task& task : plan.tasks)
        task.fresh = !options.force && up_to_date(task.input, task.output, given);
    // Folders are made here, once, so that workers never race to create the same one.
    std::error_code error;
    for (const Task& task : plan.tasks) {
        fs::create_directories(task.output.parent_path(), error);
        if (error)
            return make_error(platform::os_error(task.output.parent_path(),
                                                 "cannot create the folder", error.value()));
    }
    return plan;
}

Result convert(const Options& options, const Task& task, std::shared_ptr<SideOutputs> outputs) {
    Result result;
    result.warnings = task.warnings;  // the plan's come first
    if (task.fresh) {
        result.status = Status::Skipped;
        return result;
    }
    const auto begun = Clock::now();
    auto to = output_format(options);
    if (!to) {
        result.errors.push_back(to.error());
        result.status = Status::Failed;
        return result;
    }
    FormatOptions format_options = options.format_options;
    format_options.side_outputs = outputs ? std::move(outputs) : std::make_shared<SideOutputs>();
    for (const fs::path& name : task.taken) format_options.side_outputs->reserve(name);
    try {
        convert_into(options, **to, task, format_options, result);
    } catch (const std::bad_alloc&) {
        result.errors.push_back(out_of_memory(task.input));
        result.status = Status::Failed;
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - begun).count();
    return result;
}

Diagnostic task_failure(const fs::path& input, std::string_view reason) {
    Diagnostic d;
    d.file = platform::utf8_of(input);
    d.rule = "io.worker-failed";
    d.message = fmt::format("converting it ended without a result: {}", reason);
    return d;
}

std::string report(const Options& options, std::span<const Task> tasks,
                   std::span<const Result> results, unsigned jobs, double seconds) {
    // A task past the end of `results` has none: it is reported as not started.
    static const Result kNotStarted{};
    auto result_of = [&](std::size_t i) -> const Result& {
        return i < results.size() ? results[i] : kNotStarted;
    };
    std::map<Status, std::size_t> counts;
    for (std::size_t i = 0; i < tasks.size(); ++i) ++counts[result_of(i).status];
    std::string text;
    json::Writer out(text, 2);
    out.begin_object();
    out.key("input");
    out.string(generic_utf8(options.input_dir));
    out.key("output");
    out.string(generic_utf8(options.output_dir));
    out.key("format");
    out.string(options.to);
    out.key("jobs");
    out.unsigned_integer(jobs);
    out.key("seconds");
    out.number(seconds);
    out.key("summary");
    out.begin_object();
    out.key("files");
    out.unsigned_integer(tasks.size());
    for (Status status : {Status::Converted, Status::Warned, Status::Failed, Status::Skipped}) {
        out.key(status == Status::Warned ? "warned" : status_name(status));
        out.unsigned_integer(counts[status]);
    }
    out.end_object();
    out.key("files");
    out.begin_array();
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const Task& task = tasks[i];
        const Result& result = result_of(i);
        // A task not started has only the plan's warnings; convert() starts from them.
        const Diagnostics& warnings =
            result.status == Status::NotStarted ? task.warnings : result.warnings;
        out.begin_object();
        out.key("input");
        out.string(generic_utf8(task.input));
        out.key("output");
        out.string(generic_utf8(task.output));
        out.key("status");
        out.string(status_name(result.status));
        add_messages(out, "warnings", warnings);
        add_messages(out, "errors", result.errors);
        out.key("bytes");
        out.unsigned_integer(task.bytes);
        out.key("output_bytes");
        out.unsigned_integer(result.output_bytes);
        out.key("milliseconds");
        out.number(result.milliseconds);
        out.end_object();
    }
    out.end_array();
    out.end_object();
    text += "\n";
    return text;
}

std::vector<fs::path> side_files(const Options& options, const Task& task) {
    auto to = output_format(options);
    const FormatInfo* from =
        options.from.empty() ? format_for_path(task.input) : format_by_name(options.from);
    if (!to || from == nullptr) return {};
    const Context read = formats::context_for(task.input, options.format_options);
    Context write = formats::context_for(task.output, options.format_options);
    write.base = read.base;
    write.folder = read.folder;
    SideFileList list(read, write);
    // Read, not mapped: a client listing while another program cuts the input short must not
    // be killed (SIGBUS) by a mapping's lost pages.
    auto bytes = formats::read_input(task.input, formats::InputMode::Copy);
    if (!bytes) return {};
    if (from->referenced_files != nullptr) {
        auto names = formats::referenced_files(*from, *bytes);
        if (!names) return {};  // the conversion reads the file and says what is wrong
        for (const std::string& name : *names) list.add(name);
        return list.take();
    }
    // Read with no texture folder, so that no embedded image is written; a side output's name
    // is the conversion's to find, not the client's to send.
    Context listing = read;
    listing.options.side_files.folders.clear();
    listing.options.side_outputs = std::make_shared<SideOutputs>();
    Diagnostics ignored;
    try {
        auto document = formats::read(*from, std::move(*bytes), listing, ignored);
        if (!document) return {};
        const bool inlined = (*to)->inlines_instances && options.format_options.inline_instances;
        list.add_document(*document, {}, inlined, 0);
    } catch (const std::bad_alloc&) {
        return {};  // the conversion fails the same way
    }
    return list.take();
}

Expected<std::vector<std::byte>> read_sent_file(const Options& options, const fs::path& path) {
    auto normal = [](const fs::path& p) {
        std::error_code error;
        return fs::absolute(p, error).lexically_normal();
    };
    const bool an_animation =
        std::any_of(options.animations.begin(), options.animations.end(),
                    [&](const fs::path& a) { return normal(a) == normal(path); });
    std::vector<fs::path> folders{options.input_dir};
    folders.insert(folders.end(), options.format_options.side_files.folders.begin(),
                   options.format_options.side_files.folders.end());
    auto opened = an_animation
                      ? platform::open_regular_file(path, std::numeric_limits<std::uint64_t>::max())
                      : open_within(options, path, folders);
    if (!opened) return make_error(opened.error());
    return (*opened)->read();
}

namespace {
// Whether `path`, named inside one of the folders, is inside one on the disk too: a link inside
// the output folder (one a program dropped there) would otherwise carry a worker's file out of
// it. The part of `path` that exists is resolved through its links, as `real_folders` were
// (resolved()), so an output folder that is itself a link is followed. O(path depth).
Expected<void> really_inside(const fs::path& path, std::span<const fs::path> real_folders) {
    std::error_code error;
    const fs::path real = fs::weakly_canonical(path, error);
    const bool found =
        !error &&
        std::any_of(real_folders.begin(), real_folders.end(), [&](const fs::path& folder) {
            return !folder.empty() && platform::inside(real, folder);
        });
    if (found) return {};
    return make_error(worker_output(
        path, "a link inside the output folder leads a worker's file outside it: refused"));
}

// `folders` resolved through their links, once for all of a task's files (empty where one
// cannot be resolved). O(folders × depth).
std::vector<fs::path> resolved(std::span<const fs::path> folders) {
    std::vector<fs::path> out;
    for (const fs::path& folder : folders) {
        std::error_code error;
        fs::path real = fs::weakly_canonical(folder, error);
        out.push_back(error ? fs::path() : std::move(real));
    }
    return out;
}
}  // namespace

Expected<std::vector<fs::path>> place_outputs(const Options& options, const Task& task,
                                              std::span<const OutputFile> files) {
    auto to = output_format(options);
    if (!to) return make_error(to.error());
    std::error_code error;
    auto normal = [&](const fs::path& path) {
        return fs::absolute(path, error).lexically_normal();
    };
    std::vector<fs::path> outputs;
    for (const fs::path& path : formats::output_files(**to, task.output))
        outputs.push_back(normal(path));
    std::vector<fs::path> folders{normal(options.output_dir)};
    for (const fs::path& folder : options.format_options.side_files.folders)
        folders.push_back(normal(folder));
    const std::vector<fs::path> real_folders = resolved(folders);
    std::vector<const OutputFile*> sides, named;
    for (const OutputFile& file : files) {
        const fs::path path = normal(file.path);
        const bool output = std::find(outputs.begin(), outputs.end(), path) != outputs.end();
        if (!output && std::none_of(folders.begin(), folders.end(), [&](const fs::path& folder) {
                return platform::inside(path, folder);
            }))
            return make_error(worker_output(
                file.path, "a worker wrote it outside the output and texture folders: refused"));
        if (auto real = really_inside(file.path, real_folders); !real)
            return make_error(real.error());
        (output ? named : sides).push_back(&file);
    }
    // Side outputs as SideOutputs::write places them, under the name the converted document
    // gives them: free, or holding these bytes already; else that name is taken.
    std::vector<fs::path> taken;
    std::vector<const OutputFile*> free;
    for (const OutputFile* file : sides) {
        const fs::file_status status = fs::symlink_status(file->path, error);
        if (status.type() == fs::file_type::not_found)
            free.push_back(file);
        else if (!fs::is_regular_file(status) || !formats::holds(file->path, file->bytes))
            taken.push_back(file->path);
    }
    for (const OutputFile* file : taken.empty() ? free : std::vector<const OutputFile*>{}) {
        fs::create_directories(file->path.parent_path(), error);
        auto created = formats::write_new_file(file->path, file->bytes);
        if (!created) return make_error(created.error());
        if (!*created && !formats::holds(file->path, file->bytes)) taken.push_back(file->path);
    }
    if (!taken.empty()) return taken;
    // The outputs last: an output is newer than its side files, and up to date only when whole.
    for (const OutputFile* file : named) {
        fs::create_directories(file->path.parent_path(), error);
        if (auto written = formats::write_file(file->path, file->bytes); !written)
            return make_error(written.error());
    }
    return taken;
}

Result relocated(Result result, const Task& task, std::span<const PathPrefix> files,
                 std::span<const PathPrefix> folders) {
    Diagnostics warnings = task.warnings;  // the plan's come first, as convert() puts them
    warnings.append(relocated(result.warnings, files, folders));
    result.warnings = std::move(warnings);
    result.errors = relocated(result.errors, files, folders);
    // The plan's warnings count as convert() counts them (a file with only output.renamed is
    // warned); a file skipped or failed stays so.
    if (result.status == Status::Converted) result.status = outcome(result);
    return result;
}

}  // namespace castkit::batch
