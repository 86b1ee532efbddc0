"""Work-arounds for the glTF importers the add-on meets, applied only while it runs them."""

import contextlib


@contextlib.contextmanager
def numpy_bool_alias():
    """Debian 12's Blender 3.4 glTF importer uses numpy.bool, which numpy 1.24 removed (it
    was an alias of bool): the alias exists while the add-on imports or exports, then goes."""
    try:
        import numpy
    except ImportError:
        yield
        return
    added = not hasattr(numpy, "bool")
    if added:
        numpy.bool = bool
    try:
        yield
    finally:
        if added:
            del numpy.bool
