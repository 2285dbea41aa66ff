"""tools/make_wingspan_data.py: the Wingspan card data from its source tables
(docs/rules/wingspan-cards.md §4.2).  The source tables are not in the repository, so the
round trip writes them, in the documented format, from the data files that ship."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "make_wingspan_data.py"
DATA = ROOT / "src" / "core" / "data"
FILES = ("wingspan_birds.json", "wingspan_bonus.json", "wingspan_goals.json")
NESTS = ("bowl", "cavity", "ground", "platform", "star", "none")


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def _row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def bird_table(birds):
    lines = ["# birds", "", _row(["id", "name", "hab", "cost", "n", "vp", "nest", "eggs", "ws", "colour", "P",
                                   "K", "power", "ask", "bonus"]),
             "|---:|---|---|---|---:|---:|---|---:|---:|---|---|---|---|---|---|"]
    for b in birds:
        lines.append(_row([b["id"], b["name"], "".join("FGW"[h] for h in b["hab"]), b["cost_text"], b["n"],
                           b["vp"], NESTS[b["nest"]], b["eggs"], b["ws"], b["colour"],
                           "P" if b["predator"] else "", "K" if b["flocking"] else "", f"`{b['power']}`",
                           b["ask"], " ".join(b["bonus"])]))
    return "\n".join(lines) + "\n\nafter the table\n"


def bonus_goal_tables(bonus, goals):
    lines = ["# bonus cards", "", _row(["id", "code", "name", "counts", "scoring"]), "|---:|---|---|---|---|"]
    for c in bonus:
        if c["kind"] == "per":
            scoring = f"per: {c['points']}"
        else:
            scoring = "tier: " + "; ".join(f"{lo}+ → {pts}" for lo, pts in c["tiers"])
        lines.append(_row([c["id"], c["code"], c["name"], c["counts"], scoring]))
    lines += ["", "# goals", "", "| tile | side 0 (id = 2t) | side 1 (id = 2t+1) |", "|---:|---|---|"]
    sides = goals["sides"]
    for tile in range(8):
        a, b = sides[2 * tile], sides[2 * tile + 1]
        lines.append(_row([tile] + [f"{s['id']} `{s['code']}` {s['description']}" for s in (a, b)]))
    lines += ["", "| round | 1st | 2nd | 3rd | 4th and lower |", "|---:|---:|---:|---:|---:|"]
    for r, places in enumerate(goals["green_places"], 1):
        lines.append(_row([r] + places))
    return "\n".join(lines) + "\n"


def test_the_shipped_data_is_what_the_tool_makes_from_its_tables(tmp_path):
    # wingspan-cards.md §4.2: the tables in the documented format give back the files byte for byte
    src, out = tmp_path / "rules", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    load = {name: json.loads((DATA / name).read_text(encoding="utf-8")) for name in FILES}
    (src / "wingspan-birds.md").write_text(bird_table(load["wingspan_birds.json"]), encoding="utf-8")
    (src / "wingspan-bonus-goals.md").write_text(
        bonus_goal_tables(load["wingspan_bonus.json"], load["wingspan_goals.json"]), encoding="utf-8")
    r = run(src, "--out", out)
    assert r.returncode == 0, r.stderr
    for name in FILES:
        assert (out / name).read_bytes() == (DATA / name).read_bytes(), name


def test_the_rules_folder_has_no_default():
    # wingspan-cards.md §4.2: the tool reads only the folder it is given
    r = run()
    assert r.returncode == 2 and "RULES_DIR" in r.stderr and "Traceback" not in r.stderr


def test_a_missing_folder_or_table_is_one_message(tmp_path):
    r = run(tmp_path / "nowhere")
    assert r.returncode == 2 and "nowhere" in r.stderr and "is not a folder" in r.stderr
    assert "Traceback" not in r.stderr
    r = run(tmp_path, "--out", tmp_path)
    assert r.returncode == 1 and "wingspan-birds.md" in r.stderr and "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_malformed_table_is_one_message(tmp_path):
    load = {name: json.loads((DATA / name).read_text(encoding="utf-8")) for name in FILES}
    (tmp_path / "wingspan-birds.md").write_text(bird_table(load["wingspan_birds.json"]), encoding="utf-8")
    tables = bonus_goal_tables(load["wingspan_bonus.json"], load["wingspan_goals.json"])
    (tmp_path / "wingspan-bonus-goals.md").write_text(tables.replace("4+ → 7", "4+ 7", 1), encoding="utf-8")
    r = run(tmp_path, "--out", tmp_path)
    assert r.returncode == 1 and "bad tier" in r.stderr and "Traceback" not in r.stderr
    (tmp_path / "wingspan-bonus-goals.md").write_text(tables.replace(" `BIRDS_F` ", " BIRDS_F ", 1), encoding="utf-8")
    r = run(tmp_path, "--out", tmp_path)
    assert r.returncode == 1 and "goal tile row" in r.stderr and "Traceback" not in r.stderr
