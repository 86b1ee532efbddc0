// castkit_perf: the whole-file measurements bench/run.sh puts beside memcpy, cp and cat.
// Each mode times `--runs` repetitions and prints one JSON object with every run's wall and
// CPU seconds.
//   castkit_perf read FILE [--memcpy]  open (map + parse) + walk every node + touch every payload
//                                      byte; with --memcpy, a memcpy of the file's size first
//   castkit_perf write FILE OUT        open FILE once, then write the document to OUT each run
//   castkit_perf validate FILE         open (map + parse) + validate every rule, touching every
//   byte
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <castkit/cast/document.hpp>
#include <castkit/cast/validate.hpp>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <vector>

#include "scene.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Wall-clock and CPU seconds of one timed section. CPU time is what the benchmarks compare on a
// shared machine: it leaves out the time spent waiting for a core.
struct Timer {
    Clock::time_point wall = Clock::now();
    std::clock_t cpu = std::clock();
};

struct Timings {
    std::vector<double> wall, cpu;
    void add(const Timer& timer) {
        wall.push_back(std::chrono::duration<double>(Clock::now() - timer.wall).count());
        cpu.push_back(double(std::clock() - timer.cpu) / CLOCKS_PER_SEC);
    }
    std::string json(const char* name) const {
        return fmt::format("\"{}\":[{}],\"{}_cpu\":[{}]", name, fmt::join(wall, ","), name,
                           fmt::join(cpu, ","));
    }
};

// Each run: (with `with_memcpy`) one memcpy of the file's size between two pre-faulted buffers,
// then open + walk + touch, so that both see the same machine state.
int time_read(const std::string& path, int runs, bool with_memcpy) {
    Timings seconds, open_seconds, memcpy_seconds;
    std::vector<std::byte> source, target;
    if (with_memcpy) {
        std::error_code error;
        const auto size = static_cast<std::size_t>(std::filesystem::file_size(path, error));
        // Value-initialised, so every page is faulted in before the first timed copy.
        source.assign(error ? 0 : size, std::byte{1});
        target.assign(source.size(), std::byte{0});
    }
    castkit::bench::Touched touched;
    for (int run = 0; run < runs; ++run) {
        if (with_memcpy && !source.empty()) {
            source[std::size_t(run) % source.size()] = std::byte(run);
            Timer timer;
            std::memcpy(target.data(), source.data(), source.size());
            memcpy_seconds.add(timer);
        }
        Timer timer;
        castkit::Diagnostics warnings;
        auto document = castkit::cast::open(path, warnings);
        if (!document) {
            fmt::print(stderr, "{}\n", document.error().to_string());
            return 1;
        }
        open_seconds.add(timer);
        touched = castkit::bench::touch_all(*document);
        seconds.add(timer);
    }
    fmt::print(
        "{{\"mode\":\"read\",\"nodes\":{},\"properties\":{},\"payload_bytes\":{},"
        "\"checksum\":{},{},{},\"memcpy_bytes\":{},{}}}\n",
        touched.nodes, touched.properties, touched.payload_bytes, touched.checksum,
        seconds.json("seconds"), open_seconds.json("open_seconds"), source.size(),
        memcpy_seconds.json("memcpy_seconds"));
    return 0;
}

int time_write(const std::string& path, const std::string& output, int runs) {
    castkit::Diagnostics warnings;
    auto document = castkit::cast::open(path, warnings);
    if (!document) {
        fmt::print(stderr, "{}\n", document.error().to_string());
        return 1;
    }
    Timings seconds;
    for (int run = 0; run < runs; ++run) {
        Timer timer;
        if (auto ok = castkit::cast::write(*document, output); !ok) {
            fmt::print(stderr, "{}\n", ok.error().to_string());
            return 1;
        }
        seconds.add(timer);
    }
    fmt::print("{{\"mode\":\"write\",\"bytes\":{},{}}}\n", castkit::cast::file_size(*document),
               seconds.json("seconds"));
    return 0;
}

int time_validate(const std::string& path, int runs) {
    Timings seconds;
    std::size_t findings = 0;
    for (int run = 0; run < runs; ++run) {
        Timer timer;
        castkit::Diagnostics diagnostics;
        auto document = castkit::cast::open(path, diagnostics);
        if (!document) {
            fmt::print(stderr, "{}\n", document.error().to_string());
            return 1;
        }
        castkit::cast::validate(*document, diagnostics);
        findings = diagnostics.size();
        seconds.add(timer);
    }
    fmt::print("{{\"mode\":\"validate\",\"findings\":{},{}}}\n", findings, seconds.json("seconds"));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Whole-file timings of the castkit core", "castkit_perf"};
    app.require_subcommand(1);
    int runs = 5;
    app.add_option("--runs", runs, "Timed repetitions")->check(CLI::Range(1, 1000));
    std::string input, output;
    bool with_memcpy = false;
    int status = 0;

    CLI::App* read_mode = app.add_subcommand("read", "open + walk + touch every payload byte");
    read_mode->add_option("file", input)->required();
    read_mode->add_flag("--memcpy", with_memcpy,
                        "Time a memcpy of the file's size before each run");
    read_mode->callback([&] { status = time_read(input, runs, with_memcpy); });

    CLI::App* write_mode = app.add_subcommand("write", "write an opened document to a new file");
    write_mode->add_option("file", input)->required();
    write_mode->add_option("output", output)->required();
    write_mode->callback([&] { status = time_write(input, output, runs); });

    CLI::App* validate_mode = app.add_subcommand("validate", "open + validate every rule");
    validate_mode->add_option("file", input)->required();
    validate_mode->callback([&] { status = time_validate(input, runs); });

    CLI11_PARSE(app, argc, argv);
    return status;
}
