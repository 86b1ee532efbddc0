"""Work-arounds for the glTF importers the add-on meets, applied only while it runs them."""

import contextlib
import warnings


@contextlib.contextmanager
def numpy_bool_alias():
    """Debian 12's Blender 3.4 glTF importer uses numpy.bool, which numpy 1.24 removed (it
    was an alias of bool): the alias exists while the add-on imports or exports, then goes."""
    try:
        import numpy
    except ImportError:
        yield
        return
    with warnings.catch_warnings():  # numpy 1.20 to 1.23 warn when numpy.bool is read
        warnings.simplefilter("ignore", FutureWarning)
        added = not hasattr(numpy, "bool")
    if added:
        numpy.bool = bool
    try:
        yield
    finally:
        if added:
            del numpy.bool
