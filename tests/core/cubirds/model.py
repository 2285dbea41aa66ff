"""A second, independent pure-Python model of CuBirds (rules file docs/rules/cubirds.md),
written by the auditor from the rules text: the whole game, chance included, with the
engine's chance conventions (§7.1: an outcome is the species of the card drawn; the discard
pile becomes the draw pile when a card must be drawn from an empty one) and its information
fields (§7.2: known cards, "lacks" facts).  tests/core/cubirds/test_cubirds_rules.py replays
seeded games in both and compares the full position text after every move and chance
event."""
import json
from collections import Counter
SP = "FOTDPMWR"
COPIES = dict(zip(SP, (7, 10, 10, 13, 13, 17, 20, 20)))
SMALL = dict(zip(SP, (2, 3, 3, 4, 4, 5, 6, 6)))
BIG = dict(zip(SP, (3, 4, 4, 6, 6, 7, 9, 9)))

class M:
    def __init__(s, text):
        d = json.loads(text)
        s.n = d["players"]; s.dealer = d["dealer"]; s.player = d["to_move"]; s.phase = d["phase"]
        s.rows = list(d["rows"]); s.hands = [Counter(h) for h in d["hands"]]
        s.known = [Counter(h) for h in d.get("known", [""] * s.n)]
        s.lacks = [set(h) for h in d.get("lacks", [""] * s.n)]
        s.colls = [Counter(h) for h in d["collections"]]
        s.disc = Counter(d["discard"]); s.deck = Counter(d["deck"]); s.turn = d["turn"]
        s.pending = d.get("pending", 0); s.frow = d.get("row", 0) - 1; s.card = d.get("card")
        s.winners = d.get("winners", [])
    def dump(s):
        L = lambda c: "".join(x * c[x] for x in SP)
        d = {"players": s.n, "dealer": s.dealer, "to_move": s.player, "phase": s.phase,
             "rows": s.rows, "hands": [L(h) for h in s.hands], "known": [L(h) for h in s.known],
             "lacks": ["".join(x for x in SP if x in l) for l in s.lacks],
             "collections": [L(c) for c in s.colls], "discard": L(s.disc), "deck": L(s.deck), "turn": s.turn}
        if s.phase == "drawing": d["pending"] = s.pending
        if s.phase in ("filling", "complete"): d["row"] = s.frow + 1
        if s.phase == "complete": d["card"] = s.card
        if s.phase == "over": d["winners"] = s.winners
        return d
    # piles
    def can_draw(s):
        if sum(s.deck.values()) == 0 and sum(s.disc.values()) > 0:
            s.deck += s.disc; s.disc = Counter()
        return sum(s.deck.values()) > 0
    def end_by_collections(s):
        tot = [sum(c.values()) for c in s.colls]; m = max(tot)
        s.winners = [q for q in range(s.n) if tot[q] == m]; s.phase = "over"
    def wins(s, c):
        return sum(1 for x in SP if c[x]) >= 7 or sum(1 for x in SP if c[x] >= 3) >= 2
    def end_turn(s):
        p = s.player
        if s.wins(s.colls[p]):
            s.winners = [p]; s.phase = "over"; return
        s.turn += 1
        if s.turn >= 1000:
            s.end_by_collections(); return
        if sum(s.hands[p].values()) == 0:
            for q in range(s.n):
                if q != p:
                    s.disc += s.hands[q]; s.hands[q] = Counter(); s.known[q] = Counter()
                s.lacks[q] = set()
            s.dealer = p
            if sum(s.deck.values()) + sum(s.disc.values()) < 8 * s.n:
                s.end_by_collections(); return
            s.phase = "deal"; s.can_draw(); return
        s.player = (p + 1) % s.n; s.phase = "lay"
    def flock_or_end(s):
        h = s.hands[s.player]
        if any(h[x] >= SMALL[x] for x in SP): s.phase = "flock"
        else: s.end_turn()
    def recipient(s):
        for k in range(s.n):
            q = (s.dealer + k) % s.n
            if sum(s.hands[q].values()) < 8: return q
        return None
    def play(s, m):
        p = s.player
        h = s.hands[p]
        if m >= 80:
            x = SP[m - 80]; assert s.deck[x] > 0
            s.deck[x] -= 1
            s.deck += Counter()
            if s.phase == "drawing":
                h[x] += 1; s.lacks[p] = set(); s.pending -= 1
                if s.pending > 0 and s.can_draw(): return
                s.pending = 0; s.flock_or_end()
            elif s.phase == "filling":
                r = s.frow
                if x == s.rows[r][0]:
                    s.rows[r] += x
                    if s.can_draw(): return
                    s.frow = -1; s.flock_or_end()
                else:
                    s.card = x; s.phase = "complete"
            elif s.phase == "deal":
                q = s.recipient(); s.hands[q][x] += 1; s.lacks[q] = set()
                if s.recipient() is None: s.phase = "lay"; s.player = s.dealer
                else: s.can_draw()
            elif s.phase == "setup":
                for r in range(4):
                    if len(s.rows[r]) < 3:
                        if x in s.rows[r]: s.disc[x] += 1
                        else: s.rows[r] += x
                        s.can_draw(); return
                q = s.recipient()
                if q is not None:
                    s.hands[q][x] += 1; s.lacks[q] = set(); s.can_draw(); return
                for k in range(s.n):
                    q = (s.dealer + k) % s.n
                    if not s.colls[q]:
                        s.colls[q][x] = 1
                        if k == s.n - 1: s.phase = "lay"; s.player = s.dealer
                        else: s.can_draw()
                        return
            else:
                raise AssertionError("card outside a chance phase")
            return
        if m < 64:
            assert s.phase == "lay"
            x, r, e = SP[m // 8], (m // 2) % 4, m % 2
            k = h[x]; assert k > 0
            del h[x]; s.known[p].pop(x, None); s.lacks[p].add(x)
            row = s.rows[r]
            idx = [i for i, y in enumerate(row) if y == x]
            if not idx:
                row = x * k + row if e == 0 else row + x * k; took = ""
            elif e == 0:
                j = idx[0]; took = row[:j]; row = x * k + row[j:]
            else:
                j = idx[-1]; took = row[j + 1:]; row = row[:j + 1] + x * k
            s.rows[r] = row
            for y in took: h[y] += 1; s.known[p][y] += 1
            if took:
                if len(set(row)) == 1:
                    if s.can_draw():
                        s.frow = r; s.phase = "filling"; return
                s.flock_or_end(); return
            if sum(s.deck.values()) + sum(s.disc.values()) > 0:
                s.phase = "draw"
            else:
                s.flock_or_end()
        elif m == 64:
            assert s.phase == "draw"; s.pending = 2; s.phase = "drawing"; s.can_draw()
        elif m == 65:
            assert s.phase == "draw"; s.flock_or_end()
        elif 66 <= m < 74:
            assert s.phase == "flock"
            x = SP[m - 66]; k = h[x]; assert k >= SMALL[x]
            keep = 2 if k >= BIG[x] else 1
            s.colls[p][x] += keep; s.disc[x] += k - keep
            del h[x]; s.known[p].pop(x, None); s.lacks[p].add(x)
            s.end_turn()
        elif m == 74:
            assert s.phase == "flock"; s.end_turn()
        elif m in (75, 76):
            assert s.phase == "complete"
            r = s.frow
            s.rows[r] = s.card + s.rows[r] if m == 75 else s.rows[r] + s.card
            s.frow = -1; s.card = None; s.flock_or_end()
    def legal(s):
        h = s.hands[s.player]
        if s.phase == "lay": return [SP.index(x) * 8 + j for x in SP if h[x] for j in range(8)]
        if s.phase == "draw": return [64, 65]
        if s.phase == "flock": return [66 + SP.index(x) for x in SP if h[x] >= SMALL[x]] + [74]
        if s.phase == "complete": return [75, 76]
        if s.phase == "over": return []
        return [80 + SP.index(x) for x in SP if s.deck[x]]
    def to_move(s):
        if s.phase in ("drawing", "filling", "deal", "setup"): return -1
        if s.phase == "complete": return s.dealer
        return s.player
