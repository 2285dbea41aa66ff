"""The repository stands alone: no file in it reaches for a folder beside the checkout, and
every citation of a rules file (``docs/rules/<game>.md §N``) names a file and a section that
exist.

A citation is a section number ``§N`` or ``§N.M``.  It cites, in this order of precedence:
the rules file named before it on the same line (``wingspan-cards.md §2.2``); in a game's
own sources and tests (``src/core/wingspan/``, ``tests/core/ducks/``, ...) and in a rules
page, that game's or that page's rules; elsewhere, the rules file named nearest before it in
the same file (``docs/rules/ducks.md §6.2, §6.3`` cites two sections of ducks.md).  A section
exists when the rules file has a heading with that number (``## §6``, ``### 6.2``) or a
numbered item (``- **10.4**``).  A section number after "issue N" is an issue's, not a rules
file's."""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
# Written in two parts so that this file does not name them itself.
OUTSIDE = ("../" + "shared", "/work/" + "shared")
# When the tree is not a git checkout: what git ignores (.gitignore), which is never tracked.
UNTRACKED_DIRS = {".git", "build", "dist", "__pycache__", ".pytest_cache", ".benchmarks"}
UNTRACKED_SUFFIXES = {".so", ".o", ".html", ".pyc", ".db", ".db-journal", ".db-wal", ".db-shm"}

# a rules file by its path, or by its bare name when that is the name of a rules file
RULES_FILE = re.compile(r"(docs/rules/)?\b([A-Za-z0-9_-]+\.md)\b")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
AFTER_AN_ISSUE = re.compile(r"issue\s+\d+\s*$", re.IGNORECASE)
HEADING = re.compile(r"^#{1,6}\s+§?(\d+(?:\.\d+)*)\.?(?:\s|$)")
ITEM = re.compile(r"^\s*[-*]\s+\*\*(\d+(?:\.\d+)+)\*\*")
RULES_NAMES = {p.name for p in RULES.glob("*.md")} - {"README.md"}
# files outside a game's folders whose bare section numbers cite that game's rules
HOMES = {"src/core/wingspan_data.py": "wingspan.md", "tools/make_wingspan_data.py": "wingspan.md",
         "tests/tools/test_make_wingspan_data.py": "wingspan.md",
         "src/core/connect4.pyx": "connect4.md"}


def tracked_files():
    """The files of the repository: git's list in a checkout, else the tree less what
    .gitignore names (build products, caches, virtualenvs)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True, timeout=60).stdout
        paths = [ROOT / p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.SubprocessError):
        paths = [p for p in ROOT.rglob("*") if p.is_file()
                 and not any(part in UNTRACKED_DIRS or part.startswith(".venv")
                             or part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)
                 and p.suffix not in UNTRACKED_SUFFIXES
                 and (p.suffix != ".c" or p.parent.name == "benchmarks")]
    return sorted(p for p in paths if p.is_file())


def text_files():
    """(path relative to the root, text) of every file that is text."""
    for path in tracked_files():
        try:
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


def line_of(text, index):
    return text.count("\n", 0, index) + 1


def sections(rules_file):
    """The section numbers of a rules file's headings and numbered items."""
    return {m.group(1) for line in rules_file.read_text(encoding="utf-8").splitlines()
            for m in [HEADING.match(line) or ITEM.match(line)] if m}


def home(name):
    """The rules file a bare section number cites in this file, or None."""
    parts = pathlib.PurePosixPath(name).parts
    if parts[:2] == ("docs", "rules"):
        return None if parts[-1] == "README.md" else parts[-1]
    if len(parts) > 3 and parts[1] == "core" and parts[0] in ("src", "tests"):
        return f"{parts[2]}.md" if f"{parts[2]}.md" in RULES_NAMES else None
    return HOMES.get(name)


def citations(name, text):
    """(line, rules file name, section) of every section a file cites."""
    if name.endswith(".jsonl"):
        text = text.replace("\\u00a7", "§")          # JSON lines write § escaped
    mentions = [(m.start(), m.group(2)) for m in RULES_FILE.finditer(text)
                if m.group(1) or m.group(2) in RULES_NAMES]
    own = home(name)
    out = []
    k = 0
    for m in SECTION.finditer(text):
        while k < len(mentions) and mentions[k][0] < m.start():
            k += 1
        line_start = text.rfind("\n", 0, m.start()) + 1
        if k and mentions[k - 1][0] >= line_start:
            cited = mentions[k - 1][1]
        else:
            cited = own or (mentions[k - 1][1] if k else None)
        if cited is None or AFTER_AN_ISSUE.search(text[max(0, m.start() - 20):m.start()]):
            continue
        out.append((line_of(text, m.start()), cited, m.group(1)))
    return out


def test_no_file_reaches_outside_the_repository():
    faults = []
    for name, text in text_files():
        for i, line in enumerate(text.splitlines(), 1):
            if any(o in line for o in OUTSIDE):
                faults.append(f"{name}:{i}: {line.strip()}")
    for path in tracked_files():
        if path.suffix in (".png", ".svg", ".gz", ".zip"):
            data = path.read_bytes()
            if any(o.encode() in data for o in OUTSIDE):
                faults.append(f"{path.relative_to(ROOT).as_posix()}: names a folder outside")
    assert not faults, ("files that reach outside the repository (the rules are in "
                        "docs/rules/, the data in src/core/data/):\n" + "\n".join(faults))


def test_every_rules_citation_names_a_section_that_exists():
    known = {}
    faults = []
    checked = 0
    for name, text in text_files():
        for line, cited, section in citations(name, text):
            if cited not in known:
                path = RULES / cited
                known[cited] = sections(path) if path.is_file() else None
            if known[cited] is None:
                faults.append(f"{name}:{line}: docs/rules/{cited} §{section}: no such rules file")
            elif section not in known[cited]:
                faults.append(f"{name}:{line}: docs/rules/{cited} has no section §{section}")
            checked += 1
    assert not faults, "citations of the rules that name nothing:\n" + "\n".join(faults)
    assert checked > 300                     # the rules tests of every game cite their sections


def test_the_rules_index_lists_every_rules_file():
    index = (RULES / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([A-Za-z0-9_.-]+\.md)\)", index))
    present = {p.name for p in RULES.glob("*.md")} - {"README.md"}
    faults = ([f"docs/rules/{n}: not in docs/rules/README.md" for n in sorted(present - linked)]
              + [f"docs/rules/README.md: links {n}, which does not exist"
                 for n in sorted(linked - present)])
    assert not faults, "\n".join(faults)


def test_every_rules_file_numbers_its_sections():
    # each rules file has numbered sections (what the tests cite), none twice
    for path in sorted(RULES.glob("*.md")):
        if path.name == "README.md":
            continue
        numbers = [m.group(1) for line in path.read_text(encoding="utf-8").splitlines()
                   for m in [HEADING.match(line)] if m]
        assert numbers, f"{path.name}: no numbered section headings (## §N or ## N.) to cite"
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        assert not repeated, f"{path.name}: sections numbered twice: {repeated}"


def test_citations_are_found_where_they_are_written():
    # the reading of citations above, on a text made for it
    text = ("# docs/rules/ducks.md §6.2, §6.3: both\n"
            "# and §4.1-5; issue 9 §5 is not a rules section\n"
            "# docs/rules/leaves.md\n#     §11.4\n")
    assert citations("tests/x.py", text) == [(1, "ducks.md", "6.2"), (1, "ducks.md", "6.3"),
                                            (2, "ducks.md", "4.1"), (4, "leaves.md", "11.4")]
    assert citations("docs/rules/ducks.md", "see §5.2") == [(1, "ducks.md", "5.2")]
    assert citations("src/a.py", "§5.2 of nothing") == []
    # a game's own files cite its rules, unless the line names another page
    assert citations("tests/core/wingspan/t.py", "wingspan-cards.md §1.2 and §2\n§3.4") == \
        [(1, "wingspan-cards.md", "1.2"), (1, "wingspan-cards.md", "2"), (2, "wingspan.md", "3.4")]
    assert citations("tests/core/perft/x.jsonl", '"docs/rules/leaves.md \\u00a712.2"') == \
        [(1, "leaves.md", "12.2")]
