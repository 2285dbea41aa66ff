"""The record of a determinized position (§6.4), so that a world drawn for a seat is written
as position text like any other: its turn's start and the moves since.

The native determinization deals the cards the seat has not seen again (information.pyx);
it keeps every place and its tags and changes which card is where, so it is a relabelling
of the hidden cards.  The world's turn start is the real one with the same relabelling (the
discard pile excepted: a card in it was seen, and reaches a hidden place only through a
reshuffle, whose told order is relabelled instead), the world's seed, and every move of the
real turn (forced ones included, the hidden cards they name relabelled) with every chance
outcome it had told, so that the world's future is still its own seed's.  The replay is
checked to reach the world; when it does not (a relabelled card that changes what a power
does), the world keeps no record and is written in the JSON form."""
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


def _relabel_told(script, told, pi, pib):
    """Every outcome of a step (``script``, traced), told again for the world: rolls and
    predator dice as they were, a reshuffled deck in its relabelled order, and the cards off
    a deck where the real replay was told them too (``told``; otherwise the world's start
    holds its deck)."""
    kinds = {kind for kind, _ in _told.entries(told)}
    out = bytearray()
    for kind, outcome in _told.entries(script):
        if kind in (_told.ROLL, _told.HUNT):
            out += bytes([kind]) + outcome
        elif kind in (_told.SHUFFLE, _told.BSHUFFLE):
            m = pi if kind == _told.SHUFFLE else pib
            out += bytes([kind, outcome[0]] + [m[b] for b in outcome[1:]])
        elif kind in kinds:                  # DRAW, BDRAW the real replay was told
            out += bytes([kind, (pi if kind == _told.DRAW else pib)[outcome[0]]])
    return bytes(out)


def _steps(cls, start, log):
    """Every move of a recorded turn, forced ones included, each with every chance outcome
    it had and the outcomes the record told it: [(move, outcomes, told)]."""
    s = cls._load(start)
    s._settle()
    out = []
    for m, told in _told.split_log(log):
        left = told
        n = 0
        while True:
            n, used, bad, traced = s._replay_move(m, left, True, True)
            if bad:
                return None
            out.append((m, traced, left[:used]))
            left = left[used:]
            if n != 1:
                break
            m = s.legal()[0]
        if left:
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


_BONUS_FIELDS = ("bloc", "bown", "btag", "bdeck", "bdiscard", "bforms", "stack")


def recorded(real, world, observer):
    """``world``, a determinization of ``real`` for ``observer``, with the record that writes
    it as its turn's start and the moves since; None when no replay reaches it.

    When the bonus discards were reshuffled during the turn, the world's bonus deck (dealt
    anew by the determinization) does not come from any order of the discards the observer
    saw at the turn's start; the world handed back is then the replay from that start, the
    discards dealt as the determinization dealt the reshuffle's entries, which differs from
    ``world`` only in where the reshuffled bonus cards the observer has not seen are, and
    shows the observer the same view."""
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
    reshuffled = len(w["bforms"]) > len(start["bforms"])
    if reshuffled:
        # the discards the observer knows stay where they were; the others are dealt the
        # reshuffle's cards it does not know, in the order the determinization dealt them
        known = {b for b in start["bdiscard"] if pib[b] == b or start["bown"][b] == observer}
        others = [b for b in start["bdiscard"] if b not in known]
        dealt = [b for b, _, _ in w["bforms"][len(start["bforms"])] if b not in known]
        pib.update(zip(others, dealt))
        pib.update((b, b) for b in known)
        if len(set(pib.values())) != NBON:
            return None
    if start["phase"] == PH_SETUP:
        steps = _setup_moves(w)
    else:
        steps = _steps(type(real), start, log)
        if steps is None:
            return None
        steps = [(_relabel_move(m, pi, pib), _relabel_told(t, told, pi, pib)) for m, t, told in steps]
    s = type(real)._load(_relabel_start(start, w, pi, pib))
    s._settle()
    for m, told in steps:
        if not s.is_legal(m):
            return None
        _, used, bad, _ = s._replay_move(m, told, False, True)
        if bad or used != len(told):
            return None
    got = s._raw()
    if reshuffled:
        same = all(got[k] == w[k] for k in w if k not in _NOT_COMPARED + _BONUS_FIELDS)
        return s if same and s.view(observer) == real.view(observer) else None
    if any(got[k] != w[k] for k in w if k not in _NOT_COMPARED) or s.legal() != world.legal():
        return None
    world._keep_record(s._record())
    return world
