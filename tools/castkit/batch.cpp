// The folder converter: the library's plan (castkit/batch.hpp), its tasks claimed by a pool of
// threads (one per core unless -j), each converted by batch::convert; the main thread draws the
// progress line and writes the summary and the JSON report.
#include "batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <castkit/platform.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

#include "commands.hpp"
#include "program/program.hpp"

namespace castkit::cli {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
using batch::Status;
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

class Batch {
  public:
    Batch(const BatchOptions& options, batch::Plan plan)
        : options_(options),
          terminal_(program::stdout_is_terminal()),
          plan_(std::move(plan)),
          results_(plan_.tasks.size()) {}

    int run() {
        const std::vector<batch::Task>& tasks = plan_.tasks;
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const unsigned jobs = static_cast<unsigned>(std::min<std::size_t>(
            options_.jobs == 0 ? cores : options_.jobs, std::max<std::size_t>(1, tasks.size())));
        for (const batch::Task& task : tasks) total_bytes_ += task.bytes;
        handler_before_batch = std::signal(SIGINT, on_interrupt);
        start_ = Clock::now();
        std::vector<std::thread> workers;
        for (unsigned i = 0; i < jobs; ++i) workers.emplace_back([this] { work(); });
        {
            std::unique_lock lock(mutex_);
            // Redrawn at most every 100 ms: a fast batch finishes thousands of files a second.
            Clock::time_point drawn;
            while (finished_ < tasks.size() && !(interrupted && running_ == 0 && claimed_done())) {
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
    const bool terminal_;
    const batch::Plan plan_;
    std::vector<batch::Result> results_;  // results_[i] is plan_.tasks[i]'s
    std::atomic<std::size_t> next_{0};
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t finished_ = 0, running_ = 0, failed_ = 0;
    std::uint64_t total_bytes_ = 0, done_bytes_ = 0;
    Clock::time_point start_;
    double seconds_ = 0;

    bool claimed_done() const { return next_.load() >= plan_.tasks.size() || interrupted; }

    void work() {
        while (!interrupted) {
            const std::size_t index = next_.fetch_add(1);
            if (index >= plan_.tasks.size()) break;
            {
                std::lock_guard lock(mutex_);
                ++running_;
            }
            const batch::Task& task = plan_.tasks[index];
            batch::Result result = batch::convert(options_.batch, task, plan_.outputs);
            std::lock_guard lock(mutex_);
            --running_;
            ++finished_;
            done_bytes_ += task.bytes;
            if (result.status == Status::Failed) {
                ++failed_;
                if (terminal_ && !options_.quiet) fmt::print("\r\033[K");
                std::fflush(stdout);
                print_diagnostics(result.errors);
            }
            results_[index] = std::move(result);
            changed_.notify_all();
        }
        std::lock_guard lock(mutex_);
        changed_.notify_all();
    }

    std::size_t count(Status status) const {
        return static_cast<std::size_t>(
            std::count_if(results_.begin(), results_.end(),
                          [&](const batch::Result& result) { return result.status == status; }));
    }

    // "120/400 files, 12.4 MB/s, ETA 0:07, 2 failed"; caller holds the lock.
    void draw_progress() {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
        const double rate = elapsed > 0 ? static_cast<double>(done_bytes_) / elapsed : 0;
        const double left = rate > 0 ? static_cast<double>(total_bytes_ - done_bytes_) / rate : 0;
        const auto eta = static_cast<long>(left);
        fmt::print("\r\033[K{}/{} files, {:.1f} MB/s, ETA {}:{:02}, {} failed", finished_,
                   plan_.tasks.size(), rate / 1e6, eta / 60, eta % 60, failed_);
        std::fflush(stdout);
    }

    void print_summary(unsigned jobs) const {
        const std::size_t files = plan_.tasks.size();
        const double mb = static_cast<double>(done_bytes_) / 1e6;
        fmt::print(
            "{} files: {} converted, {} with warnings, {} failed, {} skipped{}\n", files,
            count(Status::Converted), count(Status::Warned), count(Status::Failed),
            count(Status::Skipped),
            interrupted ? fmt::format(", {} not started (interrupted)", files - finished_) : "");
        fmt::print("{:.1f} MB in {:.2f} s on {} threads ({:.0f} files/s, {:.1f} MB/s)\n", mb,
                   seconds_, jobs, seconds_ > 0 ? static_cast<double>(finished_) / seconds_ : 0,
                   seconds_ > 0 ? mb / seconds_ : 0);
    }

    Expected<void> write_report(unsigned jobs) const {
        const std::string text =
            batch::report(options_.batch, plan_.tasks, results_, jobs, seconds_);
        auto file = platform::create_atomic_file(options_.report, text.size());
        if (!file) return make_error(file.error());
        if (auto ok = (*file)->write(std::as_bytes(std::span(text))); !ok) return ok;
        return (*file)->commit();
    }
};

}  // namespace

int run_batch(const BatchOptions& options) {
    if (auto to = batch::output_format(options.batch); !to) {
        fmt::print(stderr, "castkit: convert: {}{}\n", to.error().message,
                   options.batch.to.empty() ? ": give it with --to FORMAT" : "");
        return kUsage;
    }
    Diagnostics skipped;
    auto plan = batch::plan(options.batch, skipped);
    print_diagnostics(skipped);
    if (!plan) {
        fmt::print(stderr, "{}\n", plan.error().to_string());
        return kInvalidInput;
    }
    Batch run(options, std::move(*plan));
    return run.run();
}

}  // namespace castkit::cli
