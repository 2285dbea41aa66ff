"""The examples in roost's docstrings (python-chess style: ``>>> Ducks.parse(...)``) run and
print what they show: every module whose source holds an example is imported and its
examples are run with doctest."""
import doctest
import importlib
import pathlib

import pytest

import roost

SRC = pathlib.Path(roost.__file__).resolve().parent


def _modules_with_examples():
    found = []
    for path in sorted(SRC.rglob("*.py")) + sorted(SRC.rglob("*.pyx")):
        if ">>>" in path.read_text(encoding="utf-8"):
            found.append("roost." + ".".join(path.with_suffix("").relative_to(SRC).parts))
    return found


MODULES = _modules_with_examples()


def test_the_examples_are_found():
    # the game modules and the engine specs carry examples; a search that finds none is broken
    assert "roost.search.engines" in MODULES and "roost.core.connect4" in MODULES
    assert len(MODULES) >= 10


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_module_run_as_shown(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.attempted > 0, f"{name}: its examples were not collected"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (python -m doctest -v)"
