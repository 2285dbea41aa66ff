"""Under the Leaves in text: the position text (docs/rules/leaves.md §11), move names (§4)
and placements.  Every value is checked here, where it enters; the native state receives
checked values only (Leaves._load), and replays the gardens with every check."""
import re

from roost.core.errors import MoveError, PositionError
from roost.core.state import move_id
from roost.core.leaves.tiles import (CARD_NAMES, CARD_CODES, CATEGORY_NAMES, NTILES)

MAXG = 13              # tiles in a finished garden
NSLOTNUM = 625         # move ids (as in state.pyx): ((i * 625 + slot) * 8 + o)
CHANCE_BASE = 16384    # refill draw: CHANCE_BASE + tile id
SLOT_LIMIT = 12        # |x|, |y| of a slot a 13-tile garden can reach

# Numbers in position texts and move names: ASCII decimal, no leading zero, no "-0", so
# that one position has one text (§11) and one move one name (§4).  (str.isdigit and \d
# also take other scripts' digits: int() fails on a superscript and reads an Arabic-Indic
# digit as a number.)
_NUM = r"(?:0|[1-9][0-9]*)"
_INT = r"(?:0|-?[1-9][0-9]*)"
_NUM_RE = re.compile(_NUM)
_ENTRY_RE = re.compile(rf"(S?)({_NUM})@\(({_INT}),({_INT})\)o({_NUM})")
_MOVE_RE = re.compile(rf"m({_NUM})@\(({_INT}),({_INT})\)o({_NUM})")
_DRAW_RE = re.compile(rf"d({_NUM})")


def removed_count(n):
    """§2.4: R = 24, 12, 0 tiles removed for 2, 3, 4 players (50 - R = 12n + 2)."""
    return 50 - 12 * n - 2


def bit_list(x):
    """The set bits of x, ascending."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def ids_text(ids):
    return ",".join(str(t) for t in ids) if ids else "-"


def entry_name(tile, x, y, o):
    t = f"S{tile - NTILES}" if tile >= NTILES else str(tile)
    return f"{t}@({x},{y})o{o}"


# ---------------------------------------------------------------------------- moves
def move_name(move):
    m = move_id(move, "Under the Leaves move id")
    if CHANCE_BASE <= m < CHANCE_BASE + NTILES:
        return f"d{m - CHANCE_BASE}"
    if 0 <= m < 3 * NSLOTNUM * 8:
        o = m & 7
        slot = (m >> 3) % NSLOTNUM
        i = (m >> 3) // NSLOTNUM
        return f"m{i}@({slot // 25 - 12},{slot % 25 - 12})o{o}"
    raise MoveError(f"{m} is not an Under the Leaves move id")


def parse_move(name):
    if not isinstance(name, str):
        raise MoveError(f"{name!r} is not an Under the Leaves move name (m<market index>@(<x>,<y>)"
                        "o<orientation>, or d<tile> for a refill draw)")
    s = name.strip()
    m = _DRAW_RE.fullmatch(s)
    if m:
        tid = int(m.group(1))
        if tid >= NTILES:
            raise MoveError(f"{name!r}: there is no tile {tid} (tiles are 0..49)")
        return CHANCE_BASE + tid
    m = _MOVE_RE.fullmatch(s)
    if not m:
        raise MoveError(
            f"{name!r} is not a move: write m<market index>@(<x>,<y>)o<orientation>, "
            "e.g. m2@(1,-1)o3, or d<tile> for a refill draw (ASCII digits, no leading zeros)")
    i, x, y, o = (int(v) for v in m.groups())
    if i > 2:
        raise MoveError(f"{name!r}: the market index is 0, 1 or 2")
    if o > 7:
        raise MoveError(f"{name!r}: the orientation is 0..7")
    if abs(x) > SLOT_LIMIT or abs(y) > SLOT_LIMIT:
        raise MoveError(f"{name!r}: slot ({x},{y}) can never be on a frontier")
    return ((i * NSLOTNUM + (x + 12) * 25 + (y + 12)) << 3) + o


def parse_placement(text):
    """``38@(1,0)o0`` (a placement as in a garden list, no starting tile) -> (tile, x, y, o)."""
    m = _ENTRY_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if not m or m.group(1):
        raise MoveError(f"{text!r} is not a placement <tile>@(<x>,<y>)o<o>")
    values = tuple(int(v) for v in m.groups()[1:])
    if any(abs(v) >= 2 ** 31 for v in values):
        raise MoveError(f"{text!r}: no tile, slot or orientation is that large")
    return values


# ---------------------------------------------------------------------------- fields
def _fault(message):
    raise PositionError(message)


def _parse_ids(txt, what):
    if txt == "-":
        return []
    out = []
    for part in txt.split(","):
        if not _NUM_RE.fullmatch(part):
            _fault(f"{what}: {part!r} is not a tile id (0..49, ASCII digits, no leading zeros)")
        tid = int(part)
        if tid >= NTILES:
            _fault(f"{what}: there is no tile {tid} (tiles are 0..49)")
        last = out[-1] if out else -1
        if tid == last:
            _fault(f"{what}: tile {tid} is listed twice")
        if tid < last:
            _fault(f"{what}: ids must be in ascending order ({last} before {tid})")
        out.append(tid)
    return out


def _parse_entry(txt, where):
    m = _ENTRY_RE.fullmatch(txt)
    if not m:
        _fault(f"{where}: {txt!r} is not a placement <tile>@(<x>,<y>)o<orientation> "
               "(ASCII digits, no leading zeros)")
    is_start = m.group(1) == "S"
    tid, x, y, o = (int(v) for v in m.groups()[1:])
    if is_start:
        if tid > 3:
            _fault(f"{where}: there is no starting tile S{tid} (S0..S3)")
        tid += NTILES
    elif tid >= NTILES:
        _fault(f"{where}: there is no tile {tid} (tiles are 0..49)")
    if o > 7:
        _fault(f"{where}: orientation {o} is not 0..7")
    if abs(x) > SLOT_LIMIT or abs(y) > SLOT_LIMIT:
        _fault(f"{where}: slot ({x},{y}) is more than 12 slots from (0,0), where no "
               "garden of 13 tiles reaches")
    return (tid, x, y, o)


def _parse_garden(txt, k):
    """g<k>'s placements, each on its garden's frontier as it grows (§3.4)."""
    if not txt:
        _fault(f"g{k} is empty: a garden starts with its starting tile S<j>@(0,0)o0")
    entries = []
    for idx, e in enumerate(txt.split(";")):
        ent = _parse_entry(e, f"g{k} entry {idx + 1}")
        if idx == 0:
            if ent[0] < NTILES or ent[1:] != (0, 0, 0):
                _fault(f"g{k} must start with its starting tile S<j>@(0,0)o0, got {e!r}")
        elif ent[0] >= NTILES:
            _fault(f"g{k} entry {idx + 1} ({e}): a starting tile only opens a garden")
        entries.append(ent)
    if len(entries) > MAXG:
        _fault(f"g{k} has {len(entries)} entries; a garden holds at most {MAXG} tiles")
    return entries


def _check_frontiers(gardens):
    """Every placement on a free slot next to a tile already in its garden (§3.4)."""
    for p, entries in enumerate(gardens):
        taken = {(0, 0)}
        for idx, (tile, x, y, o) in enumerate(entries[1:], 1):
            if (x, y) in taken:
                why = "already taken"
            elif not taken & {(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)}:
                why = "not next to a tile of that garden"
            else:
                taken.add((x, y))
                continue
            _fault(f"g{p} entry {idx + 1} ({entry_name(tile, x, y, o)}): slot ({x},{y}) is {why}")


def _split_fields(text):
    """The fields of a position text, in order -> (players, {name: value})."""
    if not isinstance(text, str):
        _fault("an Under the Leaves position must be text")
    fields = text.split()
    if not fields or fields[0] != "UTL":
        _fault("an Under the Leaves position starts with 'UTL'")
    if len(fields) < 2 or not fields[1].startswith("p="):
        _fault("the second field must be p=<players> (2 to 4)")
    ptxt = fields[1][2:]
    if ptxt not in ("2", "3", "4"):
        _fault(f"p must be 2, 3 or 4, got {ptxt!r}")
    n = int(ptxt)
    names = ["cards", "turn", "tomove", "market", "bag"] + [f"g{k}" for k in range(n)]
    if len(fields) != 2 + len(names):
        _fault(f"a {n}-player position has {2 + len(names)} fields (UTL p= cards= turn= "
               f"tomove= market= bag= " + " ".join(f"g{k}=" for k in range(n))
               + f"), got {len(fields)}")
    vals = {}
    for idx, name in enumerate(names):
        f = fields[2 + idx]
        key, eq, val = f.partition("=")
        if not eq or key != name:
            _fault(f"field {3 + idx} must be {name}=..., got {f!r} (fields go in the order "
                   "UTL p cards turn tomove market bag g0 ..)")
        vals[name] = val
    return n, vals


def _parse_cards(txt):
    names = txt.split(",")
    if len(names) != 3:
        _fault(f"cards= needs 3 names (leaf, mushroom, puddle), got {txt!r}")
    cards = []
    for j, cn in enumerate(names):
        allowed = CARD_NAMES[4 * j:4 * j + 4]
        if cn not in allowed:
            _fault(f"the {CATEGORY_NAMES[j]} card must be one of {', '.join(allowed)}, got {cn!r}")
        cards.append(CARD_NAMES.index(cn))
    return cards


def _parse_turn(vals, n):
    tt = vals["turn"]
    if not _NUM_RE.fullmatch(tt) or not 1 <= int(tt) <= 12 * n + 1:
        _fault(f"turn must be a number from 1 to {12 * n + 1}, got {tt!r}")
    t = int(tt)
    tm = vals["tomove"]
    if t == 12 * n + 1:
        if tm != "-":
            _fault(f"the game is over at turn {t}: tomove must be '-', got {tm!r}")
    elif tm != str((t - 1) % n):
        _fault(f"at turn {t} seat {(t - 1) % n} is to move, but tomove={tm!r}")
    return t


def _check_market_and_bag(market, bag, n, t):
    if t == 12 * n + 1:
        if bag:
            _fault(f"the game is over at turn {t}: the bag must be empty ('-'), it holds {len(bag)}")
        if len(market) != 2:
            _fault(f"a finished game leaves 2 tiles in the market, got {len(market)}")
        return
    if len(market) == 3:
        need = 12 * n - t
    elif len(market) == 2:
        if t == 1:
            _fault("at turn 1 the market holds 3 tiles (setup draws them), got 2")
        need = 12 * n - t + 1
    else:
        _fault(f"the market holds 3 tiles (2 while a refill is pending), got {len(market)}")
    if len(bag) != need:
        _fault(f"the bag must hold {need} tiles at turn {t} (50 - {removed_count(n)} removed - "
               f"{len(market)} in the market - {t - 1} placed), got {len(bag)}")


def _check_tiles_once(market, bag, gardens, n, t):
    """Each garden as long as the turn says; every tile in one place; the right number
    removed (§11)."""
    for k in range(n):
        need = 1 + sum(1 for j in range(t - 1) if j % n == k)
        if len(gardens[k]) != need:
            _fault(f"g{k} has {len(gardens[k])} entries; at turn {t} seat {k} has placed "
                   f"{need - 1} tiles, so it needs {need} (the starting tile first)")
    seen = {}
    for where, ids in (("market", market), ("bag", bag)):
        for tid in ids:
            if tid in seen:
                _fault(f"tile {tid} is both in the {seen[tid]} and the {where}")
            seen[tid] = where
    starts_seen = {}
    for k, entries in enumerate(gardens):
        sj = entries[0][0] - NTILES
        if sj in starts_seen:
            _fault(f"starting tile S{sj} is in g{starts_seen[sj]} and g{k}")
        starts_seen[sj] = k
        for e in entries[1:]:
            tid = e[0]
            if tid in seen:
                if seen[tid] == f"g{k}":
                    _fault(f"tile {tid} is placed twice in g{k}")
                _fault(f"tile {tid} is both in the {seen[tid]} and g{k}")
            seen[tid] = f"g{k}"
    removed = NTILES - len(seen)
    if removed != removed_count(n):
        _fault(f"{removed} tiles are removed (in no market, bag or garden); with {n} players "
               f"there must be {removed_count(n)}")


def _bag_size(market, n, t):
    """How many tiles the bag holds at turn ``t`` with ``market`` (as the rules fix it), or
    None when the market itself is wrong (``_check_market_and_bag`` says why)."""
    if t == 12 * n + 1:
        return 0
    return {3: 12 * n - t, 2: 12 * n - t + 1}.get(len(market))


def parse_position(cls, text):
    """The position text of §11 -> cls._load(...), or PositionError naming the first fault.
    A seat's view (``view_text``: ``bag=?``) parses too: the bag is then the lowest-numbered
    of the unseen tiles (those in no market and no garden), as many as the bag holds."""
    n, vals = _split_fields(text)
    cards = _parse_cards(vals["cards"])
    t = _parse_turn(vals, n)
    market = _parse_ids(vals["market"], "market")
    if vals["bag"] == UNKNOWN_BAG:
        gardens = [_parse_garden(vals[f"g{k}"], k) for k in range(n)]
        size = _bag_size(market, n, t)
        placed = {e[0] for g in gardens for e in g}
        unseen = [tid for tid in range(NTILES) if tid not in placed and tid not in market]
        bag = unseen[:size] if size is not None and size <= len(unseen) else unseen
        _check_market_and_bag(market, bag, n, t)
    else:
        bag = _parse_ids(vals["bag"], "bag")
        _check_market_and_bag(market, bag, n, t)
        gardens = [_parse_garden(vals[f"g{k}"], k) for k in range(n)]
    _check_tiles_once(market, bag, gardens, n, t)
    _check_frontiers(gardens)
    return cls._load({"players": n, "turn": t, "cards": cards, "market": market, "bag": bag,
                      "gardens": gardens})


UNKNOWN_BAG = "?"      # a view's bag: which unseen tiles it holds is hidden (§10.4)


def view_text(p):
    """What every seat sees (all seats see the same): the position text with the bag written
    ``bag=?`` where tiles were removed unseen before the game (2 and 3 players): the unseen
    tiles, those in no market and no garden, are in the bag or removed, nobody knows which."""
    text = position_text(p)
    if removed_count(p["players"]) == 0:
        return text
    return " ".join(f"bag={UNKNOWN_BAG}" if f.startswith("bag=") else f for f in text.split())


def position_text(p):
    """The text of a position, from Leaves._raw()."""
    n, t = p["players"], p["turn"]
    parts = [f"UTL p={n}", "cards=" + ",".join(CARD_NAMES[c] for c in p["cards"]),
             f"turn={t}", "tomove=" + ("-" if t > 12 * n else str((t - 1) % n)),
             "market=" + ids_text(p["market"]), "bag=" + ids_text(p["bag"])]
    for k in range(n):
        parts.append(f"g{k}=" + ";".join(entry_name(*e) for e in p["gardens"][k]))
    return " ".join(parts)


def start_text(n, cards, starts, tiles):
    """The text of a new game (§2): cards in play, starting tiles by seat, and the tiles in
    their shuffled order (the first R removed, the next 3 the market, the rest the bag)."""
    r = removed_count(n)
    return (f"UTL p={n} cards={','.join(CARD_NAMES[c] for c in cards)} "
            f"turn=1 tomove=0 market={ids_text(sorted(tiles[r:r + 3]))} "
            f"bag={ids_text(sorted(tiles[r + 3:]))} "
            + " ".join(f"g{k}=S{starts[k]}@(0,0)o0" for k in range(n)))
