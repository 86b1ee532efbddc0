// Windows implementation of program.hpp.
#include "program.hpp"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <io.h>
#include <windows.h>

// shellapi.h needs windows.h first.
#include <shellapi.h>

#include <castkit/platform.hpp>
#include <cstdio>
#include <filesystem>
#include <string>

namespace castkit::program {

std::vector<std::string> utf8_arguments(int argc, char** argv) {
    int count = 0;
    LPWSTR* wide = CommandLineToArgvW(GetCommandLineW(), &count);
    if (wide == nullptr) return std::vector<std::string>(argv, argv + argc);
    std::vector<std::string> arguments;
    for (int i = 0; i < count; ++i)
        arguments.push_back(platform::utf8_of(std::filesystem::path(std::wstring(wide[i]))));
    LocalFree(wide);
    return arguments;
}

bool stdout_is_terminal() { return _isatty(_fileno(stdout)) != 0; }

bool open_in_browser(const std::string& url) {
    const std::wstring wide = platform::path_from_utf8(url).wstring();
    const auto result = reinterpret_cast<INT_PTR>(
        ShellExecuteW(nullptr, L"open", wide.c_str(), nullptr, nullptr, SW_SHOWNORMAL));
    return result > 32;  // ShellExecute's documented success threshold
}

std::size_t allow_open_files(std::size_t wanted) { return wanted; }

}  // namespace castkit::program
