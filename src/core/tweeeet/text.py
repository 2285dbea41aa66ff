"""Tweeeet in text: the position text (docs/rules/tweeeet.md §11) and the names of cells,
moves and laid rows.  Every value is checked here, where it enters; the native state
receives checked values only (Tweeeet._load)."""
from roost.core.errors import MoveError, PositionError
from roost.core.state import move_id
from roost.core.tweeeet.board import COLS, ARRANGEMENTS, water_barrier, neighbour_cells

NROWS = 20            # the rules' numbers, as in board.pxd
NCOLS = 9
NCELLS = 180
NEST_ROW = 19
START_CELL = 4
SIGHT = 4
PASS = 180
CHANCE_BASE = 1024
NOUT = 64 * len(ARRANGEMENTS)
MAX_ENERGY = 9999

BIRDS = ("MR", "MB", "FR", "FB")
BIRD_TITLES = ("male robin", "male bluethroat", "female robin", "female bluethroat")
START_ROW_TEXT = "-...S...-"
NEST_ROW_TEXT = "N.N.N.N.N"
FOOD_NAMES = {2: "currant", 3: "blackberry", 4: "caterpillar", 5: "beetle"}
# the default start of docs/rules/tweeeet.md §11.1 (rows 1..4 laid)
EXAMPLE = "0:-...S...-/~..3.5~.2/.4..~2.~3/5~.~..4.2/..~3.~54. e0:6 e0:7 e0:8 e0:9 MR"

# terrain codes (board.pxd) and their letters
TERRAIN_LETTERS = ".~o2345SN"
T_GRASS, T_WATER, T_EMPTY, T_FOOD, T_START, T_NEST = 0, 1, 2, 3, 7, 8
_ARRANGEMENT_INDEX = {(water, sum(1 << x for x in bushes)): a
                      for a, (water, bushes) in enumerate(ARRANGEMENTS)}


def is_nest(cell):
    return cell // 9 == NEST_ROW and (cell % 9) % 2 == 0


# ---------------------------------------------------------------------------- cells
def cell_name(cell):
    """``cell_name(4) == 'e0'``"""
    cell = move_id(cell, "cell id (0..179)")
    if not 0 <= cell < NCELLS:
        raise MoveError(f"{cell} is not a cell id (0..179)")
    return f"{COLS[cell % 9]}{cell // 9}"


def _is_number(s):
    """ASCII digits only: str.isdigit() also admits superscripts and other scripts' digits,
    which int() rejects or reads silently."""
    return s.isascii() and s.isdigit()


def parse_cell(name):
    if not isinstance(name, str):
        raise MoveError(f"{name!r} is not a cell name (a column a..i and a row 0..19, e.g. c7)")
    s = name.strip().lower()
    if len(s) < 2 or s[0] not in COLS or not _is_number(s[1:]):
        raise MoveError(f"{name!r} is not a cell name (a column a..i and a row 0..19, e.g. c7) "
                        "nor 'pass'")
    y = int(s[1:])
    if y > NEST_ROW:
        raise MoveError(f"{name!r} is not a cell: rows are numbered 0..19")
    return 9 * y + COLS.index(s[0])


def neighbours(cell):
    """Names of the cells next to ``cell`` on the full strip (test helper)."""
    return sorted(cell_name(c) for c in neighbour_cells(parse_cell(cell)))


# ---------------------------------------------------------------------------- moves
def outcome_text(move):
    """The 9-character row text of a chance outcome id."""
    code = move_id(move, "Tweeeet row outcome id") - CHANCE_BASE
    if not 0 <= code < NOUT:
        raise MoveError(f"{move} is not a Tweeeet row outcome id")
    water, bushes = ARRANGEMENTS[code >> 6]
    foods = code & 63
    out = ["~" if water & (1 << x) else "." for x in range(NCOLS)]
    for i, x in enumerate(bushes):
        out[x] = str(2 + ((foods >> (2 * (2 - i))) & 3))
    return "".join(out)


def parse_outcome(row):
    """The chance outcome id of a landscape row text (2 water, 4 grass, 3 foods)."""
    if not isinstance(row, str) or len(row) != NCOLS:
        raise MoveError(f"a laid row {row!r} must be text of 9 cells")
    for ch in row:
        if ch not in ".~2345":
            raise MoveError(f"unknown character {ch!r} in the laid row {row!r} (use . ~ 2 3 4 5)")
    nw, ng = row.count("~"), row.count(".")
    if nw != 2 or ng != 4:
        raise MoveError(f"a laid row needs 2 water, 4 grass and 3 bushes with food; "
                        f"{row!r} has {nw} water and {ng} grass")
    water = sum(1 << x for x, ch in enumerate(row) if ch == "~")
    bush = sum(1 << x for x, ch in enumerate(row) if ch in "2345")
    foods = 0
    for ch in row:
        if ch in "2345":
            foods = foods * 4 + int(ch) - 2
    return CHANCE_BASE + _ARRANGEMENT_INDEX[(water, bush)] * 64 + foods


def move_name(move):
    m = move_id(move, "Tweeeet move id")
    if m == PASS:
        return "pass"
    if 0 <= m < NCELLS:
        return cell_name(m)
    if CHANCE_BASE <= m < CHANCE_BASE + NOUT:
        return outcome_text(m)
    raise MoveError(f"{m} is not a Tweeeet move id")


def parse_move(name):
    if not isinstance(name, str):
        raise MoveError(f"{name!r} is not a Tweeeet move name (a cell like c7, 'pass', or a "
                        "laid row like ~..3.5~.2)")
    s = name.strip()
    if s.lower() == "pass":
        return PASS
    if len(s) == NCOLS and all(ch in ".~2345" for ch in s):
        return parse_outcome(s)
    return parse_cell(s)


# ---------------------------------------------------------------------------- positions
def _fault(message):
    raise PositionError(message)


def _check_row(y, row):
    if len(row) != NCOLS:
        _fault(f"row {y} ({row!r}) must have 9 cells, it has {len(row)}")
    for ch in row:
        if ch not in ".~2345oSN-":
            _fault(f"unknown character {ch!r} in row {y} ({row!r})")
    if y == 0:
        if row != START_ROW_TEXT:
            _fault(f"row 0 is the start row and must read {START_ROW_TEXT}, got {row!r}")
    elif y == NEST_ROW:
        if row != NEST_ROW_TEXT:
            _fault(f"row 19 is the nest row and must read {NEST_ROW_TEXT}, got {row!r}")
    else:
        if "N" in row:
            _fault(f"a nest row below row 19: row {y} ({row!r}) holds a nest")
        if "S" in row:
            _fault(f"row {y} ({row!r}) holds a start cell: only e0 is the start")
        if "-" in row:
            _fault(f"row {y} ({row!r}) has a missing cell: landscape rows have 9 cells")
        nw = row.count("~")
        ng = row.count(".")
        nb = sum(row.count(ch) for ch in "2345o")
        if (nw, ng, nb) != (2, 4, 3):
            _fault(f"landscape row {y} ({row!r}) has {nw} water, {ng} grass and {nb} bushes; "
                   "it needs 2, 4 and 3")


def _parse_board(board):
    """``<low>:<rows>`` -> (low, [terrain codes of each row, -1 for no cell])."""
    low_s, sep, rows_s = board.partition(":")
    if not sep:
        _fault(f"the board {board!r} must be <low>:<rows> (e.g. 0:-...S...-/...)")
    if not _is_number(low_s) or int(low_s) > NEST_ROW:
        _fault(f"the lowest row must be a number 0..19, got {low_s!r}")
    low = int(low_s)
    rows = rows_s.split("/")
    if low + len(rows) - 1 > NEST_ROW:
        _fault(f"{len(rows)} rows from row {low} run past the nest row 19")
    codes = []
    for i, row in enumerate(rows):
        _check_row(low + i, row)
        codes.append([-1 if ch == "-" else TERRAIN_LETTERS.index(ch) for ch in row])
    water = [9 * (low + i) + x for i, row in enumerate(codes) for x, t in enumerate(row)
             if t == T_WATER]
    if water_barrier(water):
        _fault("the water forms a barrier from column a to column i "
               "(such a row is always drawn again)")
    return low, codes


def _parse_bird(b, text, low, codes):
    """``<cell>:<energy>`` of bird b -> (cell, energy), on a cell a bird may stand on."""
    cell_s, sep, en_s = text.partition(":")
    if not sep:
        _fault(f"bird {BIRDS[b]} {text!r} must be <cell>:<energy>, e.g. e0:6")
    try:
        cell = parse_cell(cell_s)
    except MoveError as e:
        raise PositionError(f"bird {BIRDS[b]}: {e}") from None
    if not _is_number(en_s):
        _fault(f"bird {BIRDS[b]}: energy must be a number >= 0, got {en_s!r}")
    if int(en_s) > MAX_ENERGY:
        _fault(f"bird {BIRDS[b]}: energy {en_s} is out of range (at most {MAX_ENERGY})")
    name = cell_name(cell)
    y = cell // 9
    t = codes[y - low][cell % 9] if low <= y < low + len(codes) else -1
    if t < 0:
        _fault(f"bird {BIRDS[b]} is on {name}, off the board "
               f"(rows {low}..{low + len(codes) - 1} are laid)")
    if t == T_WATER:
        _fault(f"bird {BIRDS[b]} is on {name}, which is water")
    if t == T_GRASS:
        _fault(f"bird {BIRDS[b]} is on {name}, which is grass: birds land on bushes or nests only")
    if T_FOOD <= t < T_FOOD + 4:
        _fault(f"bird {BIRDS[b]} is on {name}, a bush with food: a bird eats the food it lands on")
    return cell, int(en_s)


def _check_sharing(pos):
    seen = {}
    for b, cell in enumerate(pos):
        seen.setdefault(cell, []).append(b)
    for cell, bs in seen.items():
        if len(bs) > 1 and cell != START_CELL:
            together = " and ".join(BIRDS[b] for b in bs)
            if not is_nest(cell):
                _fault(f"{together} are both on {cell_name(cell)}: only the start and a nest "
                       "hold more than one bird")
            if len({b & 1 for b in bs}) > 1:
                _fault(f"{together} share the nest {cell_name(cell)}: a nest holds the two "
                       "birds of one pair")
    for b in range(2):
        if is_nest(pos[b]) and is_nest(pos[b + 2]) and pos[b] != pos[b + 2]:
            _fault(f"the pair {BIRDS[b]} and {BIRDS[b + 2]} is in two nests "
                   f"({cell_name(pos[b])} and {cell_name(pos[b + 2])}): partners share one nest")


def _rows_due(low, high, pos):
    """The row up to which rows are laid before the bird to move flies (docs/rules/tweeeet.md
    §11.2); checks the rows on the board fit the birds."""
    if all(is_nest(c) for c in pos):
        return NEST_ROW
    lowest = min(c // 9 for c in pos if not is_nest(c))
    if low < lowest - SIGHT:
        _fault(f"row {low} should have been removed: it is more than {SIGHT} rows below "
               f"the lowest bird not in a nest (row {lowest})")
    lay_to = max(min(c // 9 + SIGHT, NEST_ROW) for c in pos)
    if high < lay_to and high + 1 == NEST_ROW:
        _fault(f"the nest row 19 should have been laid: row 18 is fewer than {SIGHT} rows "
               f"above the bird on row {lay_to - SIGHT}")
    return lay_to


def parse_position(cls, text):
    """``<low>:<rows> <MR> <MB> <FR> <FB> <to-move>`` -> cls._load(...), or PositionError
    naming the fault."""
    if not isinstance(text, str):
        _fault("a Tweeeet position must be text")
    fields = text.split()
    if len(fields) != 6:
        _fault("a Tweeeet position has 6 fields (<low>:<rows> <MR> <MB> <FR> <FB> <to-move>), "
               f"got {len(fields)}")
    low, codes = _parse_board(fields[0])
    birds = [_parse_bird(b, fields[1 + b], low, codes) for b in range(4)]
    pos = tuple(cell for cell, _ in birds)
    _check_sharing(pos)
    mover = fields[5]
    if mover not in BIRDS:
        _fault(f"the bird to move must be MR, MB, FR or FB, got {mover!r}")
    cur = BIRDS.index(mover)
    if is_nest(pos[cur]) and not all(is_nest(c) for c in pos):
        _fault(f"{mover} is in a nest and is skipped: it cannot be the bird to move")
    lay_to = _rows_due(low, low + len(codes) - 1, pos)
    return cls._load({"low": low, "rows": codes, "pos": pos, "energy": tuple(e for _, e in birds),
                      "cur": cur, "lay_to": lay_to})


def row_text(codes):
    return "".join("-" if t < 0 else TERRAIN_LETTERS[t] for t in codes)


def position_text(raw):
    """The text of a position, from Tweeeet._raw()."""
    rows = [row_text(codes) for codes in raw["rows"]]
    birds = " ".join(f"{cell_name(raw['pos'][b])}:{raw['energy'][b]}" for b in range(4))
    return f"{raw['low']}:{'/'.join(rows)} {birds} {BIRDS[raw['cur']]}"


def ending(raw):
    """Why the game of ``raw`` (Tweeeet._raw()) ended, ``{"reason", "detail"}``: ``died`` (a
    bird could reach no bush or nest: its player lost), ``nested`` (all four birds in nests:
    the higher total energy wins) or ``blocked`` (every bird not in a nest could only pass:
    a draw); None while it goes on (rules "Passing and dying", "End of the game")."""
    result, pos, energy = raw["result"], raw["pos"], raw["energy"]
    if result < 0:
        return None
    if all(is_nest(c) for c in pos):
        robins, bluethroats = energy[0] + energy[2], energy[1] + energy[3]
        return {"reason": "nested", "detail": f"all four birds are in nests: energy robins "
                f"{robins}, bluethroats {bluethroats}"}
    if result == 2:
        return {"reason": "blocked", "detail": "drawn: every bird not in a nest is blocked and "
                "can only pass"}
    bird = raw["cur"]
    return {"reason": "died", "detail": f"the {BIRD_TITLES[bird]} ({BIRDS[bird]}) cannot reach "
            "any bush or nest and dies"}
