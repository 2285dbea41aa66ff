"""The extension list and nothing else: metadata lives in pyproject.toml.

Every ``.pyx`` under ``src/`` (at any depth) becomes an extension named by its dotted package
name (``src/core/ducks.pyx`` -> ``roost.core.ducks``, ``src/core/wingspan/powers.pyx`` ->
``roost.core.wingspan.powers``).  Cython resolves ``cimport roost.core.state``
by looking for ``roost/core/state.pxd`` on its include path; the source tree has ``src/``
instead of ``roost/``, so we give cythonize an include directory holding a link
``roost -> src``.  Without it a module could compile without reading its own ``.pxd``.

Set ``ROOST_PORTABLE=1`` to build without ``-march=native`` (for binaries that must run on
another CPU); the default tunes for the building machine, as Stockfish's ``ARCH=native``.
``ROOST_ONLY=src/search/mcts.pyx`` builds that one extension and ``ROOST_OPT=-O1`` replaces
``-O3``: the mutation harness (``tools/mutate_cython.py``) rebuilds one module per mutant, and
on a shared machine the full scan and the optimiser are most of that cost.  Floating point
is built with ``-ffp-contract=off``, so ``-O1`` and ``-O3`` builds (and CPUs with and without
fused multiply-add) compute the same values, and a seeded search reports the same figures
(tests/search/test_search_signatures.py).
"""
import glob
import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
INCLUDE = os.path.join(HERE, "build", "cython-include")


def _include_dir():
    os.makedirs(INCLUDE, exist_ok=True)
    link = os.path.join(INCLUDE, "roost")
    if not os.path.exists(link):
        try:
            os.symlink(SRC, link, target_is_directory=True)
        except OSError:  # no symlinks (some Windows set-ups): copy the declarations
            import shutil
            shutil.copytree(SRC, link, ignore=shutil.ignore_patterns("*.c", "*.so", "__pycache__"))
    return INCLUDE


def _extensions():
    flags = [os.environ.get("ROOST_OPT", "-O3")]
    if sys.platform != "win32":
        # no fused multiply-add unless the source asks: with -march=native GCC contracts
        # a * b + c into one rounding at -O2 and above, so a value's last bit (and a seeded
        # search's node count, through a tie it decides) depended on the optimiser level and
        # on the CPU; off, every build computes what IEEE double arithmetic says
        flags += ["-Wno-unused-function", "-Wno-unreachable-code", "-ffp-contract=off"]
        if not os.environ.get("ROOST_PORTABLE"):
            flags.append("-march=native")
    exts = []
    only = os.environ.get("ROOST_ONLY")
    for path in sorted(glob.glob(os.path.join("src", "**", "*.pyx"), recursive=True)):
        if only and os.path.normpath(path) != os.path.normpath(only):
            continue
        rel = os.path.splitext(os.path.relpath(path, "src"))[0]
        name = "roost." + rel.replace(os.sep, ".")
        exts.append(Extension(name, [path], include_dirs=[os.path.join("src", "core")],
                              extra_compile_args=flags))
    return exts


setup(
    ext_modules=cythonize(
        _extensions(),
        include_path=[_include_dir()],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            "embedsignature": True,
        },
    ),
)
