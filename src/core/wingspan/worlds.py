"""The record of a determinized position (§6.4), so that a world drawn for a seat is written
as position text like any other: its turn's start and the moves since.

The native determinization deals the cards the seat has not seen again (information.pyx);
it keeps every place and its tags and changes which card is where, so it is a relabelling
of the hidden cards.  The world's turn start is the real one with the same relabelling (the
discard pile excepted: a card in it was seen, and reaches a hidden place only through a
reshuffle, whose told order is relabelled instead), the world's seed, and every move of the
real turn (forced ones included, the hidden cards they name relabelled) with every chance
outcome it had told, so that the world's future is still its own seed's.  The replay is
checked to reach the world exactly; when it does not (a relabelled card that changes what
a power does), the world keeps no record and is written in the JSON form."""
from roost.core.wingspan import told as _told
from roost.core.wingspan.tables import (
    NB, NBON, L_DECK, L_HAND, L_TUCK, B_DECK, B_DISC, B_HELD, B_PEND, O_CARD, O_BONUS, PH_SETUP,
    O_YESNO, O_FOOD)

_NOT_COMPARED = ("record", "actor", "purpose", "kind", "deck_index")


def _bird_place(raw, b):
    loc = raw["cloc"][b]
    if loc == L_DECK:
        return ("deck", raw["deck_index"][b])
    if loc == L_HAND:
        return ("hand", raw["cown"][b], raw["ctag"][b])
    if loc == L_TUCK:
        return ("tuck", raw["cown"][b], raw["cslot"][b], raw["ctk"][b], raw["ctag"][b])
    return ("seen", b)


def _bonus_place(raw, b):
    loc = raw["bloc"][b]
    if loc == B_DECK:
        return ("deck", raw["bdeck"].index(b))
    if loc == B_DISC:
        return ("discard", raw["bdiscard"].index(b))
    if loc == B_PEND:               # drawn by a pending power: its frame and its place there
        return next(("pending", i, j) for i, F in enumerate(raw["stack"])
                    for j in range(F["ndrawn"]) if F["drawn"][j] == b)
    return ("held", raw["bown"][b], raw["btag"][b])


def _relabelling(real, world, count, place):
    """{card: card} pairing each place's cards of ``real`` with ``world``'s: a card in the
    same place in both with itself (one the seat has seen: a card named by a pending play),
    the others lowest first; None when the places differ."""
    groups = {}
    for b in range(count):
        groups.setdefault(place(real, b), [[], []])[0].append(b)
    for b in range(count):
        key = place(world, b)
        if key not in groups:
            return None
        groups[key][1].append(b)
    pi = {}
    for mine, theirs in groups.values():
        if len(mine) != len(theirs):
            return None
        both = set(mine) & set(theirs)
        pi.update((b, b) for b in both)
        pi.update(zip(sorted(set(mine) - both), sorted(set(theirs) - both)))
    return pi


def _relabel_start(start, world, pi, pib):
    """The world's turn start: the real start with its hidden cards relabelled."""
    keep = set(start["discard"])
    sigma = [b if b in keep else pi[b] for b in range(NB)]
    out = dict(start)
    for key in ("cloc", "cown", "cslot", "ctag", "ctk"):
        arr = [0] * NB
        for b in range(NB):
            arr[sigma[b]] = start[key][b]
        out[key] = arr
    out["deck"] = [sigma[b] for b in start["deck"]]
    out["tray"] = [sigma[b] if b >= 0 else -1 for b in start["tray"]]
    players = []
    for P in start["players"]:
        Q = dict(P)
        Q["hand"] = sorted(sigma[b] for b in P["hand"])
        Q["bird"] = [sigma[b] if b >= 0 else -1 for b in P["bird"]]
        players.append(Q)
    out["players"] = players
    for key in ("bloc", "bown", "btag"):
        arr = [0] * NBON
        for b in range(NBON):
            arr[pib[b]] = start[key][b]
        out[key] = arr
    out["bdeck"] = [pib[b] for b in start["bdeck"]]
    out["bdiscard"] = [pib[b] for b in start["bdiscard"]]
    out["bforms"] = [list(form) for form in world["bforms"][:len(start["bforms"])]]
    out["rng"] = world["rng"]
    out["record"] = None
    return out


def _relabel_move(m, pi, pib):
    if O_CARD <= m < O_CARD + NB:
        return O_CARD + pi[m - O_CARD]
    if O_BONUS <= m < O_BONUS + NBON:
        return O_BONUS + pib[m - O_BONUS]
    return m


def _relabel_told(script, pi, pib):
    """Every outcome of a step, told again for the world: rolls and predator dice as they
    were, a reshuffled deck in its relabelled order, no card off a deck (the world's start
    holds its deck)."""
    out, i = bytearray(), 0
    while i < len(script):
        kind = script[i]
        if kind == _told.ROLL:
            out += script[i:i + 7]
            i += 7
        elif kind == _told.HUNT:
            out += script[i:i + 2]
            i += 2
        elif kind in (_told.SHUFFLE, _told.BSHUFFLE):
            k = script[i + 1]
            m = pi if kind == _told.SHUFFLE else pib
            out += bytes([kind, k] + [m[b] for b in script[i + 2:i + 2 + k]])
            i += 2 + k
        else:                    # DRAW, BDRAW: a card and its id
            i += 2
    return bytes(out)


def _steps(cls, start, log):
    """Every move of a recorded turn, forced ones included, each with every chance outcome
    it had: [(move, outcomes)]."""
    s = cls._load(start)
    s._settle()
    out = []
    for m, told in _told.split_log(log):
        left = told
        n, used, bad, traced = s._replay_move(m, left, True, True)
        out.append((m, traced))
        left = left[used:]
        while n == 1:
            f = s.legal()[0]
            n, used, bad, traced = s._replay_move(f, left, True, True)
            out.append((f, traced))
            left = left[used:]
        if left or bad:
            return None
    return out


def _setup_moves(world):
    """The setup choices a world's buffers hold, in the order they were made (§7.4)."""
    frame = world["stack"][0]
    seat, stage, i = frame["seat"], frame["stage"], frame["i"]
    moves = []
    for q in range(seat + 1):
        P = world["players"][q]
        done = q < seat
        keeps = 5 if done or stage > 0 else i
        moves += [O_YESNO + ((P["skeep"] >> k) & 1) for k in range(keeps)]
        if done or stage > 0:
            foods = [O_FOOD + t for t in range(5) for _ in range(P["sfood"][t])]
            moves += foods if done or stage == 2 else foods[:i]
        if done:
            moves.append(O_BONUS + P["sbonus"])
    return [(m, b"") for m in moves]


def record_of(real, world):
    """The record (start fields, log bytes) that writes ``world``, a determinization of
    ``real``, as its turn's start and the moves since; None when none reaches it."""
    rec = real._record()
    if rec is None:
        return None
    start, log = rec
    r, w = real._raw(), world._raw()
    for raw in (r, w):
        raw["deck_index"] = {b: i for i, b in enumerate(raw["deck"])}
    pi = _relabelling(r, w, NB, _bird_place)
    pib = _relabelling(r, w, NBON, _bonus_place)
    if pi is None or pib is None:
        return None
    if start["phase"] == PH_SETUP:
        steps = _setup_moves(w)
    else:
        steps = _steps(type(real), start, log)
        if steps is None:
            return None
        steps = [(_relabel_move(m, pi, pib), _relabel_told(t, pi, pib)) for m, t in steps]
    s = type(real)._load(_relabel_start(start, w, pi, pib))
    s._settle()
    for m, told in steps:
        if not s.is_legal(m):
            return None
        _, used, bad, _ = s._replay_move(m, told, False, True)
        if bad or used != len(told):
            return None
    got = s._raw()
    if any(got[k] != w[k] for k in w if k not in _NOT_COMPARED) or s.legal() != world.legal():
        return None
    return s._record()
