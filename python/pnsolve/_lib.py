"""pnsolve._lib - libpnsolve through cffi's ABI mode: the declarations are
read from the library's own header (pnsolve.h, put beside this file when
the package is built), so they cannot drift from the C library."""
import os
import re

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))


def _declarations(header_text):
    """pnsolve.h as cffi's cdef takes it: integer #defines kept, every
    other preprocessor line and the visibility macro dropped."""
    out = []
    for line in header_text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            m = re.match(r"#define\s+(\w+)\s+(-?\d+)\b", stripped)
            if m:
                out.append("#define %s %s" % (m.group(1), m.group(2)))
            continue
        if stripped.startswith('extern "C"') or stripped == "}":
            continue
        out.append(line.replace("PNSOLVE_API ", ""))
    return "\n".join(out)


def _header_path():
    for path in (os.environ.get("PNSOLVE_HEADER"), os.path.join(_HERE, "pnsolve.h"),
                 os.path.join(_HERE, "..", "..", "api", "pnsolve.h")):
        if path and os.path.exists(path):
            return path
    raise ImportError("pnsolve: the library's header pnsolve.h is not beside the package (build it with make python)")


def _library_path():
    for path in (os.environ.get("PNSOLVE_LIBRARY"), os.path.join(_HERE, "libpnsolve.so.1")):
        if path and os.path.exists(path):
            return path
    return "libpnsolve.so.1"  # an installed library (make install), found by the dynamic linker


ffi = FFI()
with open(_header_path()) as _f:
    ffi.cdef(_declarations(_f.read()))
lib = ffi.dlopen(_library_path())
