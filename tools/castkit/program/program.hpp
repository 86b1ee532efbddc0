// What the castkit program needs of the operating system beyond the library's platform layer:
// its arguments in UTF-8, whether its output is a terminal, and the desktop's browser. A program's
// concerns, not a library's, so they are not in the installed API (include/castkit/platform.hpp);
// POSIX and Windows implementations beside this header.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace castkit::program {

// The program's arguments as UTF-8 whatever the system's code page: on Windows from the wide
// command line (argv there is in the ANSI code page, which cannot hold every file name),
// elsewhere argv as given. O(length of the command line).
std::vector<std::string> utf8_arguments(int argc, char** argv);

// True when standard output is a terminal (progress lines are drawn only there).
bool stdout_is_terminal();

// Asks the desktop to open `url` (or a file's path) in the default browser (xdg-open, open,
// ShellExecute; on POSIX the first command of $BROWSER when it is set) without waiting for it.
// False when no opener could be started.
bool open_in_browser(const std::string& url);

// Lets this process hold up to `wanted` open files and sockets where the system allows (on POSIX
// the soft RLIMIT_NOFILE raised toward the hard one, which is often 1024 against a far higher
// hard limit) and returns how many it may now hold. Windows bounds neither: `wanted`.
std::size_t allow_open_files(std::size_t wanted);

}  // namespace castkit::program
