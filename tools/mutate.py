"""Mutation testing for roost's Python modules: plant one small bug at a time, run the tests
that reach it, and count the bugs no test notices.

    python tools/mutate.py                       # every module of DEFAULT_TARGETS below
    python tools/mutate.py src/arena/store.py --tests tests/arena/test_arena_store.py
    python tools/mutate.py --list src/arena/ratings.py   # the mutants, without running them
    python tools/mutate.py --only 17,42 src/arena/store.py   # rerun some by number

The bugs (mutants) are made on the syntax tree: a comparison turned (< to <=, == to !=, in
to not in, is to is not), an arithmetic operator swapped (+ -, * /, // *, % //, ** *), and/or
swapped, a `not` or a unary minus dropped, a number changed (n to n + 1, x to 2x for a
float), True and False swapped, `return X` made `return None`, a call on its own line
(`conn.execute("COMMIT")`, `self.close()`) removed, break and continue swapped.  Strings,
docstrings and f-strings are left alone (they are messages; the CLI tests check messages
where they matter), and so is a line marked `# no mutate`.

How it runs: the source tree is copied (with its built extensions) to a scratch folder per
job, so the working tree is never touched.  One run of the tests with a line tracer in every
Python process (the test process, its forked pool workers, command-line subprocesses, Dask
workers: through a sitecustomize) finds which tests execute each line of the module; that
run must pass.  Then, for each mutant, a process that has already imported pytest, numpy,
click and the extensions forks; the child imports the mutated module fresh and runs,
stopping at the first failure, the tests that execute the mutated line (fastest first;
for a line run at import, every test of the files whose tests run any function of the
module: a test file that only reads a constant or builds a dataclass is not seen, so such
a survivor is to be checked by hand).  A mutant no test executes survives without a run.
A mutant is caught when a test fails or the tests time out (at least twice the time they
take unmutated).
Several modules can share one traced run, kept with ``--coverage-cache``; ``--sample N
--seed S`` draws a seeded sample of a large module's mutants.  The survivors are listed with
their line, to be read: some change nothing a user could see (equivalent mutants).

It is a tool, not part of the test suite, and needs nothing beyond the test extra.
"""
import argparse
import ast
import json
import os
import shutil
import signal
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# the arena's modules whose every mistake loses or corrupts a tournament, and the tests that
# exercise each
DEFAULT_TARGETS = {
    "src/arena/ratings.py": ["tests/arena/test_arena_ratings.py", "tests/arena/test_arena_tournament.py",
                             "tests/cli/test_cli_arena.py"],
    "src/arena/store.py": ["tests/arena/test_arena_store.py", "tests/arena/test_arena_tournament.py",
                           "tests/cli/test_cli_arena.py"],
    "src/arena/runner.py": ["tests/arena/test_arena_tournament.py", "tests/cli/test_cli_arena.py",
                            "tests/arena/test_arena_dask.py"],
}
# The searchers' Python parts are used by nearly every test: the whole suite but the arena's
# signal trials (they exercise the runner's stop checks, not the searchers)
_ALL_TESTS = sorted(os.path.relpath(os.path.join(dirpath, f), ROOT)
                    for dirpath, _, files in os.walk(os.path.join(ROOT, "tests"))
                    for f in files if f.startswith("test_") and f.endswith(".py"))
for _module in ("timeman", "auto", "result", "forfeits", "engines"):
    DEFAULT_TARGETS[f"src/search/{_module}.py"] = [t for t in _ALL_TESTS
                                                   if t != "tests/arena/test_arena_signals.py"]
# (tests/arena/test_arena_signals.py is left out: half a minute a run, and what it guards in the
# runner, the stop checks, test_arena_tournament's signal tests catch as well)


# ---------------------------------------------------------------------- mutants
_COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
            ast.In: ast.NotIn, ast.NotIn: ast.In}
_ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
          ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult,
          ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr, ast.LShift: ast.RShift,
          ast.RShift: ast.LShift}


class Mutator(ast.NodeTransformer):
    """Walks a module; numbers every mutation site; applies the one numbered ``target``
    (or none, when counting).  ``sites`` collects (line, description) per number."""

    def __init__(self, skip_lines, target=None):
        self.skip_lines, self.target = skip_lines, target
        self.sites = []

    def _site(self, node, what):
        if node.lineno in self.skip_lines:
            return False
        self.sites.append((node.lineno, what))
        return len(self.sites) - 1 == self.target

    # strings, docstrings and messages are not mutated
    def visit_JoinedStr(self, node):
        return node

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node                                   # a docstring
        if isinstance(node.value, ast.Call) and self._site(node, "call removed"):
            return ast.copy_location(ast.Pass(), node)
        return self.generic_visit(node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        for k, op in enumerate(node.ops):
            new = _COMPARE.get(type(op))
            if new and self._site(node, f"{type(op).__name__} -> {new.__name__}"):
                node.ops[k] = new()
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        new = _ARITH.get(type(node.op))
        if new and self._site(node, f"{type(node.op).__name__} -> {new.__name__}"):
            node.op = new()
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        new = _ARITH.get(type(node.op))
        if new and self._site(node, f"{type(node.op).__name__}= -> {new.__name__}="):
            node.op = new()
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._site(node, f"{type(node.op).__name__} -> {new.__name__}"):
            node.op = new()
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, (ast.Not, ast.USub)) and self._site(node, f"{type(node.op).__name__} dropped"):
            return node.operand
        return node

    def visit_Constant(self, node):
        v = node.value
        if isinstance(v, bool):
            if self._site(node, f"{v} -> {not v}"):
                return ast.copy_location(ast.Constant(not v), node)
        elif isinstance(v, int):
            if self._site(node, f"{v} -> {v + 1}"):
                return ast.copy_location(ast.Constant(v + 1), node)
        elif isinstance(v, float):
            new = 2 * v if v else 1.0
            if self._site(node, f"{v} -> {new}"):
                return ast.copy_location(ast.Constant(new), node)
        return node

    def visit_Return(self, node):
        self.generic_visit(node)
        if node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            if self._site(node, "return None"):
                node.value = ast.Constant(None)
        return node

    def visit_Break(self, node):
        if self._site(node, "break -> continue"):
            return ast.copy_location(ast.Continue(), node)
        return node

    def visit_Continue(self, node):
        if self._site(node, "continue -> break"):
            return ast.copy_location(ast.Break(), node)
        return node


def module_level_lines(source):
    """Lines outside every function: run at import, they reach every test."""
    inside = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(range(node.lineno, node.end_lineno + 1))
    return set(range(1, len(source.splitlines()) + 1)) - inside


def signature_lines(source):
    """Each line of a function's signature (where its default values are) -> the first line
    of its body.  A default is evaluated once, at import, so the tracer sees its line run
    by whichever test imported first; the tests that depend on it are those that call the
    function, i.e. that run its body."""
    out = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                body = body[1:]            # a docstring never runs as a line
            first = body[0].lineno
            for line in range(node.lineno, first):
                out[line] = first
    return out


def _skip_lines(source):
    return {i for i, line in enumerate(source.splitlines(), 1) if "# no mutate" in line}


def mutants(source):
    """[(number, line, description)] of every mutant of ``source``."""
    m = Mutator(_skip_lines(source))
    m.visit(ast.parse(source))
    return [(i, line, what) for i, (line, what) in enumerate(m.sites)]


def mutated(source, number):
    m = Mutator(_skip_lines(source), target=number)
    tree = m.visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


# ---------------------------------------------------------------------- the scratch tree
def scratch_tree(where):
    """A copy of src/ (with its built extensions), tests/ and pyproject.toml, importable as
    ``roost`` through ``where/build/cython-include``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.c", "*.db", "*.db-*")
    shutil.copytree(os.path.join(ROOT, "src"), os.path.join(where, "src"), ignore=ignore)
    shutil.copytree(os.path.join(ROOT, "tests"), os.path.join(where, "tests"), ignore=ignore)
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), where)
    inc = os.path.join(where, "build", "cython-include")
    os.makedirs(inc)
    os.symlink(os.path.join(where, "src"), os.path.join(inc, "roost"))
    return inc


# ---------------------------------------------------------------------- which tests reach a line
# A tracer in every Python process of the traced run (the pytest process through a plugin,
# every subprocess through sitecustomize): each process appends "test id <tab> line" to a
# file of its own the first time a test makes it run a line of the target, at once, so a
# worker killed with SIGKILL has said what it ran.  A subprocess counts its lines for the
# test that was running when it started (a forked worker: the test running in its parent).
TRACER = r"""
import os, sys, threading

def _install():
    targets = set(os.environ["MUTATE_TARGETS"].split(os.pathsep))
    folder = os.environ["MUTATE_COVERAGE_DIR"]
    state = {"pid": None, "fh": None, "seen": set(), "names": {}}

    def test():
        return os.environ.get("MUTATE_TEST", "<import>")

    def hit(path, line):
        key = (test(), path, line)
        if os.getpid() != state["pid"]:             # a new process (or a fork): its own file
            state["pid"], state["seen"] = os.getpid(), set()
            state["fh"] = open(os.path.join(folder, f"cov-{os.getpid()}.txt"), "a", buffering=1)
        if key not in state["seen"]:
            state["seen"].add(key)
            state["fh"].write(f"{key[0]}\t{path}\t{line}\n")

    def local(frame, event, arg):
        if event == "line":
            hit(state["names"][frame.f_code.co_filename], frame.f_lineno)
        return local

    def trace(frame, event, arg):
        name = frame.f_code.co_filename
        known = state["names"].get(name)
        if known is None:
            real = os.path.realpath(name)
            known = state["names"][name] = real if real in targets else False
        return local if known else None

    sys.settrace(trace)
    threading.settrace(trace)

if os.environ.get("MUTATE_COVERAGE_DIR"):
    _install()
"""

PLUGIN = """
import os, time
_durations = {}

def pytest_runtest_setup(item):
    os.environ["MUTATE_TEST"] = item.nodeid

def pytest_runtest_teardown(item):
    pass

def pytest_runtest_logreport(report):
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
    if report.when == "teardown":
        os.environ["MUTATE_TEST"] = "<between>"

def pytest_sessionfinish(session, exitstatus):
    import json
    with open(os.path.join(os.environ["MUTATE_COVERAGE_DIR"], "durations.json"), "w") as fh:
        json.dump(_durations, fh)
"""


def coverage(tree_root, inc, targets, tests, timeout, cache=None):
    """({target: {line: {test ids}}}, {test id: seconds}) from one traced run of ``tests``
    that follows every module of ``targets`` at once.  With ``cache`` (a JSON file) a run
    for the same targets is read from there, and only test files it does not have are traced
    and added (delete the cache after a traced test file or a target changes)."""
    key = {"targets": sorted(targets), "tests": sorted(tests)}
    by_target, durations, todo = {t: {} for t in targets}, {}, sorted(tests)
    if cache and os.path.exists(cache):
        with open(cache) as fh:
            saved = json.load(fh)
        if set(targets) <= set(saved["key"]["targets"]):
            key["targets"] = targets = saved["key"]["targets"]    # added tests: traced for all
            by_target = {t: {int(line): set(ids) for line, ids in saved["by_target"][t].items()}
                         for t in targets}
            durations = saved["durations"]
            todo = sorted(set(tests) - set(saved["key"]["tests"]))
            print(f"(which tests reach which line: read from {cache}"
                  + (f"; tracing {', '.join(todo)})" if todo else ")"), flush=True)
            key["tests"] = sorted(set(tests) | set(saved["key"]["tests"]))
    if todo:
        more, more_durations = _traced_run(tree_root, inc, targets, todo, timeout)
        durations.update(more_durations)
        for t, rows in more.items():
            for line, ids in rows.items():
                by_target[t].setdefault(line, set()).update(ids)
        if cache:
            with open(cache, "w") as fh:
                json.dump({"key": key, "durations": durations,
                           "by_target": {t: {str(line): sorted(ids) for line, ids in rows.items()}
                                         for t, rows in by_target.items()}}, fh)
    # the tests asked for (a cached run may hold more); "<import>" and the like stay
    other = {t for t in durations if t.split("::")[0] not in set(tests)}
    return ({t: {line: ids - other for line, ids in rows.items() if ids - other}
             for t, rows in by_target.items()}, {t: d for t, d in durations.items() if t not in other})


def _traced_run(tree_root, inc, targets, tests, timeout):
    import subprocess
    folder = tempfile.mkdtemp(prefix="mutate-coverage-")
    with open(os.path.join(folder, "sitecustomize.py"), "w") as fh:
        fh.write(TRACER)
    with open(os.path.join(folder, "mutate_plugin.py"), "w") as fh:
        fh.write(PLUGIN)
    real = {os.path.realpath(os.path.join(tree_root, t)): t for t in targets}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder, inc]),
               MUTATE_TARGETS=os.pathsep.join(real), MUTATE_COVERAGE_DIR=folder,
               PYTHONDONTWRITEBYTECODE="1")
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "mutate_plugin",
                               "-p", "no:cacheprovider", "-W", "ignore", *tests], cwd=tree_root,
                              env=env, timeout=timeout, capture_output=True, text=True)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    if done.returncode != 0:          # a failing test would "catch" every mutant it reaches
        raise SystemExit(f"the tests fail without a mutant:\n{done.stdout[-3000:]}")
    by_target = {t: {} for t in targets}
    for name in os.listdir(folder):
        if name.startswith("cov-"):
            with open(os.path.join(folder, name)) as fh:
                for row in fh:
                    test, path, line = (row.rstrip("\n").rsplit("\t", 2) + ["", ""])[:3]
                    if test and path in real and line.isdigit():
                        by_target[real[path]].setdefault(int(line), set()).add(test)
    with open(os.path.join(folder, "durations.json")) as fh:
        durations = json.load(fh)
    shutil.rmtree(folder, ignore_errors=True)
    return by_target, durations


# ---------------------------------------------------------------------- running mutants
class Run:
    """One mutant's tests running in a forked child, in a scratch tree of its own."""

    def __init__(self, tree, path, source, tests, timeout, show=False, durations=None, stem=""):
        self.tree, self.path, self.timeout = tree, path, timeout
        with open(path, "w") as fh:
            fh.write(source)
        shutil.rmtree(os.path.join(os.path.dirname(path), "__pycache__"), ignore_errors=True)
        self.t0 = time.monotonic()
        self.pid = os.fork()
        if self.pid == 0:                             # the child: run the tests and leave
            code = 3
            try:
                os.setpgid(0, 0)
                os.chdir(tree.root)
                os.environ["PYTHONPATH"] = tree.inc   # subprocesses of the tests: this tree
                sys.path[0:0] = [tree.inc]
                # the packages were imported from the first tree: their modules not yet
                # imported (the targets) must come from this one
                for name, module in list(sys.modules.items()):
                    if (name == "roost" or name.startswith("roost.")) and hasattr(module, "__path__"):
                        module.__path__[:] = [os.path.join(tree.inc, *name.split("."))]
                if not show:
                    devnull = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(devnull, 1)
                    os.dup2(devnull, 2)
                code = _run_by_file(tests, durations or {}, stem)
            finally:
                os._exit(int(code))

    def poll(self):
        """None while running; else 'caught' (a test failed), 'timeout' (caught too: a hang
        is noticed), 'survived' or 'no tests'."""
        done, status = os.waitpid(self.pid, os.WNOHANG)
        if not done:
            if time.monotonic() - self.t0 < self.timeout:
                return None
            self._kill_group()
            os.waitpid(self.pid, 0)
            return "timeout"
        self._kill_group()                            # whatever the tests left running
        code = os.waitstatus_to_exitcode(status)
        return {0: "survived", 5: "no tests"}.get(code, "caught")

    def _kill_group(self):
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class _Stopped(BaseException):
    """SIGTERM arrived: stop starting mutants and score those finished."""


def _run_by_file(tests, durations, stem=""):
    """Run ``tests`` a file at a time: files named after the module (``stem``) first, then
    the file whose tests take least time first (the small files written for one module
    come before the long end-to-end ones), each file's tests
    fastest first in a process of their own forked from this one, and stop at the first
    failure: a mutant the first file catches costs that file's collection only.  pytest's
    exit code: 0 passed, 5 none."""
    groups = {}
    for t in sorted(tests, key=lambda t: durations.get(t, 0.0)):
        groups.setdefault(t.split("::")[0], []).append(t)
    code = 5
    for group in sorted(groups.values(), key=lambda g: (stem not in os.path.basename(g[0].split("::")[0]),
                                                        sum(durations.get(t, 0.0) for t in g))):
        pid = os.fork()
        if pid == 0:
            status = 3
            try:
                import pytest
                status = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-W", "ignore", *group])
            finally:
                os._exit(int(status))
        _, status = os.waitpid(pid, 0)
        status = os.waitstatus_to_exitcode(status)
        if status not in (0, 5):
            return status
        code = min(code, status)
    return code


class Tree:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="roost-mutate-")
        self.inc = scratch_tree(self.root)


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help="module paths (default: ratings, store, runner)")
    ap.add_argument("--tests", nargs="*", default=None, help="the tests for the given modules")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--only", default=None, help="comma-separated mutant numbers (one module)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants tested at once")
    ap.add_argument("--timeout", type=float, default=240.0, help="seconds per mutant")
    ap.add_argument("--show", action="store_true", help="show the tests' output (with --only)")
    ap.add_argument("--report", default=None, help="also write the results here as JSON")
    ap.add_argument("--sample", type=int, default=None,
                    help="run a seeded random sample of this many mutants (per module)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed")
    ap.add_argument("--coverage-cache", default=None,
                    help="keep the traced run (which tests reach which line) in this JSON file "
                         "and reuse it while the targets and tests are the same")
    args = ap.parse_args(argv)
    modules = args.modules or list(DEFAULT_TARGETS)
    plan = {m: (args.tests or DEFAULT_TARGETS.get(m)) for m in modules}
    for m, tests in plan.items():
        if not tests:
            ap.error(f"no tests known for {m}: give --tests")
    if args.list:
        for m in modules:
            for i, line, what in mutants(open(os.path.join(ROOT, m)).read()):
                print(f"{m}:{line}  #{i}  {what}")
        return 0

    trees = [Tree() for _ in range(max(1, args.jobs))]
    sys.dont_write_bytecode = True
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    # what every child needs and no mutant changes, imported once here (from the first
    # tree: the extensions and the untouched modules are the same in every tree)
    sys.path.insert(0, trees[0].inc)
    import click.testing  # noqa: F401
    import numpy  # noqa: F401
    import pytest  # noqa: F401
    import roost.cli.main  # noqa: F401
    import roost.core.games  # noqa: F401
    import roost.search.engines  # noqa: F401
    # ... but not the arena's and the command line's modules: the command line imports
    # ratings (through match), and a module imported here would never be mutated.  They are
    # pure Python, imported again in each child from its own tree (nothing outside them
    # imports them, so no extension holds on to their classes).
    for name in [n for n in sys.modules if n.split(".")[:2] in (["roost", "arena"], ["roost", "cli"])]:
        del sys.modules[name]
    for package in ("arena", "cli"):
        sys.modules["roost"].__dict__.pop(package, None)
    # The same for every other pure-Python module outside roost.core (the searchers' drivers
    # in roost.search, the protocol, the bridges): they import one another (the engines
    # import result and timeman, the command line the engines), so a target among them must
    # not be held by a module imported here.  The extensions import only roost.core's
    # Python modules, which stay.  A package keeps its entry (the child points its __path__
    # at its own tree) but loses the attribute, or ``from roost.search import result``
    # would find the parent's module on it.
    for name, module in list(sys.modules.items()):
        parts = name.split(".")
        if (parts[0] == "roost" and len(parts) > 1 and parts[1] != "core"
                and not hasattr(module, "__path__")
                and str(getattr(module, "__file__", "")).endswith(".py")):
            del sys.modules[name]
            parent = sys.modules.get(".".join(parts[:-1]))
            if parent is not None:
                parent.__dict__.pop(parts[-1], None)
    names = {"roost." + m[len("src/"):-len(".py")].replace("/", ".") for m in modules}
    early = sorted(names & set(sys.modules))
    assert not early, f"imported before the mutants, so never mutated: {early}"
    sys.path.remove(trees[0].inc)

    def stop(*_):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise _Stopped
    # SIGTERM: stop, clean up, and score the mutants finished so far (a sample run in the
    # order drawn and stopped after k is a sample of k)
    signal.signal(signal.SIGTERM, stop)
    results = {}
    running = {}
    traced = {}     # the tests -> (by target, durations): one traced run for the modules that share them
    try:
        for m, tests in plan.items():
            original = open(os.path.join(ROOT, m)).read()
            all_tests = tuple(sorted(set(tests)))
            if all_tests not in traced:
                sharing = [k for k, v in plan.items() if tuple(sorted(set(v))) == all_tests]
                print(f"{', '.join(sharing)}: tracing which tests reach which line ...", flush=True)
                traced[all_tests] = coverage(trees[0].root, trees[0].inc, sharing, list(all_tests),
                                             timeout=3600, cache=args.coverage_cache)
            by_target, durations = traced[all_tests]
            by_line = by_target[m]
            top_level = module_level_lines(original)
            # a line run at import (a constant, a default, a class body) reaches the tests
            # that run the module's functions and the other tests of their files (a test
            # that only reads a table is not seen by the tracer); when none does, every test
            users = set().union(*(ids for line, ids in by_line.items() if line not in top_level))
            files = {t.split("::")[0] for t in users & set(durations)}
            users = {t for t in durations if t.split("::")[0] in files}
            every = sorted(users or durations, key=lambda t: durations[t])
            signature = signature_lines(original)
            found = mutants(original)
            if args.only:
                keep = {int(x) for x in args.only.split(",")}
                found = [f for f in found if f[0] in keep]
            if args.sample is not None and args.sample <= len(found):
                import random
                # in the order drawn: the first k run of a sample are a sample of k too
                found = random.Random(args.seed).sample(found, args.sample)
                print(f"{m}: a sample of {args.sample} mutants (seed {args.seed})", flush=True)
            print(f"{m}: {len(found)} mutants", flush=True)
            rows, todo, running = [], list(found), {}
            try:
                while todo or running:
                    free = [t for t in trees if t not in running.values()]
                    while todo and free:
                        i, line, what = todo.pop(0)
                        tree = free.pop()
                        # a signature's line runs at import (in whichever process imported
                        # the module); its defaults matter to the tests that call the function
                        reach = {t for t in (by_line.get(signature[line], ()) if line in signature
                                             else by_line.get(line, ())) if t in durations}
                        if line in top_level or (not reach and by_line.get(line)):
                            reach = set(every)     # run at import: every test depends on it
                        chosen = sorted(reach, key=lambda t: durations[t])
                        # a mutant whose tests take long without it must not be called a hang:
                        # at least --timeout, and at least twice the tests' own (traced) time
                        limit = max(args.timeout, 2 * sum(durations[t] for t in chosen) + 30)
                        text = original.splitlines()[line - 1].strip()
                        row = {"number": i, "line": line, "mutation": what, "code": text,
                               "tests": len(chosen), "limit": round(limit)}
                        if not chosen:
                            row.update(verdict="survived", seconds=0.0)
                            rows.append(row)
                            print(f"  #{i:<4} line {line:<4} {'survived':<8} {what:<24} {text[:56]} "
                                  "(no test runs this line)", flush=True)
                            free.append(tree)
                            continue
                        path = os.path.realpath(os.path.join(tree.root, m))
                        run = Run(tree, path, mutated(original, i), chosen, limit, show=args.show,
                                  durations=durations, stem=os.path.basename(m)[:-3])
                        running[run] = tree
                        run.row = row
                        rows.append(row)
                    for run in list(running):
                        verdict = run.poll()
                        if verdict is None:
                            continue
                        del running[run]
                        row = run.row
                        row.update(verdict=verdict, seconds=round(time.monotonic() - run.t0, 1))
                        print(f"  #{row['number']:<4} line {row['line']:<4} {verdict:<8} "
                              f"{row['mutation']:<24} {row['code'][:56]} ({row['tests']} tests, "
                              f"{row['seconds']}s)", flush=True)
                        with open(run.path, "w") as fh:
                            fh.write(original)
                    time.sleep(0.05)
            except _Stopped:
                for run in list(running):
                    run._kill_group()
                running.clear()
                rows = [r for r in rows if "verdict" in r]
                print(f"{m}: stopped by SIGTERM after {len(rows)} of {len(found)} mutants", flush=True)
                results[m] = sorted(rows, key=lambda r: r["number"])
                break
            rows.sort(key=lambda r: r["number"])
            results[m] = rows
    finally:
        for run in running:
            run._kill_group()
        for t in trees:
            shutil.rmtree(t.root, ignore_errors=True)

    total = caught = 0
    print("\nscore (caught or timed out / mutants):")
    for m, rows in results.items():
        counted = [r for r in rows if r["verdict"] != "no tests"]
        k = sum(r["verdict"] in ("caught", "timeout") for r in counted)
        total += len(counted)
        caught += k
        lo, hi = wilson(k, len(counted))
        print(f"  {m}: {k}/{len(counted)} = {100 * k / max(1, len(counted)):.1f}% "
              f"(95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%)")
        for r in rows:
            if r["verdict"] == "survived":
                print(f"    survived #{r['number']} line {r['line']}: {r['mutation']}: {r['code']}")
    print(f"  all: {caught}/{total} = {100 * caught / max(1, total):.1f}%")
    if args.report:
        with open(args.report, "w") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
