"""The docs speak of the product as it is: no markdown file of the repository, and no comment
or docstring of its code, tells the story of its development, and every file of the
repository a doc names exists.

A doc is any tracked ``*.md`` (README.md, docs/, docs/rules/, benchmarks/README.md, ...).
A file is named by a relative markdown link (``[threads](docs/threads.md)``, resolved from
the doc's folder; an ``#anchor`` into a markdown file must be one of its headings) or by a
path from the root of the repository, in backquotes or not (``src/search/auto.py``,
``tests/core/perft/``, ``tests/search/test_strength.py::test_name``).  In architecture.md a
path from ``src/`` (``search/engines.py``) counts too: that page lists the layers by folder.
A placeholder in a path (``<game>``, ``GAME``, ``*``) stands for any name: the path must
match at least one file."""
import fnmatch
import io
import pathlib
import posixpath
import re
import tokenize

from tests.test_repository_stands_alone import ROOT, line_of, tracked_files

# the development story, not the word "session" (a protocol session, a Unix session are product terms)
HISTORY = re.compile(r"\bsessions?\s+#?\d+|\b(?:this|last|previous|next|earlier|a later)\s+session\b"
                     r"|\bissues?[\s-]+#?\d+|\bhelper branch"
                     r"|\bmutants?\s+#\d+|\bseed-\d+\s+sample", re.IGNORECASE)
# the code whose comments and docstrings are read for it (generated .c files are not)
CODE = (("src", "tests", "benchmarks"), (".py", ".pyx", ".pxd"))
TOP = ("src", "tests", "tools", "docs", "benchmarks", "examples")
# a path from the root: a top folder, a slash, then path characters (placeholders included)
ROOT_PATH = re.compile(r"(?<![\w./<>*-])((?:%s)/[\w./<>*-]*)" % "|".join(TOP))
# in architecture.md, a path from src/ in backquotes (`search/engines.py`, `core/seeds.py`)
SRC_PATH = re.compile(r"`((?:core|search|arena|protocol|interop|cli|web)/[\w./<>*-]*)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
PLACEHOLDER = re.compile(r"<[^>/]*>|\b[A-Z][A-Z_]{2,}\b")


def docs():
    """(path relative to the root, text) of every markdown file of the repository."""
    for path in tracked_files():
        if path.suffix == ".md":
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


FILES = {p.relative_to(ROOT).as_posix() for p in tracked_files()}
FOLDERS = {str(parent) for f in FILES for parent in pathlib.PurePosixPath(f).parents} - {"."}


def exists(path):
    """Whether ``path`` (from the root; placeholders stand for any name) is a file or a
    folder of the repository."""
    path = path.split("::")[0].rstrip(".,:;")
    path = path.rstrip("/") or path
    pattern = PLACEHOLDER.sub("*", path.replace("...", "*"))
    if "*" not in pattern:
        return path in FILES or path in FOLDERS
    return any(fnmatch.fnmatchcase(p, pattern) for p in FILES | FOLDERS)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text):
    return {slug(h) for h in HEADING.findall(re.sub(r"```.*?```", "", text, flags=re.DOTALL))}


def history(name, text):
    return [f"{name}:{line_of(text, m.start())}: {m.group(0)!r}" for m in HISTORY.finditer(text)]


def remarks(text):
    """(line, text) of each comment and docstring of Python or Cython source.  A docstring is
    any string that stands as a statement of its own; strings in code (a pattern, a test's
    sample text) are not remarks, so a check may spell out what it looks for."""
    out, at_statement, in_docstring = [], True, False
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING
                                            and (at_statement or in_docstring)):
            out.append((tok.start[0], tok.string))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            in_docstring = tok.type == tokenize.STRING and (at_statement or in_docstring)
            at_statement = tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    return out


def code_history(name, text):
    return [f"{name}:{line + line_of(remark, m.start()) - 1}: {m.group(0)!r}"
            for line, remark in remarks(text) for m in HISTORY.finditer(remark)]


def code():
    """(path relative to the root, text) of every source file whose remarks are read."""
    folders, suffixes = CODE
    for path in tracked_files():
        name = path.relative_to(ROOT).as_posix()
        if name.split("/")[0] in folders and path.suffix in suffixes:
            yield name, path.read_text(encoding="utf-8")


def missing_paths(name, text):
    """Paths from the root (and, in architecture.md, from src/) that name nothing."""
    found = [(m.start(1), m.group(1), m.group(1)) for m in ROOT_PATH.finditer(text)]
    if name == "docs/architecture.md":
        found += [(m.start(1), m.group(1), "src/" + m.group(1)) for m in SRC_PATH.finditer(text)]
    return [f"{name}:{line_of(text, at)}: {written}" for at, written, path in found
            if not exists(path)]


def broken_links(name, text, texts):
    """Relative links to a file that does not exist, or to an anchor it does not have."""
    out = []
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z][a-z+.-]*:", target):         # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        path = posixpath.normpath(posixpath.join(posixpath.dirname(name), file)) if file else name
        where = f"{name}:{line_of(text, m.start(1))}: {target}"
        if path not in texts and not exists(path):
            out.append(where)
        elif anchor and path in texts and anchor not in anchors(texts[path]):
            out.append(where + " (no such heading)")
    return out


def test_no_doc_tells_the_story_of_its_development():
    found = [line for name, text in docs() for line in history(name, text)]
    assert not found, "development history in the docs (it belongs in git):\n" + "\n".join(found)


def test_no_comment_or_docstring_tells_the_story_of_its_development():
    found = [line for name, text in code() for line in code_history(name, text)]
    assert not found, ("development history in comments or docstrings (it belongs in git; say "
                       "what is true now and why):\n" + "\n".join(found))


def test_every_file_a_doc_names_exists():
    texts = dict(docs())
    found = [line for name, text in texts.items()
             for line in missing_paths(name, text) + broken_links(name, text, texts)]
    assert not found, "docs naming files that do not exist:\n" + "\n".join(found)


def test_the_checks_see_what_they_look_for():
    # each check on a text with one fault of its kind, and on the same text without it (the
    # samples are written in two pieces, so that a search of the repository for history
    # words does not find them here)
    assert history("x.md", "Before.\nIn sess" "ion 12 we ...") == ["x.md:2: 'sess" "ion 12'"]
    assert history("x.md", "as this sess" "ion found") == ["x.md:1: 'this sess" "ion'"]
    assert history("x.md", "see issue 30, and the helper" " branch") == \
        ["x.md:1: 'issue 30'", "x.md:1: 'helper" " branch'"]
    assert history("x.md", "the tissue 3 issues; a worked session; its own session (setsid)") == []
    assert history("x.md", "as mutant #593 of the seed-17 sample showed in the issue-9 runs") == \
        ["x.md:1: 'mutant #593'", "x.md:1: 'seed-17 sample'", "x.md:1: 'issue-9'"]
    source = ('"""A module (issue 9)."""\nx = 1  # kills mutant #5\n\n\ndef f():\n'
              '    """Says what it does\n    as sess' 'ion 3 found."""\n'
              '    # a plain remark\n    return "issue 9", f"session {x}"\n')
    assert code_history("a.pyx", source) == \
        ["a.pyx:1: 'issue 9'", "a.pyx:2: 'mutant #5'", "a.pyx:7: 'sess" "ion 3'"]
    assert code_history("a.py", 'PATTERN = r"issues? \\d+"\nsample = "issue 9 \\u00a75"\n') == []
    assert missing_paths("x.md", "`src/search/auto.py` and tests/search/test_auto_engine.py::t") == []
    assert missing_paths("x.md", "see `src/search/nothing.py`, then\ntests/core/<game>/") == \
        ["x.md:1: src/search/nothing.py"]
    assert missing_paths("x.md", "`tests/core/perft/<game>.jsonl` `src/core/data/weights/GAME.json`") == []
    assert missing_paths("x.md", "`tests/core/<game>/test_nothing_<game>.py`") == \
        ["x.md:1: tests/core/<game>/test_nothing_<game>.py"]
    assert missing_paths("docs/architecture.md", "`search/engines.py`, `search/gone.py`") == \
        ["docs/architecture.md:1: search/gone.py"]
    texts = {"docs/a.md": "# A title\n## The `auto` table\n", "docs/b.md": "x"}
    assert broken_links("docs/b.md", "[a](a.md#the-auto-table) [r](rules/ducks.md) "
                        "[w](https://example.com/x)", texts) == []
    assert broken_links("docs/b.md", "[a](a.md#nothing)\n[z](z.md)", texts) == \
        ["docs/b.md:1: a.md#nothing (no such heading)", "docs/b.md:2: z.md"]


def test_the_library_guide_runs_as_shown():
    # docs/library.md: `import roost` and its public names, each example run with doctest
    import doctest
    import roost
    result = doctest.testfile(str(ROOT / "docs" / "library.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS, report=False, verbose=False)
    assert result.attempted >= 20, "the guide's examples were not collected"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of docs/library.md failed " \
                               f"(python -m doctest -o ELLIPSIS docs/library.md)"
    assert set(roost.__all__) <= set(dir(roost)) and all(getattr(roost, name) for name in roost.__all__)
