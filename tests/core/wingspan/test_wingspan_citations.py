"""Every citation of the Wingspan rules names a section that exists: a bare §N in a Wingspan
file cites docs/rules/wingspan.md (docs/rules/wingspan-cards.md on its own page), and a §N
after the name of either page on the same line cites that page, in any file."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "docs" / "rules" / "wingspan.md"
CARDS = ROOT / "docs" / "rules" / "wingspan-cards.md"
PAGES = {"wingspan.md": RULES, "wingspan-cards.md": CARDS}

# files whose bare §N cite a Wingspan page
WINGSPAN_FILES = ([RULES, CARDS, ROOT / "src" / "core" / "wingspan_data.py", ROOT / "tools" / "make_wingspan_data.py",
                   ROOT / "tests" / "tools" / "test_make_wingspan_data.py"]
                  + sorted((ROOT / "src" / "core" / "wingspan").glob("*.p*"))
                  + sorted((ROOT / "tests" / "core" / "wingspan").glob("*.py")))
TEXT = (".py", ".pyx", ".pxd", ".md")
PAGE = re.compile(r"[\w-]+\.md")
CITE = re.compile(r"§(\d+(?:\.\d+)?)")


def sections(page):
    """The section numbers of a page: its numbered headings and its numbered items (**10.4**)."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if m:
            found.add(m.group(1))
        found.update(re.findall(r"\*\*(\d+\.\d+)\*\*", line))
    return found


def citations(path, default):
    """(line number, page, section) of each citation in ``path``; ``default`` is the page a
    bare §N cites there (None: bare ones are not citations of a Wingspan page)."""
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in CITE.finditer(line):
            named = PAGE.findall(line[:m.start()])
            page = named[-1] if named else default
            if page in PAGES:
                yield no, page, m.group(1)


def test_the_rules_keep_the_numbering_the_tests_cite():
    found = sections(RULES)
    assert {str(k) for k in range(12)} <= found
    assert {f"10.{k}" for k in range(1, 57)} <= found
    assert {"1.1", "1.4", "3.1", "3.10", "5.3", "6.4", "7.5", "9.4"} <= found
    assert {"1", "1.2", "2", "2.3", "3", "3.4", "4", "4.2"} <= sections(CARDS)


def test_every_wingspan_citation_names_a_section_that_exists():
    known = {name: sections(page) for name, page in PAGES.items()}
    files = {path: ("wingspan-cards.md" if path == CARDS else "wingspan.md") for path in WINGSPAN_FILES}
    for top in ("docs", "src", "tests", "tools", "benchmarks"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in TEXT and path.is_file() and path not in files:
                files[path] = None
    files[ROOT / "README.md"] = None
    cited = 0
    bad = []
    for path, default in files.items():
        for no, page, sec in citations(path, default):
            cited += 1
            if sec not in known[page]:
                bad.append(f"{path.relative_to(ROOT)}:{no}: {page} §{sec}")
    assert bad == []
    assert cited > 300
