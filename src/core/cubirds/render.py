"""CuBirds as a picture in text: the table from one seat (or omniscient)."""
from roost.core.errors import GameError
from roost.core.cubirds.text import LETTERS, SPECIES_NAMES, SMALL, BIG, NSP, NROWS


def _counts(cards):
    if not cards:
        return "-"
    return " ".join(f"{l}x{cards.count(l)}" for l in LETTERS if l in cards)


def status(s):
    """One line: who is to do what, or who won."""
    ph, p = s.phase, s.turn_player
    raw = s._raw()
    if ph == "lay":
        return f"seat {p} to lay"
    if ph == "draw":
        return f"seat {p} took nothing: draw two or not (draw / nodraw)"
    if ph == "flock":
        return f"seat {p} may form a flock (flock:X / noflock)"
    if ph == "complete":
        return (f"dealer seat {s.dealer} chooses the end of row {raw['row'] + 1} for the "
                f"completing {LETTERS[raw['card']]} (left / right)")
    if ph == "drawing":
        return f"chance: seat {p} draws ({raw['pending']} to go)"
    if ph == "filling":
        return f"chance: row {raw['row'] + 1} is being completed from the draw pile"
    if ph == "deal":
        return f"chance: seat {s.dealer} deals (seat {s.next_recipient} next)"
    if ph == "setup":
        return "chance: setting up"
    w = s.winners()
    if len(w) == 1:
        return f"game over: seat {w[0]} wins"
    return "game over: seats " + ", ".join(map(str, w)) + " share the victory"


def _seat_lines(s, q, observer):
    d = s._raw()
    size = sum(d["hands"][q])
    tag = (f"seat {q}" + (" (you)" if observer == q else "")
           + ("*" if q == s.turn_player and s.phase != "over" else ""))
    known = s.known_cards(q)
    if observer is None or observer == q:
        cards = " ".join(s.hand(q)) or "-"
        extra = f"  known to all: {' '.join(known)}" if known and observer is None else ""
    else:
        cards = " ".join(known) + (" " if known else "") + " ".join("?" * (size - len(known)))
        cards = cards.strip() or "-"
        extra = ""
    lk = s.lacks(q)
    if lk and observer != q:
        extra += f"  holds no hidden {' '.join(lk)}"
    return [f"  {tag:<14} hand {size:>2}: {cards}{extra}",
            f"  {'':<14} collection: {_counts(s.collection(q))}"]


def render(s, observer=None):
    """The table as text, from seat ``observer`` (None: omniscient)."""
    d = s._raw()
    n = d["players"]
    if observer is not None and (isinstance(observer, bool) or not isinstance(observer, int)
                                 or not 0 <= observer < n):
        raise GameError(f"observer must be a seat 0..{n - 1}, not {observer!r}")
    head = f"CuBirds, {n} players, turn {d['turn']}, dealer seat {d['dealer']}"
    if observer is not None:
        head += f" (seen by seat {observer})"
    lines = [head, "rows (left to right):"]
    rows = s.rows()
    for r in range(NROWS):
        mark = "   <- being completed" if d["row"] == r else ""
        lines.append(f"  {r + 1}: {' '.join(rows[r])}{mark}")
    for q in range(n):
        lines.extend(_seat_lines(s, q, observer))
    lines.append(f"discard pile {sum(d['discard'])}: {_counts(s.discard_pile())}")
    if observer is None:
        lines.append(f"draw pile {sum(d['deck'])}: {_counts(s.draw_pile())}")
    else:
        lines.append(f"draw pile {sum(d['deck'])} cards")
    lines.append(status(s))
    lines.append("flocks (small/big): " + ", ".join(
        f"{LETTERS[x]} {SPECIES_NAMES[x]} {SMALL[x]}/{BIG[x]}" for x in range(NSP)))
    return "\n".join(lines)


_COLOURS = {"F": "#ef8fb5", "O": "#8a6d4b", "T": "#f2a33a", "D": "#5aa05a", "P": "#4bb0c9",
            "M": "#555a6e", "W": "#b9a66b", "R": "#d9583b"}
_CARD_W, _CARD_H, _GAP = 26, 36, 4


def _card(x, y, letter, hidden=False):
    """One card: its species' colour and letter, or a face-down card."""
    if hidden:
        return (f'<rect class="card hidden" x="{x}" y="{y}" width="{_CARD_W}" height="{_CARD_H}" rx="4" '
                'fill="#c9c9d6" stroke="#777"/>'
                f'<text x="{x + _CARD_W / 2:.0f}" y="{y + 23}" text-anchor="middle" fill="#777">?</text>')
    return (f'<rect class="card {letter}" x="{x}" y="{y}" width="{_CARD_W}" height="{_CARD_H}" rx="4" '
            f'fill="{_COLOURS[letter]}" stroke="#333"/>'
            f'<text x="{x + _CARD_W / 2:.0f}" y="{y + 23}" text-anchor="middle" fill="white" '
            f'font-weight="bold">{letter}</text>')


_END_W = 22
_HAND_X = 175          # a hand's first card: right of its seat's title ('seat 4 (you) to play')


def _end(x, y, row, side):
    """A row's end as a click target: where laid birds or a completing card go."""
    arrow = "\u25c0" if side == "L" else "\u25b6"
    return (f'<g class="end" data-target="end:{row + 1}{side}">'
            f'<rect x="{x}" y="{y + 2}" width="{_END_W}" height="{_CARD_H - 4}" rx="4" fill="#f3f3f3" '
            f'stroke="#bbb" stroke-dasharray="3 2"/>'
            f'<text x="{x + _END_W / 2:.0f}" y="{y + 22}" text-anchor="middle" font-size="11" '
            f'fill="#999">{arrow}</text></g>')


def svg(s, observer=None):
    """The table as SVG from seat ``observer`` (None: every card face up): the four rows,
    each seat's hand (the others' hidden cards face down, the cards all know face up) and
    collection, the piles, whose turn it is, and the flock sizes.  Click targets: each
    row's ends (``end:2L``), the species in the hand of the seat to play (``hand:R``, when
    the viewer sees it) and the draw pile (``pile:draw``)."""
    from xml.sax.saxutils import escape
    render(s, observer)                  # the same check of the observer as the text
    d = s._raw()
    n = d["players"]
    step = _CARD_W + _GAP
    out = []
    y = 20
    title = f"CuBirds, {n} players, turn {d['turn']}" + (f", seen by seat {observer}" if observer is not None else "")
    out.append(f'<text x="10" y="{y}" font-weight="bold" font-size="15">{escape(title)}</text>')
    y += 16
    widest = 0
    for r, row in enumerate(s.rows()):
        out.append(f'<text class="rowname" x="10" y="{y + 24}">row {r + 1}</text>')
        out.append(_end(70, y, r, "L"))
        x0 = 70 + _END_W + _GAP
        for i, letter in enumerate(row):
            out.append(_card(x0 + i * step, y, letter))
        out.append(_end(x0 + len(row) * step, y, r, "R"))
        widest = max(widest, x0 + len(row) * step + _END_W)
        if d["row"] == r:
            out.append(f'<text x="{x0 + len(row) * step + _END_W + 8}" y="{y + 24}" fill="#a33">'
                       'being completed</text>')
        y += _CARD_H + 6
    y += 10
    playing = s.turn_player if s.phase != "over" else None
    for q in range(n):
        mine = observer is None or observer == q
        known = list(s.known_cards(q))
        size = sum(d["hands"][q])
        cards = sorted(s.hand(q), key=LETTERS.index) if mine else known + ["?"] * (size - len(known))
        tag = f"seat {q}" + (" (you)" if observer == q else "") + (" to play" if q == playing else "")
        colour = "#1f5fa8" if q == playing else "#222"
        out.append(f'<text class="seat" x="10" y="{y + 14}" font-weight="bold" fill="{colour}">'
                   f'{escape(tag)}</text>')
        out.append(f'<text x="10" y="{y + 30}" fill="#555">hand {size}</text>')
        for i, letter in enumerate(cards):
            card = _card(_HAND_X + i * step, y, letter, hidden=letter == "?")
            if q == playing and mine and letter != "?":
                card = f'<g data-target="hand:{letter}">{card}</g>'
            out.append(card)
        x = _HAND_X + max(len(cards), 1) * step + 20
        out.append(f'<text x="{x}" y="{y + 14}" fill="#555">collection</text>')
        for i, letter in enumerate(sorted(s.collection(q), key=LETTERS.index)):
            out.append(_card(x + 76 + i * step, y, letter))
        widest = max(widest, x + 76 + len(s.collection(q)) * step, _HAND_X + len(cards) * step)
        y += _CARD_H + 12
    out.append(f'<g class="pile" data-target="pile:draw"><rect x="10" y="{y}" width="{_CARD_W}" '
               f'height="{_CARD_H}" rx="4" fill="#c9c9d6" stroke="#555"/><rect x="13" y="{y - 3}" '
               f'width="{_CARD_W}" height="{_CARD_H}" rx="4" fill="#d6d6e2" stroke="#555"/>'
               f'<text x="42" y="{y + 14}" fill="#333">draw pile {sum(d["deck"])} cards</text></g>')
    out.append(f'<text x="42" y="{y + 30}" fill="#333">discard pile {sum(d["discard"])} cards</text>')
    y += _CARD_H + 4
    out.append(f'<text class="status" x="10" y="{y + 14}" fill="#222" font-weight="bold">{escape(status(s))}</text>')
    flocks = "flocks (small/big): " + ", ".join(f"{LETTERS[x]} {SPECIES_NAMES[x]} {SMALL[x]}/{BIG[x]}"
                                                   for x in range(NSP))
    out.append(f'<text x="10" y="{y + 32}" fill="#555" font-size="11">{escape(flocks)}</text>')
    width, height = max(widest + 130, 640), y + 46
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">'
            '<rect width="100%" height="100%" fill="white"/>')
    return head + "\n" + "\n".join(out) + "\n</svg>\n"


_SIDES = {"L": "left", "R": "right"}


def outcome_words(s, outcome):
    """A card drawn, in words: its species, and where it goes."""
    letter = s.move_name(outcome).partition(":")[2]
    species = SPECIES_NAMES[LETTERS.index(letter)]
    card = f"{'an' if species[0] in 'aeiou' else 'a'} {species} ({letter})"
    if s.phase == "filling":
        return f"{card} drawn to complete row {s._raw()['row'] + 1}"
    if s.phase in ("drawing", "deal"):
        return f"{card} drawn for seat {s.turn_player if s.phase == 'drawing' else s.next_recipient}"
    return f"{card} drawn"


def move_targets(s, move):
    """What a person clicks to make ``move``: a species in hand then a row's end to lay
    it (``hand:R``, ``end:2L``); a species to flock; the draw pile to draw two; the row's
    end for the completing card.  Declining (nodraw, noflock) is a choice the picture
    does not draw."""
    name = s.move_name(move)
    if name == "draw":
        return [("pile:draw", "draw two cards")]
    if name == "nodraw":
        return [(None, "do not draw")]
    if name == "noflock":
        return [(None, "no flock")]
    if name.startswith("flock:"):
        x = LETTERS.index(name[-1])
        return [(f"hand:{name[-1]}", f"flock the {SPECIES_NAMES[x]}s")]
    if name in ("left", "right"):
        row = s._raw()["row"] + 1
        return [(f"end:{row}{name[0].upper()}", f"the completing card at the {name} end of row {row}")]
    x = LETTERS.index(name[0])
    return [(f"hand:{name[0]}", f"the {SPECIES_NAMES[x]}s"),
            (f"end:{name[1]}{name[2]}", f"row {name[1]}, {_SIDES[name[2]]} end")]


def move_marks(s, move):
    """What marks ``move`` (played from ``s``) in the picture after it: the row's end the
    birds or the completing card went to, the draw pile drawn from; nothing for a flock
    or a refusal."""
    return [t for t, _ in move_targets(s, move) if t and not t.startswith("hand:")]
