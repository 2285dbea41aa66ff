"""The JSON form of a position (the engine's struct and frame stack as JSON), in plain Python:
the position text of earlier versions, still read so that existing files, databases and
protocol messages keep working, and still written for a position read in that form in the
middle of a turn (its turn's start is not known) until its turn ends.

Reading a position: the JSON is read (a key named twice is refused), every value is checked
where it enters (type, range, and the rules' consistency: every card in one place, the phase,
a stack of frames that a game can hold), and only then are the checked values turned into
the struct's fields (``raw``) and handed to the one native loader (``Wingspan._load``).
Writing a position is the inverse over ``Wingspan._raw()``.

Here: writing, and reading the header, piles, players and the whole; the keys and the
checks of single values are in jsonform_fields.py, the stack of frames in jsonform_stack.py."""
import json

from roost.core.wingspan.tables import (
    NB, NBON, MAXP, MAXEP, FORMCAP, MAXBEP, BFCAP, TAG_P, L_DECK, L_DISC, L_TRAY, L_HAND,
    L_MAT, L_TUCK, L_DRAFT, TK_P, TK_H, B_DECK, B_DISC, B_HELD, B_PEND, PH_SETUP, PH_PLAY,
    PH_OVER, COL_PINK, BONUS_NAMES, HABS, FRAME_NAMES)
from roost.core.wingspan.jsonform_fields import (
    V, _BIRD_KEYS, _COLOUR, _EGGS, _EVENTS, _FRAME_KEYS, _HAB, _PHASES, _PLAYER_KEYS, _STAGES,
    _TOP_KEYS, _bird, _bird_name, _fault, _hand_tag_in, _int, _ints, _is_int, _lst, _obj, _one_of,
    _ordered, _show, _tuck_tag_in, _verb, read_json)
from roost.core.wingspan.jsonform_stack import check_frame_keys, play_stack, setup_stack


# ---------------------------------------------------------------------------- writing
def _hand_tag(t):
    return "p" if t == TAG_P else t


def _tuck_tag(kind, t):
    return "p" if kind == TK_P else (f"h{t}" if kind == TK_H else f"d{t}")


def _st_dict(raw, F):
    v = _verb(F["bird"], F["step"])
    d = {}
    order = F["order"][:F["norder"]]
    if v == V["GAIN_FEEDER"]:
        if F["food"] >= 0:
            d["food"] = F["food"]
    elif v == V["GAIN_SUPPLY_WILD"]:
        if F["k"]:
            d.update(k=F["k"], last=F["slast"])
    elif v == V["GAIN_ALL_FEEDER"]:
        if F["k"]:
            d["k"] = F["k"]
    elif v == V["TRADE_FOOD"]:
        if F["spaid"] >= 0:
            d["paid"] = F["spaid"]
    elif v in (V["EACH_PLAYER_GAIN_FEEDER"], V["FEWEST_IN"]):
        if F["norder"]:
            d.update(order=order, i=F["i"])
    elif v == V["ALL_PLAYERS_LAY"]:
        if F["norder"]:
            d.update(order=order, i=F["i"], first=F["first"])
    elif v == V["DRAW"]:
        if F["k"]:
            d.update(k=F["k"], last=F["slast"], deck=F["sdeck"])
    elif v == V["DRAFT"]:
        if F["k"] or F["norder"]:
            d.update(k=F["k"], last=F["slast"], deck=F["sdeck"])
        if F["norder"]:
            d.update(order=order, i=F["i"])
    elif v == V["DRAW_BONUS"]:
        if F["k"]:
            d["drawn"] = [[F["drawn"][j], raw["btag"][F["drawn"][j]]] for j in range(F["ndrawn"])]
    return d


def _frame_dict(raw, F):
    f = F["f"]
    name = FRAME_NAMES[f]
    if name == "SETUP":
        return {"f": name, "seat": F["seat"], "stage": _STAGES[F["stage"]], "i": F["i"]}
    if name in ("TURN", "ACT"):
        return {"f": name, "seat": F["seat"]}
    if name in ("PLAY", "MAT", "ROW", "EOT"):
        keys = _FRAME_KEYS[name][1:]
        d = {"f": name}
        for k in keys:
            d[k] = F[k]
        if name == "PLAY":
            d["src"] = "extra" if F["src"] else "act"
        return d
    if name == "POW":
        return {"f": name, "seat": F["seat"], "slot": F["slot"], "bird": F["bird"], "step": F["step"],
                "did": F["did"], "asked": F["asked"], "rep": F["rep"], "st": _st_dict(raw, F)}
    if name == "PINK":
        n = raw["n"]
        qs = []
        for k in range(1, n):
            q = (F["active"] + k) % n
            qs += [[q, slot] for slot in range(15) if (F["q"][q] >> slot) & 1]
        return {"f": name, "ev": _EVENTS[F["ev"]], "hab": F["hab"], "active": F["active"], "q": qs}
    return {"f": name}


def _player_dict(raw, p, tucks):
    P = raw["players"][p]
    hand = [[b, _hand_tag(raw["ctag"][b])] for b in P["hand"]]
    bonus = [[b, raw["btag"][b]] for b in range(NBON) if raw["bloc"][b] == B_HELD and raw["bown"][b] == p]
    mat = []
    for h in range(3):
        mat.append([{"id": P["bird"][5 * h + col], "egg": P["egg"][5 * h + col],
                     "cache": P["cache"][5 * h + col], "tuck": tucks.get((p, 5 * h + col), [])}
                    for col in range(P["rows"][h])])
    d = {"hand": hand, "bonus": bonus, "food": P["food"], "cubes": P["cubes"], "mat": mat,
         "pink_used": [s for s in range(15) if (P["pink_used"] >> s) & 1], "owe": P["owe"]}
    if raw["phase"] == PH_SETUP and raw["stack"]:
        top = raw["stack"][-1]
        seat, stage, i = top["seat"], top["stage"], top["i"]
        if p < seat or (p == seat and (stage > 0 or i > 0)):
            dealt = P["hand"]
            decided = 5 if (p < seat or stage > 0) else i
            d["setup"] = {"keep": [dealt[k] for k in range(min(decided, len(dealt))) if (P["skeep"] >> k) & 1],
                          "food": P["sfood"], "bonus": P["sbonus"]}
    return d


def to_dict(s):
    """The position of §8 as a JSON-ready dict (keys in the order of §8)."""
    raw = s._raw()
    tucks = {}
    for b in range(NB):
        if raw["cloc"][b] == L_TUCK:
            tucks.setdefault((raw["cown"][b], raw["cslot"][b]), []).append(
                [b, _tuck_tag(raw["ctk"][b], raw["ctag"][b])])
    feeder = []
    for f in range(6):
        feeder += [f] * raw["fd"][f]
    return {
        "game": "wingspan-core", "v": 1, "n": raw["n"], "side": ("green", "blue")[raw["side"]],
        "goals": raw["goals"], "phase": _PHASES[raw["phase"]], "round": raw["round"],
        "first": raw["first"], "t": raw["t"], "cur": raw["cur"],
        "deck": raw["deck"][::-1], "deck_epoch": raw["depoch"], "deck_forms": raw["forms"],
        "discard": raw["discard"], "tray": raw["tray"], "feeder": feeder,
        "bonus_deck": raw["bdeck"][::-1], "bonus_epoch": raw["bepoch"],
        "bonus_forms": [[list(e) for e in form] for form in raw["bforms"]],
        "bonus_discard": [[b, raw["btag"][b], raw["bown"][b]] for b in raw["bdiscard"]],
        "goal_pts": raw["goal_pts"], "draft": raw["draft"],
        "players": [_player_dict(raw, p, tucks) for p in range(raw["n"])],
        "stack": [_frame_dict(raw, F) for F in raw["stack"]],
        "rng": f"{raw['rng']:016x}",
    }


def _dumps(d):
    return json.dumps(d, separators=(",", ":"))


def to_text(s):
    return _dumps(to_dict(s))


def _hidden_last(entries, hidden):
    """Known entries first (as listed), then the hidden ones as [-1, tag] sorted by tag, so
    that a masked list does not show where a hidden id would sort."""
    known = [e for e, h in zip(entries, hidden) if not h]
    unknown = sorted(([-1, e[1]] for e, h in zip(entries, hidden) if h), key=lambda x: str(x[1]))
    return known + unknown


def mask(d, o):
    """The observer view of §8 for seat o, from a position dict (a new dict)."""
    d = json.loads(_dumps(d))
    for q, pd in enumerate(d["players"]):
        for row in pd["mat"]:
            for bird in row:
                bird["tuck"] = _hidden_last(bird["tuck"], [
                    isinstance(t, str) and (t[0] == "d" or (t[0] == "h" and q != o)) for _, t in bird["tuck"]])
        if q != o:
            pd["hand"] = _hidden_last(pd["hand"], [t != "p" for _, t in pd["hand"]])
            pd["bonus"] = sorted([[-1, t] for _, t in pd["bonus"]], key=lambda x: x[1])
            pd.pop("setup", None)
    d["deck"] = [-1] * len(d["deck"])
    d["bonus_deck"] = [-1] * len(d["bonus_deck"])
    d["bonus_discard"] = [[b if w == o else -1, t, w] for b, t, w in d["bonus_discard"]]
    d["bonus_forms"] = [[[b if w == o else -1, t, w] for b, t, w in form] for form in d["bonus_forms"]]
    for fr in d["stack"]:
        if fr["f"] == "POW" and fr["seat"] != o and "drawn" in fr["st"]:
            fr["st"]["drawn"] = [[-1, t] for _, t in fr["st"]["drawn"]]
    d.pop("rng")
    d["observer"] = o
    return d


def view(s, o):
    return _dumps(mask(to_dict(s), o))


# ---------------------------------------------------------------------------- reading: the parts
def _check_header(d):
    for key in d:
        if key not in _TOP_KEYS:
            _fault(f"unknown key {key!r} (keys: {', '.join(_TOP_KEYS)})")
    for key in _TOP_KEYS:
        if key not in d:
            _fault(f"missing key {key!r}")
    if list(d) != list(_TOP_KEYS):
        _fault("the keys must come in the order " + ", ".join(_TOP_KEYS))
    if d["game"] != "wingspan-core":
        _fault(f"'game' must be \"wingspan-core\", got {_show(d['game'])}")
    if not _is_int(d["v"]) or d["v"] != 1:
        _fault(f"'v' must be 1, got {_show(d['v'])}")
    n = _int(d["n"], "'n' (players)", 1, MAXP)
    h = {"n": n, "side": _one_of(d["side"], "'side'", ("green", "blue"))}
    goals = _ints(d["goals"], "'goals'", 0, 15, 4, 4)
    if len({g // 2 for g in goals}) != 4:
        _fault(f"'goals' {goals} must use 4 different goal tiles (side ids 2*tile and 2*tile+1 are one tile)")
    h["goals"] = list(goals)
    h["phase"] = ph = _one_of(d["phase"], "'phase'", _PHASES)
    h["round"] = _int(d["round"], "'round'", 1, 4)
    h["first"] = _int(d["first"], "'first'", 0, n - 1)
    h["t"] = _int(d["t"], "'t'", 0, 5 * n if ph == PH_OVER else 8 * n)
    h["cur"] = _int(d["cur"], "'cur'", 0, n - 1)
    h["nscored"] = {PH_SETUP: 0, PH_PLAY: h["round"] - 1, PH_OVER: 4}[ph]
    gp = _lst(d["goal_pts"], "'goal_pts'")
    if len(gp) != h["nscored"]:
        _fault(f"'goal_pts' must hold the {h['nscored']} rounds scored so far, got {len(gp)}")
    h["goal_pts"] = [list(_ints(row, f"goal_pts[{r}]", 0, 7, n, n)) for r, row in enumerate(gp)]
    rng = d["rng"]
    if not isinstance(rng, str) or len(rng) != 16 or any(ch not in "0123456789abcdef" for ch in rng):
        _fault(f"'rng' must be 16 lower-case hex digits, got {_show(rng)}")
    h["rng"] = int(rng, 16)
    return h


def _check_piles(d, n):
    """The bird piles: deck, epochs and formations, discard pile, tray, feeder, draft pool."""
    p = {"deck": list(_ints(d["deck"], "'deck'", 0, NB - 1, 0, NB))}
    p["depoch"] = depoch = _int(d["deck_epoch"], "'deck_epoch'", 0, MAXEP - 1)
    forms = _lst(d["deck_forms"], "'deck_forms'")
    if len(forms) != depoch:
        _fault(f"'deck_forms' must list one formation per reshuffle ({depoch}), got {len(forms)}")
    for e, form in enumerate(forms):
        _ints(form, f"deck_forms[{e}]", 0, NB - 1, 1, NB)
        if len(set(form)) != len(form):
            _fault(f"deck_forms[{e}] lists a card twice")
    if sum(len(form) for form in forms) > FORMCAP:
        _fault(f"'deck_forms' holds more cards than this engine records ({FORMCAP})")
    p["forms"] = [list(form) for form in forms]
    p["discard"] = list(_ints(d["discard"], "'discard'", 0, NB - 1, 0, NB))
    p["tray"] = list(_ints(d["tray"], "'tray'", -1, NB - 1, 3, 3))
    feeder = _lst(d["feeder"], "'feeder'", 1, 5)
    for i, f in enumerate(feeder):
        _int(f, f"feeder[{i}] (a die face)", 0, 5)
    if feeder != sorted(feeder):
        _fault(f"'feeder' {feeder} must list the faces in ascending order")
    p["fd"] = [feeder.count(f) for f in range(6)]
    p["draft"] = list(_ints(d["draft"], "'draft'", 0, NB - 1, 0, n + 1))
    return p


def _bonus_entry(ent, where, maxtag, n):
    _lst(ent, where, 3, 3)
    return (_int(ent[0], f"{where} card", 0, NBON - 1), _int(ent[1], f"{where} epoch tag", 0, maxtag),
            _int(ent[2], f"{where} discarder", 0, n - 1))


def _check_bonus_piles(d, n):
    b = {"bdeck": list(_ints(d["bonus_deck"], "'bonus_deck'", 0, NBON - 1, 0, NBON))}
    b["bepoch"] = bepoch = _int(d["bonus_epoch"], "'bonus_epoch'", 0, MAXBEP)
    bforms = _lst(d["bonus_forms"], "'bonus_forms'")
    if len(bforms) != bepoch:
        _fault(f"'bonus_forms' must list one formation per bonus reshuffle ({bepoch}), got {len(bforms)}")
    b["bforms"] = []
    for e, form in enumerate(bforms):
        _lst(form, f"bonus_forms[{e}]", 1, NBON)
        entries = [_bonus_entry(ent, f"bonus_forms[{e}][{i}]", e, n) for i, ent in enumerate(form)]
        if len({ent[0] for ent in entries}) != len(entries):
            _fault(f"bonus_forms[{e}] lists a card twice")
        b["bforms"].append(entries)
    if sum(len(form) for form in bforms) > BFCAP:
        _fault(f"'bonus_forms' holds more entries than this engine records ({BFCAP})")
    bdisc = _lst(d["bonus_discard"], "'bonus_discard'", 0, NBON)
    b["bdisc"] = [_bonus_entry(ent, f"bonus_discard[{i}]", bepoch, n) for i, ent in enumerate(bdisc)]
    return b


def _check_mat_bird(bd, bw, h, depoch):
    _obj(bd, bw, _BIRD_KEYS)
    _ordered(bd, bw, _BIRD_KEYS)
    b = _bird(bd["id"], f"{bw}.id")
    if not (_HAB[b] >> h) & 1:
        _fault(f"{bw}: {_bird_name(b)} cannot live in the {HABS[h]}")
    egg = _int(bd["egg"], f"{bw}.egg ({_bird_name(b)} holds at most {_EGGS[b]})", 0, _EGGS[b])
    cache = list(_ints(bd["cache"], f"{bw}.cache", 0, 9999, 5, 5))
    tucks = []
    for i, ent in enumerate(_lst(bd["tuck"], f"{bw}.tuck", 0, NB)):
        _lst(ent, f"{bw}.tuck[{i}]", 2, 2)
        tb = _bird(ent[0], f"{bw}.tuck[{i}] card")
        kind, tag = _tuck_tag_in(ent[1], f"{bw}.tuck[{i}] tag", depoch)
        tucks.append((tb, kind, tag))
    return (b, egg, cache, tucks)


def _check_player(pd, p, ph, depoch, bepoch):
    w = f"players[{p}]"
    _obj(pd, w, _PLAYER_KEYS, ("setup",))
    _ordered(pd, w, _PLAYER_KEYS)
    hand = []
    for i, ent in enumerate(_lst(pd["hand"], f"{w}.hand", 0, NB)):
        _lst(ent, f"{w}.hand[{i}]", 2, 2)
        hand.append((_bird(ent[0], f"{w}.hand[{i}] card"), _hand_tag_in(ent[1], f"{w}.hand[{i}] tag", depoch)))
    bon = []
    for i, ent in enumerate(_lst(pd["bonus"], f"{w}.bonus", 0, NBON)):
        _lst(ent, f"{w}.bonus[{i}]", 2, 2)
        bon.append((_int(ent[0], f"{w}.bonus[{i}] card", 0, NBON - 1),
                    _int(ent[1], f"{w}.bonus[{i}] epoch tag", 0, bepoch)))
    food = list(_ints(pd["food"], f"{w}.food", 0, 9999, 5, 5))
    cubes = _int(pd["cubes"], f"{w}.cubes", 0, 8)
    rows = []
    for h, row in enumerate(_lst(pd["mat"], f"{w}.mat", 3, 3)):
        _lst(row, f"{w}.mat[{h}] ({HABS[h]})", 0, 5)
        rows.append([_check_mat_bird(bd, f"{w}.mat[{h}][{col}]", h, depoch) for col, bd in enumerate(row)])
    pink = _ints(pd["pink_used"], f"{w}.pink_used", 0, 14, 0, 15)
    for slot in pink:
        h, col = slot // 5, slot % 5
        if col >= len(rows[h]) or _COLOUR[rows[h][col][0]] != COL_PINK:
            _fault(f"{w}.pink_used lists slot {slot}, which holds no pink bird")
    if len(set(pink)) != len(pink) or pink != sorted(pink):
        _fault(f"{w}.pink_used must list distinct slots in ascending order")
    owe = _int(pd["owe"], f"{w}.owe", 0, 99)
    setup = pd.get("setup")
    if setup is not None:
        if ph != PH_SETUP:
            _fault(f"{w}.setup belongs to the setup phase only")
        _obj(setup, f"{w}.setup", ("keep", "food", "bonus"))
        _ints(setup["keep"], f"{w}.setup.keep", 0, NB - 1, 0, 5)
        _ints(setup["food"], f"{w}.setup.food", 0, 1, 5, 5)
        _int(setup["bonus"], f"{w}.setup.bonus", -1, NBON - 1)
    return {"hand": hand, "bonus": bon, "food": food, "cubes": cubes, "rows": rows,
            "pink": list(pink), "owe": owe, "setup": setup}


def _check_pending_bonus(stack, bepoch):
    """The bonus cards drawn by a pending DRAW_BONUS (they are in no pile)."""
    pending = {}
    for i, fr in enumerate(stack):
        if isinstance(fr, dict) and fr.get("f") == "POW" and isinstance(fr.get("st"), dict) and "drawn" in fr["st"]:
            dr = _lst(fr["st"]["drawn"], f"stack[{i}].st.drawn", 2, 2)
            for j, ent in enumerate(dr):
                _lst(ent, f"stack[{i}].st.drawn[{j}]", 2, 2)
                bb = _int(ent[0], f"stack[{i}].st.drawn[{j}] card", 0, NBON - 1)
                _int(ent[1], f"stack[{i}].st.drawn[{j}] epoch tag", 0, bepoch)
                if bb in pending:
                    _fault(f"bonus card {bb} ({BONUS_NAMES[bb]}) is drawn twice in stack[{i}].st.drawn")
                pending[bb] = ent[1]
    return pending


def _check_conservation(piles, bonus, pls, pending):
    """Every bird and every bonus card is in exactly one place."""
    where = {}

    def put(b, w):
        if b in where:
            _fault(f"{_bird_name(b)} is in two places: {where[b]} and {w}")
        where[b] = w

    for b in piles["deck"]:
        put(b, "the deck")
    for b in piles["discard"]:
        put(b, "the discard pile")
    for i, b in enumerate(piles["tray"]):
        if b >= 0:
            put(b, f"tray slot {i}")
    for b in piles["draft"]:
        put(b, "the draft pool")
    for p, pl in enumerate(pls):
        for b, _ in pl["hand"]:
            put(b, f"players[{p}].hand")
        for h, row in enumerate(pl["rows"]):
            for col, (b, _, _, tucks) in enumerate(row):
                put(b, f"players[{p}].mat[{h}][{col}]")
                for tb, _, _ in tucks:
                    put(tb, f"a tuck under players[{p}].mat[{h}][{col}]")
    for b in range(NB):
        if b not in where:
            _fault(f"{_bird_name(b)} is missing (every bird is in the deck, the discard pile, the tray, "
                   f"a hand, a mat, a tuck or the draft pool)")
    bwhere = {}

    def bput(b, w):
        if b in bwhere:
            _fault(f"bonus card {b} ({BONUS_NAMES[b]}) is in two places: {bwhere[b]} and {w}")
        bwhere[b] = w

    for b in bonus["bdeck"]:
        bput(b, "the bonus deck")
    for b, _, _ in bonus["bdisc"]:
        bput(b, "the bonus discard pile")
    for p, pl in enumerate(pls):
        for b, _ in pl["bonus"]:
            bput(b, f"players[{p}].bonus")
    for b in pending:
        bput(b, "a pending bonus draw")
    for b in range(NBON):
        if b not in bwhere:
            _fault(f"bonus card {b} ({BONUS_NAMES[b]}) is missing (every bonus card is in the bonus deck, "
                   f"the bonus discard pile, a player's bonus cards or a pending draw)")


def _check_phase(h, piles, bonus, pls):
    n, ph = h["n"], h["phase"]
    if ph == PH_SETUP:
        if h["round"] != 1 or h["first"] != 0 or h["t"] != 0 or h["cur"] != 0:
            _fault("during the setup 'round' is 1 and 'first', 't' and 'cur' are 0")
        if piles["depoch"] or bonus["bepoch"] or piles["discard"] or bonus["bdisc"] or piles["draft"]:
            _fault("during the setup nothing has been discarded or reshuffled yet (discard piles, "
                   "epochs and the draft pool are empty)")
        if min(piles["tray"]) < 0:
            _fault("during the setup the tray holds 3 cards")
        for p, pl in enumerate(pls):
            w = f"players[{p}]"
            if len(pl["hand"]) != 5 or any(tg != 0 for _, tg in pl["hand"]):
                _fault(f"{w}.hand: during the setup a player holds the 5 dealt cards (tag 0)")
            if len(pl["bonus"]) != 2 or any(tg != 0 for _, tg in pl["bonus"]):
                _fault(f"{w}.bonus: during the setup a player holds the 2 dealt bonus cards (tag 0)")
            if pl["food"] != [1, 1, 1, 1, 1]:
                _fault(f"{w}.food: during the setup a player holds one token of each type")
            if pl["cubes"] != 8 or pl["owe"] != 0 or any(pl["rows"]) or pl["pink"]:
                _fault(f"{w}: during the setup a player has 8 cubes, an empty mat and owes nothing")
        return
    if ph == PH_OVER:
        first, last = 3 % n, (3 % n + 5 * n - 1) % n
        if h["round"] != 4 or h["first"] != first or h["t"] != 5 * n or h["cur"] != last:
            _fault(f"a finished game has round 4, first {first}, t {5 * n} and cur {last}")
        if piles["draft"]:
            _fault("a finished game has an empty draft pool")
        for p, pl in enumerate(pls):
            if pl["cubes"] != 0 or pl["owe"] != 0:
                _fault(f"players[{p}]: after the game no cubes are left and nothing is owed")
        return
    r, t = h["round"], h["t"]
    if h["first"] != (r - 1) % n:
        _fault(f"the first player of round {r} is seat {(r - 1) % n}, not {h['first']}")
    if t >= n * (9 - r):
        _fault(f"round {r} has {n * (9 - r)} turns (t 0..{n * (9 - r) - 1}), got t {t}")
    if h["cur"] != (h["first"] + t) % n:
        _fault(f"'cur' must be (first + t) mod n = {(h['first'] + t) % n}, got {h['cur']}")
    for p, pl in enumerate(pls):
        if p != h["cur"] and pl["owe"]:
            _fault(f"players[{p}].owe: only the player whose turn it is owes discards")


# ---------------------------------------------------------------------------- reading: the whole
def _raw(h, piles, bonus, pls, pending, pending_owner, stack):
    """The struct's fields (position.pyx) from checked values."""
    cloc, cown, cslot, ctag, ctk = ([0] * NB for _ in range(5))

    def place(b, loc, own=0, slot=0, tag=0, kind=0):
        cloc[b], cown[b], cslot[b], ctag[b], ctk[b] = loc, own, slot, tag, kind

    for b in piles["deck"]:
        place(b, L_DECK)
    for b in piles["discard"]:
        place(b, L_DISC)
    for i, b in enumerate(piles["tray"]):
        if b >= 0:
            place(b, L_TRAY, slot=i)
    for b in piles["draft"]:
        place(b, L_DRAFT)
    bloc, bown, btag = ([0] * NBON for _ in range(3))
    for b in bonus["bdeck"]:
        bloc[b] = B_DECK
    for b, tag, who in bonus["bdisc"]:
        bloc[b], btag[b], bown[b] = B_DISC, tag, who
    for b, tag in pending.items():
        bloc[b], btag[b], bown[b] = B_PEND, tag, pending_owner.get(b, 0)
    players = []
    for p, pl in enumerate(pls):
        for b, tag in pl["hand"]:
            place(b, L_HAND, p, 0, tag)
        for b, tag in pl["bonus"]:
            bloc[b], bown[b], btag[b] = B_HELD, p, tag
        P = {"hand": sorted(b for b, _ in pl["hand"]), "food": pl["food"], "cubes": pl["cubes"],
             "rows": [len(row) for row in pl["rows"]], "bird": [-1] * 15, "egg": [0] * 15,
             "cache": [[0] * 5 for _ in range(15)], "ntuck": [0] * 15,
             "pink_used": sum(1 << s for s in pl["pink"]), "owe": pl["owe"],
             "skeep": pl.get("skeep", 0), "sfood": pl.get("sfood", [0] * 5), "sbonus": pl.get("sbonus", -1)}
        for hab, row in enumerate(pl["rows"]):
            for col, (b, egg, cache, tucks) in enumerate(row):
                slot = 5 * hab + col
                P["bird"][slot], P["egg"][slot], P["cache"][slot] = b, egg, cache
                place(b, L_MAT, p, slot)
                for tb, kind, tag in tucks:
                    place(tb, L_TUCK, p, slot, TAG_P if kind == TK_P else tag, kind)
                    P["ntuck"][slot] += 1
        players.append(P)
    return {"n": h["n"], "side": h["side"], "phase": h["phase"], "round": h["round"], "first": h["first"],
            "t": h["t"], "cur": h["cur"], "nscored": h["nscored"], "goals": h["goals"],
            "goal_pts": h["goal_pts"], "rng": h["rng"], "cloc": cloc, "cown": cown, "cslot": cslot,
            "ctag": ctag, "ctk": ctk, "deck": piles["deck"][::-1], "depoch": piles["depoch"],
            "forms": piles["forms"], "discard": piles["discard"], "tray": piles["tray"],
            "draft": piles["draft"], "fd": piles["fd"], "bloc": bloc, "bown": bown, "btag": btag,
            "bdeck": bonus["bdeck"][::-1], "bepoch": bonus["bepoch"], "bforms": bonus["bforms"],
            "bdiscard": [b for b, _, _ in bonus["bdisc"]], "players": players, "stack": stack}


def checked(d):
    """Every value of a position dict checked (PositionError naming the first fault), and
    turned into the struct's fields for the native loader."""
    h = _check_header(d)
    n = h["n"]
    piles = _check_piles(d, n)
    bonus = _check_bonus_piles(d, n)
    players = _lst(d["players"], "'players'", n, n)
    pls = [_check_player(pd, p, h["phase"], piles["depoch"], bonus["bepoch"]) for p, pd in enumerate(players)]
    frames = check_frame_keys(d["stack"])
    pending = _check_pending_bonus(frames, bonus["bepoch"])
    _check_conservation(piles, bonus, pls, pending)
    _check_phase(h, piles, bonus, pls)
    pending_owner = {}
    if h["phase"] == PH_OVER:
        if frames:
            _fault("a finished game has an empty 'stack'")
        stack = []
    elif h["phase"] == PH_SETUP:
        stack = setup_stack(frames, h, pls)
    else:
        stack = play_stack(frames, h, pls, pending_owner)
    return _raw(h, piles, bonus, pls, pending, pending_owner, stack)


def parse(cls, text, settle=False):
    return parse_object(cls, read_json(text), settle)


def parse_object(cls, d, settle=False):
    """A position from the JSON object of a position text in this format."""
    if "observer" in d:
        from roost.core.wingspan import jsonform_views as _views
        return _views.parse_view(cls, d, settle)
    s = cls._load(checked(d))
    text0 = to_text(s)
    probe = s.copy()
    k = probe._settle()
    if not settle and (to_text(probe) != text0 or (not probe.is_over and k < 2)):
        _fault("the position is not at a decision node: its pending step is automatic or forced "
               "(positions are written where a seat has at least two moves, §7.1)")
    if _dumps(d) != text0:
        _fault("the position is not in canonical form: " + _first_difference(d, json.loads(text0)))
    return probe


def parse_text(cls, text):
    """For pickling: the class and its text."""
    return parse(cls, text)


def _first_difference(a, b, path="position"):
    if type(a) != type(b):
        return f"{path} should be {_show(b, 80)}, not {_show(a, 80)}"
    if isinstance(a, dict):
        for k in list(b) + [k for k in a if k not in b]:
            if k not in a:
                return f"{path} misses {k!r}"
            if k not in b:
                return f"{path} has an unexpected {k!r}"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
        if list(a) != list(b):
            return f"{path}: the keys must come in the order {', '.join(b)}"
        return f"{path} differs"
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} should be {_show(b, 120)} (canonical order and content), not {_show(a, 120)}"
        for i in range(len(a)):
            if a[i] != b[i]:
                return _first_difference(a[i], b[i], f"{path}[{i}]")
    return f"{path} should be {_show(b, 80)}, not {_show(a, 80)}"
