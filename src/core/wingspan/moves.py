"""Move names (§7.2): every global move id has one name ('yes', 'food', 'card:blue-jay',
'slot:F2', ...); a name, a bird or bonus card by slug or number, or the id as ASCII digits
reads back to the id."""
from roost.core.errors import MoveError
from roost.core import wingspan_data as _wd
from roost.core.wingspan import tables as T
from roost.core.wingspan.tables import NB, NBON, BIRD_SLUGS, BONUS_SLUGS, FOODS, HABS, HAB_LETTERS

_DIE_NAMES = ("die:I", "die:S", "die:F", "die:R", "die:M", "die:IS-I", "die:IS-S", "reroll", "die:skip")
_ACTION_NAMES = ("play", "food", "eggs", "cards")


def move_name(m):
    """The name of a global move id (§7.2): 'yes', 'food', 'card:blue-jay', 'slot:F2', ..."""
    if isinstance(m, bool) or not isinstance(m, int):
        raise MoveError(f"a Wingspan move id is an integer 0..{T.NMOVEIDS - 1}, not {m!r}")
    if m < 0 or m >= T.NMOVEIDS:
        raise MoveError(f"{m} is not a Wingspan move id (0..{T.NMOVEIDS - 1})")
    if m < T.O_ACTION:
        return ("no", "yes")[m]
    if m < T.O_CARD:
        return _ACTION_NAMES[m - T.O_ACTION]
    if m < T.O_HABITAT:
        return "card:skip" if m - T.O_CARD == T.CARD_SKIP else "card:" + BIRD_SLUGS[m - T.O_CARD]
    if m < T.O_SLOT:
        return "hab:skip" if m - T.O_HABITAT == T.HAB_SKIP else "hab:" + HABS[m - T.O_HABITAT]
    if m < T.O_FOOD:
        s = m - T.O_SLOT
        return "slot:skip" if s == T.SLOT_SKIP else f"slot:{HAB_LETTERS[s // 5]}{s % 5 + 1}"
    if m < T.O_DIE:
        return "food:skip" if m - T.O_FOOD == T.FOOD_SKIP else "food:" + FOODS[m - T.O_FOOD]
    if m < T.O_SOURCE:
        return _DIE_NAMES[m - T.O_DIE]
    if m < T.O_BONUS:
        return "deck" if m - T.O_SOURCE == 3 else f"tray:{m - T.O_SOURCE + 1}"
    if m < T.O_PLAYER:
        return "bonus:" + BONUS_SLUGS[m - T.O_BONUS]
    return "seat:skip" if m - T.O_PLAYER == T.PLAYER_SKIP else f"seat:{m - T.O_PLAYER}"


_NAME_TO_ID = {move_name(m).lower(): m for m in range(T.NMOVEIDS)}
_NAME_TO_ID.update({f"card:{b}": T.O_CARD + b for b in range(NB)})
_NAME_TO_ID.update({f"bonus:{b}": T.O_BONUS + b for b in range(NBON)})


def parse_move(name):
    """A move name (or a global id as ASCII digits) -> the global move id; MoveError otherwise."""
    if not isinstance(name, str):
        raise MoveError(f"a move name must be text, not {type(name).__name__}")
    key = name.strip().lower()
    if key.isascii() and key.isdigit():
        m = int(key)
        if m < T.NMOVEIDS:
            return m
        raise MoveError(f"{name!r}: move ids are 0..{T.NMOVEIDS - 1}")
    if key.startswith("card:") or key.startswith("bonus:"):
        head, _, rest = key.partition(":")
        key = head + ":" + _wd.slug(rest)
    if key in _NAME_TO_ID:
        return _NAME_TO_ID[key]
    raise MoveError(f"{name!r} is not a Wingspan move (e.g. yes, play, food, card:blue-jay, "
                    f"hab:forest, slot:F1, food:S, die:IS-I, reroll, tray:2, deck, bonus:anatomist, seat:1)")
