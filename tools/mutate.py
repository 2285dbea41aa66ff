"""Mutation testing for roost's Python modules: plant one small bug at a time, run the tests
that reach it, and count the bugs no test notices.

    python tools/mutate.py                       # ratings, store and runner (issue 16)
    python tools/mutate.py src/arena/store.py --tests tests/test_arena_store.py
    python tools/mutate.py --list src/arena/ratings.py   # the mutants, without running them
    python tools/mutate.py --only 17,42 src/arena/store.py   # rerun some by number

The bugs (mutants) are made on the syntax tree: a comparison turned (< to <=, == to !=, in
to not in, is to is not), an arithmetic operator swapped (+ -, * /, // *, % //, ** *), and/or
swapped, a `not` or a unary minus dropped, a number changed (n to n + 1, x to 2x for a
float), True and False swapped, `return X` made `return None`, a call on its own line
(`conn.execute("COMMIT")`, `self.close()`) removed, break and continue swapped.  Strings,
docstrings and f-strings are left alone (they are messages; the CLI tests check messages
where they matter), and so is a line marked `# no mutate`.

How it runs: the source tree is copied (with its built extensions) to a scratch folder, so
the working tree is never touched.  One run of the tests with a line tracer finds which
tests execute each line of the module in the test process.  Then, for each mutant, a
process that has already imported pytest, numpy, click and the extensions forks; the child
imports the mutated module fresh and runs, stopping at the first failure, the tests that
execute the mutated line (fastest first), or every test of the module's set when the line
runs only in other processes (pool workers, command-line subprocesses, Dask workers).  A
mutant is caught when a test fails or the tests time out.  The survivors are listed with
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

# the modules issue 16 asks about, and the tests that exercise each
DEFAULT_TARGETS = {
    "src/arena/ratings.py": ["tests/test_arena_ratings.py", "tests/test_arena_tournament.py",
                             "tests/test_cli_arena.py"],
    "src/arena/store.py": ["tests/test_arena_store.py", "tests/test_arena_tournament.py",
                           "tests/test_cli_arena.py", "tests/test_arena_signals.py"],
    "src/arena/runner.py": ["tests/test_arena_tournament.py", "tests/test_cli_arena.py",
                            "tests/test_arena_dask.py", "tests/test_arena_signals.py"],
}


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
COVERAGE_PLUGIN = '''
import json, os, sys, threading
TARGETS = set(json.loads(os.environ["MUTATE_TARGETS"]))
OUT = os.environ["MUTATE_COVERAGE"]
_lines, _current, _durations, _seen = {}, [None], {}, {}

def _trace(frame, event, arg):
    name = frame.f_code.co_filename
    hit = _seen.get(name)
    if hit is None:
        hit = _seen[name] = os.path.realpath(name) in TARGETS
    return _local if hit else None

def _local(frame, event, arg):
    if event == "line" and _current[0] is not None:
        _lines.setdefault(_current[0], set()).add((frame.f_code.co_filename, frame.f_lineno))
    return _local

def pytest_runtest_setup(item):
    _current[0] = item.nodeid

def pytest_runtest_logreport(report):
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration

def pytest_sessionstart(session):
    sys.settrace(_trace)
    threading.settrace(_trace)

def pytest_sessionfinish(session, exitstatus):
    sys.settrace(None)
    with open(OUT, "w") as fh:
        json.dump({"lines": {k: sorted(v) for k, v in _lines.items()}, "durations": _durations}, fh)
'''


def coverage(tree_root, inc, targets, tests, timeout):
    """{test id: [(file, line)]} and {test id: seconds}, from one traced run of ``tests``."""
    import subprocess
    plugin_dir = tempfile.mkdtemp(prefix="mutate-plugin-")
    with open(os.path.join(plugin_dir, "mutate_coverage.py"), "w") as fh:
        fh.write(COVERAGE_PLUGIN)
    out = os.path.join(plugin_dir, "coverage.json")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([inc, plugin_dir]),
               MUTATE_TARGETS=json.dumps([os.path.realpath(os.path.join(tree_root, t)) for t in targets]),
               MUTATE_COVERAGE=out, PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "mutate_coverage", "-p", "no:cacheprovider",
                    "-W", "ignore", *tests], cwd=tree_root, env=env, timeout=timeout,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as fh:
        data = json.load(fh)
    shutil.rmtree(plugin_dir, ignore_errors=True)
    return data["lines"], data["durations"]


# ---------------------------------------------------------------------- running one mutant
def run_mutant(tree_root, path, source, tests, timeout):
    """Write the mutant, fork, run ``tests`` in the child with -x: 'caught' (a test failed),
    'timeout' (caught too: a hang is noticed) or 'survived'."""
    with open(path, "w") as fh:
        fh.write(source)
    cache = os.path.join(os.path.dirname(path), "__pycache__")
    shutil.rmtree(cache, ignore_errors=True)
    pid = os.fork()
    if pid == 0:                                      # the child: run the tests and leave
        code = 3
        try:
            os.setpgid(0, 0)
            os.chdir(tree_root)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            import pytest
            code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-W", "ignore", *tests])
        finally:
            os._exit(int(code))
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)
    try:                                              # whatever the tests left running
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return "survived"
    if code == 5:                                     # no test ran: say so, do not count it
        return "no tests"
    return "caught"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help="module paths (default: ratings, store, runner)")
    ap.add_argument("--tests", nargs="*", default=None, help="the tests for the given modules")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--only", default=None, help="comma-separated mutant numbers (one module)")
    ap.add_argument("--timeout", type=float, default=240.0, help="seconds per mutant")
    ap.add_argument("--report", default=None, help="also write the results here as JSON")
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

    where = tempfile.mkdtemp(prefix="roost-mutate-")
    inc = scratch_tree(where)
    sys.path.insert(0, inc)
    sys.dont_write_bytecode = True
    os.environ["PYTHONPATH"] = inc                    # subprocesses of the tests use the copy
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    # what every child needs and no mutant changes, imported once here
    import click.testing  # noqa: F401
    import numpy  # noqa: F401
    import pytest  # noqa: F401
    import roost.cli.main  # noqa: F401
    import roost.core.games  # noqa: F401
    import roost.search.engines  # noqa: F401
    assert not [k for k in sys.modules if k.startswith("roost.arena")], "a target was imported"

    results = {}
    try:
        for m, tests in plan.items():
            path = os.path.realpath(os.path.join(where, m))
            original = open(path).read()
            all_tests = sorted(set(tests))
            print(f"{m}: tracing which tests reach which line ...", flush=True)
            lines, durations = coverage(where, inc, [m], all_tests, timeout=3600)
            by_line = {}
            for test, hits in lines.items():
                for _, line in hits:
                    by_line.setdefault(line, set()).add(test)
            every = sorted(durations, key=lambda t: durations[t])
            found = mutants(original)
            if args.only:
                keep = {int(x) for x in args.only.split(",")}
                found = [f for f in found if f[0] in keep]
            print(f"{m}: {len(found)} mutants", flush=True)
            rows = []
            for i, line, what in found:
                near = by_line.get(line)
                chosen = sorted(near, key=lambda t: durations.get(t, 0.0)) if near else every
                t0 = time.monotonic()
                verdict = run_mutant(where, path, mutated(original, i), chosen, args.timeout)
                text = original.splitlines()[line - 1].strip()
                rows.append({"number": i, "line": line, "mutation": what, "verdict": verdict,
                             "tests": "reaching" if near else "all", "code": text,
                             "seconds": round(time.monotonic() - t0, 1)})
                print(f"  #{i:<4} line {line:<4} {verdict:<8} {what:<24} {text[:60]}", flush=True)
            with open(path, "w") as fh:
                fh.write(original)
            results[m] = rows
    finally:
        shutil.rmtree(where, ignore_errors=True)

    total = caught = 0
    print("\nscore (caught or timed out / mutants):")
    for m, rows in results.items():
        counted = [r for r in rows if r["verdict"] != "no tests"]
        k = sum(r["verdict"] in ("caught", "timeout") for r in counted)
        total += len(counted)
        caught += k
        print(f"  {m}: {k}/{len(counted)} = {100 * k / max(1, len(counted)):.1f}%")
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
