"""Writing a file whole or not at all, for the package's Python writers (castkit.cast's
Cast.save, castkit.batch's report): a new file beside the target, renamed over it once written."""

import os
import secrets
import stat


def replace(path, write):
    """Calls `write(file)` on a new binary file in the folder of `path`, then renames it over
    `path`; if anything fails, the new file is removed and `path` is left as it was. The file
    gets the mode of `path` when it exists, else what open() would give (0o666 less the
    umask)."""
    name, file = _file_beside(path)
    try:
        with file:
            write(file)
        os.replace(name, path)
    except BaseException:
        os.unlink(name)
        raise


def _file_beside(path):
    """A new file in the folder of `path`, open for writing: (its name, the file)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o666
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        name = os.path.join(folder, ".%s.%s.tmp" % (os.path.basename(path), secrets.token_hex(6)))
        try:
            return name, os.fdopen(os.open(name, flags, mode), "wb")
        except FileExistsError:
            continue
