"""Mutation testing for the Cython searchers: how many small, plausible bugs do the tests catch?

For each mutant (one small change to one line of a .pyx file) the harness writes the mutated
file, rebuilds that one extension, runs the tests that cover it (stopping at the first
failure, under a timeout), restores the file and records the verdict:

- killed: a test failed, the tests crashed or timed out (a hang is caught too);
- survived: every test passed (a bug the tests miss, or an equivalent mutant);
- invalid: the mutant does not compile (not counted in the score).

The operators: a comparison flipped (< <=, > >=, == !=), + and - swapped, * and / swapped,
and/or swapped, a `not` dropped, an integer constant changed (n -> n + 1, 0 -> 1), True and
False swapped, and a simple statement (assignment, augmented assignment, call, break,
continue) replaced by `pass`.  Comments, strings, declarations, casts and free() are left
alone.

Usage (from the repository root, after a normal build; it takes minutes per mutant, so the
default samples):

    python tools/mutate_cython.py src/search/alphabeta.pyx --sample 40 --seed 1 \\
        --tests tests/search/test_search_exactness.py tests/search/test_search.py ...
    python tools/mutate_cython.py src/search/mcts.pyx --list        # the mutants only

The file is restored after every mutant and on Ctrl-C.  Run it in a copy of the tree if
you keep working meanwhile (``--root``): it rebuilds the extension in place.
"""
import argparse
import io
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
import tokenize

COMPARISONS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*", "+=": "-=", "-=": "+="}
BOOLEAN = {"and": "or", "or": "and", "True": "False", "False": "True"}
CAST = re.compile(r"<\s*[A-Za-z_][\w\s\*]*>")
DECLARATION = re.compile(r"^\s*(cdef|cpdef|ctypedef|DEF|from|import|def|class|cimport|@|"
                         r"elif|else|try|except|finally|while True)\b")
# a statement `pass` can replace: break, continue, an assignment or a call on its own line
SIMPLE_STATEMENT = re.compile(r"^\s*(break|continue|[A-Za-z_][\w\.]*(\[[^\]]*\])?(\.[\w]+)*\s*"
                              r"([-+*/|&^]?=[^=].*|\(.*\)))\s*$")


class Mutant:
    def __init__(self, line, col, old, new, kind):
        self.line, self.col, self.old, self.new, self.kind = line, col, old, new, kind

    def apply(self, lines):
        text = lines[self.line - 1]
        if self.kind == "statement":
            indent = len(text) - len(text.lstrip())
            mutated = text[:indent] + "pass" + ("\n" if text.endswith("\n") else "")
        else:
            assert text[self.col:self.col + len(self.old)] == self.old
            mutated = text[:self.col] + self.new + text[self.col + len(self.old):]
        return lines[:self.line - 1] + [mutated] + lines[self.line:]

    def describe(self, lines):
        return f"line {self.line}: {lines[self.line - 1].strip()!r} -> {self.apply(lines)[self.line - 1].strip()!r}"


def _code_lines(lines):
    """Line numbers that hold executable code (not docstrings, comments or declarations)."""
    src = "".join(lines)
    strings = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.STRING:
                strings.update(range(tok.start[0], tok.end[0] + 1))
    except (tokenize.TokenError, IndentationError):
        pass
    return strings


def mutants(lines):
    """Every mutant of the file, in line order."""
    in_strings = _code_lines(lines)
    out = []
    for number, text in enumerate(lines, 1):
        code = text.split("#", 1)[0]
        if number in in_strings or not code.strip() or not text.startswith((" ", "\t")):
            continue
        if DECLARATION.match(code) and not code.lstrip().startswith(("elif", "while True")):
            if not code.lstrip().startswith(("cdef int ", "cdef double ", "cdef bint ",
                                             "cdef long long ")) or "=" not in code:
                continue
        casts = [m.span() for m in CAST.finditer(code)]

        def in_cast(i):
            return any(a <= i < b for a, b in casts)
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(code.strip() + "\n").readline))
        except (tokenize.TokenError, IndentationError, SyntaxError):
            continue
        shift = len(code) - len(code.lstrip())
        for tok in tokens:
            col = tok.start[1] + shift
            if tok.type == tokenize.OP and not in_cast(col):
                if tok.string in COMPARISONS:
                    out.append(Mutant(number, col, tok.string, COMPARISONS[tok.string], "compare"))
                    if tok.string in ("<", ">"):
                        flip = ">" if tok.string == "<" else "<"
                        out.append(Mutant(number, col, tok.string, flip, "compare"))
                elif tok.string in ARITHMETIC and not _is_unary_or_pointer(tokens, tok):
                    out.append(Mutant(number, col, tok.string, ARITHMETIC[tok.string], "arith"))
            elif tok.type == tokenize.NAME and tok.string in BOOLEAN:
                out.append(Mutant(number, col, tok.string, BOOLEAN[tok.string], "bool"))
            elif tok.type == tokenize.NAME and tok.string == "not":
                out.append(Mutant(number, col, "not ", "", "bool"))
            elif tok.type == tokenize.NUMBER and re.fullmatch(r"\d+", tok.string):
                value = int(tok.string)
                out.append(Mutant(number, col, tok.string, str(value + 1 if value else 1), "const"))
        # (freeing memory is left alone: a leak is no wrong answer a test could see)
        if SIMPLE_STATEMENT.match(code.rstrip()) and not code.strip().startswith("free("):
            out.append(Mutant(number, 0, "", "pass", "statement"))
    return out


def _is_unary_or_pointer(tokens, tok):
    i = tokens.index(tok)
    prev = tokens[i - 1] if i > 0 else None
    if prev is None or (prev.type == tokenize.OP and prev.string not in (")", "]")):
        return True          # unary minus, or a pointer in a declaration
    return tok.string == "*" and i + 1 < len(tokens) and tokens[i + 1].string in ("*", ")", ">")


def rebuild(root, env, path=None, fast=False):
    """Rebuild the extension of ``path`` (every extension if None); True if it compiled.

    ``fast`` builds at -O1: the optimiser is most of a rebuild's cost and a mutant's verdict
    does not depend on it.  The final rebuild of the restored source uses the normal flags.
    """
    env = dict(env)
    if path:
        env["ROOST_ONLY"] = os.path.relpath(path, root)
        os.utime(path)               # newer than its .c, whatever the clock did meanwhile
    if fast:
        env["ROOST_OPT"] = "-O1"
    r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=root, env=env,
                       capture_output=True, text=True)
    return r.returncode == 0


def run_tests(root, tests, timeout, env):
    """The verdict of the tests on the current build: "killed ...", "survived" or "error ..."."""
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    # a session of its own, so a timeout ends the tests' own subprocesses too
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return "killed (timeout)"
    except BaseException:
        _kill_group(proc)
        raise
    if proc.returncode == 0:
        return "survived"
    if proc.returncode in (4, 5):    # a bad test path or nothing collected: no verdict at all
        return f"error (pytest exit {proc.returncode})"
    last = [l for l in out.splitlines() if l.startswith(("FAILED", "ERROR"))]
    return "killed" + (f" by {last[0].split(' ')[1]}" if last else f" (exit {proc.returncode})")


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of k successes in n trials, as percentages."""
    if n == 0:
        return 0.0, 100.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half)


def _terminate(signum, frame):
    raise KeyboardInterrupt      # SIGTERM restores the source like Ctrl-C


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", help="the .pyx file to mutate, relative to --root")
    ap.add_argument("--tests", nargs="+", default=["tests"], help="pytest paths to run")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--sample", type=int, default=0, help="test this many mutants, drawn at random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds for the tests of one mutant")
    ap.add_argument("--only", type=int, nargs="+", help="test these mutants (numbers from --list)")
    ap.add_argument("--list", action="store_true", help="print the mutants and stop")
    ap.add_argument("--log", help="append one JSON line per mutant to this file")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip running the tests on the unmutated source first")
    args = ap.parse_args(argv)

    path = os.path.join(args.root, args.file)
    with open(path) as fh:
        original = fh.read()
    lines = original.splitlines(keepends=True)
    every = mutants(lines)
    chosen = list(range(len(every)))
    if args.only:
        chosen = [i for i in args.only if 0 <= i < len(every)]
    elif args.sample and args.sample < len(every):
        chosen = sorted(random.Random(args.seed).sample(chosen, args.sample))
    print(f"{args.file}: {len(every)} mutants, testing {len(chosen)}", flush=True)
    if args.list:
        for i in chosen:
            print(f"  #{i} {every[i].kind:9} {every[i].describe(lines)}")
        return 0

    env = dict(os.environ, PYTHONPATH=os.path.join(args.root, "build", "cython-include"))
    tally = {"killed": 0, "survived": 0, "invalid": 0}
    survivors = []
    signal.signal(signal.SIGTERM, _terminate)
    try:
        if not args.no_baseline:
            # a survivor means nothing unless the tests pass on the real code
            verdict = run_tests(args.root, args.tests, args.timeout, env) \
                if rebuild(args.root, env, path, fast=True) else "invalid"
            if verdict != "survived":
                print(f"the tests do not pass on the unmutated source ({verdict}): stopping")
                return 2
            print("baseline: the tests pass on the unmutated source", flush=True)
        for n, i in enumerate(chosen, 1):
            m = every[i]
            with open(path, "w") as fh:
                fh.write("".join(m.apply(lines)))
            t0 = time.time()
            if not rebuild(args.root, env, path, fast=True):
                verdict = "invalid"
            else:
                verdict = run_tests(args.root, args.tests, args.timeout, env)
            if verdict.startswith("error"):
                print(f"#{i}: {verdict}: stopping")
                return 2
            tally[verdict.split(" ")[0]] += 1
            if verdict == "survived":
                survivors.append(m.describe(lines))
            print(f"[{n}/{len(chosen)}] #{i} {verdict:30} {time.time() - t0:6.0f} s  {m.describe(lines)}",
                  flush=True)
            if args.log:
                with open(args.log, "a") as fh:
                    fh.write(json.dumps({"file": args.file, "mutant": i, "kind": m.kind,
                                         "change": m.describe(lines), "verdict": verdict}) + "\n")
    finally:
        # a second Ctrl-C must not leave a mutant in the tree or a mutant's build behind it
        old_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        with open(path, "w") as fh:
            fh.write(original)
        if not rebuild(args.root, env, path):
            print(f"WARNING: rebuilding the restored {args.file} failed; run setup.py build_ext",
                  file=sys.stderr)
        signal.signal(signal.SIGINT, old_int)
    valid = tally["killed"] + tally["survived"]
    score = 100.0 * tally["killed"] / valid if valid else 0.0
    low, high = wilson(tally["killed"], valid)
    print(f"\n{args.file}: {tally['killed']} killed, {tally['survived']} survived, "
          f"{tally['invalid']} did not compile; score {score:.1f}% of {valid} valid mutants "
          f"(95% Wilson interval {low:.0f}-{high:.0f}%)")
    for s in survivors:
        print("  survived: " + s)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:      # Ctrl-C or SIGTERM: main() has restored and rebuilt
        print("interrupted: the source is restored", file=sys.stderr)
        sys.exit(130)
