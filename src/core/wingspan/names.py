"""The names of the game's things as the position text writes them, and reading them back.

Birds, bonus cards and goals go by the names of the rules companions (the data files),
foods and habitats by their words.  Reading matches a name forgivingly where that is safe:
case, spaces and punctuation do not count ("bewicks wren" is Bewick's Wren), a food may be
written by its letter (I S F R M) or in the plural.  A name that matches nothing is one
PositionError that names it and the nearest real names."""
import difflib

from roost.core.errors import PositionError
from roost.core import wingspan_data as _wd
from roost.core.wingspan.tables import BIRD_NAMES, BONUS_NAMES, GOALS

FOOD_NAMES = _wd.FOOD_NAMES                      # invertebrate, seed, fish, fruit, rodent
FACE_NAMES = FOOD_NAMES + ("invertebrate or seed",)
HABITAT_NAMES = _wd.HABITATS                     # forest, grassland, wetland
GOAL_NAMES = tuple(side["description"] for side in GOALS["sides"])
BOARD_SIDES = ("green", "blue")


def key(name):
    """What a name is matched by: lower case, letters and digits, one dash between words."""
    return _wd.slug(name)


def _index(names, extra=()):
    out = {key(n): i for i, n in enumerate(names)}
    for alias, i in extra:
        out[key(alias)] = i
    return out


_BIRDS = _index(BIRD_NAMES)
_BONUS = _index(BONUS_NAMES)
_GOALS = _index(GOAL_NAMES)
_FOODS = _index(FOOD_NAMES, [(n + "s", i) for i, n in enumerate(FOOD_NAMES)]
                + [(letter, i) for i, letter in enumerate(_wd.FOODS)])
_FACES = _index(FACE_NAMES, [(n + "s", i) for i, n in enumerate(FOOD_NAMES)]
                + [(letter, i) for i, letter in enumerate(_wd.FOODS)]
                + [("invertebrate/seed", 5), ("I/S", 5), ("IS", 5)])
_HABITATS = _index(HABITAT_NAMES)
_SIDES = _index(BOARD_SIDES)


def fault(msg):
    raise PositionError(msg)


def _lookup(table, names, text, what, where):
    if not isinstance(text, str):
        fault(f"{where} must be the name of {what}, got {show(text)}")
    k = key(text)
    if k in table:
        return table[k]
    near = difflib.get_close_matches(k, [key(n) for n in names], n=3, cutoff=0.5)
    if not near:
        near = difflib.get_close_matches(k, [key(n) for n in names], n=3, cutoff=0.0)
    by_key = {key(n): n for n in names}
    hint = ", ".join(by_key[k2] for k2 in near)
    fault(f"{where}: {text!r} is not {what} (nearest: {hint})")


def bird(text, where):
    return _lookup(_BIRDS, BIRD_NAMES, text, "a bird of the core set", where)


def bonus(text, where):
    return _lookup(_BONUS, BONUS_NAMES, text, "a bonus card", where)


def goal(text, where):
    return _lookup(_GOALS, GOAL_NAMES, text, "an end-of-round goal", where)


def food(text, where):
    return _lookup(_FOODS, FOOD_NAMES, text, "a food", where)


def face(text, where):
    return _lookup(_FACES, FACE_NAMES, text, "a die face", where)


def habitat(text, where):
    return _lookup(_HABITATS, HABITAT_NAMES, text, "a habitat", where)


def board_side(text, where):
    return _lookup(_SIDES, BOARD_SIDES, text, "a side of the goal board (green or blue)", where)


def show(v, width=40):
    import json
    try:
        text = json.dumps(v)
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= width else text[:width - 3] + "..."


def split_notes(text, where):
    """'Barn Owl (shown, deck 1)' -> ('Barn Owl', ['shown', 'deck 1'])."""
    if not isinstance(text, str):
        fault(f"{where} must be a card's name (text), got {show(text)}")
    name, notes = text.strip(), []
    if name.endswith(")") and "(" in name:
        head, _, rest = name[:-1].partition("(")
        name = head.strip()
        notes = [n.strip().lower() for n in rest.split(",")]
        if any(not n for n in notes):
            fault(f"{where}: {text!r} has an empty note in its parentheses")
    if not name:
        fault(f"{where}: {text!r} names no card")
    return name, notes


def number_note(note, word):
    """'deck 2' -> 2 for word 'deck'; None when the note is not of that form."""
    head, _, tail = note.partition(" ")
    if head != word or not tail.strip().isascii() or not tail.strip().isdigit():
        return None
    return int(tail.strip())
