"""The bridge between the C position and plain Python values.  ``dump`` writes every field
of ``Core`` as ints and lists; ``load`` is its inverse and the one place where a position
from outside enters the struct.  It trusts the values it gets: ``text.py`` checks every one
of them (type, range, consistency) before it calls ``load``, and ``load`` only refuses lists
longer than the arrays they fill."""
from libc.stdint cimport uint64_t
from libc.string cimport memset

from roost.core.wingspan.tables cimport *
from roost.core.wingspan.state cimport Core, Frame, Player

FRAME_FIELDS = ("f", "seat", "src", "req", "card", "hab", "egg", "last", "paid", "n", "trade",
                "deck", "rodent", "col", "slot", "bird", "step", "did", "asked", "rep", "k",
                "slast", "sdeck", "food", "spaid", "first", "order", "norder", "i", "drawn",
                "ndrawn", "ev", "active", "q", "stage")


cdef dict dump_frame(Frame* F):
    return {"f": F.f, "seat": F.seat, "src": F.src, "req": F.req, "card": F.card, "hab": F.hab,
            "egg": F.egg, "last": F.last, "paid": [F.paid[i] for i in range(5)], "n": F.n,
            "trade": F.trade, "deck": F.deck, "rodent": F.rodent, "col": F.col, "slot": F.slot,
            "bird": F.bird, "step": F.step, "did": F.did, "asked": F.asked, "rep": F.rep, "k": F.k,
            "slast": F.slast, "sdeck": F.sdeck, "food": F.food, "spaid": F.spaid, "first": F.first,
            "order": [F.order[i] for i in range(5)], "norder": F.norder, "i": F.i,
            "drawn": [F.drawn[0], F.drawn[1]], "ndrawn": F.ndrawn, "ev": F.ev, "active": F.active,
            "q": [F.q[i] for i in range(5)], "stage": F.stage}


cdef void load_frame(Frame* F, dict d) except *:
    cdef int i
    memset(F, 0, sizeof(Frame))
    F.f = d["f"]
    F.seat = d["seat"]
    F.src = d["src"]
    F.req = d["req"]
    F.card = d["card"]
    F.hab = d["hab"]
    F.egg = d["egg"]
    F.last = d["last"]
    F.n = d["n"]
    F.trade = d["trade"]
    F.deck = d["deck"]
    F.rodent = d["rodent"]
    F.col = d["col"]
    F.slot = d["slot"]
    F.bird = d["bird"]
    F.step = d["step"]
    F.did = d["did"]
    F.asked = d["asked"]
    F.rep = d["rep"]
    F.k = d["k"]
    F.slast = d["slast"]
    F.sdeck = d["sdeck"]
    F.food = d["food"]
    F.spaid = d["spaid"]
    F.first = d["first"]
    F.norder = d["norder"]
    F.i = d["i"]
    F.ndrawn = d["ndrawn"]
    F.ev = d["ev"]
    F.active = d["active"]
    F.stage = d["stage"]
    for i in range(5):
        F.paid[i] = d["paid"][i]
        F.order[i] = d["order"][i]
        F.q[i] = d["q"][i]
    for i in range(2):
        F.drawn[i] = d["drawn"][i]


cdef dict dump_player(Core* c, int p):
    cdef Player* P = &c.pl[p]
    cdef int b, s
    return {"hand": [b for b in range(NB) if (P.hand[b >> 6] >> (b & 63)) & 1],
            "food": [P.food[s] for s in range(5)], "cubes": P.cubes,
            "rows": [P.rows[s] for s in range(3)], "bird": [P.bird[s] for s in range(15)],
            "egg": [P.egg[s] for s in range(15)],
            "cache": [[P.cache[s][b] for b in range(5)] for s in range(15)],
            "ntuck": [P.ntuck[s] for s in range(15)], "pink_used": P.pink_used, "owe": P.owe,
            "skeep": P.skeep, "sfood": [P.sfood[s] for s in range(5)], "sbonus": P.sbonus}


cdef void load_player(Core* c, int p, dict d) except *:
    cdef Player* P = &c.pl[p]
    cdef int b, s, t
    for b in d["hand"]:
        P.hand[b >> 6] |= (<uint64_t>1) << (b & 63)
    P.nhand = len(d["hand"])
    P.cubes = d["cubes"]
    for t in range(5):
        P.food[t] = d["food"][t]
        P.sfood[t] = d["sfood"][t]
    for t in range(3):
        P.rows[t] = d["rows"][t]
    for s in range(15):
        P.bird[s] = d["bird"][s]
        P.egg[s] = d["egg"][s]
        P.ntuck[s] = d["ntuck"][s]
        for t in range(5):
            P.cache[s][t] = d["cache"][s][t]
    P.pink_used = d["pink_used"]
    P.owe = d["owe"]
    P.skeep = d["skeep"]
    P.sbonus = d["sbonus"]


cdef dict dump(Core* c):
    cdef int i, e, p, r
    return {
        "n": c.n, "side": c.side, "phase": c.phase, "round": c.round, "first": c.first, "t": c.t,
        "cur": c.cur, "nscored": c.nscored, "goals": [c.goals[i] for i in range(4)],
        "goal_pts": [[c.goal_pts[r][p] for p in range(c.n)] for r in range(c.nscored)],
        "rng": c.rng,
        "cloc": [c.cloc[i] for i in range(NB)], "cown": [c.cown[i] for i in range(NB)],
        "cslot": [c.cslot[i] for i in range(NB)], "ctag": [c.ctag[i] for i in range(NB)],
        "ctk": [c.ctk[i] for i in range(NB)],
        "deck": [c.deck[i] for i in range(c.ndeck)], "depoch": c.depoch,
        "forms": [[c.forms[i] for i in range(c.form_end[e - 1], c.form_end[e])]
                  for e in range(1, c.nforms + 1)],
        "discard": [c.disc[i] for i in range(c.ndisc)], "tray": [c.tray[i] for i in range(3)],
        "draft": [c.draft[i] for i in range(c.ndraft)], "fd": [c.fd[i] for i in range(6)],
        "bloc": [c.bloc[i] for i in range(NBON)], "bown": [c.bown[i] for i in range(NBON)],
        "btag": [c.btag[i] for i in range(NBON)],
        "bdeck": [c.bdeck[i] for i in range(c.nbdeck)], "bepoch": c.bepoch,
        "bforms": [[(c.bf_id[i], c.bf_tag[i], c.bf_who[i]) for i in range(c.bf_end[e - 1], c.bf_end[e])]
                   for e in range(1, c.nbforms + 1)],
        "bdiscard": [c.bdisc[i] for i in range(c.nbdisc)],
        "players": [dump_player(c, p) for p in range(c.n)],
        "stack": [dump_frame(&c.st[i]) for i in range(c.nst)],
        "actor": c.actor, "purpose": c.purpose, "kind": c.kind,
    }


cdef void _fits(list values, int cap, str what) except *:
    if len(values) > cap:
        raise ValueError(f"{what}: {len(values)} entries, room for {cap}")


cdef void load(Core* c, dict raw) except *:
    cdef int i, e, p, r, k
    _fits(raw["deck"], NB, "deck")
    _fits(raw["discard"], NB, "discard")
    _fits(raw["draft"], 8, "draft")
    _fits(raw["forms"], MAXEP - 1, "deck formations")
    _fits([b for form in raw["forms"] for b in form], FORMCAP, "deck formation cards")
    _fits(raw["bforms"], MAXBEP, "bonus formations")
    _fits([b for form in raw["bforms"] for b in form], BFCAP, "bonus formation entries")
    _fits(raw["stack"], MAXF, "stack")
    memset(c, 0, sizeof(Core))
    c.n = raw["n"]
    c.side = raw["side"]
    c.phase = raw["phase"]
    c.round = raw["round"]
    c.first = raw["first"]
    c.t = raw["t"]
    c.cur = raw["cur"]
    c.nscored = raw["nscored"]
    for i in range(4):
        c.goals[i] = raw["goals"][i]
    for r, row in enumerate(raw["goal_pts"]):
        for p, v in enumerate(row):
            c.goal_pts[r][p] = v
    c.rng = raw["rng"]
    for i in range(NB):
        c.cloc[i] = raw["cloc"][i]
        c.cown[i] = raw["cown"][i]
        c.cslot[i] = raw["cslot"][i]
        c.ctag[i] = raw["ctag"][i]
        c.ctk[i] = raw["ctk"][i]
    c.ndeck = len(raw["deck"])
    for i, b in enumerate(raw["deck"]):
        c.deck[i] = b
    c.depoch = raw["depoch"]
    c.nforms = len(raw["forms"])
    k = 0
    for e, form in enumerate(raw["forms"]):
        for b in form:
            c.forms[k] = b
            k += 1
        c.form_end[e + 1] = k
    c.formlen = k
    c.ndisc = len(raw["discard"])
    for i, b in enumerate(raw["discard"]):
        c.disc[i] = b
    for i in range(3):
        c.tray[i] = raw["tray"][i]
    c.ndraft = len(raw["draft"])
    for i, b in enumerate(raw["draft"]):
        c.draft[i] = b
    c.nfd = 0
    for i in range(6):
        c.fd[i] = raw["fd"][i]
        c.nfd += c.fd[i]
    for i in range(NBON):
        c.bloc[i] = raw["bloc"][i]
        c.bown[i] = raw["bown"][i]
        c.btag[i] = raw["btag"][i]
    c.nbdeck = len(raw["bdeck"])
    for i, b in enumerate(raw["bdeck"]):
        c.bdeck[i] = b
    c.bepoch = raw["bepoch"]
    c.nbforms = len(raw["bforms"])
    k = 0
    for e, form in enumerate(raw["bforms"]):
        for b, tag, who in form:
            c.bf_id[k] = b
            c.bf_tag[k] = tag
            c.bf_who[k] = who
            k += 1
        c.bf_end[e + 1] = k
    c.bflen = k
    c.nbdisc = len(raw["bdiscard"])
    for i, b in enumerate(raw["bdiscard"]):
        c.bdisc[i] = b
    for p in range(MAXP):
        for i in range(15):
            c.pl[p].bird[i] = -1
        c.pl[p].sbonus = -1
    for p, pd in enumerate(raw["players"]):
        load_player(c, p, pd)
    c.nst = len(raw["stack"])
    for i, fr in enumerate(raw["stack"]):
        load_frame(&c.st[i], fr)
