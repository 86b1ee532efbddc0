// Whole folders: every file castkit can read under a folder converted to one format, in
// parallel, into the same relative tree under an output folder (the rules: castkit/batch.hpp).
#pragma once

#include <castkit/batch.hpp>
#include <filesystem>

namespace castkit::cli {

struct BatchOptions {
    batch::Options batch;
    unsigned jobs = 0;  // 0: one per core
    bool quiet = false;
    std::filesystem::path report;  // JSON report, when not empty
};

// Converts the folder; prints failures to stderr as they happen, a progress line while running
// when stdout is a terminal, and the summary. The exit code: 0, 1 when any file failed, 2 for
// a usage error, 130 when interrupted. O(total input size), spread over `jobs` threads.
int run_batch(const BatchOptions& options);

}  // namespace castkit::cli
