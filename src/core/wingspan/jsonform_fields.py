"""The JSON form's vocabulary (its keys, frame kinds and verbs, the per-bird tables its
checks read) and how each value is checked as it enters: type, range and shape, a
PositionError naming the first fault; and the JSON itself read (a key named twice is
refused)."""
import json
import os

from roost.core.errors import PositionError
from roost.core import wingspan_data as _wd
from roost.core.wingspan import tables as T
from roost.core.wingspan.tables import (
    NB, TAG_P, TK_P, TK_H, TK_D, BIRD_NAMES)

_TOP_KEYS = ("game", "v", "n", "side", "goals", "phase", "round", "first", "t", "cur", "deck",
             "deck_epoch", "deck_forms", "discard", "tray", "feeder", "bonus_deck", "bonus_epoch",
             "bonus_forms", "bonus_discard", "goal_pts", "draft", "players", "stack", "rng")
_PLAYER_KEYS = ("hand", "bonus", "food", "cubes", "mat", "pink_used", "owe")
_BIRD_KEYS = ("id", "egg", "cache", "tuck")
_STAGES = ("keep", "food", "bonus")
_EVENTS = ("", "a", "b", "c", "d")
_PHASES = ("setup", "play", "over")
_FRAME_KEYS = {
    "SETUP": ("f", "seat", "stage", "i"), "TURN": ("f", "seat"), "ACT": ("f", "seat"),
    "PLAY": ("f", "seat", "src", "req", "card", "hab", "egg", "last", "paid"),
    "MAT": ("f", "seat", "hab", "n", "trade", "last", "deck", "rodent"),
    "ROW": ("f", "seat", "hab", "col"),
    "POW": ("f", "seat", "slot", "bird", "step", "did", "asked", "rep", "st"),
    "PINK": ("f", "ev", "hab", "active", "q"), "EOT": ("f", "seat", "last"), "ROUND_END": ("f",),
}
V = {name: i for i, name in enumerate(_wd.VERBS)}

# per bird, as the native tables hold them
_HAB = tuple(sum(1 << h for h in b["hab"]) for b in T.BIRDS)
_EGGS = tuple(b["eggs"] for b in T.BIRDS)
_COLOUR = tuple(_wd.COLOURS.index(b["colour"]) for b in T.BIRDS)
_TRIG = tuple(p[0] for p in T.POWERS)
_TARG = tuple(p[1] for p in T.POWERS)
_STEPS = tuple(p[2] for p in T.POWERS)


def _verb(b, step):
    return _STEPS[b][step][0] if 0 <= b < NB and 0 <= step < len(_STEPS[b]) else 0


# ---------------------------------------------------------------------------- reading: checks
def _fault(msg):
    raise PositionError(msg)


def _show(v, width=40):
    try:
        text = json.dumps(v)
    except (TypeError, ValueError):
        text = repr(v)
    return text[:width]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _int(v, where, lo, hi):
    if not _is_int(v):
        _fault(f"{where} must be an integer, got {_show(v)}")
    if not lo <= v <= hi:
        _fault(f"{where} must be {lo}..{hi}, got {_show(v)}")
    return v


def _lst(v, where, lo=0, hi=None):
    if not isinstance(v, list):
        _fault(f"{where} must be a list, got {_show(v)}")
    if len(v) < lo or (hi is not None and len(v) > hi):
        if hi == lo:
            _fault(f"{where} must have {lo} entries, got {len(v)}")
        _fault(f"{where} must have {lo}..{hi} entries, got {len(v)}")
    return v


def _ints(v, where, lo, hi, nmin=0, nmax=None):
    """A list of integers in lo..hi."""
    for i, x in enumerate(_lst(v, where, nmin, nmax)):
        _int(x, f"{where}[{i}]", lo, hi)
    return v


def _obj(v, where, keys, optional=()):
    if not isinstance(v, dict):
        _fault(f"{where} must be an object, got {_show(v)}")
    for k in v:
        if k not in keys and k not in optional:
            _fault(f"{where} has an unknown key {k!r} (keys: {', '.join(keys)})")
    for k in keys:
        if k not in v:
            _fault(f"{where} misses the key {k!r}")
    return v


def _ordered(v, where, keys):
    if tuple(v)[:len(keys)] != tuple(keys):
        _fault(f"{where}: the keys must come in the order {', '.join(keys)}")


def _one_of(v, where, choices):
    if not isinstance(v, str) or v not in choices:
        _fault(f"{where} must be one of {', '.join(json.dumps(c) for c in choices)}, got {_show(v)}")
    return choices.index(v)


def _bird(v, where):
    return _int(v, where, 0, NB - 1)


def _bird_name(b):
    return f"bird {b} ({BIRD_NAMES[b]})"


def _hand_tag_in(v, where, depoch):
    if v == "p":
        return TAG_P
    return _int(v, f"{where} (a hand tag: \"p\" or a deck epoch)", 0, depoch)


def _tuck_tag_in(v, where, depoch):
    if v == "p":
        return TK_P, TAG_P
    if isinstance(v, str) and len(v) >= 2 and v[0] in "hd" and v[1:].isascii() and v[1:].isdigit() \
            and (len(v) == 2 or v[1] != "0"):
        e = int(v[1:])
        if e <= depoch:
            return (TK_H if v[0] == "h" else TK_D), e
    _fault(f"{where} must be a tuck tag \"p\", \"h<e>\" or \"d<e>\" with e a deck epoch 0..{depoch}, "
           f"got {_show(v)}")


def _no_twice(pairs):
    seen = set()
    for k, _ in pairs:
        if k in seen:
            _fault(f"the key {k!r} is named twice in one object")
        seen.add(k)
    return dict(pairs)


def read_json(text, shape='{"game":"wingspan-core",...}'):
    """The JSON object of a position text (or of the file it names); ``shape`` shows what a
    position of the caller's format looks like, for the message when it is not an object."""
    if not isinstance(text, str):
        _fault("a Wingspan position must be text (a JSON object)")
    src = text.strip()
    if not src.startswith("{") and len(src) < 4096 and os.path.isfile(src):
        try:
            with open(src, encoding="utf-8") as fh:
                src = fh.read().strip()
        except (OSError, UnicodeDecodeError) as exc:
            _fault(f"cannot read the position file {text!r}: {getattr(exc, 'strerror', None) or exc}")
    try:
        d = json.loads(src, object_pairs_hook=_no_twice)
    except PositionError:
        raise
    except ValueError as exc:
        _fault(f"the position is not valid JSON: {exc}")
    except RecursionError:
        _fault("the position is not valid JSON: nested too deeply")
    if not isinstance(d, dict):
        _fault(f"a Wingspan position is a JSON object {shape}")
    return d
