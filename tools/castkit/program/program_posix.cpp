// POSIX implementation of program.hpp.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "program.hpp"

namespace castkit::program {

std::vector<std::string> utf8_arguments(int argc, char** argv) {
    return std::vector<std::string>(argv, argv + argc);
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

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
