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
        --tests tests/test_search_exactness.py tests/test_search.py ...
    python tools/mutate_cython.py src/search/mcts.pyx --list        # the mutants only

The file is restored after every mutant and on Ctrl-C.  Run it in a copy of the tree if
you keep working meanwhile (``--root``): it rebuilds the extension in place.
"""
import argparse
import io
import json
import os
import random
import re
import shutil
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


def rebuild(root, env):
    r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=root, env=env,
                       capture_output=True, text=True)
    return r.returncode == 0


def run_tests(root, tests, timeout, env):
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    try:
        r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    if r.returncode == 0:
        return "survived"
    last = [l for l in r.stdout.splitlines() if l.startswith(("FAILED", "ERROR"))]
    return "killed" + (f" by {last[0].split(' ')[1]}" if last else f" (exit {r.returncode})")


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
    try:
        for n, i in enumerate(chosen, 1):
            m = every[i]
            with open(path, "w") as fh:
                fh.write("".join(m.apply(lines)))
            t0 = time.time()
            if not rebuild(args.root, env):
                verdict = "invalid"
            else:
                verdict = run_tests(args.root, args.tests, args.timeout, env)
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
        with open(path, "w") as fh:
            fh.write(original)
        rebuild(args.root, env)
    valid = tally["killed"] + tally["survived"]
    score = 100.0 * tally["killed"] / valid if valid else 0.0
    print(f"\n{args.file}: {tally['killed']} killed, {tally['survived']} survived, "
          f"{tally['invalid']} did not compile; score {score:.1f}% of {valid} valid mutants")
    for s in survivors:
        print("  survived: " + s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
