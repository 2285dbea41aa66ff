"""Make the Wingspan card data that roost loads from two source tables in Markdown.

    python tools/make_wingspan_data.py RULES_DIR [--out DIR]

RULES_DIR is required and has no default: the folder holding ``wingspan-birds.md`` (the bird
table) and ``wingspan-bonus-goals.md`` (bonus cards, goal sides, place points).  These tables
are not part of the repository: docs/rules/wingspan-cards.md §4.2 and §4.3 give their format
and their origin.  The tool writes ``wingspan_birds.json``, ``wingspan_bonus.json`` and
``wingspan_goals.json`` into DIR (``src/core/data`` of this repository by default).

The files it made are in ``src/core/data`` and are the card data roost uses; nothing at run
time reads the source tables (``roost.core.wingspan_data`` loads the JSON files).  Run it by
hand when the source tables change.  A missing folder or file, or a table it cannot read, is
one message and exit status 1 or 2.
"""
import argparse
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "src", "core", "data"))

FOODS = "ISFRM"
NESTS = ("bowl", "cavity", "ground", "platform", "star", "none")
COLOURS = ("brown", "white", "pink", "none")


def split_cells(line):
    """Cells of a markdown table row; a '|' inside `backticks` (the DSL's 'x|y') is text."""
    cells, cur, code = [], "", False
    for ch in line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]:
        if ch == "`":
            code = not code
        if ch == "|" and not code:
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
    cells.append(cur.strip())
    return cells


def table_rows(text, header_start):
    """The data rows (lists of stripped cells) of the markdown table whose header line
    starts with ``header_start``."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(header_start):
            break
    else:
        raise SystemExit(f"no table starting with {header_start!r}")
    rows = []
    for line in lines[i + 2:]:
        if not line.startswith("|"):
            break
        rows.append(split_cells(line))
    return rows


def parse_cost(text):
    """'2I+1S' / 'I/S/R' / '0' / '1M+2W' -> a cost record."""
    if text == "0":
        return {"form": "zero", "and": [0] * 5, "wild": 0, "or": []}
    if "/" in text:
        types = [FOODS.index(ch) for ch in text.split("/")]
        return {"form": "or", "and": [0] * 5, "wild": 0, "or": types}
    counts = [0] * 5
    wild = 0
    for part in text.split("+"):
        m = re.fullmatch(r"(\d)([ISFRMW])", part)
        if not m:
            raise SystemExit(f"bad cost {text!r}")
        k, sym = int(m.group(1)), m.group(2)
        if sym == "W":
            wild += k
        else:
            counts[FOODS.index(sym)] += k
    return {"form": "and", "and": counts, "wild": wild, "or": []}


def birds(text):
    out = []
    for cells in table_rows(text, "| id | name |"):
        if len(cells) != 15:
            raise SystemExit(f"a bird row has 15 cells, not {len(cells)}: {cells}")
        (bid, name, hab, cost, n, vp, nest, eggs, ws, colour, pred, flock, power, ask,
         bonus) = cells
        if nest not in NESTS or colour not in COLOURS:
            raise SystemExit(f"bad nest/colour in row {cells}")
        out.append({
            "id": int(bid), "name": name,
            "hab": ["FGW".index(ch) for ch in hab],
            "cost": parse_cost(cost), "cost_text": cost, "n": int(n),
            "vp": int(vp), "nest": NESTS.index(nest), "eggs": int(eggs), "ws": int(ws),
            "colour": colour, "predator": pred == "P", "flocking": flock == "K",
            "power": power.strip("`"), "ask": ask,
            "bonus": bonus.split() if bonus else [],
        })
    if [b["id"] for b in out] != list(range(170)):
        raise SystemExit("the bird table must list ids 0..169 in order")
    return out


def parse_scoring(text):
    text = text.split("**")[0].strip().rstrip(";").strip()
    if text.startswith("per:"):
        return {"kind": "per", "points": int(text[4:].strip())}
    if not text.startswith("tier:"):
        raise SystemExit(f"bad scoring {text!r}")
    tiers = []
    for part in text[5:].split(";"):
        lhs, arrow, rhs = [x.strip() for x in part.partition("→")]
        m = re.fullmatch(r"(\d+)(?:–(\d+)|\+)?", lhs)
        if not arrow or not m or not rhs.isdigit():
            raise SystemExit(f"bad tier {part.strip()!r} (e.g. '2–3 → 3' or '4+ → 7')")
        tiers.append([int(m.group(1)), int(rhs)])
    return {"kind": "tier", "tiers": tiers}


def bonus_cards(text):
    out = []
    for cells in table_rows(text, "| id | code | name |"):
        if len(cells) != 5:
            raise SystemExit(f"a bonus card row has 5 cells, not {len(cells)}: {cells}")
        bid, code, name, counts, scoring = cells
        rec = {"id": int(bid), "code": code, "name": name, "counts": counts}
        rec.update(parse_scoring(scoring))
        out.append(rec)
    if [b["id"] for b in out] != list(range(26)):
        raise SystemExit("the bonus table must list ids 0..25 in order")
    return out


def goals(text):
    sides = {}
    for cells in table_rows(text, "| tile | side 0"):
        tile = int(cells[0])
        for s in (0, 1):
            m = re.fullmatch(r"(\d+) `(\w+)` (.+)", cells[1 + s]) if len(cells) == 3 else None
            if not m:
                raise SystemExit(f"a goal tile row is '| tile | id `CODE` text | id `CODE` text |', "
                                 f"not {cells}")
            sid, code, desc = int(m.group(1)), m.group(2), m.group(3)
            if sid != 2 * tile + s:
                raise SystemExit(f"goal side id {sid} is not 2*{tile}+{s}")
            sides[sid] = {"id": sid, "tile": tile, "side": s, "code": code, "description": desc}
    places = []
    for cells in table_rows(text, "| round | 1st |"):
        places.append([int(c) for c in cells[1:]])
    if sorted(sides) != list(range(16)):
        raise SystemExit("the goal tiles must give the side ids 0..15")
    return {"sides": [sides[i] for i in range(16)], "green_places": places, "blue_max": 5}


def read(folder, name):
    path = os.path.join(folder, name)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")


def write(out, name, data):
    path = os.path.join(out, name)
    with open(path, "w", encoding="utf-8") as f:
        if isinstance(data, list):
            f.write("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in data) + "\n]\n")
        else:
            f.write("{\n" + ",\n".join(
                f"{json.dumps(k)}: " + ("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in v) + "\n]"
                                     if isinstance(v, list) else json.dumps(v))
                for k, v in data.items()) + "\n}\n")
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="make_wingspan_data.py",
        description="Make the Wingspan card data (wingspan_birds.json, wingspan_bonus.json, "
                    "wingspan_goals.json) from the source tables in Markdown.")
    parser.add_argument("rules_dir", metavar="RULES_DIR",
                        help="the folder holding wingspan-birds.md and wingspan-bonus-goals.md")
    parser.add_argument("--out", metavar="DIR", default=OUT,
                        help="the folder to write to (default: src/core/data of this repository)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.rules_dir):
        parser.error(f"RULES_DIR {args.rules_dir!r} is not a folder")
    if not os.path.isdir(args.out):
        parser.error(f"--out {args.out!r} is not a folder")
    bird_text = read(args.rules_dir, "wingspan-birds.md")
    bg_text = read(args.rules_dir, "wingspan-bonus-goals.md")
    made = (("wingspan_birds.json", birds(bird_text)), ("wingspan_bonus.json", bonus_cards(bg_text)),
            ("wingspan_goals.json", goals(bg_text)))
    for name, data in made:
        print(f"wrote {os.path.relpath(write(args.out, name, data))}")


if __name__ == "__main__":
    main()
