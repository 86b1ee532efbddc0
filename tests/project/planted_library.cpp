// A library planted in the folder castkit runs in, built under another name and copied there
// under the names of the libraries castkit loads (tests/project/planted_library.py): when the
// loader maps it, its constructor writes the file "planted-library-loaded" into the current
// folder, which the test then finds. Only the C library's open and close, so that it loads
// without any library of its own beyond libc.
#include <fcntl.h>
#include <unistd.h>

namespace {

__attribute__((constructor)) void say_it_was_loaded() {
    const int fd = ::open("planted-library-loaded", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) ::close(fd);
}

}  // namespace
