"""The layering of docs/architecture.md, checked on the sources: a layer imports only the
layers below it (core <- search <- interop, protocol <- arena <- web <- cli).  Imports inside
functions count as well: a lazy import that goes up is still a dependency that goes up, and
so does a module named in a string (``importlib.import_module("roost.arena.x")``, a table
of ``"roost.protocol.client:ProtocolEngine"``)."""
import ast
import pathlib
import re

import pytest

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"

MAY_IMPORT = {
    "core": {"core"},
    "search": {"core", "search"},
    "interop": {"core", "search", "interop"},
    "protocol": {"core", "search", "protocol"},
    "arena": {"core", "search", "interop", "protocol", "arena"},
    "bench": {"core", "search", "arena", "bench"},
    "web": {"core", "search", "arena", "web"},
    "cli": {"core", "search", "protocol", "interop", "arena", "bench", "web", "cli"},
}

_CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+roost\.(\w+)|c?import\s+roost\.(\w+))", re.M)
# a string that is a module path, alone or with an object after a colon
_MODULE_TEXT = re.compile(r"roost\.(\w+)(?:\.\w+)*(?::\w+)?")


def _docstrings(tree):
    """The string constants that are docstrings or comments-as-strings (a bare expression)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def imported_layers(path):
    """The roost layers (first package below roost) a source file imports."""
    text = path.read_text()
    if path.suffix == ".py":
        found = set()
        tree = ast.parse(text)
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
                named = _MODULE_TEXT.fullmatch(node.value.strip())
                if named:
                    found.add(named.group(1))
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "roost" and len(parts) > 1:
                    found.add(parts[1])
        return found
    return {a or b for a, b in _CYTHON_IMPORT.findall(text)}


def _layer(path):
    rel = path.relative_to(SRC).parts
    return rel[0] if len(rel) > 1 else path.stem


SOURCES = sorted(p for p in SRC.rglob("*") if p.suffix in (".py", ".pyx", ".pxd")
                 and _layer(p) in MAY_IMPORT)


def test_every_layer_is_checked():
    layers = {p.relative_to(SRC).parts[0] for p in SRC.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
    assert layers <= set(MAY_IMPORT), f"a new folder under src/ needs its place in the layers: {layers - set(MAY_IMPORT)}"
    assert len(SOURCES) > 50


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_go_down_the_layers(path):
    layer = _layer(path)
    wrong = imported_layers(path) - MAY_IMPORT[layer]
    assert not wrong, f"{path.relative_to(SRC)} ({layer}) imports {sorted(wrong)}"


def test_the_check_sees_imports_inside_functions(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from roost.arena.match import x\n")
    assert imported_layers(probe) == {"arena"}
    pyx = tmp_path / "probe.pyx"
    pyx.write_text("from roost.core.state cimport State\ncimport roost.search.clock\n")
    assert imported_layers(pyx) == {"core", "search"}


def test_the_check_sees_a_module_named_in_a_string(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""Made by roost.cli.main."""\n'
                     'import importlib\n'
                     'KINDS = {"cmd": "roost.protocol.client:ProtocolEngine"}\n'
                     'def f():\n    return importlib.import_module("roost.arena.match")\n')
    assert imported_layers(probe) == {"protocol", "arena"}
