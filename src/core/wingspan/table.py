"""The table where a turn starts (or the deal, or the end of the game), written as the game
names it, and read back (docs/rules/wingspan-text.md).

Writing turns the struct's fields (``Wingspan._raw()``, position.pyx) into an ordered dict:
birds, bonus cards and goals by name, food by its word, the feeder's faces, each seat's mat,
hand, bonus cards, food and cubes.  With an observer, what that seat has not seen is left
out (the decks, the RNG) or written ``?``.

Reading does the inverse into the JSON form's dict (jsonform.py), where the rules' consistency
is checked once for both forms: every name is looked up (a wrong one is refused with the
nearest real names), the cards nobody named (the deck when it is left out, and the ``?``
places) are dealt from the unseen ones in an order drawn from the position's seed, and the
seed itself, when left out, is a hash of the table."""
import json
import random

from roost.core.wingspan import jsonform
from roost.core.wingspan import names as N
from roost.core.wingspan.names import fault, show
from roost.core.wingspan.tables import (
    NB, NBON, MAXP, MAXEP, MAXBEP, TAG_P, L_DECK, L_DISC, L_TRAY, L_HAND, L_MAT, L_TUCK, TK_P,
    TK_H, TK_D, B_DECK, B_DISC, B_HELD, PH_SETUP, PH_PLAY, PH_OVER, BIRD_NAMES, BONUS_NAMES,
    BIRDS)

HIDDEN = "?"
# the keys of a position, in the order they are written; the optional ones may be left out
KEYS = ("game", "players", "board", "goals", "round", "turn", "goal scores", "feeder", "tray",
        "discard", "reshuffles", "deck", "bonus discard", "bonus reshuffles", "bonus deck",
        "seed", "seen by", "seats", "moves")
OPTIONAL = ("goal scores", "discard", "reshuffles", "deck", "bonus discard", "bonus reshuffles",
            "bonus deck", "seed", "seen by", "moves")
SEAT_KEYS = ("forest", "grassland", "wetland", "food", "cubes", "hand", "bonus", "pink used")
SEAT_OPTIONAL = ("forest", "grassland", "wetland", "food", "hand", "bonus", "pink used")
BIRD_KEYS = ("bird", "eggs", "cache", "tucked")
GAME = "wingspan"


# ---------------------------------------------------------------------------- writing
def _epoch_note(e, notes=()):
    notes = list(notes) + ([f"deck {e}"] if e else [])
    return f" ({', '.join(notes)})" if notes else ""


def _card(b, notes=()):
    return (BIRD_NAMES[b] if b >= 0 else HIDDEN) + (f" ({', '.join(notes)})" if notes else "")


def _hand_entry(b, tag, hidden):
    if tag == TAG_P:
        return _card(b, ["shown"])
    return (HIDDEN if hidden else BIRD_NAMES[b]) + _epoch_note(tag)


def _tuck_entry(b, kind, tag, hidden):
    if kind == TK_P:
        return _card(b, ["shown"])
    notes = ["from deck"] if kind == TK_D else []
    return (HIDDEN if hidden else BIRD_NAMES[b]) + _epoch_note(tag, notes)


def _bonus_entry(b, tag, who=None, hidden=False):
    notes = [f"seat {who}"] if who is not None else []
    return (HIDDEN if hidden else BONUS_NAMES[b]) + _epoch_note(tag, notes)


def _counts(counts):
    return {N.FOOD_NAMES[t]: counts[t] for t in range(5) if counts[t]}


def _sorted_entries(entries):
    """Named cards first (by name), then the hidden ones (by their notes)."""
    return sorted(entries, key=lambda e: (e.startswith(HIDDEN), e))


def write(raw, observer=None):
    """The table of ``raw`` (a position at a turn's start, the deal or the end) as an ordered
    dict; with ``observer``, as that seat sees it."""
    n = raw["n"]
    hide = observer is not None
    tucks = {}
    for b in range(NB):
        if raw["cloc"][b] == L_TUCK:
            tucks.setdefault((raw["cown"][b], raw["cslot"][b]), []).append(b)
    d = {"game": GAME, "players": n, "board": N.BOARD_SIDES[raw["side"]],
         "goals": [N.GOAL_NAMES[g] for g in raw["goals"]], "round": raw["round"],
         "turn": {PH_SETUP: "setup", PH_PLAY: raw["cur"], PH_OVER: "over"}[raw["phase"]]}
    if raw["goal_pts"]:
        d["goal scores"] = [list(row) for row in raw["goal_pts"]]
    d["feeder"] = [N.FACE_NAMES[f] for f in range(6) for _ in range(raw["fd"][f])]
    d["tray"] = [BIRD_NAMES[b] if b >= 0 else None for b in raw["tray"]]
    if raw["discard"]:
        d["discard"] = [BIRD_NAMES[b] for b in raw["discard"]]
    if raw["forms"]:
        d["reshuffles"] = [[BIRD_NAMES[b] for b in form] for form in raw["forms"]]
    if not hide:
        d["deck"] = [BIRD_NAMES[b] for b in reversed(raw["deck"])]
    if raw["bdiscard"]:
        d["bonus discard"] = [_bonus_entry(b, raw["btag"][b], raw["bown"][b], hide and raw["bown"][b] != observer)
                              for b in raw["bdiscard"]]
    if raw["bforms"]:
        d["bonus reshuffles"] = [[_bonus_entry(b, tag, who, hide and who != observer) for b, tag, who in form]
                                 for form in raw["bforms"]]
    if not hide:
        d["bonus deck"] = [BONUS_NAMES[b] for b in reversed(raw["bdeck"])]
        d["seed"] = f"{raw['rng']:016x}"
    else:
        d["seen by"] = observer
    d["seats"] = [_seat(raw, p, tucks, observer) for p in range(n)]
    return d


def _seat(raw, p, tucks, observer):
    P = raw["players"][p]
    mine = observer is None or observer == p
    seat = {}
    for h, word in enumerate(N.HABITAT_NAMES):
        row = []
        for col in range(P["rows"][h]):
            slot = 5 * h + col
            b = P["bird"][slot]
            tucked = [_tuck_entry(t, raw["ctk"][t], raw["ctag"][t],
                                  raw["ctk"][t] == TK_D or (raw["ctk"][t] == TK_H and not mine))
                      for t in tucks.get((p, slot), [])]
            if not P["egg"][slot] and not any(P["cache"][slot]) and not tucked:
                row.append(BIRD_NAMES[b])
                continue
            bird = {"bird": BIRD_NAMES[b]}
            if P["egg"][slot]:
                bird["eggs"] = P["egg"][slot]
            if any(P["cache"][slot]):
                bird["cache"] = _counts(P["cache"][slot])
            if tucked:
                bird["tucked"] = _sorted_entries(tucked)
            row.append(bird)
        if row:
            seat[word] = row
    if any(P["food"]):
        seat["food"] = _counts(P["food"])
    seat["cubes"] = P["cubes"]
    hand = [_hand_entry(b, raw["ctag"][b], not mine and raw["ctag"][b] != TAG_P) for b in P["hand"]]
    if hand:
        seat["hand"] = _sorted_entries(hand)
    bonus = [_bonus_entry(b, raw["btag"][b], hidden=not mine)
             for b in range(NBON) if raw["bloc"][b] == B_HELD and raw["bown"][b] == p]
    if bonus:
        seat["bonus"] = _sorted_entries(bonus)
    used = [BIRD_NAMES[P["bird"][s]] for s in range(15) if (P["pink_used"] >> s) & 1]
    if used:
        seat["pink used"] = used
    return seat


# ---------------------------------------------------------------------------- reading: shapes
def _obj(v, where, keys, optional):
    """A JSON object whose keys are matched forgivingly ('goal_scores' is 'goal scores');
    returns it keyed by the canonical names."""
    if not isinstance(v, dict):
        fault(f"{where} must be an object, got {show(v)}")
    canon = {N.key(k): k for k in keys}
    out = {}
    for k, x in v.items():
        c = canon.get(N.key(k)) if isinstance(k, str) else None
        if c is None:
            fault(f"{where} has an unknown key {k!r} (keys: {', '.join(keys)})")
        if c in out:
            fault(f"{where} names the key {c!r} twice")
        out[c] = x
    for k in keys:
        if k not in out and k not in optional:
            fault(f"{where} misses the key {k!r}")
    return out


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v, where, lo, hi):
    if not _is_int(v):
        fault(f"{where} must be a whole number, got {show(v)}")
    if not lo <= v <= hi:
        fault(f"{where} must be {lo}..{hi}, got {show(v)}")
    return v


def _list(v, where, lo=0, hi=None):
    if not isinstance(v, list):
        fault(f"{where} must be a list, got {show(v)}")
    if len(v) < lo or (hi is not None and len(v) > hi):
        fault(f"{where} must have {lo} entries, got {len(v)}" if lo == hi else
              f"{where} must have {lo}..{hi} entries, got {len(v)}")
    return v


def _food_counts(v, where):
    counts = [0] * 5
    if not isinstance(v, dict):
        fault(f"{where} must be an object of food counts like {{\"seed\": 2, \"fish\": 1}}, got {show(v)}")
    for k, x in v.items():
        t = N.food(k, f"{where} key")
        if counts[t]:
            fault(f"{where} names {N.FOOD_NAMES[t]} twice")
        counts[t] = _int(x, f"{where}.{N.FOOD_NAMES[t]}", 0, 9999)
    return counts


def _epoch(notes, where, text, most):
    """The 'deck N' note of an entry (0 when none): drawn from the deck as reshuffled the
    N-th time (at most ``most``)."""
    e = 0
    for note in notes:
        k = N.number_note(note, "deck")
        if k is not None:
            if k > most:
                fault(f"{where}: {text!r} names deck {k}, but that deck has been reshuffled "
                      f"{most} time(s) here")
            e = k
    return e


def _notes_only(notes, allowed, where, text):
    for note in notes:
        head = note.split(" ")[0]
        if note not in allowed and head not in allowed:
            fault(f"{where}: {text!r} has a note {note!r} that means nothing here "
                  f"(notes: {', '.join(allowed)})")


# ---------------------------------------------------------------------------- reading: the parts
class _Reader:
    """One table read into the JSON form's dict (``self.d``), cards still unseen left as -1."""

    def __init__(self, top):
        self.top = top
        self.places = {}                # bird id -> where the text names it
        self.bplaces = {}               # bonus id -> where
        self.hidden = []                # (epoch, container, index) of '?' bird places
        self.bhidden = []               # (epoch, container, index) of '?' bonus places
        self.dealt = set()              # the birds and bonus cards dealt to unnamed places
        self.bdealt = set()

    def name_bird(self, b, where):
        if b in self.places:
            fault(f"{BIRD_NAMES[b]} is in two places: {self.places[b]} and {where}")
        self.places[b] = where

    def name_bonus(self, b, where):
        if b in self.bplaces:
            fault(f"the bonus card {BONUS_NAMES[b]} is in two places: {self.bplaces[b]} and {where}")
        self.bplaces[b] = where

    # -- the header
    def header(self):
        t = self.top
        if t["game"] != GAME:
            fault(f"'game' must be \"{GAME}\", got {show(t['game'])}")
        n = _int(t["players"], "'players'", 1, MAXP)
        side = N.board_side(t["board"], "'board'")
        goals = [N.goal(g, f"goals[{r}]") for r, g in enumerate(_list(t["goals"], "'goals'", 4, 4))]
        tiles = [g // 2 for g in goals]
        for r in range(4):
            if tiles[r] in tiles[:r]:
                fault(f"goals[{r}] {N.GOAL_NAMES[goals[r]]!r} is the other side of the tile of goals"
                      f"[{tiles.index(tiles[r])}]: the 4 goals are on 4 different tiles")
        turn = t["turn"]
        if turn == "setup":
            phase = PH_SETUP
        elif turn == "over":
            phase = PH_OVER
        elif _is_int(turn) and 0 <= turn < n:
            phase = PH_PLAY
        else:
            fault(f"'turn' must be the seat to play (0..{n - 1}), \"setup\" or \"over\", got {show(turn)}")
        rnd = _int(t["round"], "'round'", 1, 4)
        if phase == PH_SETUP and rnd != 1:
            fault(f"during the setup 'round' is 1, got {rnd}")
        if phase == PH_OVER and rnd != 4:
            fault(f"a finished game is in round 4, got {rnd}")
        scored = {PH_SETUP: 0, PH_PLAY: rnd - 1, PH_OVER: 4}[phase]
        pts = _list(t.get("goal scores", []), "'goal scores'")
        if len(pts) != scored:
            fault(f"'goal scores' must hold the {scored} round(s) scored so far, got {len(pts)}")
        for r, row in enumerate(pts):
            for p, x in enumerate(_list(row, f"goal scores[{r}]", n, n)):
                _int(x, f"goal scores[{r}][{p}]", 0, 7)
        self.n, self.phase = n, phase
        first = 0 if phase == PH_SETUP else (3 % n if phase == PH_OVER else (rnd - 1) % n)
        self.d = {"game": "wingspan-core", "v": 1, "n": n, "side": ("green", "blue")[side], "goals": goals,
                  "phase": ("setup", "play", "over")[phase], "round": rnd, "first": first,
                  "t": 0, "cur": turn if phase == PH_PLAY else 0, "deck": [], "deck_epoch": 0,
                  "deck_forms": [], "discard": [], "tray": [], "feeder": [], "bonus_deck": [],
                  "bonus_epoch": 0, "bonus_forms": [], "bonus_discard": [], "goal_pts": [list(r) for r in pts],
                  "draft": [], "players": [], "stack": [], "rng": "0" * 16}

    # -- the bird piles
    def piles(self):
        t, d = self.top, self.d
        faces = [N.face(f, f"feeder[{i}]") for i, f in enumerate(_list(t["feeder"], "'feeder'", 1, 5))]
        d["feeder"] = sorted(faces)
        tray = []
        for i, x in enumerate(_list(t["tray"], "'tray'", 3, 3)):
            if x is None or x == "":
                tray.append(-1)
                continue
            b = N.bird(x, f"tray[{i}]")
            self.name_bird(b, f"tray[{i}]")
            tray.append(b)
        d["tray"] = tray
        for i, x in enumerate(_list(t.get("discard", []), "'discard'", 0, NB)):
            b = N.bird(x, f"discard[{i}]")
            self.name_bird(b, f"discard[{i}]")
            d["discard"].append(b)
        forms = _list(t.get("reshuffles", []), "'reshuffles'", 0, MAXEP - 1)
        for e, form in enumerate(forms):
            cards = [N.bird(x, f"reshuffles[{e}][{i}]") for i, x in enumerate(_list(form, f"reshuffles[{e}]", 1, NB))]
            if len(set(cards)) != len(cards):
                fault(f"reshuffles[{e}] names a bird twice")
            d["deck_forms"].append(cards)
        d["deck_epoch"] = self.depoch = len(forms)
        self.deck_given = "deck" in t
        if self.deck_given:
            for i, x in enumerate(_list(t["deck"], "'deck'", 0, NB)):
                b = N.bird(x, f"deck[{i}]")
                self.name_bird(b, f"deck[{i}]")
                d["deck"].append(b)

    # -- the bonus piles
    def bonus_piles(self):
        t, d, n = self.top, self.d, self.n
        bforms = _list(t.get("bonus reshuffles", []), "'bonus reshuffles'", 0, MAXBEP)
        self.bepoch = d["bonus_epoch"] = len(bforms)
        for e, form in enumerate(bforms):
            entries = [self.bonus_discard_entry(x, f"bonus reshuffles[{e}][{i}]", e)
                       for i, x in enumerate(_list(form, f"bonus reshuffles[{e}]", 1, NBON))]
            named = [b for b, _, _ in entries if b >= 0]
            if len(set(named)) != len(named):
                fault(f"bonus reshuffles[{e}] names a bonus card twice")
            d["bonus_forms"].append([list(x) for x in entries])
        for i, x in enumerate(_list(t.get("bonus discard", []), "'bonus discard'", 0, NBON)):
            b, tag, who = self.bonus_discard_entry(x, f"bonus discard[{i}]", self.bepoch)
            if b >= 0:
                self.name_bonus(b, f"bonus discard[{i}]")
            d["bonus_discard"].append([b, tag, who])
            if b < 0:
                self.bhidden.append((tag, d["bonus_discard"][-1], 0))
        self.bdeck_given = "bonus deck" in t
        if self.bdeck_given:
            for i, x in enumerate(_list(t["bonus deck"], "'bonus deck'", 0, NBON)):
                b = N.bonus(x, f"bonus deck[{i}]")
                self.name_bonus(b, f"bonus deck[{i}]")
                d["bonus_deck"].append(b)

    def bonus_discard_entry(self, x, where, most):
        name, notes = N.split_notes(x, where)
        _notes_only(notes, ("seat", "deck"), where, x)
        whos = [N.number_note(note, "seat") for note in notes if note.startswith("seat")]
        if len(whos) != 1 or whos[0] is None:
            fault(f"{where}: {x!r} must say who discarded it, as in \"{name} (seat 1)\"")
        who = whos[0]
        if who >= self.n:
            fault(f"{where}: {x!r}: there is no seat {who} ({self.n} players)")
        tag = _epoch(notes, where, x, most)
        b = -1 if name == HIDDEN else N.bonus(name, where)
        return (b, tag, who)

    # -- the seats
    def seats(self):
        t, n = self.top, self.n
        seats = _list(t["seats"], "'seats'", n, n)
        for p, sd in enumerate(seats):
            self.d["players"].append(self.seat(_obj(sd, f"seats[{p}]", SEAT_KEYS, SEAT_OPTIONAL), p))

    def seat(self, sd, p):
        w = f"seats[{p}]"
        food = _food_counts(sd.get("food", {}), f"{w}.food")
        cubes = _int(sd["cubes"], f"{w}.cubes", 0, 8)
        mat = []
        for h, word in enumerate(N.HABITAT_NAMES):
            row = _list(sd.get(word, []), f"{w}.{word}", 0, 5)
            mat.append([self.mat_bird(x, f"{w}.{word}[{col}]", p, h) for col, x in enumerate(row)])
        hand = []
        for i, x in enumerate(_list(sd.get("hand", []), f"{w}.hand", 0, NB)):
            where = f"{w}.hand[{i}]"
            name, notes = N.split_notes(x, where)
            _notes_only(notes, ("shown", "deck"), where, x)
            shown = "shown" in notes
            if shown and any(note.startswith("deck") for note in notes):
                fault(f"{where}: {x!r}: a card shown to all (taken from the tray) has no deck number")
            if name == HIDDEN:
                if shown:
                    fault(f"{where}: a card shown to all is named, not {HIDDEN!r}")
                hand.append([-1, _epoch(notes, where, x, self.depoch)])
                self.hidden.append((hand[-1][1], hand[-1], 0))
                continue
            b = N.bird(name, where)
            self.name_bird(b, where)
            hand.append([b, "p" if shown else _epoch(notes, where, x, self.depoch)])
        bonus = []
        for i, x in enumerate(_list(sd.get("bonus", []), f"{w}.bonus", 0, NBON)):
            where = f"{w}.bonus[{i}]"
            name, notes = N.split_notes(x, where)
            _notes_only(notes, ("deck",), where, x)
            tag = _epoch(notes, where, x, self.bepoch)
            if name == HIDDEN:
                bonus.append([-1, tag])
                self.bhidden.append((tag, bonus[-1], 0))
                continue
            b = N.bonus(name, where)
            self.name_bonus(b, where)
            bonus.append([b, tag])
        pink = []
        for i, x in enumerate(_list(sd.get("pink used", []), f"{w}.pink used", 0, 15)):
            b = N.bird(x, f"{w}.pink used[{i}]")
            slots = [5 * h + col for h, row in enumerate(mat) for col, bd in enumerate(row) if bd["id"] == b]
            if not slots:
                fault(f"{w}.pink used: {BIRD_NAMES[b]} is not on this seat's mat")
            if BIRDS[b]["colour"] != "pink":
                fault(f"{w}.pink used: {BIRD_NAMES[b]} has no pink power")
            if slots[0] in pink:
                fault(f"{w}.pink used names {BIRD_NAMES[b]} twice")
            pink.append(slots[0])
        return {"hand": hand, "bonus": bonus, "food": food, "cubes": cubes, "mat": mat,
                "pink_used": sorted(pink), "owe": 0}

    def mat_bird(self, x, where, p, h):
        if isinstance(x, str):
            x = {"bird": x}
        bd = _obj(x, where, BIRD_KEYS, ("eggs", "cache", "tucked"))
        b = N.bird(bd["bird"], f"{where}.bird")
        if h not in BIRDS[b]["hab"]:
            fault(f"{where}: {BIRD_NAMES[b]} does not live in the {N.HABITAT_NAMES[h]} "
                  f"(its habitats: {', '.join(N.HABITAT_NAMES[k] for k in BIRDS[b]['hab'])})")
        self.name_bird(b, where)
        eggs = _int(bd.get("eggs", 0), f"{where}.eggs ({BIRD_NAMES[b]} holds at most {BIRDS[b]['eggs']})",
                    0, BIRDS[b]["eggs"])
        cache = _food_counts(bd.get("cache", {}), f"{where}.cache")
        tucked = bd.get("tucked", [])
        entries = []
        if _is_int(tucked):
            for _ in range(_int(tucked, f"{where}.tucked", 0, NB)):
                entries.append([-1, "d0" if not self.depoch else f"d{self.depoch}"])
        else:
            for i, t in enumerate(_list(tucked, f"{where}.tucked", 0, NB)):
                tw = f"{where}.tucked[{i}]"
                name, notes = N.split_notes(t, tw)
                _notes_only(notes, ("shown", "from hand", "from deck", "deck"), tw, t)
                if "shown" in notes:
                    if name == HIDDEN:
                        fault(f"{tw}: a card shown to all is named, not {HIDDEN!r}")
                    if len(notes) > 1:
                        fault(f"{tw}: {t!r}: a card tucked face up has no other note")
                    tag = "p"
                else:
                    kind = "d" if "from deck" in notes else "h"
                    tag = f"{kind}{_epoch(notes, tw, t, self.depoch)}"
                if name == HIDDEN:
                    entries.append([-1, tag])
                    continue
                tb = N.bird(name, tw)
                self.name_bird(tb, tw)
                entries.append([tb, tag])
        for ent in entries:
            if ent[0] < 0:
                self.hidden.append((int(ent[1][1:]), ent, 0))
        return {"id": b, "egg": eggs, "cache": cache, "tuck": entries}

    # -- turn, cubes, the stack
    def turn(self):
        d, n, ph = self.d, self.n, self.phase
        cubes = [pl["cubes"] for pl in d["players"]]
        if ph == PH_SETUP:
            self.the_deal()
            d["stack"] = [{"f": "SETUP", "seat": 0, "stage": "keep", "i": 0}]
            return
        if ph == PH_OVER:
            for p, c in enumerate(cubes):
                if c:
                    fault(f"seats[{p}].cubes: once the game is over no cube is left, got {c}")
            d["t"], d["cur"] = 5 * n, (3 % n + 5 * n - 1) % n
            return
        rnd, first, cur = d["round"], d["first"], d["cur"]
        done = [(9 - rnd) - c for c in cubes]
        t = sum(done)
        want = [sum(1 for k in range(t) if (first + k) % n == p) for p in range(n)]
        if any(x < 0 for x in done) or done != want or (first + t) % n != cur:
            # say what the cubes of a table with this seat to play would be
            k = (cur - first) % n
            example = [(9 - rnd) - (1 if (p - first) % n < k else 0) for p in range(n)]
            fault(f"the cubes {cubes} do not fit round {rnd} with seat {cur} to play: each seat has "
                  f"{9 - rnd} cubes at the round's start and spends one a turn, from seat {first} on "
                  f"(at the start of seat {cur}'s first turn of the round: {example})")
        d["t"] = t
        d["stack"] = [{"f": "TURN", "seat": cur}, {"f": "ACT", "seat": cur}]


    def the_deal(self):
        """A setup position is the deal (§1.3): the setup's choices are its moves."""
        d = self.d
        if d["discard"] or d["deck_forms"] or d["bonus_discard"] or d["bonus_forms"]:
            fault("during the setup nothing has been discarded or reshuffled yet: no discard, "
                  "reshuffles, bonus discard or bonus reshuffles")
        if min(d["tray"]) < 0:
            fault("during the setup the tray holds 3 birds")
        for p, pl in enumerate(d["players"]):
            w = f"seats[{p}]"
            if len(pl["hand"]) != 5 or any(tag != 0 for _, tag in pl["hand"]):
                fault(f"{w}.hand: during the setup a seat holds the 5 birds dealt to it (none shown)")
            if len(pl["bonus"]) != 2:
                fault(f"{w}.bonus: during the setup a seat holds the 2 bonus cards dealt to it")
            if pl["food"] != [1, 1, 1, 1, 1]:
                fault(f"{w}.food: during the setup a seat holds one food of each kind")
            if pl["cubes"] != 8 or any(pl["mat"]):
                fault(f"{w}: during the setup a seat has 8 cubes and no bird on its mat")


# ---------------------------------------------------------------------------- dealing the unseen
def _formation_of(forms):
    out = {}
    for e, form in enumerate(forms, 1):
        for b in form:
            out[b] = e
    return out


def _deal_birds(r, rnd):
    """The birds the text names nowhere go, epoch by epoch (the last reshuffle that holds a
    card, 0 for none: §6.4), to the '?' places of that epoch and, when the deck is left out,
    to the deck of the last one, in an order drawn from ``rnd``."""
    d = r.d
    form = _formation_of(d["deck_forms"])
    unseen = {}
    for b in range(NB):
        if b not in r.places:
            unseen.setdefault(form.get(b, 0), []).append(b)
    places = {}
    for e, box, k in r.hidden:
        places.setdefault(e, []).append((box, k))
    if not r.deck_given:
        free = len(unseen.get(r.depoch, [])) - len(places.get(r.depoch, []))
        d["deck"] = [-1] * max(free, 0)
        places.setdefault(r.depoch, [])[:0] = [(d["deck"], i) for i in range(len(d["deck"]))]
    for e in sorted(set(unseen) | set(places)):
        cards, slots = unseen.get(e, []), places.get(e, [])
        if len(cards) != len(slots):
            what = "deck " + str(e) if e else "the first deck"
            if r.deck_given and not slots:
                fault(f"{', '.join(BIRD_NAMES[b] for b in cards[:5])}{' ...' if len(cards) > 5 else ''} "
                      f"named nowhere: every bird is in one place (the deck, the tray, the discard pile, "
                      f"a hand, a mat or tucked under a bird)")
            fault(f"{len(slots)} unseen bird places of {what} (the deck, '?' hand cards and tucks) "
                  f"for the {len(cards)} birds of {what} named nowhere: every bird is in one place")
        rnd.shuffle(cards)
        for (box, k), b in zip(slots, cards):
            box[k] = b
        r.dealt.update(cards)


def _deal_bonus(r, rnd):
    """The bonus cards the text names nowhere, epoch by epoch (§6.4): the cards of an epoch's
    deck (all 26 for the first, a reshuffle's cards after it) less those named as drawn from
    it go to its '?' places (held, discarded, in a later reshuffle) and, when the bonus deck
    is left out, to the deck of the last; a card named in a later reshuffle or drawn from a
    later deck first goes to a '?' entry of a reshuffle on its way there."""
    d = r.d
    forms = d["bonus_forms"]
    places = {}                     # epoch -> [(box, index)] of '?' places drawn from it
    later = []                      # (reshuffle, epoch, entry): '?' entries of the reshuffles
    for e, box, k in r.bhidden:
        places.setdefault(e, []).append((box, k))
    for f, form in enumerate(forms, 1):
        for ent in form:
            if ent[0] < 0:
                places.setdefault(ent[1], []).append((ent, 0))
                later.append((f, ent[1], ent))
    named, must = {}, {}            # epoch -> cards named as drawn from it; card -> epochs it was in
    for b, tag in [(b, t) for pl in d["players"] for b, t in pl["bonus"]] + \
            [(b, t) for b, t, _ in d["bonus_discard"]]:
        if b >= 0:
            named.setdefault(tag, set()).add(b)
            must.setdefault(b, set()).add(tag)
    for f, form in enumerate(forms, 1):
        for b, tag, _ in form:
            if b >= 0:
                named.setdefault(tag, set()).add(b)
                must.setdefault(b, set()).update((tag, f))
    for b in d["bonus_deck"]:
        named.setdefault(r.bepoch, set()).add(b)
    if not r.bdeck_given:
        d["bonus_deck"] = []
    for e in range(r.bepoch + 1):
        pool = set(range(NBON)) if e == 0 else {ent[0] for ent in forms[e - 1]}
        what = f"bonus deck {e}" if e else "the first bonus deck"
        if not named.get(e, set()) <= pool:
            b = min(named[e] - pool)
            fault(f"the bonus card {BONUS_NAMES[b]} is named as drawn from {what}, which does not hold it")
        cards = sorted(pool - named.get(e, set()))
        slots = places.get(e, [])
        if e == r.bepoch and not r.bdeck_given:
            free = len(cards) - len(slots)
            d["bonus_deck"] = [-1] * max(free, 0)
            slots = [(d["bonus_deck"], i) for i in range(len(d["bonus_deck"]))] + slots
        if len(cards) != len(slots):
            fault(f"{len(slots)} hidden bonus card places of {what} for its {len(cards)} cards named "
                  f"nowhere: every bonus card is in one place")
        taken, rest = set(), []
        for b in cards:
            ahead = [g for g in must.get(b, ()) if g > e]
            if not ahead:
                rest.append(b)
                continue
            g = min(ahead)
            fits = [(-f, k) for k, (f, tag, ent) in enumerate(later)
                    if tag == e and e < f <= g and id(ent) not in taken]
            if not fits:
                fault(f"the bonus card {BONUS_NAMES[b]} is named after {what}, but no '?' entry of "
                      f"a reshuffle between can have taken it there")
            ent = later[min(fits)[1]][2]
            ent[0] = b
            taken.add(id(ent))
            r.bdealt.add(b)
        rnd.shuffle(rest)
        for (box, k), b in zip([p for p in slots if id(p[0]) not in taken], rest):
            box[k] = b
        r.bdealt.update(rest)


def _seed(top, r):
    if "seed" in top:
        s = top["seed"]
        if not isinstance(s, str) or len(s) != 16 or any(ch not in "0123456789abcdef" for ch in s.lower()):
            fault(f"'seed' must be 16 hexadecimal digits, got {show(s)}")
        return s.lower()
    import hashlib                    # imported here, when needed: it costs a process 3 MB
    basis = json.dumps(r.d, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(basis.encode(), digest_size=8).hexdigest()


def named(top):
    """The table ``top`` read into the JSON form's dict, the cards it does not name -1."""
    r = _Reader(top)
    r.header()
    r.piles()
    r.bonus_piles()
    r.seats()
    r.turn()
    return r


def read(top, dealt=None, deal=0):
    """The JSON form's dict of the table ``top`` (the object read, keys canonical), every
    card placed: PositionError names the first fault.  ``dealt``, a dict, receives the
    cards dealt to places the text does not name ("birds", "bonus"); ``deal`` > 0 deals
    them in another order (a view that the first order does not fit)."""
    r = named(top)
    r.d["rng"] = seed = _seed(top, r)
    rnd = random.Random("wingspan deal " + seed + (f" {deal}" if deal else ""))
    _deal_birds(r, rnd)
    _deal_bonus(r, rnd)
    if dealt is not None:
        dealt.update(birds=r.dealt, bonus=r.bdealt)
    d = r.d
    d["deck"] = d["deck"]                       # top first, as the JSON form
    for pl in d["players"]:
        pl["hand"].sort(key=lambda e: e[0])
        pl["bonus"].sort(key=lambda e: e[0])
        for row in pl["mat"]:
            for bd in row:
                bd["tuck"].sort(key=lambda e: (e[0], str(e[1])))
    return d
