"""Position text (docs/rules/wingspan-text.md): the table as the game names it, and in the
middle of a turn the table where the turn started plus the moves since.

Writing: a position at a turn's start (or the deal, or the end) is its table (table.py); a
position in the middle of a turn is the table its record (record.pyx) kept at the turn's
start and the moves logged since, with the chance outcomes a replay was told (told.py).  A
position read from the JSON form in the middle of a turn has no record until its turn ends
and is written in that form (jsonform.py).

Reading: a JSON object whose "game" is "wingspan" is this text; "wingspan-core" is the JSON
form (and its views).  The table is read and checked, loaded, and the moves are replayed
natively, each checked to be legal where it is played, so the engine's frames are never
read from outside."""
import json

from roost.core.moves import LineError, play_line
from roost.core.wingspan import jsonform
from roost.core.wingspan import table as _table
from roost.core.wingspan import told as _told
from roost.core.wingspan.moves import move_name
from roost.core.wingspan.names import fault, show

HIDDEN_MOVE = "?"


# ---------------------------------------------------------------------------- writing
def moves_text(log):
    """A record's log as the moves entries: move names, each followed by what it was told."""
    out = []
    for m, told in _told.split_log(log):
        out.append(move_name(m))
        out += _told.decode(told)
    return out


def to_dict(s):
    rec = s._record()
    if rec is None:
        return None
    raw, log = rec
    d = _table.write(raw)
    if log:
        d["moves"] = moves_text(log)
    return d


def dumps(d):
    return json.dumps(d, separators=(",", ":"))


def to_text(s):
    d = to_dict(s)
    return jsonform.to_text(s) if d is None else dumps(d)


# ---------------------------------------------------------------------------- reading
def read_json(text):
    """The JSON object of a position text (or of the file it names)."""
    return jsonform.read_json(text, '{"game":"wingspan",...}')


def parse(cls, text, settle=False):
    d = read_json(text)
    if d.get("game") == "wingspan-core":
        return jsonform.parse_object(cls, d, settle)
    top = _table._obj(d, "the position", _table.KEYS, _table.OPTIONAL)
    if "seen by" in top:
        from roost.core.wingspan import views as _views
        return _views.parse_view(cls, top)
    s = load_table(cls, top)
    replay(s, _table._list(top.get("moves", []), "'moves'"))
    return s


def load_table(cls, top):
    """The position at the table ``top`` (checked), at its decision node."""
    s = cls._load(jsonform.checked(_table.read(top)))
    s._settle()
    return s


def grouped(moves):
    """The moves entries as [(index, move text, [(index, told text)])]; a chance outcome
    belongs to the move before it."""
    out = []
    for i, entry in enumerate(moves):
        if not isinstance(entry, str):
            fault(f"moves[{i}] must be a move's name or a chance outcome (text), got {show(entry)}")
        if _told.is_told(entry):
            if not out:
                fault(f"moves[{i}]: {entry!r} comes before any move (a chance outcome follows the "
                      f"move whose chance event it decides)")
            out[-1][2].append((i, entry))
        else:
            out.append((i, entry, []))
    return out


def legal_hint(s):
    names = s.legal_names()
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return f"legal here: {shown}" if names else "the game is over"


def play_told(s, i, m, told):
    """Plays move ``m`` telling it the outcomes ``told`` [(index, text)]."""
    script = b"".join(_told.encode(t, f"moves[{j}]") for j, t in told)
    _, used, bad, _ = s._replay_move(m, script)
    if bad or used != len(script):
        at = told[0][0] if told else i
        what = "cannot be" if bad else "is not one the move had"
        fault(f"moves[{at}]: a chance outcome told after moves[{i}] {what}: "
              f"{', '.join(t for _, t in told)} (each tells the next chance event of its kind "
              f"during the move before it: a roll of the emptied feeder, a predator's dice, a "
              f"reshuffle, a card off a deck that holds it)")


def replay(s, moves):
    """Plays the moves entries on ``s``, natively, each checked to be legal where it is
    played (``play_line``) and told the chance outcomes that follow it."""
    for i, entry, told in grouped(moves):
        if entry.strip() == HIDDEN_MOVE:
            fault(f"moves[{i}]: a hidden move ('?') is for a seat's view (\"seen by\")")
        try:
            play_line(s, [entry], first=i, play=lambda m, i=i, told=told: play_told(s, i, m, told))
        except LineError as e:
            if s.is_over:
                fault(f"moves[{e.index}] {e.move!r}: the game is over before it")
            fault(f"moves[{e.index}] {e.move!r}: {e.reason} (seat {s.player} decides "
                  f"{s.purpose}; {legal_hint(s)})")
    return s


def parse_text(cls, text):
    """For pickling: the class and its text."""
    return parse(cls, text)
