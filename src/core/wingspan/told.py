"""Chance outcomes in a position's moves: what a replay is told instead of drawing it.

A position in the middle of a turn is its turn's start and the moves since.  The chance
events of those moves (the feeder rolled, a predator's dice, a deck reshuffled, the card that
came off a deck) are drawn again from the position's seed when the moves are replayed; an
entry among the moves tells one instead, as a player who writes down a real game says what
the dice showed.  Each entry applies to the next chance event of its kind during the move
before it (and the steps that move sets off).

    rolled: seed, seed, fish, fruit, invertebrate or seed   the feeder's five dice
    predator dice: hit | miss                              a predator's roll found its food or not
    reshuffled[: Blue Jay, Mallard, ...]                   the discard pile became the deck (top first)
    bonus reshuffled[: Anatomist, ...]                     the bonus discards became the bonus deck
    drew: Blue Jay                                         the next card off the bird deck
    drew bonus: Anatomist                                  the next card off the bonus deck
    drew: ? / drew bonus: ?                                a card comes off (a view: not seen)

In the native script (state.pxd) an entry is its kind byte and its outcome."""
from roost.core.wingspan import names as N
from roost.core.wingspan.names import fault, show
from roost.core.wingspan.tables import BIRD_NAMES, BONUS_NAMES

ROLL, HUNT, SHUFFLE, BSHUFFLE, DRAW, BDRAW, SHUFFLED, BSHUFFLED = range(1, 9)
ANY_CARD = 255             # 'drew: ?': a card comes off the deck, which one is not told
LOG_TOLD = 255
_HEADS = ("rolled", "predator dice", "reshuffled", "bonus reshuffled", "drew", "drew bonus")


def is_told(text):
    """Whether a moves entry is a chance outcome (by its first words)."""
    head = text.partition(":")[0].strip().lower() if isinstance(text, str) else ""
    return head in _HEADS


def encode(text, where):
    """The script bytes of one entry."""
    head, colon, rest = text.partition(":")
    head = head.strip().lower()
    rest = rest.strip()
    items = [x.strip() for x in rest.split(",")] if rest else []
    if head == "rolled":
        faces = [N.face(x, f"{where} (a die face)") for x in items]
        if len(faces) != 5:
            fault(f"{where}: {text!r}: the feeder rolls its 5 dice, got {len(faces)} faces")
        return bytes([ROLL] + [faces.count(f) for f in range(6)])
    if head == "predator dice":
        if rest.lower() not in ("hit", "miss"):
            fault(f"{where}: {text!r}: a predator's dice are a hit or a miss")
        return bytes([HUNT, rest.lower() == "hit"])
    if head in ("reshuffled", "bonus reshuffled"):
        bonus = head.startswith("bonus")
        if not colon:
            return bytes([BSHUFFLED if bonus else SHUFFLED])
        look = N.bonus if bonus else N.bird
        cards = [look(x, f"{where}") for x in items]
        if len(set(cards)) != len(cards):
            fault(f"{where}: {text!r} names a card twice")
        return bytes([BSHUFFLE if bonus else SHUFFLE, len(cards)] + cards[::-1])
    if head in ("drew", "drew bonus"):
        if len(items) != 1:
            fault(f"{where}: {text!r}: one card comes off the deck at a time")
        kind = DRAW if head == "drew" else BDRAW
        if items[0] == "?":
            return bytes([kind, ANY_CARD])
        return bytes([kind, (N.bird if kind == DRAW else N.bonus)(items[0], where)])
    fault(f"{where}: {show(text)} is not a chance outcome")


def entries(script):
    """The entries of script bytes: [(kind, outcome bytes)]."""
    out, i = [], 0
    while i < len(script):
        kind = script[i]
        size = {ROLL: 6, HUNT: 1, DRAW: 1, BDRAW: 1, SHUFFLED: 0, BSHUFFLED: 0}.get(kind)
        if size is None:                     # a reshuffle: its length, then the deck
            size = 1 + script[i + 1]
        out.append((kind, bytes(script[i + 1:i + 1 + size])))
        i += 1 + size
    return out


def decode_one(kind, outcome):
    if kind == ROLL:
        return "rolled: " + ", ".join(N.FACE_NAMES[f] for f in range(6) for _ in range(outcome[f]))
    if kind == HUNT:
        return "predator dice: " + ("hit" if outcome[0] else "miss")
    if kind in (SHUFFLE, BSHUFFLE):
        names = BIRD_NAMES if kind == SHUFFLE else BONUS_NAMES
        return (("reshuffled: " if kind == SHUFFLE else "bonus reshuffled: ")
                + ", ".join(names[b] for b in outcome[1:][::-1]))
    if kind in (DRAW, BDRAW):
        names = BIRD_NAMES if kind == DRAW else BONUS_NAMES
        return ("drew: " if kind == DRAW else "drew bonus: ") + ("?" if outcome[0] == ANY_CARD else names[outcome[0]])
    return "reshuffled" if kind == SHUFFLED else "bonus reshuffled"


def decode(script):
    """The entries of script bytes, as text."""
    return [decode_one(kind, outcome) for kind, outcome in entries(script)]


def split_log(log):
    """A record's log (record.pyx) as [(move id, told script bytes)]."""
    out, i = [], 0
    while i < len(log):
        if log[i] == LOG_TOLD:
            size = (log[i + 1] << 8) | log[i + 2]
            m, told = out[-1]
            out[-1] = (m, told + bytes(log[i + 3:i + 3 + size]))
            i += 3 + size
        else:
            out.append((log[i], b""))
            i += 1
    return out
