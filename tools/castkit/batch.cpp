// The folder converter: a list of tasks claimed by a pool of threads (one per core unless -j),
// each reading, merging and writing one file through the format registry; the main thread
// draws the progress line and writes the summary and the JSON report.
#include "batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/merge.hpp>
#include <castkit/platform.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "commands.hpp"

namespace castkit::cli {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kInterrupted = 130;
constexpr auto kRedraw = std::chrono::milliseconds(100);

// Set by Ctrl-C: workers finish the file they are writing and claim no more. A second Ctrl-C
// goes to the handler the batch replaced (platform::remove_temporaries_on_interrupt's: the
// temporary files of the files being written are removed and the process ends at once).
std::atomic<bool> interrupted{false};
using SignalHandler = void (*)(int);
SignalHandler handler_before_batch = SIG_DFL;
extern "C" void on_interrupt(int signal) {
    if (!interrupted.exchange(true)) return;
    std::signal(signal, handler_before_batch);
    std::raise(signal);
}

enum class Status { Converted, Warned, Failed, Skipped };

const char* status_name(Status status) {
    switch (status) {
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

struct Task {
    fs::path input, output;
    std::uint64_t bytes = 0;
    // Filled by the worker that ran it.
    Status status = Status::Failed;
    // Set by the plan (before anything is written): the output is newer than its inputs.
    bool fresh = false;
    Diagnostics warnings, errors;
    std::uint64_t output_bytes = 0;
    double milliseconds = 0;
    bool done = false;
};

// `path` with '/' separators, as UTF-8 (the JSON report).
std::string generic_utf8(const fs::path& path) {
    const std::u8string text = path.generic_u8string();
    return std::string(text.begin(), text.end());
}

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

// A file too large for the memory castkit can get fails on its own; the batch goes on.
Diagnostic out_of_memory(const fs::path& input) {
    Diagnostic d;
    d.file = platform::utf8_of(input);
    d.rule = "io.out-of-memory";
    d.message = "out of memory reading the file";
    return d;
}

bool has_skeleton(cast::Document& document) {
    for (const cast::Model& model : document.models())
        if (model.skeleton()) return true;
    return false;
}

class Batch {
  public:
    Batch(const BatchOptions& options, const FormatInfo& to)
        : options_(options),
          to_(to),
          terminal_(platform::stdout_is_terminal()),
          format_options_(options.format_options) {
        if (!format_options_.side_outputs)
            format_options_.side_outputs = std::make_shared<SideOutputs>();
    }

    // The tasks: every readable file under the input folder but the animations and anything
    // already under the output folder, each with an output name of its own (name_outputs);
    // which outputs are up to date is decided here, before anything is written.
    Expected<void> plan() {
        Diagnostics skipped;
        auto inputs = readable_files(options_.input_dir, options_.recursive,
                                     options_.format_options.side_files.allow_any_path, skipped);
        if (!inputs) return make_error(inputs.error());
        print_diagnostics(skipped);
        std::error_code error;
        const fs::path output_dir = fs::weakly_canonical(options_.output_dir, error);
        std::vector<fs::path> animations;
        for (const fs::path& animation : options_.animations)
            animations.push_back(fs::weakly_canonical(animation, error));
        for (const fs::path& input : *inputs) {
            const fs::path canonical = fs::weakly_canonical(input, error);
            auto [in_output, _] = std::mismatch(output_dir.begin(), output_dir.end(),
                                                canonical.begin(), canonical.end());
            if (in_output == output_dir.end()) continue;
            if (std::find(animations.begin(), animations.end(), canonical) != animations.end())
                continue;
            Task task;
            task.input = input;
            task.bytes = file_bytes(input);
            const fs::path relative = input.lexically_relative(options_.input_dir);
            task.output =
                options_.output_dir / relative.parent_path() /
                platform::path_from_utf8(file_stem(input) + std::string(to_.extensions.front()));
            tasks_.push_back(std::move(task));
        }
        name_outputs();
        for (Task& task : tasks_)
            task.fresh =
                !options_.force && up_to_date(task.input, task.output, options_.animations);
        // Folders are made here, once, so that workers never race to create the same one.
        for (const Task& task : tasks_) {
            fs::create_directories(task.output.parent_path(), error);
            if (error)
                return make_error(platform::os_error(task.output.parent_path(),
                                                     "cannot create the folder", error.value()));
        }
        return {};
    }

    int run() {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const unsigned jobs = static_cast<unsigned>(std::min<std::size_t>(
            options_.jobs == 0 ? cores : options_.jobs, std::max<std::size_t>(1, tasks_.size())));
        for (const Task& task : tasks_) total_bytes_ += task.bytes;
        handler_before_batch = std::signal(SIGINT, on_interrupt);
        start_ = Clock::now();
        std::vector<std::thread> workers;
        for (unsigned i = 0; i < jobs; ++i) workers.emplace_back([this] { work(); });
        {
            std::unique_lock lock(mutex_);
            // Redrawn at most every 100 ms: a fast batch finishes thousands of files a second.
            Clock::time_point drawn;
            while (finished_ < tasks_.size() && !(interrupted && running_ == 0 && claimed_done())) {
                changed_.wait_for(lock, std::chrono::milliseconds(200));
                if (terminal_ && !options_.quiet && Clock::now() - drawn > kRedraw) {
                    draw_progress();
                    drawn = Clock::now();
                }
            }
        }
        for (std::thread& worker : workers) worker.join();
        std::signal(SIGINT, handler_before_batch);
        seconds_ = std::chrono::duration<double>(Clock::now() - start_).count();
        if (terminal_ && !options_.quiet) fmt::print("\r\033[K");
        if (!options_.quiet) print_summary(jobs);
        if (!options_.report.empty())
            if (auto written = write_report(jobs); !written) {
                fmt::print(stderr, "{}\n", written.error().to_string());
                return kInvalidInput;
            }
        if (interrupted) return kInterrupted;
        return count(Status::Failed) > 0 ? kInvalidInput : kSuccess;
    }

  private:
    const BatchOptions& options_;
    const FormatInfo& to_;
    const bool terminal_;
    // The user's options with the run's side-output writer, shared by every task.
    FormatOptions format_options_;
    std::vector<Task> tasks_;
    std::atomic<std::size_t> next_{0};
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t finished_ = 0, running_ = 0, failed_ = 0;
    std::uint64_t total_bytes_ = 0, done_bytes_ = 0;
    Clock::time_point start_;
    double seconds_ = 0;

    // Outputs that two inputs would share (blind to case, as on Windows and macOS): the first
    // input in path order keeps the name, a later one takes its input's full file name
    // ("hero.semodel.glb"), else that name numbered ("hero.semodel-2.glb"), with an
    // output.renamed warning. Every output (and a .gltf's .bin) is reserved in the run's
    // side-output writer, so no side file takes its name. O(inputs × log inputs).
    void name_outputs() {
        SideOutputs& outputs = *format_options_.side_outputs;
        std::map<fs::path, const Task*> owners;
        std::vector<Task*> renamed;
        for (Task& task : tasks_) {
            if (outputs.reserve(task.output))
                owners[task.output] = &task;
            else
                renamed.push_back(&task);
        }
        for (Task* task : renamed) {
            const fs::path wanted = task->output;
            const fs::path full =
                wanted.parent_path() /
                platform::path_from_utf8(platform::utf8_of(task->input.filename()) +
                                         std::string(to_.extensions.front()));
            task->output = full;
            // Bounded: fewer outputs than numbers tried, so one of them is free.
            for (int n = 2;
                 !outputs.reserve(task->output) && static_cast<std::size_t>(n) <= tasks_.size() + 1;
                 ++n)
                task->output = SideOutputs::numbered(full, n);
            const auto owner = owners.find(wanted);
            task->warnings.push_back(
                {.severity = Severity::Warning,
                 .file = platform::utf8_of(task->input),
                 .path = "/",
                 .rule = "output.renamed",
                 .message = fmt::format(
                     "written as '{}': '{}' is the output of {}",
                     platform::utf8_of(task->output.filename()),
                     platform::utf8_of(wanted.filename()),
                     owner == owners.end() ? std::string("another input")
                                           : "'" + platform::utf8_of(owner->second->input) + "'")});
        }
        for (const Task& task : tasks_)
            for (const fs::path& file : formats::output_files(to_, task.output))
                outputs.reserve(file);
    }

    bool claimed_done() const { return next_.load() >= tasks_.size() || interrupted; }

    void work() {
        while (!interrupted) {
            const std::size_t index = next_.fetch_add(1);
            if (index >= tasks_.size()) break;
            {
                std::lock_guard lock(mutex_);
                ++running_;
            }
            Task& task = tasks_[index];
            const auto begun = Clock::now();
            try {
                convert(task);
            } catch (const std::bad_alloc&) {
                task.errors.push_back(out_of_memory(task.input));
                task.status = Status::Failed;
            }
            task.milliseconds =
                std::chrono::duration<double, std::milli>(Clock::now() - begun).count();
            std::lock_guard lock(mutex_);
            --running_;
            ++finished_;
            done_bytes_ += task.bytes;
            task.done = true;
            if (task.status == Status::Failed) {
                ++failed_;
                if (terminal_ && !options_.quiet) fmt::print("\r\033[K");
                std::fflush(stdout);
                print_diagnostics(task.errors);
            }
            changed_.notify_all();
        }
        std::lock_guard lock(mutex_);
        changed_.notify_all();
    }

    // Reads, merges and writes one file; every problem lands in the task. O(file size).
    void convert(Task& task) {
        if (task.fresh) {
            task.status = Status::Skipped;
            return;
        }
        const FormatInfo* from =
            options_.from.empty() ? format_for_path(task.input) : format_by_name(options_.from);
        const ReadContext read_context = formats::context_for(
            task.input, read_options_for(format_options_, to_, task.input, task.output));
        Diagnostics diagnostics;
        auto document = formats::read_file(*from, task.input, read_context, diagnostics);
        if (!document) {
            take(task, diagnostics);
            task.errors.push_back(document.error());
            task.status = Status::Failed;
            return;
        }
        if (!options_.animations.empty() && has_skeleton(*document))
            merge(task, *document, diagnostics);
        // Relative names in the document (textures, instances) resolve beside the input.
        WriteContext write_context = formats::context_for(task.output, format_options_);
        write_context.base = read_context.base;
        auto written = formats::write_file(to_, *document, task.output, write_context, diagnostics);
        take(task, diagnostics);
        if (!written) task.errors.push_back(written.error());
        task.output_bytes = written ? file_bytes(task.output) : 0;
        task.status = !task.errors.empty()     ? Status::Failed
                      : !task.warnings.empty() ? Status::Warned
                                               : Status::Converted;
    }

    // --anims: every animation file read again for each model (merging consumes them).
    void merge(Task& task, cast::Document& document, Diagnostics& diagnostics) {
        std::vector<formats::AnimationSource> sources;
        for (const fs::path& path : options_.animations) {
            const FormatInfo* format = format_for_path(path);
            auto animation =
                formats::read_file(*format, path, formats::context_for(path), diagnostics);
            if (!animation) {
                task.errors.push_back(animation.error());
                continue;
            }
            sources.push_back({std::move(*animation), file_stem(path)});
        }
        formats::merge(document, std::move(sources), diagnostics);
    }

    // The findings of one task's reads and writes: errors (a strict write's further findings)
    // apart from the rest, as the report lists them.
    static void take(Task& task, const Diagnostics& diagnostics) {
        task.errors.append(diagnostics.with_severity(Severity::Error));
        task.warnings.append(diagnostics.with_severity(Severity::Warning));
        task.warnings.append(diagnostics.with_severity(Severity::Info));
    }

    std::size_t count(Status status) const {
        return static_cast<std::size_t>(
            std::count_if(tasks_.begin(), tasks_.end(),
                          [&](const Task& task) { return task.done && task.status == status; }));
    }

    // "[ 120/ 400] 30% 12.4 MB/s ETA 0:07, 2 failed"; caller holds the lock.
    void draw_progress() {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
        const double rate = elapsed > 0 ? static_cast<double>(done_bytes_) / elapsed : 0;
        const double left = rate > 0 ? static_cast<double>(total_bytes_ - done_bytes_) / rate : 0;
        const auto eta = static_cast<long>(left);
        fmt::print("\r\033[K{}/{} files, {:.1f} MB/s, ETA {}:{:02}, {} failed", finished_,
                   tasks_.size(), rate / 1e6, eta / 60, eta % 60, failed_);
        std::fflush(stdout);
    }

    void print_summary(unsigned jobs) const {
        const double mb = static_cast<double>(done_bytes_) / 1e6;
        fmt::print("{} files: {} converted, {} with warnings, {} failed, {} skipped{}\n",
                   tasks_.size(), count(Status::Converted), count(Status::Warned),
                   count(Status::Failed), count(Status::Skipped),
                   interrupted
                       ? fmt::format(", {} not started (interrupted)", tasks_.size() - finished_)
                       : "");
        fmt::print("{:.1f} MB in {:.2f} s on {} threads ({:.0f} files/s, {:.1f} MB/s)\n", mb,
                   seconds_, jobs, seconds_ > 0 ? static_cast<double>(finished_) / seconds_ : 0,
                   seconds_ > 0 ? mb / seconds_ : 0);
    }

    Expected<void> write_report(unsigned jobs) const {
        auto messages = [](const Diagnostics& diagnostics) {
            nlohmann::json out = nlohmann::json::array();
            for (const Diagnostic& d : diagnostics.shown()) out.push_back(d.to_string());
            return out;
        };
        nlohmann::json files = nlohmann::json::array();
        for (const Task& task : tasks_)
            files.push_back({{"input", generic_utf8(task.input)},
                             {"output", generic_utf8(task.output)},
                             {"status", task.done ? status_name(task.status) : "not-started"},
                             {"warnings", messages(task.warnings)},
                             {"errors", messages(task.errors)},
                             {"bytes", task.bytes},
                             {"output_bytes", task.output_bytes},
                             {"milliseconds", task.milliseconds}});
        const nlohmann::json report{{"input", generic_utf8(options_.input_dir)},
                                    {"output", generic_utf8(options_.output_dir)},
                                    {"format", std::string(to_.name)},
                                    {"jobs", jobs},
                                    {"seconds", seconds_},
                                    {"summary",
                                     {{"files", tasks_.size()},
                                      {"converted", count(Status::Converted)},
                                      {"warned", count(Status::Warned)},
                                      {"failed", count(Status::Failed)},
                                      {"skipped", count(Status::Skipped)}}},
                                    {"files", std::move(files)}};
        const std::string text = report.dump(2) + "\n";
        auto file = platform::create_atomic_file(options_.report, text.size());
        if (!file) return make_error(file.error());
        if (auto ok = (*file)->write(std::as_bytes(std::span(text))); !ok) return ok;
        return (*file)->commit();
    }
};

// True when `path` lies strictly inside `folder` (both canonical). O(path length).
bool inside(const fs::path& path, const fs::path& folder) {
    const fs::path relative = path.lexically_relative(folder);
    return !path.empty() && !relative.empty() && *relative.begin() != ".." && relative != ".";
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

}  // namespace

Expected<std::vector<fs::path>> readable_files(const fs::path& dir, bool recursive,
                                               bool allow_any_path, Diagnostics& warnings) {
    std::vector<fs::path> files;
    std::error_code error;
    const fs::path real_dir = fs::canonical(dir, error);
    auto add = [&](const fs::directory_entry& entry) {
        std::error_code ignored;
        if (!entry.is_regular_file(ignored) || format_for_path(entry.path()) == nullptr) return;
        if (entry.is_symlink(ignored) && !allow_any_path &&
            !inside(fs::canonical(entry.path(), ignored), real_dir))
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

int run_batch(const BatchOptions& options) {
    const FormatInfo* to = options.to.empty() ? nullptr : format_by_name(options.to);
    if (to == nullptr) {
        fmt::print(stderr, "castkit: convert: a folder needs --to FORMAT (one of:");
        for (const FormatInfo& format : all_formats()) fmt::print(stderr, " {}", format.name);
        fmt::print(stderr, ")\n");
        return kUsage;
    }
    if (!options.from.empty() && format_by_name(options.from) == nullptr) {
        fmt::print(stderr, "castkit: unknown format '{}'\n", options.from);
        return kUsage;
    }
    Batch batch(options, *to);
    if (auto planned = batch.plan(); !planned) {
        fmt::print(stderr, "{}\n", planned.error().to_string());
        return kInvalidInput;
    }
    return batch.run();
}

}  // namespace castkit::cli
