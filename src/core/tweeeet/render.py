"""Tweeeet as a picture in text: the visible strip, top row first."""
from roost.core.tweeeet.text import (BIRDS, BIRD_TITLES, COLS, NCOLS, TERRAIN_LETTERS, is_nest)


SIDE_NAMES = ("the robins", "the bluethroats")     # player 0 is the rules' player 1
SIDES_ARE_PLURAL = True      # "the bluethroats win"
LEGEND = ("legend: . grass, ~ water, 2-5 a bush with that food, o an empty bush, S the start, "
          "N a nest; birds R male robin, r female robin (player 1), B male bluethroat, "
          "b female bluethroat (player 2), their energy at the end of their row")


def _row_line(y, codes, pos, energy):
    marks = "RBrb"
    cells = []
    for x in range(NCOLS):
        cell = 9 * y + x
        here = "".join(marks[b] for b in range(4) if pos[b] == cell)
        if here:
            cells.append(here.center(4))
        elif codes[x] < 0:
            cells.append("    ")
        else:
            cells.append(TERRAIN_LETTERS[codes[x]].center(4))
    note = "  ".join(f"{BIRDS[b]}:{energy[b]}" for b in range(4) if pos[b] // 9 == y)
    pad = "  " if y % 2 else ""
    return f"{y:>2} {pad}{''.join(cells)}{'  ' if y % 2 else '    '}{note}".rstrip()


def _status(f):
    cur, pos, energy = f["cur"], f["pos"], f["energy"]
    if f["result"] >= 0:
        nested_all = all(is_nest(c) for c in pos)
        if f["result"] == 2 and not nested_all:
            status = "every bird not in a nest is blocked and can only pass: the game is drawn"
        elif f["result"] == 2:
            status = "the game is drawn"
        else:
            status = f"{'robins (player 1)' if f['result'] == 0 else 'bluethroats (player 2)'} win"
        r = energy[0] + energy[2]
        bl = energy[1] + energy[3]
        status += f"; energy robins {r}, bluethroats {bl}"
        if not nested_all and f["result"] != 2:
            status = f"{BIRDS[cur]} cannot reach any bush or nest and dies: " + status
        return status
    if f["high"] < f["lay_to"]:
        return (f"chance: row {f['high'] + 1} is to be laid, "
                f"then {BIRDS[cur]} ({BIRD_TITLES[cur]}) moves")
    return (f"{BIRDS[cur]} ({BIRD_TITLES[cur]}, player {(cur & 1) + 1}) to move"
            + (" and must pass (blocked by other birds)" if f["can_pass"] else ""))


def render(state):
    """``~`` water, ``.`` grass, ``2``-``5`` food, ``o`` empty bush, ``N`` nest, ``S`` start;
    birds by initials (R/r the male/female robin, B/b the bluethroats) with their energies
    at the end of their row; then whose turn it is or the result."""
    f = state._raw()
    lines = [_row_line(y, f["rows"][y - f["low"]], f["pos"], f["energy"])
             for y in range(f["high"], f["low"] - 1, -1)]
    lines.append("    " + "".join(ch.center(4) for ch in COLS) + "  (odd rows shift right)")
    lines.append(LEGEND)
    lines.append(_status(f))
    return "\n".join(lines)


_FILL = {".": "#b9dd8f", "~": "#7db8e8", "o": "#9c7b55", "S": "#f3df8a", "N": "#e8c77a"}
_BIRD_FILL = ("#d8492e", "#2f5fb8", "#f2a38f", "#9ab6ec")     # MR, MB, FR, FB
_R = 24
# birds sharing a cell (the start holds all four): their radius and places around the centre,
# inside the hexagon's inner circle (radius _R * sqrt(3) / 2, about 20.8)
_BIRD_PLACES = {1: (9, ((0, 0),)),
                2: (8.5, ((-9.5, 0), (9.5, 0))),
                3: (7, ((-7.5, -6), (7.5, -6), (0, 7.5))),
                4: (7, ((-7.5, -7.5), (7.5, -7.5), (-7.5, 7.5), (7.5, 7.5)))}


def svg(state, observer=None):
    """The visible strip as SVG: hexagonal cells (odd rows shifted right, as in the text),
    grass, water, bushes with their food, empty bushes, the start and the nests; the birds
    on their cells (up to four inside one hexagon); each bird's energy and whose turn it is
    (or the result) on the right.  Every cell is a click target ``cell:d1``."""
    import math
    f = state._raw()
    rows = list(range(f["high"], f["low"] - 1, -1))
    w = math.sqrt(3) * _R
    width = int(NCOLS * w + w / 2 + 60 + 260)
    height = int(len(rows) * 1.5 * _R + _R + 70)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="white"/>']
    centre = {}
    for k, y in enumerate(rows):
        codes = f["rows"][y - f["low"]]
        cy = 30 + _R + k * 1.5 * _R
        out.append(f'<text class="row" x="6" y="{cy + 4:.0f}" fill="#555">{y}</text>')
        for x in range(NCOLS):
            if codes[x] < 0:
                continue
            cx = 40 + w / 2 + x * w + (w / 2 if y % 2 else 0)
            centre[9 * y + x] = (cx, cy)
            letter = TERRAIN_LETTERS[codes[x]]
            fill = _FILL.get(letter, "#3f8a3a")           # a bush with food: dark green
            points = " ".join(f"{cx + _R * math.cos(math.radians(60 * i - 30)):.1f},"
                              f"{cy + _R * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))
            kind = {"~": "water", ".": "grass", "o": "bush empty", "S": "start", "N": "nest"}.get(letter, "bush")
            out.append(f'<g class="cell" data-target="cell:{COLS[x]}{y}">')
            out.append(f'<polygon class="{kind}" points="{points}" fill="{fill}" stroke="#fff" stroke-width="2"/>')
            if letter in "2345":
                out.append(f'<text class="food" x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle" '
                           f'fill="white" font-weight="bold">{letter}</text>')
            elif letter in "SN":
                out.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle" fill="#6b5520">{letter}</text>')
            out.append('</g>')
    for col, name in enumerate(COLS):
        out.append(f'<text class="col" x="{40 + w / 2 + col * w:.1f}" y="{height - 36}" '
                   f'text-anchor="middle" fill="#555">{name}</text>')
    sharing = {}
    for b, cell in enumerate(f["pos"]):
        sharing.setdefault(cell, []).append(b)
    for cell, birds in sharing.items():
        if cell not in centre:
            continue
        cx, cy = centre[cell]
        r, offsets = _BIRD_PLACES[min(len(birds), 4)]
        for (dx, dy), b in zip(offsets, birds):
            out.append(f'<circle class="bird {BIRDS[b]}" cx="{cx + dx:.1f}" cy="{cy + dy:.1f}" r="{r}" '
                       f'fill="{_BIRD_FILL[b]}" stroke="#111" stroke-width="1.5" pointer-events="none"/>')
            out.append(f'<text x="{cx + dx:.1f}" y="{cy + dy + 3:.1f}" text-anchor="middle" '
                       f'font-size="{9 if r > 7 else 8}" fill="#111" pointer-events="none">{"RBrb"[b]}</text>')
    panel = int(NCOLS * w + w / 2 + 60)
    out.append(f'<text x="{panel}" y="40" font-weight="bold">energy</text>')
    for b in range(4):
        y = 62 + 22 * b
        out.append(f'<circle cx="{panel + 8}" cy="{y - 4}" r="7" fill="{_BIRD_FILL[b]}" stroke="#111"/>')
        out.append(f'<text class="energy" x="{panel + 22}" y="{y}">{BIRDS[b]} {BIRD_TITLES[b]}: '
                   f'{f["energy"][b]}</text>')
    out.append(f'<text class="status" x="6" y="{height - 12}" fill="#222">{_escape(_status(f))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def outcome_words(state, outcome):
    """A laid row in words: the row's number and its cells west to east."""
    return (f"row {state._raw()['high'] + 1} laid: {state.move_name(outcome)} "
            "(~ water, . grass, 2-5 a bush with that food)")


def move_targets(state, move):
    """What a person clicks to make ``move``: the cell the bird flies to (``cell:d1``);
    a pass is a choice the picture does not draw."""
    name = state.move_name(move)
    if name == "pass":
        return [(None, "pass (every way is blocked by other birds)")]
    return [(f"cell:{name}", f"fly to {name}")]


def _escape(text):
    from xml.sax.saxutils import escape
    return escape(text)
