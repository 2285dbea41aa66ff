"""CuBirds in text: the position text (the JSON of docs/rules/cubirds.md §9), a seat's view
of it, and move names.  Every value is checked here, where it enters; the native state
receives checked values only (Cubirds._load)."""
import json
import os
import re

from roost.core.errors import GameError, MoveError, PositionError
from roost.core.state import move_id

NSP = 8
NROWS = 4
HAND = 8
TURN_CAP = 1000
TOTAL = 110
LETTERS = "FOTDPMWR"
SPECIES_NAMES = ("flamingo", "owl", "toucan", "duck", "parrot", "magpie", "reed warbler", "robin")
PHASES = ("lay", "draw", "flock", "complete", "drawing", "filling", "deal", "setup", "over")
COPIES = (7, 10, 10, 13, 13, 17, 20, 20)
SMALL = (2, 3, 3, 4, 4, 5, 6, 6)
BIG = (3, 4, 4, 6, 6, 7, 9, 9)
# move ids (as in cards.pxd)
MV_DRAW, MV_NODRAW, MV_FLOCK, MV_NOFLOCK, MV_LEFT, MV_RIGHT, CARD = 64, 65, 66, 74, 75, 76, 80

REQUIRED = ("players", "dealer", "to_move", "phase", "rows", "hands", "collections",
            "discard", "deck", "turn")
OPTIONAL = ("known", "lacks", "pending", "row", "card", "winners")
# the fields only some phases have
PHASE_FIELDS = (("pending", ("drawing",)), ("row", ("filling", "complete")),
                ("card", ("complete",)), ("winners", ("over",)))


# ---------------------------------------------------------------------------- cards
def letters(counts):
    """Per-species counts -> the cards as letters, species in order."""
    return "".join(LETTERS[s] * counts[s] for s in range(NSP))


def mask_letters(mask):
    return "".join(LETTERS[s] for s in range(NSP) if mask & (1 << s))


def row_letters(row):
    return "".join(LETTERS[s] for s in row)


def wins(counts):
    """A winning collection (docs/rules/cubirds.md §4.6): 7 species, or two species of 3."""
    return sum(1 for x in counts if x) >= 7 or sum(1 for x in counts if x >= 3) >= 2


# ---------------------------------------------------------------------------- moves
def move_name(move):
    m = move_id(move, "CuBirds move id")
    if 0 <= m < MV_DRAW:
        return f"{LETTERS[m >> 3]}{((m >> 1) & 3) + 1}{'LR'[m & 1]}"
    fixed = {MV_DRAW: "draw", MV_NODRAW: "nodraw", MV_NOFLOCK: "noflock", MV_LEFT: "left",
             MV_RIGHT: "right"}
    if m in fixed:
        return fixed[m]
    if MV_FLOCK <= m < MV_NOFLOCK:
        return "flock:" + LETTERS[m - MV_FLOCK]
    if CARD <= m < CARD + NSP:
        return "card:" + LETTERS[m - CARD]
    raise MoveError(f"{m} is not a CuBirds move id")


def parse_move(name):
    if not isinstance(name, str):
        raise MoveError(f"{name!r} is not a CuBirds move name (lay like R2L, draw, nodraw, "
                        "flock:R, noflock, left, right)")
    s = name.strip()
    if not s.isascii():
        raise MoveError(f"{name!r} is not a CuBirds move: move names are plain ASCII "
                        f"(lay like R2L, draw, nodraw, flock:R, noflock, left, right)")
    low = s.lower()
    fixed = {"draw": MV_DRAW, "nodraw": MV_NODRAW, "noflock": MV_NOFLOCK,
             "left": MV_LEFT, "right": MV_RIGHT}
    if low in fixed:
        return fixed[low]
    m = re.fullmatch(r"(flock|card):([a-z])", low)
    if m:
        sp = m.group(2).upper()
        if sp not in LETTERS:
            raise MoveError(f"{name!r}: {sp!r} is not a species letter ({LETTERS})")
        return (MV_FLOCK if m.group(1) == "flock" else CARD) + LETTERS.index(sp)
    m = re.fullmatch(r"([a-z])([0-9]+)([lr])", low)
    if m:
        sp = m.group(1).upper()
        if sp not in LETTERS:
            raise MoveError(f"{name!r}: {sp!r} is not a species letter ({LETTERS})")
        row = int(m.group(2))
        if not 1 <= row <= 4 or m.group(2) != str(row):
            raise MoveError(f"{name!r}: rows are numbered 1..4, not {m.group(2)}")
        return LETTERS.index(sp) * 8 + (row - 1) * 2 + (m.group(3) == "r")
    raise MoveError(f"{name!r} is not a CuBirds move (lay like R2L, draw, nodraw, "
                    f"flock:R, noflock, left, right, or a card drawn like card:R)")


# ---------------------------------------------------------------------------- reading fields
def _fault(msg):
    raise PositionError(msg)


def _int_field(d, key, lo, hi):
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        _fault(f"{key!r} must be an integer, got {v!r}")
    if not lo <= v <= hi:
        _fault(f"{key!r} must be {lo}..{hi}, got {v}")
    return v


def _card_counts(v, where):
    if not isinstance(v, str):
        _fault(f"{where} must be a string of species letters, got {v!r}")
    counts = [0] * NSP
    for ch in v:
        if ch not in LETTERS:
            _fault(f"{where} ({v!r}): {ch!r} is not a species letter ({LETTERS})")
        counts[LETTERS.index(ch)] += 1
    return counts


def _str_list(d, key, n, default=None):
    if key not in d:
        return [default] * n
    v = d[key]
    if not isinstance(v, list):
        _fault(f"{key!r} must be a list of {n} strings, got {v!r}")
    if len(v) != n:
        _fault(f"{key!r} must list {n} entries (one per {'row' if key == 'rows' else 'player'}), "
               f"got {len(v)}")
    return v


def _deal_order_ok(sizes, dealer, n, full):
    """Sizes in deal order (dealer first) are full..full, then at most one partial, then 0."""
    seq = [sizes[(dealer + k) % n] for k in range(n)]
    i = 0
    while i < n and seq[i] == full:
        i += 1
    if i < n and 0 < seq[i] < full:
        i += 1
    return all(x == 0 for x in seq[i:]) and all(0 <= x <= full for x in seq)


def _read_fields(d):
    """The fields of the JSON object, each checked alone -> a dict of checked values (card
    zones as per-species counts; the texts kept as "texts" for messages)."""
    for k in d:
        if k not in REQUIRED and k not in OPTIONAL:
            _fault(f"unknown field {k!r} (fields: {', '.join(REQUIRED + OPTIONAL)})")
    for k in REQUIRED:
        if k not in d:
            _fault(f"missing field {k!r}")
    n = _int_field(d, "players", 2, 5)
    v = {"players": n, "dealer": _int_field(d, "dealer", 0, n - 1),
         "to_move": _int_field(d, "to_move", 0, n - 1)}
    phase = d["phase"]
    if phase not in PHASES:
        _fault(f"'phase' must be one of {', '.join(PHASES)}, got {phase!r}")
    v["phase"] = PHASES.index(phase)
    texts = {}
    for key, size, default in (("rows", NROWS, None), ("hands", n, None), ("known", n, ""),
                               ("lacks", n, ""), ("collections", n, None)):
        texts[key] = _str_list(d, key, size, default)
        v[key] = [_card_counts(t, f"{key}[{i}]") for i, t in enumerate(texts[key])]
    v["discard"] = _card_counts(d["discard"], "'discard'")
    v["deck"] = _card_counts(d["deck"], "'deck'")
    turn = d["turn"]
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        _fault(f"'turn' must be a non-negative integer, got {turn!r}")
    if turn > TURN_CAP:
        _fault(f"'turn' must be 0..{TURN_CAP} (the game ends after {TURN_CAP} turns), got {turn}")
    v["turn"] = turn
    v["texts"] = texts
    _read_phase_fields(d, phase, v)
    return v


def _read_phase_fields(d, phase, v):
    """pending, row, card, winners: present exactly in their phases, and in range."""
    n = v["players"]
    for key, phases in PHASE_FIELDS:
        if key in d and phase not in phases:
            _fault(f"field {key!r} belongs to phase {' or '.join(phases)}, not {phase!r}")
        if key not in d and phase in phases:
            _fault(f"phase {phase!r} needs the field {key!r}")
    v["pending"] = _int_field(d, "pending", 1, 2) if phase == "drawing" else 0
    v["row"] = _int_field(d, "row", 1, 4) - 1 if phase in ("filling", "complete") else -1
    v["card"] = -1
    if phase == "complete":
        cd = d["card"]
        if not isinstance(cd, str) or len(cd) != 1 or cd not in LETTERS:
            _fault(f"'card' must be one species letter ({LETTERS}), got {cd!r}")
        v["card"] = LETTERS.index(cd)
    v["winners"] = 0
    v["winner_list"] = None
    if phase == "over":
        w = d["winners"]
        if (not isinstance(w, list) or not w
                or any(isinstance(x, bool) or not isinstance(x, int) for x in w)
                or len(set(w)) != len(w) or any(not 0 <= x < n for x in w)):
            _fault(f"'winners' must be a non-empty list of distinct seats 0..{n - 1}, got {w!r}")
        v["winners"] = sum(1 << x for x in w)
        v["winner_list"] = w


# ---------------------------------------------------------------------------- the position
def _check_cards(v):
    """All 110 cards, each species its number of copies; known cards in their hands; lacks
    facts true of the hidden part."""
    tot = [0] * NSP
    for group in (v["rows"], v["hands"], v["collections"], [v["discard"]], [v["deck"]]):
        for cnt in group:
            for sp in range(NSP):
                tot[sp] += cnt[sp]
    if v["card"] >= 0:
        tot[v["card"]] += 1
    if sum(tot) != TOTAL:
        _fault(f"the position holds {sum(tot)} cards, not {TOTAL}")
    for sp in range(NSP):
        if tot[sp] != COPIES[sp]:
            _fault(f"there are {tot[sp]} {LETTERS[sp]} ({SPECIES_NAMES[sp]}) cards, not {COPIES[sp]}")
    lacks_texts = v["texts"]["lacks"]
    for q in range(v["players"]):
        hand, known, lacks = v["hands"][q], v["known"][q], v["lacks"][q]
        for sp in range(NSP):
            if known[sp] > hand[sp]:
                _fault(f"known[{q}] lists {known[sp]} {LETTERS[sp]} but hands[{q}] holds {hand[sp]}")
        for sp in range(NSP):
            if lacks[sp] > 1:
                _fault(f"lacks[{q}] ({lacks_texts[q]!r}) repeats {LETTERS[sp]}")
            if lacks[sp] and hand[sp] > known[sp]:
                _fault(f"lacks[{q}] says the unknown part of hand {q} holds no {LETTERS[sp]}, "
                       f"but it holds {hand[sp] - known[sp]}")


def _check_rows(v, phase):
    rows = v["texts"]["rows"]
    if phase == "setup":
        for r in range(NROWS):
            if len(rows[r]) > 3 or max(v["rows"][r]) > 1:
                _fault(f"rows[{r}] ({rows[r]!r}): during setup a row holds at most 3 different species")
            if r > 0 and len(rows[r]) and len(rows[r - 1]) < 3:
                _fault(f"rows[{r}] is being laid before rows[{r - 1}] is complete")
    else:
        for r in range(NROWS):
            if not rows[r]:
                _fault(f"rows[{r}] is empty: a row always holds cards after the setup")


def _check_end(v, phase):
    """The turn cap, a chance node's draw pile, and who has won."""
    n, colls = v["players"], v["collections"]
    if phase != "over" and v["turn"] >= TURN_CAP:
        _fault(f"'turn' is {v['turn']}: the game ends after {TURN_CAP} turns (phase must be 'over')")
    if phase in ("drawing", "filling", "deal", "setup") and sum(v["deck"]) == 0:
        _fault(f"phase {phase!r} draws a card but the draw pile is empty "
               f"(a reshuffle would already have merged the discard pile)")
    if phase != "over":
        for q in range(n):
            if wins(colls[q]):
                _fault(f"collections[{q}] ({v['texts']['collections'][q]!r}) already wins: "
                       "the phase must be 'over'")
        return
    # docs/rules/cubirds.md §4.6: a winning collection ends the game at once (only the player
    # on turn can complete one, so at most one does); otherwise the game ended by a failed
    # deal or the turn cap (§5.3, §5.4): the most collection cards win, ties share.
    winning = [q for q in range(n) if wins(colls[q])]
    if len(winning) > 1:
        _fault(f"collections {winning} all win: the game ends at the first winning collection")
    if winning:
        expect = winning
        why = f"collections[{winning[0]}] ({v['texts']['collections'][winning[0]]!r}) wins"
    else:
        csizes = [sum(cc) for cc in colls]
        most = max(csizes)
        expect = [q for q in range(n) if csizes[q] == most]
        why = f"no collection wins, so the most collection cards ({most}) win"
    if sorted(v["winner_list"]) != expect:
        _fault(f"'winners' is {v['winner_list']!r} but {why}: the winners are {expect}")


def _check_setup(v, sizes, csizes):
    n, dealer = v["players"], v["dealer"]
    if v["turn"]:
        _fault(f"'turn' is {v['turn']} during the setup")
    rows_done = all(len(r) == 3 for r in v["texts"]["rows"])
    if not rows_done and any(sizes):
        _fault("cards are dealt to hands before the rows are laid")
    if not _deal_order_ok(sizes, dealer, n, HAND):
        _fault(f"hand sizes {sizes} do not fit a deal of 8 each from the dealer in seat order")
    hands_done = all(x == HAND for x in sizes)
    if not hands_done and any(csizes):
        _fault("collection cards are dealt before the hands")
    if not _deal_order_ok(csizes, dealer, n, 1):
        _fault(f"collection sizes {csizes} do not fit the setup (one card each, dealer first)")
    if hands_done and all(x == 1 for x in csizes):
        _fault("the setup is complete: the phase must be 'lay'")


def _check_dealing(v, phase):
    """The setup and a redeal: the dealer is to move, nothing is known, the deal so far fits."""
    n = v["players"]
    sizes = [sum(h) for h in v["hands"]]
    if v["to_move"] != v["dealer"]:
        _fault(f"during the {phase}, 'to_move' must be the dealer ({v['dealer']}), got {v['to_move']}")
    for q in range(n):
        if v["texts"]["known"][q] or v["texts"]["lacks"][q]:
            _fault(f"during the {phase}, no card is known and no 'lacks' fact holds (player {q})")
    if phase == "setup":
        _check_setup(v, sizes, [sum(cc) for cc in v["collections"]])
        return
    if not _deal_order_ok(sizes, v["dealer"], n, HAND) or all(x == HAND for x in sizes):
        _fault(f"hand sizes {sizes} do not fit a deal in progress (8 each, dealer first)")
    piles = sum(v["deck"]) + sum(v["discard"])
    if piles < HAND * n - sum(sizes):
        _fault(f"the piles hold {piles} cards, too few to finish the deal")


def _check_turn(v, phase):
    """A round in progress: the hands and piles fit the phase."""
    n, player = v["players"], v["to_move"]
    sizes = [sum(h) for h in v["hands"]]
    for q in range(n):
        if q != player and sizes[q] == 0:
            _fault(f"hands[{q}] is empty in the middle of a round")
    if phase == "lay" and sizes[player] == 0:
        _fault(f"player {player} must lay but holds no cards")
    if phase == "draw" and sum(v["deck"]) + sum(v["discard"]) == 0:
        _fault("phase 'draw' but the draw and discard piles are both empty (no draw option)")
    if phase == "flock" and not any(v["hands"][player][sp] >= SMALL[sp] for sp in range(NSP)):
        _fault(f"phase 'flock' but hand {player} ({v['texts']['hands'][player]!r}) reaches no small flock")
    if phase in ("filling", "complete"):
        frow = v["row"]
        rr = v["texts"]["rows"][frow]
        if len(set(rr)) != 1:
            _fault(f"row {frow + 1} ({rr!r}) is being completed but holds more than one species")
        if phase == "complete" and LETTERS[v["card"]] == rr[0]:
            _fault(f"the completing card {LETTERS[v['card']]} is of row {frow + 1}'s species: "
                   "it would just join the row")


def _read_json(text):
    """The JSON object of a position text, or of the file it names."""
    if not isinstance(text, str):
        _fault("a CuBirds position must be text (a JSON object)")
    src = text.strip()
    if not src.startswith("{") and os.path.isfile(src):
        try:
            with open(src, encoding="utf-8") as f:
                src = f.read().strip()
        except OSError as exc:
            _fault(f"cannot read the position file {text!r}: {exc.strerror}")
        except UnicodeDecodeError:
            _fault(f"the position file {text!r} is not a text file (UTF-8 JSON)")
    elif not src.startswith(("{", "[")) and 0 < len(src) < 4096 and "\n" not in src:
        try:
            json.loads(src)
        except ValueError:
            _fault(f"the position is not valid JSON, nor the path of a file: no such file {text!r}")
    try:
        d = json.loads(src)
    except ValueError as exc:
        _fault(f"the position is not valid JSON: {exc}")
    except RecursionError:
        _fault("the position is not a CuBirds position: its JSON is nested too deeply")
    if not isinstance(d, dict):
        _fault("a CuBirds position is a JSON object {\"players\": ..., ...}")
    return d


def _deal_slots(owners, may_hold, left):
    """A species for each unknown slot (``owners[i]``: the hand of slot i) that its hand
    may hold (``may_hold[q][sp]``), taking at most ``left[sp]`` of each species (``left``
    is reduced by what is dealt); None when no deal fits.  A matching with augmenting
    paths: a slot takes the most plentiful species left, else moves another slot off one."""
    taken = [None] * len(owners)

    def place(i, visited):
        choices = sorted((sp for sp in range(NSP) if may_hold[owners[i]][sp]),
                         key=lambda sp: (-left[sp], sp))
        for sp in choices:
            if left[sp] > 0:
                left[sp] -= 1
                taken[i] = sp
                return True
        for sp in choices:
            if sp in visited:
                continue
            visited.add(sp)
            for j, other in enumerate(taken):
                # every species i may hold is used up (left 0): j hands its card of sp to
                # i if j can take another species
                if other == sp and j != i:
                    taken[j] = None
                    if place(j, visited):
                        taken[i] = sp
                        return True
                    taken[j] = sp
        return False

    for i in range(len(owners)):
        if not place(i, set()):
            return None
    return taken


def _from_view(d):
    """A seat's view (``view_text``: ``"observer"``, the others' unknown cards as ``?``, the
    draw pile as a count, ``"unseen"`` the cards the seat cannot place) -> a full position
    that agrees with it: the unseen cards dealt into the unknown hand slots in a fixed way
    (each slot the most plentiful unseen species its hand may hold; the rest make the pile).
    Which unseen card is where is exactly what the seat does not know, so a searcher that
    reads the result as that seat redraws it anyway (State.determinized)."""
    d = dict(d)
    if "players" not in d:
        _fault("missing field 'players'")
    n = _int_field(d, "players", 2, 5)
    observer = _int_field(d, "observer", 0, n - 1)
    pile = d.get("deck")
    if isinstance(pile, bool) or not isinstance(pile, int) or pile < 0:
        _fault(f"a view's 'deck' is the number of cards in the draw pile, got {pile!r}")
    if not isinstance(d.get("unseen"), str):
        _fault("a view needs 'unseen': the cards its seat cannot place, as species letters")
    unseen = _card_counts(d["unseen"], "unseen")
    hands = _str_list(d, "hands", n)
    lacks = [_card_counts(x, f"lacks[{q}]") for q, x in enumerate(_str_list(d, "lacks", n, ""))]
    known = _str_list(d, "known", n, "")
    slots = []
    for q, hand in enumerate(hands):
        if not isinstance(hand, str):
            _fault(f"hands[{q}] must be a string, got {hand!r}")
        seen = hand.rstrip("?")
        if "?" in seen or (q == observer and seen != hand):
            _fault(f"hands[{q}] ({hand!r}): in a view only another seat's hand ends in '?', one "
                   "per card its seat has not seen")
        if q != observer and _card_counts(seen, f"hands[{q}]") != _card_counts(known[q] or "", f"known[{q}]"):
            _fault(f"hands[{q}] ({hand!r}) must list the known cards {known[q]!r}, then '?'s")
        slots.append(len(hand) - len(seen))
    if sum(slots) + pile != sum(unseen):
        _fault(f"the view's {sum(slots)} unknown hand cards and {pile} pile cards are not its "
               f"{sum(unseen)} unseen cards")
    left = list(unseen)
    dealt = [""] * n
    mover = d.get("to_move")
    if d.get("phase") == "flock" and mover in range(n) and mover != observer:
        # the mover's hand reaches a small flock (else it would not be asked to flock)
        have = _card_counts(known[mover] or "", f"known[{mover}]")
        fits = [(max(0, SMALL[sp] - have[sp]), -left[sp], sp) for sp in range(NSP)
                if max(0, SMALL[sp] - have[sp]) <= min(slots[mover], left[sp])
                and not (lacks[mover][sp] and SMALL[sp] > have[sp])]
        if not fits:
            _fault(f"phase 'flock', but no deal of the unseen cards lets hand {mover} reach a small flock")
        need, _, sp = min(fits)
        left[sp] -= need
        slots[mover] -= need
        dealt[mover] = LETTERS[sp] * need
    owners = [q for q in range(n) for _ in range(slots[q])]
    species = _deal_slots(owners, [[not lk[sp] for sp in range(NSP)] for lk in lacks], left)
    if species is None:
        _fault("no deal of the unseen cards fits the unknown hand cards and what each hand lacks")
    for q, sp in zip(owners, species):
        dealt[q] += LETTERS[sp]
    for q in range(n):
        hands[q] = hands[q].rstrip("?") + dealt[q]
    d["hands"] = hands
    d["deck"] = letters(left)
    del d["observer"], d["unseen"]
    return d


def parse_position(cls, text):
    """The JSON position of docs/rules/cubirds.md §9 (or the path of a file holding it) ->
    cls._load(...), or PositionError naming the first fault.  A seat's view (``view_text``,
    §7.4) parses too, its hidden cards dealt as ``_from_view`` says."""
    d = _read_json(text)
    if "observer" in d:
        d = _from_view(d)
    v = _read_fields(d)
    phase = PHASES[v["phase"]]
    _check_cards(v)
    _check_rows(v, phase)
    _check_end(v, phase)
    if phase in ("setup", "deal"):
        _check_dealing(v, phase)
    elif phase != "over":
        _check_turn(v, phase)
    v["rows"] = [[LETTERS.index(ch) for ch in r] for r in v["texts"]["rows"]]
    v["lacks"] = [sum(1 << sp for sp in range(NSP) if lk[sp]) for lk in v["lacks"]]
    return cls._load(v)


def position_dict(p):
    """The JSON object of a position, from Cubirds._raw()."""
    n = p["players"]
    d = {"players": n, "dealer": p["dealer"], "to_move": p["to_move"],
         "phase": PHASES[p["phase"]], "rows": [row_letters(r) for r in p["rows"]],
         "hands": [letters(h) for h in p["hands"]],
         "known": [letters(k) for k in p["known"]],
         "lacks": [mask_letters(m) for m in p["lacks"]],
         "collections": [letters(c) for c in p["collections"]],
         "discard": letters(p["discard"]), "deck": letters(p["deck"]), "turn": p["turn"]}
    phase = d["phase"]
    if phase == "drawing":
        d["pending"] = p["pending"]
    if phase in ("filling", "complete"):
        d["row"] = p["row"] + 1
    if phase == "complete":
        d["card"] = LETTERS[p["card"]]
    if phase == "over":
        d["winners"] = [q for q in range(n) if p["winners"] & (1 << q)]
    return d


def position_text(p):
    return json.dumps(position_dict(p))


def view_text(p, observer):
    """What seat ``observer`` sees (Cubirds.view)."""
    n = p["players"]
    if isinstance(observer, bool) or not isinstance(observer, int) or not 0 <= observer < n:
        raise GameError(f"observer must be a seat 0..{n - 1}, not {observer!r}")
    d = position_dict(p)
    hands = []
    unseen = list(p["deck"])
    for q in range(n):
        if q == observer:
            hands.append(d["hands"][q])
            continue
        unknown = sum(p["hands"][q]) - sum(p["known"][q])
        for s in range(NSP):
            unseen[s] += p["hands"][q][s] - p["known"][q][s]
        hands.append(d["known"][q] + "?" * unknown)
    out = {"players": n, "observer": observer}
    for k, v in d.items():
        if k == "players":
            continue
        if k == "hands":
            v = hands
        elif k == "deck":
            v = sum(p["deck"])
        out[k] = v
        if k == "deck":
            out["unseen"] = letters(unseen)
    return json.dumps(out)


def ending(raw):
    """Why the game of ``raw`` (Cubirds._raw()) ended, ``{"reason", "detail"}``:
    ``collection`` (a winning collection, rules "A turn" 5), ``deal`` (the cards ran out
    for a deal) or ``cap`` (the turn cap), the last two won by the most collection cards
    (rules "The draw pile"); None while it goes on."""
    if PHASES[raw["phase"]] != "over":
        return None
    colls = raw["collections"]
    for q, counts in enumerate(colls):
        if wins(counts):
            how = ("7 species" if sum(1 for x in counts if x) >= 7
                   else "3 cards of each of 2 species")
            return {"reason": "collection", "detail": f"seat {q}'s collection holds {how}"}
    most = max(sum(c) for c in colls)
    if raw["turn"] >= TURN_CAP:
        return {"reason": "cap", "detail": f"the {TURN_CAP}-turn cap: the most collection "
                f"cards ({most}) win"}
    return {"reason": "deal", "detail": f"too few cards for a deal: the most collection "
            f"cards ({most}) win"}
