"""tools/mutate_cython.py: which lines of a .pyx its mutants change."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import mutate_cython  # noqa: E402

SOURCE = '''cdef enum:
    LIMIT = 160               # a constant, not code
    HALF = LIMIT // 2

cdef extern from *:
    """
    #define ROOST_SCALE 2.0
    """
    const double SCALE "ROOST_SCALE"

ctypedef struct Pair:
    int* first
    int second

cdef int twice(int x) noexcept nogil:
    cdef int y = x * 2
    return y + LIMIT
'''


def test_declarations_are_not_mutated_and_code_is():
    lines = SOURCE.splitlines(keepends=True)
    mutated = {m.line for m in mutate_cython.mutants(lines)}
    code = {n for n, text in enumerate(lines, 1) if "y = x" in text or "return y" in text}
    assert mutated == code
