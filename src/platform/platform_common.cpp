#include <cstdio>
#include <system_error>

#include "platform.hpp"

namespace castkit::platform {

Diagnostic os_error(const std::filesystem::path& path, const std::string& what, int code) {
    Diagnostic d;
    d.file = path.string();
    d.rule = "io.system";
    d.message = what + ": " + std::system_category().message(code);
    return d;
}

}  // namespace castkit::platform
