// Whole folders: every file castkit can read under a folder converted to one format, in
// parallel, into the same relative tree under an output folder.
#pragma once

#include <castkit/formats.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace castkit::cli {

struct BatchOptions {
    std::filesystem::path input_dir, output_dir;
    std::string from, to;  // format names; `to` is required
    // Animation files merged into every input whose models have a skeleton (--anims).
    std::vector<std::filesystem::path> animations;
    FormatOptions format_options;
    unsigned jobs = 0;  // 0: one per core
    bool recursive = false, quiet = false, force = false;
    std::filesystem::path report;  // JSON report, when not empty
};

// Converts the folder; prints failures to stderr as they happen, a progress line while running
// when stdout is a terminal, and the summary. The exit code: 0, 1 when any file failed, 2 for
// a usage error, 130 when interrupted. O(total input size), spread over `jobs` threads.
int run_batch(const BatchOptions& options);

// Every file under `dir` whose extension names a format castkit reads, sorted. Links to folders
// are not followed; a link to a file outside `dir` is skipped with a warning in `warnings`
// (io.link-outside) unless `allow_any_path`. O(entries).
Expected<std::vector<std::filesystem::path>> readable_files(const std::filesystem::path& dir,
                                                            bool recursive, bool allow_any_path,
                                                            Diagnostics& warnings);

}  // namespace castkit::cli
