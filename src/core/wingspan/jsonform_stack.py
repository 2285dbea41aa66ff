"""The JSON form's stack of frames read back: each frame's keys, the SETUP frame of the
deal, and during play the frames a turn can hold (the TURN or EOT frame at the bottom, an
action's, the powers and pink powers on it), each checked against the table it sits on and
turned into the engine's frame (``_frame``) for the native loader."""
from roost.core.wingspan.tables import (
    NB, MAXF, COL_BROWN, COL_WHITE, COL_PINK, EV_C, HABS, FRAME_NAMES, EGG_COSTS)
from roost.core.wingspan.jsonform_fields import (
    V, _COLOUR, _EVENTS, _FRAME_KEYS, _HAB, _STAGES, _STEPS, _TARG, _TRIG, _bird_name, _fault,
    _int, _ints, _lst, _obj, _one_of, _verb)


# ---------------------------------------------------------------------------- reading: the stack
def _frame(f, seat, **fields):
    """A frame's fields as the engine's push() leaves them, then ``fields``."""
    F = {"f": FRAME_NAMES.index(f), "seat": seat, "src": 0, "req": -1, "card": -1, "hab": -1, "egg": 0,
         "last": -1, "paid": [0] * 5, "n": 0, "trade": 0, "deck": 0, "rodent": 0, "col": -1, "slot": -1,
         "bird": -1, "step": 0, "did": 0, "asked": 0, "rep": 0, "k": 0, "slast": -1, "sdeck": 0,
         "food": -1, "spaid": -1, "first": -1, "order": [0] * 5, "norder": 0, "i": 0, "drawn": [-1, -1],
         "ndrawn": 0, "ev": 0, "active": 0, "q": [0] * 5, "stage": 0}
    F.update(fields)
    return F


def check_frame_keys(stack):
    frames = []
    for i, fr in enumerate(_lst(stack, "'stack'", 0, MAXF - 2)):
        w = f"stack[{i}]"
        if not isinstance(fr, dict) or not isinstance(fr.get("f"), str) or fr["f"] not in _FRAME_KEYS:
            _fault(f"{w} must be a frame object with \"f\" one of {', '.join(_FRAME_KEYS)}")
        keys = _FRAME_KEYS[fr["f"]]
        _obj(fr, w, keys)
        if tuple(fr) != keys:
            _fault(f"{w}: the keys of a {fr['f']} frame come in the order {', '.join(keys)}")
        frames.append(fr)
    return frames


def setup_stack(frames, h, pls):
    """The one SETUP frame, and the setup buffers of the seats that have chosen."""
    n = h["n"]
    if len(frames) != 1 or frames[0]["f"] != "SETUP":
        _fault("during the setup the stack is one SETUP frame")
    fr = frames[0]
    seat = _int(fr["seat"], "stack[0].seat", 0, n - 1)
    stage = _one_of(fr["stage"], "stack[0].stage", _STAGES)
    ii = _int(fr["i"], "stack[0].i", 0, 4 if stage < 2 else 0)
    for p, pl in enumerate(pls):
        w = f"players[{p}].setup"
        want = p < seat or (p == seat and (stage > 0 or ii > 0))
        st = pl["setup"]
        if (st is not None) != want:
            _fault(f"{w} must be present exactly for seats that have made setup choices "
                   f"({'expected' if want else 'unexpected'} here)")
        if st is None:
            continue
        dealt = sorted(b for b, _ in pl["hand"])
        decided = 5 if (p < seat or stage > 0) else ii
        for b in st["keep"]:
            if b not in dealt[:decided]:
                _fault(f"{w}.keep lists {_bird_name(b)}, not one of the dealt cards decided so far")
        if len(set(st["keep"])) != len(st["keep"]) or st["keep"] != sorted(st["keep"]):
            _fault(f"{w}.keep must list distinct cards in ascending order")
        k, spent = len(st["keep"]), sum(st["food"])
        if p < seat or stage == 2:
            if spent != k:
                _fault(f"{w}.food: a seat discards one token per kept bird ({k}), got {spent}")
        elif stage == 1:
            if spent != ii:
                _fault(f"{w}.food: {ii} tokens discarded so far (stack[0].i), got {spent}")
        elif spent:
            _fault(f"{w}.food: no token is discarded before the food stage")
        held = sorted(b for b, _ in pl["bonus"])
        if p < seat:
            if st["bonus"] not in held:
                _fault(f"{w}.bonus must be one of the seat's two bonus cards {held}")
        elif st["bonus"] != -1:
            _fault(f"{w}.bonus is -1 until the seat has chosen")
        pl["skeep"] = sum(1 << dealt.index(b) for b in st["keep"])
        pl["sfood"] = list(st["food"])
        pl["sbonus"] = st["bonus"]
    return [_frame("SETUP", seat, stage=stage, i=ii)]


def _bird_at(pls, p, slot):
    row = pls[p]["rows"][slot // 5]
    return row[slot % 5][0] if slot % 5 < len(row) else -1


def _play_frame(fr, w, h, pls):
    cur = h["cur"]
    hand = {b for b, _ in pls[cur]["hand"]}
    rows = [len(r) for r in pls[cur]["rows"]]
    src = _one_of(fr["src"], f"{w}.src", ("act", "extra"))
    req = _int(fr["req"], f"{w}.req", 0 if src else -1, 2 if src else -1)
    card = _int(fr["card"], f"{w}.card", -1, NB - 1)
    hab = _int(fr["hab"], f"{w}.hab", -1, 2)
    egg = _int(fr["egg"], f"{w}.egg", 0, 2)
    last = _int(fr["last"], f"{w}.last", -1, 14)
    paid = list(_ints(fr["paid"], f"{w}.paid", 0, 6, 5, 5))
    if card >= 0 and card not in hand:
        _fault(f"{w}.card: {_bird_name(card)} is not in the player's hand")
    if card < 0 and (hab != -1 or egg or last != -1 or any(paid)):
        _fault(f"{w}: before the card is chosen hab and last are -1 and nothing is paid")
    if hab >= 0:
        if card < 0 or not (_HAB[card] >> hab) & 1 or rows[hab] >= 5:
            _fault(f"{w}.hab: the card cannot be played into the {HABS[hab]}")
        if src and hab != req:
            _fault(f"{w}.hab must be the required habitat {req} of an extra play")
        if egg > EGG_COSTS[rows[hab]]:
            _fault(f"{w}.egg: the column costs {EGG_COSTS[rows[hab]]} eggs")
    elif egg or any(paid) or (card >= 0 and src):
        _fault(f"{w}: eggs and food are paid only once the habitat is known")
    return _frame("PLAY", cur, src=src, req=req, card=card, hab=hab, egg=egg, last=last, paid=paid)


def _order(v, w, n, lo):
    _ints(v, w, 0, n - 1, lo, n)
    if len(set(v)) != len(v):
        _fault(f"{w} lists a seat twice")
    return list(v)


def _pow_scratch(st, w, v, a1, n, seat, pending_owner):
    """The verb scratch ``st`` of a POW frame (§8) as frame fields."""
    if not st:
        return {}
    if v == V["GAIN_FEEDER"]:
        return {"food": _int(st["food"], f"{w}.st.food", 0, 4)}
    if v == V["GAIN_SUPPLY_WILD"]:
        return {"k": _int(st["k"], f"{w}.st.k", 1, max(1, a1 - 1)), "slast": _int(st["last"], f"{w}.st.last", 0, 4)}
    if v == V["GAIN_ALL_FEEDER"]:
        return {"k": _int(st["k"], f"{w}.st.k", 1, 1)}
    if v == V["TRADE_FOOD"]:
        return {"spaid": _int(st["paid"], f"{w}.st.paid", 0, 4)}
    if v in (V["EACH_PLAYER_GAIN_FEEDER"], V["FEWEST_IN"], V["ALL_PLAYERS_LAY"]):
        order = _order(st["order"], f"{w}.st.order", n, n if v != V["FEWEST_IN"] else 1)
        F = {"order": order + [0] * (5 - len(order)), "norder": len(order),
             "i": _int(st["i"], f"{w}.st.i", 0, len(order) + (1 if v == V["ALL_PLAYERS_LAY"] else 0))}
        if v == V["ALL_PLAYERS_LAY"]:
            F["first"] = _int(st["first"], f"{w}.st.first", -1, 14)
        return F
    if v in (V["DRAW"], V["DRAFT"]):
        draft = v == V["DRAFT"]
        F = {"k": _int(st["k"], f"{w}.st.k", 0 if draft else 1, n + 1 if draft else a1),
             "slast": _int(st["last"], f"{w}.st.last", -1, 2), "sdeck": _int(st["deck"], f"{w}.st.deck", 0, 1)}
        if "order" in st:
            order = _order(st["order"], f"{w}.st.order", n, n)
            F.update(order=order + [0] * (5 - n), norder=n, i=_int(st["i"], f"{w}.st.i", 0, n))
        return F
    if v == V["DRAW_BONUS"]:
        drawn = [st["drawn"][0][0], st["drawn"][1][0]]
        for b in drawn:
            pending_owner[b] = seat
        return {"k": 1, "ndrawn": 2, "drawn": drawn}
    return {}


def _st_keys(v, st):
    if not st:
        return ()
    if v == V["GAIN_FEEDER"]:
        return ("food",)
    if v == V["GAIN_SUPPLY_WILD"]:
        return ("k", "last")
    if v == V["GAIN_ALL_FEEDER"]:
        return ("k",)
    if v == V["TRADE_FOOD"]:
        return ("paid",)
    if v in (V["EACH_PLAYER_GAIN_FEEDER"], V["FEWEST_IN"]):
        return ("order", "i")
    if v == V["ALL_PLAYERS_LAY"]:
        return ("order", "i", "first")
    if v == V["DRAW"]:
        return ("k", "last", "deck")
    if v == V["DRAFT"]:
        return ("k", "last", "deck", "order", "i") if "order" in st else ("k", "last", "deck")
    if v == V["DRAW_BONUS"]:
        return ("drawn",)
    return ()


def _pow_frame(fr, w, h, pls, pending_owner):
    n, cur = h["n"], h["cur"]
    seat = _int(fr["seat"], f"{w}.seat", 0, n - 1)
    slot = _int(fr["slot"], f"{w}.slot", 0, 14)
    bird = _int(fr["bird"], f"{w}.bird", 0, NB - 1)
    if _bird_at(pls, seat, slot) != bird:
        _fault(f"{w}: slot {slot} of seat {seat} does not hold {_bird_name(bird)}")
    nsteps = len(_STEPS[bird])
    if nsteps == 0:
        _fault(f"{w}: {_bird_name(bird)} has no power")
    if (_COLOUR[bird] == COL_PINK) != (seat != cur):
        _fault(f"{w}: pink powers act on other players' turns, brown and white ones on their owner's")
    step = _int(fr["step"], f"{w}.step", 0, nsteps - 1)
    _int(fr["did"], f"{w}.did", 0, 0)
    asked = _int(fr["asked"], f"{w}.asked", 0, 1)
    rep = _int(fr["rep"], f"{w}.rep", 0, 1)
    if step > 0 and not asked:
        _fault(f"{w}: a later step of a power runs only once the power is in use (asked 1)")
    st = fr["st"]
    if not isinstance(st, dict):
        _fault(f"{w}.st must be an object")
    v, a1 = _STEPS[bird][step][0], _STEPS[bird][step][2]
    keys = _st_keys(v, st)
    _obj(st, f"{w}.st", keys)
    if tuple(st) != keys:
        _fault(f"{w}.st: the keys come in the order {', '.join(keys)}")
    return _frame("POW", seat, slot=slot, bird=bird, step=step, asked=asked, rep=rep,
                  **_pow_scratch(st, w, v, a1, n, seat, pending_owner))


def _pink_frame(fr, w, h, pls):
    n, cur = h["n"], h["cur"]
    ev = _one_of(fr["ev"], f"{w}.ev", _EVENTS[1:]) + 1
    hab = _int(fr["hab"], f"{w}.hab", 0 if ev == EV_C else -1, 2 if ev == EV_C else -1)
    if _int(fr["active"], f"{w}.active", 0, n - 1) != cur:
        _fault(f"{w}.active must be the current player {cur}")
    q = [0] * 5
    for j, ent in enumerate(_lst(fr["q"], f"{w}.q", 0, 15 * n)):
        _lst(ent, f"{w}.q[{j}]", 2, 2)
        seat = _int(ent[0], f"{w}.q[{j}] seat", 0, n - 1)
        slot = _int(ent[1], f"{w}.q[{j}] slot", 0, 14)
        b = _bird_at(pls, seat, slot)
        if seat == cur or b < 0 or _TRIG[b] != ev or (ev == EV_C and _TARG[b] != hab):
            _fault(f"{w}.q[{j}]: slot {slot} of seat {seat} holds no pink bird reacting to this event")
        if (q[seat] >> slot) & 1:
            _fault(f"{w}.q lists seat {seat} slot {slot} twice")
        q[seat] |= 1 << slot
    return _frame("PINK", -1, ev=ev, hab=hab, active=cur, q=q)


def _stack_shape_fault(frames, why):
    names = " ".join(fr["f"] for fr in frames)
    _fault(f"'stack' [{names}] is not a stack a game can hold: {why}")


def _check_stack_shape(frames, F, h, pls):
    """The frames above TURN can only be (§3.3, §3.9, §4): ACT | PLAY | MAT | ROW [POW] |
    ROW PINK [POW] | [white POW] [PINK [POW]], where a POW on a ROW is the brown power that
    row is activating (or a power repeated there), a POW right on TURN is the white power of
    the bird just played (the rightmost of its row), and a POW on a PINK is a pink reaction
    to that event."""
    cur = h["cur"]
    rest = [fr["f"] for fr in frames[1:]]
    body = F[1:]
    if rest and rest[0] in ("ACT", "PLAY", "MAT"):
        if len(rest) > 1:
            _stack_shape_fault(frames, f"nothing is stacked on {rest[0]}")
        return
    row = None
    if rest and rest[0] == "ROW":
        row, body, rest = body[0], body[1:], rest[1:]
    elif rest and rest[0] == "POW":
        _check_white_pow(frames, body[0], pls, cur)
        body, rest = body[1:], rest[1:]
    pink = None
    if rest and rest[0] == "PINK":
        pink, body, rest = body[0], body[1:], rest[1:]
        _check_pink_on(frames, pink, row, F[1] if F[1]["f"] == FRAME_NAMES.index("POW") else None, pls, cur)
    if rest and rest[0] == "POW":
        if pink is not None:
            _check_pink_pow(frames, body[0], pink)
        elif row is not None:
            _check_row_pow(frames, body[0], row, pls)
        else:
            _stack_shape_fault(frames, "a second power without a pink event between")
        rest = rest[1:]
    if rest:
        _stack_shape_fault(frames, f"a {rest[0]} frame cannot stand there")


def _check_white_pow(frames, P, pls, cur):
    b, slot = P["bird"], P["slot"]
    if _COLOUR[b] != COL_WHITE or P["rep"] or P["seat"] != cur:
        _stack_shape_fault(frames, f"the power on the TURN frame is the white power of the bird just played, "
                                   f"and {_bird_name(b)} is not white (a brown power runs on its row's ROW frame)")
    if slot % 5 != len(pls[cur]["rows"][slot // 5]) - 1:
        _stack_shape_fault(frames, f"the bird just played is the rightmost of its row, slot {slot} is not")


def _check_pink_on(frames, pink, row, white, pls, cur):
    ev = _EVENTS[pink["ev"]]
    if row is None:
        if ev != "c":
            _stack_shape_fault(frames, f"pink event {ev!r} follows a mat step or a predator, on its ROW frame")
        placed = pls[cur]["rows"][pink["hab"]]
        if not placed:
            _stack_shape_fault(frames, f"no bird was played into the {HABS[pink['hab']]}")
        if white is not None and white["slot"] // 5 != pink["hab"]:
            _stack_shape_fault(frames, "the pink event names another habitat than the bird just played")
        if white is None and _COLOUR[placed[-1][0]] == COL_WHITE:
            _stack_shape_fault(frames, "the white power of the bird just played waits below the pink event")
        return
    fresh = row["col"] == len(pls[cur]["rows"][row["hab"]]) - 1
    if ev == "c" or (ev == "a" and (row["hab"] != 1 or not fresh)) \
            or (ev == "b" and (row["hab"] != 0 or not fresh)) or (ev == "d" and fresh):
        _stack_shape_fault(frames, f"pink event {ev!r} cannot follow this row activation")


def _check_pink_pow(frames, P, pink):
    b = P["bird"]
    if _TRIG[b] != pink["ev"] or (pink["ev"] == EV_C and _TARG[b] != pink["hab"]):
        _stack_shape_fault(frames, f"{_bird_name(b)} does not react to this pink event")


def _check_row_pow(frames, P, row, pls):
    col = row["col"] + 1
    slot, here = P["slot"], 5 * row["hab"] + row["col"] + 1
    if slot // 5 != row["hab"] or col >= 5:
        _stack_shape_fault(frames, "a brown power runs on the row that activates it")
    if not P["rep"]:
        if slot != here or _COLOUR[P["bird"]] != COL_BROWN:
            _stack_shape_fault(frames, f"the row has just activated column {col + 1}, not slot {slot}")
        return
    repeater = _bird_at(pls, P["seat"], here)
    if repeater < 0 or _verb(repeater, 0) not in (V["REPEAT_BROWN"], V["REPEAT_PREDATOR"]) or slot == here:
        _stack_shape_fault(frames, "a repeated power needs the repeat power the row has just activated")


def play_stack(frames, h, pls, pending_owner):
    n, cur = h["n"], h["cur"]
    if not frames:
        _fault("during play the stack holds at least the TURN (or EOT) frame of the current turn")
    out = []
    for i, fr in enumerate(frames):
        w = f"stack[{i}]"
        f = fr["f"]
        if f in ("SETUP", "ROUND_END"):
            _fault(f"{w}: a {f} frame is never pending during play")
        if (f in ("TURN", "EOT")) != (i == 0):
            _fault(f"{w}: the TURN or EOT frame of the current turn is the bottom frame, and only it")
        if f == "EOT" and len(frames) != 1:
            _fault(f"{w}: nothing is stacked on the EOT frame")
        if f == "ACT" and (i != 1 or len(frames) != 2):
            _fault(f"{w}: an ACT frame sits alone on the TURN frame")
        if f != "PINK" and f != "POW":
            if _int(fr["seat"], f"{w}.seat", 0, n - 1) != cur:
                _fault(f"{w}.seat must be the current player {cur}")
        if f in ("TURN", "ACT"):
            out.append(_frame(f, cur))
        elif f == "EOT":
            out.append(_frame(f, cur, last=_int(fr["last"], f"{w}.last", -1, NB - 1)))
        elif f == "ROW":
            hab = _int(fr["hab"], f"{w}.hab", 0, 2)
            out.append(_frame(f, cur, hab=hab, col=_int(fr["col"], f"{w}.col", -1, len(pls[cur]["rows"][hab]) - 1)))
        elif f == "MAT":
            hab = _int(fr["hab"], f"{w}.hab", 0, 2)
            out.append(_frame(f, cur, hab=hab, n=_int(fr["n"], f"{w}.n", 0, 6),
                              trade=_int(fr["trade"], f"{w}.trade", 0, 1),
                              last=_int(fr["last"], f"{w}.last", -1, (-1, 14, 2)[hab]),
                              deck=_int(fr["deck"], f"{w}.deck", 0, 1 if hab == 2 else 0),
                              rodent=_int(fr["rodent"], f"{w}.rodent", 0, 1 if hab == 0 else 0)))
        elif f == "PLAY":
            out.append(_play_frame(fr, w, h, pls))
        elif f == "POW":
            out.append(_pow_frame(fr, w, h, pls, pending_owner))
        else:
            out.append(_pink_frame(fr, w, h, pls))
    if frames[0]["f"] == "TURN":
        _check_stack_shape(frames, out, h, pls)
    act_pending = len(frames) == 2 and frames[1]["f"] == "ACT"
    for p in range(n):
        done = sum(1 for k in range(h["t"]) if (h["first"] + k) % n == p)
        want = (9 - h["round"]) - done - (1 if (p == cur and not act_pending) else 0)
        if pls[p]["cubes"] != want:
            _fault(f"players[{p}].cubes must be {want} (round {h['round']}, turn t {h['t']}), got {pls[p]['cubes']}")
    return out
