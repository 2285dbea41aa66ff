"""A tiny, independent pure-Python model of the CuBirds decision rules (rules file
docs/rules/cubirds.md), written from the rules text only, for checking perft values.

It reads the position JSON itself and follows the rules file's perft convention (§10): decision
moves are counted; a finished game with depth left counts 0; a position where a chance
event must happen (a draw, a card completing a row, a deal) counts 1 and is not expanded.
It never draws cards, so the draw pile's contents do not matter, only its size.
"""
import copy
import json
from collections import Counter

SPECIES = "FOTDPMWR"
COPIES = dict(zip(SPECIES, (7, 10, 10, 13, 13, 17, 20, 20)))
SMALL = dict(zip(SPECIES, (2, 3, 3, 4, 4, 5, 6, 6)))
BIG = dict(zip(SPECIES, (3, 4, 4, 6, 6, 7, 9, 9)))


class Table:
    def __init__(self, text):
        d = json.loads(text)
        self.n = d["players"]
        self.dealer = d["dealer"]
        self.player = d["to_move"]
        self.phase = d["phase"]          # lay / draw / flock / complete / chance / over
        if self.phase not in ("lay", "draw", "flock", "complete", "over"):
            self.phase = "chance"
        self.rows = list(d["rows"])
        self.hands = [Counter(h) for h in d["hands"]]
        self.colls = [Counter(c) for c in d["collections"]]
        self.pile = len(d["deck"])
        self.disc = len(d["discard"])
        self.turn = d["turn"]
        self.row = d.get("row", 0) - 1
        self.card = d.get("card")


def moves(t):
    if t.phase == "lay":
        hand = t.hands[t.player]
        return [SPECIES.index(x) * 8 + r * 2 + e
                for x in SPECIES if hand[x] > 0 for r in range(4) for e in (0, 1)]
    if t.phase == "draw":
        return [64, 65]
    if t.phase == "flock":
        hand = t.hands[t.player]
        return [66 + SPECIES.index(x) for x in SPECIES if hand[x] >= SMALL[x]] + [74]
    if t.phase == "complete":
        return [75, 76]
    return []


def _wins(coll):
    kinds = [x for x in SPECIES if coll[x] > 0]
    threes = [x for x in SPECIES if coll[x] >= 3]
    return len(kinds) >= 7 or len(threes) >= 2


def _end_turn(t):
    p = t.player
    if _wins(t.colls[p]):
        t.phase = "over"
        return
    t.turn += 1
    if t.turn >= 1000:
        t.phase = "over"
        return
    if sum(t.hands[p].values()) == 0:
        for q in range(t.n):
            t.disc += sum(t.hands[q].values())
            t.hands[q] = Counter()
        t.phase = "over" if t.pile + t.disc < 8 * t.n else "chance"
        return
    t.player = (p + 1) % t.n
    t.phase = "lay"


def _flock_or_end(t):
    hand = t.hands[t.player]
    if any(hand[x] >= SMALL[x] for x in SPECIES):
        t.phase = "flock"
    else:
        _end_turn(t)


def play(t, m):
    t = copy.deepcopy(t)
    hand = t.hands[t.player]
    if m < 64:
        x, r, end = SPECIES[m // 8], (m // 2) % 4, m % 2
        k = hand.pop(x)
        row = t.rows[r]
        if end == 0:
            i = row.find(x)
            took = row[:i] if i >= 0 else ""
            row = x * k + (row[i:] if i >= 0 else row)
        else:
            i = row.rfind(x)
            took = row[i + 1:] if i >= 0 else ""
            row = (row[:i + 1] if i >= 0 else row) + x * k
        t.rows[r] = row
        hand.update(took)
        if took:
            if len(set(row)) == 1 and t.pile + t.disc > 0:
                t.phase = "chance"
            else:
                _flock_or_end(t)
        elif t.pile + t.disc > 0:
            t.phase = "draw"
        else:
            _flock_or_end(t)
    elif m == 64:
        t.phase = "chance"
    elif m == 65:
        _flock_or_end(t)
    elif m < 74:
        x = SPECIES[m - 66]
        k = hand.pop(x)
        keep = 2 if k >= BIG[x] else 1
        t.colls[t.player][x] += keep
        t.disc += k - keep
        _end_turn(t)
    elif m == 74:
        _end_turn(t)
    else:
        row = t.rows[t.row]
        t.rows[t.row] = t.card + row if m == 75 else row + t.card
        _flock_or_end(t)
    return t


def perft(t, depth):
    if depth == 0:
        return 1
    if t.phase == "over":
        return 0
    if t.phase == "chance":
        return 1
    ms = moves(t)
    if depth == 1:
        return len(ms)
    return sum(perft(play(t, m), depth - 1) for m in ms)


def reference_perft(text, depth):
    return perft(Table(text), depth)
