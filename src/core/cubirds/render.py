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
