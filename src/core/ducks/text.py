"""Feed the Ducks in text: the position text (docs/rules/ducks.md §9) and the names of
cells and moves.  Every value is checked here, where it enters; the native state receives
checked values only (Ducks._load)."""
from roost.core.errors import MoveError, PositionError
from roost.core.state import move_id
from roost.core.ducks.board import (ROW_NAMES, ROW_LENGTHS, ROW_STARTS, EDGE_CELLS,
                                    is_gathered)

NCELLS = 61
DUCKS_PER_COLOUR = 12
SETUP_PLACEMENTS = 24
PLY_CAP = 300
WHITE_DUCK = 64       # move ids, as in the native state
BLACK_DUCK = 128
DRAWN = 2             # the native result of a drawn game
REPETITION = "repetition"     # the position text's mark of a game drawn by repetition


# ---------------------------------------------------------------------------- cells
def cell_name(cell):
    """``cell_name(30) == 'e5'``"""
    cell = move_id(cell, "cell index (0..60)")
    if not 0 <= cell < NCELLS:
        raise MoveError(f"{cell!r} is not a cell index (0..60)")
    y = max(row for row in range(len(ROW_STARTS)) if ROW_STARTS[row] <= cell)
    return f"{ROW_NAMES[y]}{cell - ROW_STARTS[y] + 1}"


def _is_number(s):
    """ASCII digits only: str.isdigit() also admits superscripts and other scripts' digits,
    which int() rejects or reads silently."""
    return s.isascii() and s.isdigit()


def parse_cell(name):
    """``parse_cell('e5') == 30``; raises MoveError for a name that is not a cell."""
    if not isinstance(name, str):
        raise MoveError(f"{name!r} is not a cell name (a1..i5)")
    s = name.strip().lower()
    if len(s) < 2 or s[0] not in ROW_NAMES or not _is_number(s[1:]):
        raise MoveError(f"{name!r} is not a cell name (a1..i5)")
    y = ROW_NAMES.index(s[0])
    col = int(s[1:])
    if not 1 <= col <= ROW_LENGTHS[y]:
        raise MoveError(f"{name!r} is not a cell: row {s[0]} has cells 1..{ROW_LENGTHS[y]}")
    return ROW_STARTS[y] + col - 1


# ---------------------------------------------------------------------------- moves
def move_name(move):
    m = move_id(move, "Feed the Ducks move id")
    if 0 <= m < NCELLS:
        return cell_name(m)
    if WHITE_DUCK <= m < WHITE_DUCK + NCELLS:
        return "W@" + cell_name(m - WHITE_DUCK)
    if BLACK_DUCK <= m < BLACK_DUCK + NCELLS:
        return "B@" + cell_name(m - BLACK_DUCK)
    raise MoveError(f"{m} is not a Feed the Ducks move id")


def parse_move(name):
    if not isinstance(name, str):
        raise MoveError(f"{name!r} is not a Feed the Ducks move name (a cell like e5, or "
                        "W@<cell> / B@<cell> in the setup)")
    s = name.strip()
    if "@" in s:
        colour, _, cell = s.partition("@")
        if colour.upper() not in ("W", "B"):
            raise MoveError(f"{name!r}: a setup move is W@<cell> or B@<cell>")
        return (WHITE_DUCK if colour.upper() == "W" else BLACK_DUCK) + parse_cell(cell)
    return parse_cell(s)


# ---------------------------------------------------------------------------- positions
def _fault(message):
    raise PositionError(message)


def _parse_rows(board):
    """The 9 rows of the board text, top (row i) first -> (white mask, black mask, crumb
    cells)."""
    rows = board.split("/")
    if len(rows) != 9:
        _fault(f"the board needs 9 rows separated by '/', got {len(rows)}")
    white = black = 0
    crumbs = []
    for t, row in enumerate(rows):
        y = 8 - t
        col = 0
        for ch in row:
            if ch in "123456789":
                col += int(ch)
                continue
            if ch not in "wb*":
                _fault(f"unknown character {ch!r} in row {ROW_NAMES[y]} ({row!r})")
            if col >= ROW_LENGTHS[y]:
                break
            cell = ROW_STARTS[y] + col
            if ch == "w":
                white |= 1 << cell
            elif ch == "b":
                black |= 1 << cell
            else:
                crumbs.append(cell)
            col += 1
        else:
            if col == ROW_LENGTHS[y]:
                continue
        _fault(f"row {ROW_NAMES[y]} ({row!r}) must describe {ROW_LENGTHS[y]} cells, it "
               f"describes {'more' if col >= ROW_LENGTHS[y] else col}")
    return white, black, crumbs


def _parse_plies(fields):
    if len(fields) < 3:
        return 0
    if not _is_number(fields[2]):
        _fault(f"plies must be a non-negative integer, got {fields[2]!r}")
    plies = int(fields[2])
    if plies > PLY_CAP:
        _fault(f"plies {plies} is beyond the {PLY_CAP}-placement cap")
    return plies


def _lowest_cell(mask):
    return (mask & -mask).bit_length() - 1


def _check_setup(white, black, crumbs, side, plies):
    placed = bin(white).count("1") + bin(black).count("1")
    off = (white | black) & ~EDGE_CELLS
    if off:
        _fault(f"a duck on {cell_name(_lowest_cell(off))} during setup: setup ducks stand "
               "on edge cells only")
    if crumbs:
        _fault(f"a crumb on {cell_name(crumbs[0])} during setup ({placed} of 24 ducks placed)")
    if plies:
        _fault(f"plies is {plies} during setup: no crumb has been placed yet")
    if side != placed % 2:
        _fault(f"after {placed} setup placements it is "
               f"{'White' if placed % 2 == 0 else 'Black'}'s turn, "
               f"not {'White' if side == 0 else 'Black'}'s")


def _check_play(crumbs, plies):
    if not crumbs and plies:
        _fault(f"plies is {plies} but no crumb is on the board")


def _parse_ending(fields, crumbs, plies, won):
    """The optional fourth field: ``repetition`` for a game drawn by repetition, the one
    ending the board cannot show (a win shows as a gathered colour with a crumb down, the
    cap as 300 plies)."""
    if len(fields) < 4:
        return False
    if fields[3] != REPETITION:
        _fault(f"the fourth field can only be {REPETITION!r} (a game drawn by repetition), "
               f"got {fields[3]!r}")
    if not crumbs:
        _fault(f"{REPETITION!r} with no crumb on the board: a position repeats only in play")
    if won:
        _fault(f"{REPETITION!r} but a colour is gathered: the game was won")
    if plies >= PLY_CAP:
        _fault(f"{REPETITION!r} at the {PLY_CAP}-placement cap: the game is drawn by the cap")
    return True


def parse_position(cls, text):
    """``<rows> <side> [<plies> [repetition]]`` -> cls._load(...), or PositionError naming
    the fault.  A finished game is a position too: a crumb on the board and a colour
    gathered is a won game (docs/rules/ducks.md §6.2: the gathered colour wins, both at
    once the player who placed the crumb, the one not to move now), 300 plies a draw by
    the cap, and ``repetition`` a draw by repetition."""
    if not isinstance(text, str):
        _fault("a Feed the Ducks position must be text")
    fields = text.split()
    if len(fields) not in (2, 3, 4):
        _fault(f"a Feed the Ducks position has 2 to 4 fields (<rows> <side> [<plies> "
               f"[{REPETITION}]]), got {len(fields)}")
    white, black, crumbs = _parse_rows(fields[0])
    if fields[1] not in ("w", "b"):
        _fault(f"the side to move must be 'w' or 'b', got {fields[1]!r}")
    side = 0 if fields[1] == "w" else 1
    plies = _parse_plies(fields)
    nw, nb = bin(white).count("1"), bin(black).count("1")
    if nw > DUCKS_PER_COLOUR:
        _fault(f"{nw} white ducks: there are only {DUCKS_PER_COLOUR}")
    if nb > DUCKS_PER_COLOUR:
        _fault(f"{nb} black ducks: there are only {DUCKS_PER_COLOUR}")
    if len(crumbs) > 1:
        _fault("two crumbs on the board (" + ", ".join(cell_name(c) for c in crumbs) + ")")
    if nw + nb < SETUP_PLACEMENTS:
        _check_setup(white, black, crumbs, side, plies)
    else:
        _check_play(crumbs, plies)
    won = bool(crumbs) and (is_gathered(white) or is_gathered(black))
    repeated = _parse_ending(fields, crumbs, plies, won)
    raw = {"white": white, "black": black, "crumb": crumbs[0] if crumbs else -1,
           "side": side, "plies": plies}
    if won:
        both = is_gathered(white) and is_gathered(black)
        raw.update(result=1 - side if both else 0 if is_gathered(white) else 1, history=())
    elif repeated:
        raw.update(result=DRAWN, history=())
    return cls._load(raw)


def ending(raw):
    """Why the game of ``raw`` (Ducks._raw()) ended, ``{"reason", "detail"}``, or None while it
    goes on."""
    result = raw["result"]
    if result < 0:
        return None
    if result == DRAWN:
        if raw["plies"] >= PLY_CAP:
            return {"reason": "cap", "detail": f"drawn: {PLY_CAP} crumb placements without a winner"}
        return {"reason": REPETITION, "detail": "drawn by repetition: the same position occurred for the third time"}
    white, black = is_gathered(raw["white"]), is_gathered(raw["black"])
    winner = "White" if result == 0 else "Black"
    if white and black:
        return {"reason": "gathered", "detail": f"the crumb {winner} placed gathered both colours at once"}
    return {"reason": "gathered", "detail": f"{winner}'s ducks are gathered"}


def position_text(raw):
    """The text of a position, from Ducks._raw()."""
    white, black, crumb = raw["white"], raw["black"], raw["crumb"]
    rows = []
    for y in range(8, -1, -1):
        row = ""
        empty = 0
        for col in range(ROW_LENGTHS[y]):
            cell = ROW_STARTS[y] + col
            bit = 1 << cell
            ch = "w" if white & bit else "b" if black & bit else "*" if cell == crumb else ""
            if not ch:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += ch
        if empty:
            row += str(empty)
        rows.append(row)
    text = f"{'/'.join(rows)} {'wb'[raw['side']]} {raw['plies']}"
    if raw.get("result") == DRAWN and raw["plies"] < PLY_CAP:
        text += " " + REPETITION
    return text
