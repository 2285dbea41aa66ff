"""Tweeeet as a picture in text: the visible strip, top row first."""
from roost.core.tweeeet.text import (BIRDS, BIRD_TITLES, COLS, NCOLS, TERRAIN_LETTERS, is_nest)


SIDE_NAMES = ("the robins", "the bluethroats")     # player 0 is the rules' player 1
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
