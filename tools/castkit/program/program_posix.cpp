// POSIX implementation of program.hpp.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "program.hpp"

namespace castkit::program {

std::vector<std::string> utf8_arguments(int argc, char** argv) {
    return std::vector<std::string>(argv, argv + argc);
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

std::size_t allow_open_files(std::size_t wanted) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
        rlimit raised = limit;
        raised.rlim_cur =
            limit.rlim_max == RLIM_INFINITY ? wanted : std::min<rlim_t>(limit.rlim_max, wanted);
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? wanted : static_cast<std::size_t>(limit.rlim_cur);
}

bool open_in_browser(const std::string& url) {
#ifdef __APPLE__
    std::string opener = "open";
#else
    std::string opener = "xdg-open";
#endif
    // $BROWSER, as Python's webbrowser and git read it: the first of its ':'-separated commands.
    if (const char* browser = std::getenv("BROWSER"); browser != nullptr && *browser != '\0')
        opener = std::string(browser).substr(0, std::string_view(browser).find(':'));
    // A child of a child, so the opener (and the browser it may start) is never our zombie.
    const pid_t child = ::fork();
    if (child < 0) return false;
    if (child == 0) {
        if (::fork() == 0) {
            ::execlp(opener.c_str(), opener.c_str(), url.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace castkit::program
