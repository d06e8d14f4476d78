"""python/setup.py - puts the library's header, and the shared library
built beside it where there is one, into the package, so that an
installed package needs neither the source tree nor LD_LIBRARY_PATH
(pip install --no-index --no-build-isolation ./python; make python)."""
import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "pnsolve")
        shutil.copy(os.path.join(ROOT, "api", "pnsolve.h"), target)
        built = sorted(glob.glob(os.path.join(ROOT, os.environ.get("BUILD", "build"), "libpnsolve.so.*.*.*")))
        if built:  # else the package loads an installed libpnsolve.so.1
            shutil.copy(built[-1], os.path.join(target, "libpnsolve.so.1"))


setup(cmdclass={"build_py": BuildWithLibrary})
