"""A seat's view (docs/rules/wingspan-text.md, "A seat's view"): the position text as one
seat sees it, and read back to a position that seat cannot tell from the real one.

Writing: the table where the turn started as the seat saw it (its own cards named, the other
seats' secret cards, the unseen tucks and bonus discards ``?`` with their deck numbers, the
decks and the seed left out), "seen by" the seat, and the moves since as it saw them: every
move, forced ones included (another world may not force them), another seat's secret choice
as ``?`` with the decision it answered ("? (keep a bird)", "? (tuck a card from hand,
deck 1)"), and every chance outcome it saw: rolls, predator dice, reshuffles (their order
unseen), each card off a deck ("drew: Blue Jay", or "drew: ?" for one it did not see).

Reading: the unseen cards are dealt (table.py, in an order drawn from a hash of the view),
the moves replayed one step at a time, another seat's secret choice made by a fixed rule
that fits what follows, and where a move or a draw names a card the deal put elsewhere
(another seat plays a card it held unseen), that card changes places with one the seat
could hold there and the replay starts again.  The position read must show the seat exactly
the view read: a view that no position fits is one PositionError."""
import json

from roost.core.errors import MoveError
from roost.core.wingspan import jsonform
from roost.core.wingspan import table as _table
from roost.core.wingspan import told as _told
from roost.core.wingspan.moves import move_name, parse_move
from roost.core.wingspan.names import fault, show
from roost.core.wingspan.tables import (
    NB, TAG_P, L_DECK, L_HAND, L_TUCK, TK_D, TK_H, B_DECK, O_ACTION, O_CARD, O_BONUS, O_YESNO, MAXP,
    PH_SETUP, BIRD_NAMES,
    BONUS_NAMES)

HIDDEN_MOVE = "?"
# the decisions whose choice another seat does not see (information.pyx, observe): in play,
# one at a time; in the setup another seat's choices stay secret as a whole (§1.3, §6.1), all
# but the stage the seat to choose is in and its choices made in that stage
SECRET = {"BONUS_KEEP": "keep a bonus card", "TUCK_FROM_HAND": "tuck a card from hand"}
SETUP_SECRETS = ("setup", "keep birds", "keep birds and discard food", "keep a bird", "discard a food")
NOTES = tuple(sorted(set(SECRET.values()) | set(SETUP_SECRETS)))
REPAIRS = 200          # cards moved to where a move needs them before a deal is given up
DEALS = 32             # orders of the unseen cards tried before a view is refused


# ---------------------------------------------------------------------------- writing
def _sees_bird(raw, b, o):
    loc = raw["cloc"][b]
    if loc == L_DECK:
        return False
    if loc == L_HAND:
        return raw["cown"][b] == o or raw["ctag"][b] == TAG_P
    if loc == L_TUCK:
        return raw["ctk"][b] != TK_D and (raw["ctk"][b] != TK_H or raw["cown"][b] == o)
    return True


def _seen_outcomes(script, raw, o):
    """The outcomes of one step as seat ``o`` saw them (``raw``: the position after it)."""
    out = []
    for kind, outcome in _told.entries(script):
        if kind == _told.SHUFFLE:
            kind, outcome = _told.SHUFFLED, b""
        elif kind == _told.BSHUFFLE:
            kind, outcome = _told.BSHUFFLED, b""
        elif kind == _told.DRAW and not _sees_bird(raw, outcome[0], o):
            outcome = bytes([_told.ANY_CARD])
        elif kind == _told.BDRAW and not (raw["bown"][outcome[0]] == o and raw["bloc"][outcome[0]] != B_DECK):
            outcome = bytes([_told.ANY_CARD])
        out.append(_told.decode_one(kind, outcome))
    return out


def _secret(s, m):
    """The entry of another seat's secret choice: '?' and the decision it answered."""
    note = SECRET[s.purpose]
    if s.purpose == "TUCK_FROM_HAND":
        tag = s._raw()["ctag"][m - O_CARD]
        note += f", deck {tag}" if tag else ""
    return f"{HIDDEN_MOVE} ({note})"


def seen_moves(cls, start, log, o):
    """The moves of a recorded turn (forced ones included) as seat ``o`` saw them."""
    s = cls._load(start)
    s._settle()
    out = []

    def step(m, told):
        entry = move_name(m) if s.observe_move(m, o) == m else _secret(s, m)
        n, used, bad, traced = s._replay_move(m, told, True, True)
        out.append(entry)
        out.extend(_seen_outcomes(traced, s._raw(), o))
        return n, used

    for m, told in _told.split_log(log):
        n, used = step(m, told)
        told = told[used:]
        while n == 1:
            n, used = step(s.legal()[0], told)
            told = told[used:]
    return out


def setup_seen(raw, o):
    """The setup choices made so far (``raw``: the position now) as seat ``o`` sees them: its
    own, each; the whole setup of a seat before the one choosing; and of the seat choosing,
    the stage it is in and the choices of that stage."""
    frame = raw["stack"][0]
    seat, stage, i = frame["seat"], frame["stage"], frame["i"]
    out = []
    for q in range(seat + 1):
        P, done = raw["players"][q], q < seat
        if q == o:
            keeps = 5 if done or stage else i
            out += [("no", "yes")[(P["skeep"] >> k) & 1] for k in range(keeps)]
            foods = ["food:" + "ISFRM"[t] for t in range(5) for _ in range(P["sfood"][t])]
            out += foods if done or stage == 2 else foods[:i] if stage == 1 else []
            out += [f"bonus:{_bonus_slug(P['sbonus'])}"] if done else []
        elif done:
            out.append(f"{HIDDEN_MOVE} (setup)")
        elif stage == 0:
            out += [f"{HIDDEN_MOVE} (keep a bird)"] * i
        elif stage == 1:
            out += [f"{HIDDEN_MOVE} (keep birds)"] + [f"{HIDDEN_MOVE} (discard a food)"] * i
        else:
            out.append(f"{HIDDEN_MOVE} (keep birds and discard food)")
    return out


def _bonus_slug(b):
    return move_name(O_BONUS + b)[len("bonus:"):]


def to_dict(s, o):
    rec = s._record()
    if rec is None:
        return None
    start, log = rec
    d = _table.write(start, observer=o)
    if log and start["phase"] == PH_SETUP:
        d["moves"] = setup_seen(s._raw(), o)
    elif log:
        d["moves"] = seen_moves(type(s), start, log, o)
    return d


def to_text(s, o):
    d = to_dict(s, o)
    return jsonform.view(s, o) if d is None else json.dumps(d, separators=(",", ":"))


# ---------------------------------------------------------------------------- reading
class _Redeal(Exception):
    """This deal does not fit the view's moves (a move it makes illegal, the pending seat
    left without a choice): another order of the unseen cards may."""


class _Repair(Exception):
    """One of ``cards`` (the deal put it elsewhere) must change places with one of
    ``partners`` (the cards in the places where the moves need it)."""

    def __init__(self, cards, partners, bonus=False):
        super().__init__(cards)
        self.cards, self.partners, self.bonus = list(cards), partners, bonus


def _entries(moves):
    """[(index, move entry, [(index, told text)])]: a told text follows its move."""
    from roost.core.wingspan.text import grouped
    return [(i, entry.strip(), told) for i, entry, told in grouped(moves)]


def _hidden_note(entry, i):
    """The decision a '?' entry answered, and the deck number of a tucked card."""
    rest = entry[1:].strip()
    if not rest:
        return None, 0
    if not (rest.startswith("(") and rest.endswith(")")):
        fault(f"moves[{i}]: {entry!r}: a secret choice is '?' or '? (the decision)'")
    parts = [p.strip().lower() for p in rest[1:-1].split(",")]
    deck = 0
    if len(parts) == 2 and parts[1].startswith("deck ") and parts[1][5:].isdigit():
        deck = int(parts[1][5:])
    elif len(parts) != 1:
        fault(f"moves[{i}]: {entry!r}: a secret choice says its decision, and for a tucked card its deck")
    if parts[0] not in NOTES:
        fault(f"moves[{i}]: {entry!r}: a secret choice is one of: {', '.join(NOTES)}")
    return parts[0], deck


def _named_later(entries, k):
    """The birds the entries after ``k`` name (moves and draws told)."""
    named = set()
    for _, entry, told in entries[k + 1:]:
        try:
            m = parse_move(entry)
        except MoveError:
            m = -1
        if O_CARD <= m < O_CARD + NB:
            named.add(m - O_CARD)
        for j, t in told:
            kind, card = _told.encode(t, f"moves[{j}]")[:2]
            if kind == _told.DRAW and card != _told.ANY_CARD:
                named.add(card)
    return named


def _secret_plan(s, entries, k, note, deck, o):
    """Another seat's secret choice (one entry, one or more moves), made by a fixed rule that
    fits the entries after it: a list of moves, None where the first legal move is played."""
    i, entry, _ = entries[k]
    if s.player == o:
        fault(f"moves[{i}] {entry!r}: the seat that sees the view knows its own choices")
    purpose = s.purpose
    if note in SETUP_SECRETS:
        want = "SETUP_DISCARD_FOOD" if note == "discard a food" else "SETUP_KEEP_BIRD"
        whole = note not in ("keep a bird", "discard a food")
        if purpose != want or (whole and s._raw()["stack"][0]["i"] != 0):
            raise _Redeal(f"moves[{i}] {entry!r}: seat {s.player} decides {purpose} there")
        if note == "keep a bird":
            return [O_YESNO]
        if note == "discard a food":
            return [None]
        if note == "keep birds":
            # it keeps one bird more than the food it has discarded: still discarding
            foods = 0
            while k + 1 + foods < len(entries) and entries[k + 1 + foods][1] == f"{HIDDEN_MOVE} (discard a food)":
                foods += 1
            return [O_YESNO + (b <= foods) for b in range(5)]
        if note == "keep birds and discard food":
            return [O_YESNO] * 5
        return [O_YESNO] * 5 + [None]                 # setup: no bird, the first bonus card
    if purpose not in SECRET or (note is not None and SECRET[purpose] != note):
        fault(f"moves[{i}] {entry!r}: seat {s.player} decides {purpose} here, which seat {o} sees")
    if purpose == "TUCK_FROM_HAND":
        raw, later, legal = s._raw(), _named_later(entries, k), s.legal()
        cards = [m - O_CARD for m in legal if O_CARD <= m < O_CARD + NB
                 and raw["ctag"][m - O_CARD] == deck and raw["ctag"][m - O_CARD] != TAG_P]
        if not cards:
            raise _Redeal(f"moves[{i}] {entry!r}: seat {s.player} holds no unseen card of deck "
                          f"{deck} to tuck")
        free = [b for b in cards if b not in later]
        return [O_CARD + min(free or cards)]
    return [None]


def _named_card(entries, k):
    """The card the first card move from entry ``k`` on names (-1: none)."""
    for _, entry, _ in entries[k:]:
        try:
            m = parse_move(entry)
        except MoveError:
            continue
        if O_CARD <= m < O_CARD + NB:
            return m - O_CARD
    return -1


def _legal_or_repair(s, m, entries, k, o):
    """``m`` is legal here; when it is not because the seat to act does not hold a card that
    this move or the next card move names (it chose to play the card it then names), that
    card must change places with one of the seat's unseen cards."""
    if s.is_legal(m):
        return
    i, entry, _ = entries[k]
    raw, seat = s._raw(), s.player
    card = m - O_CARD if O_CARD <= m < O_CARD + NB else _named_card(entries, k + 1)
    partners = [b for b in range(NB) if raw["cloc"][b] == L_HAND and raw["cown"][b] == seat
                and raw["ctag"][b] != TAG_P]
    if card >= 0 and seat != o and not (raw["cloc"][card] == L_HAND and raw["cown"][card] == seat):
        raise _Repair([card], partners)
    if m == O_ACTION and card < 0 and seat != o:
        # the seat chose to play a bird it holds unseen: one it can play
        raise _Repair([b for b in range(NB) if raw["cloc"][b] == L_DECK and s._can_play(seat, b)],
                      partners)
    raise _Redeal(f"moves[{i}] {entry!r} is not legal where it is played: seat {seat} decides "
                  f"{s.purpose} (legal there: {', '.join(s.legal_names()[:12])})")


def _draws_or_repair(s, told):
    """Every card the step's told draws name is in its deck, or in its discard pile when
    the deck runs out before that draw (and the pile becomes the deck)."""
    raw = s._raw()
    k = {_told.DRAW: 0, _told.BDRAW: 0}
    for _, t in told:
        head, _, name = t.partition(":")
        if head.strip().lower() not in ("drew", "drew bonus"):
            continue
        kind, b = _told.encode(t, "")
        k[kind] += 1
        if b == _told.ANY_CARD:
            continue
        deck, pile = (raw["deck"], raw["discard"]) if kind == _told.DRAW else (raw["bdeck"], raw["bdiscard"])
        if b not in deck and not (b in pile and len(deck) < k[kind]):
            raise _Repair([b], list(deck), bonus=kind == _told.BDRAW)


def _replay(s, entries, o):
    k = 0
    while k < len(entries):
        i, entry, told = entries[k]
        if s.is_over:
            fault(f"moves[{i}] {entry!r}: the game is over before it")
        legal = s.legal()
        if entry.startswith(HIDDEN_MOVE):
            note, deck = _hidden_note(entry, i)
            if len(legal) == 1 and s.purpose not in SECRET and not s.purpose.startswith("SETUP"):
                m, told, k = legal[0], [], k - 1          # a forced step the view did not list
            else:
                plan = _secret_plan(s, entries, k, note, deck, o)
                for m in plan[:-1]:                       # all but its last move: nothing told
                    s._replay_move(s.legal()[0] if m is None else m, b"", False, True)
                m = s.legal()[0] if plan[-1] is None else plan[-1]
        else:
            try:
                m = parse_move(entry)
            except MoveError as exc:
                fault(f"moves[{i}]: {exc}")
            if len(legal) == 1 and m != legal[0]:
                m, told, k = legal[0], [], k - 1
            _legal_or_repair(s, m, entries, k, o)
        _draws_or_repair(s, told)
        script = b"".join(_told.encode(t, f"moves[{j}]") for j, t in told)
        _, used, bad, _ = s._replay_move(m, script, False, True)
        if bad or used != len(script):
            fault(f"moves[{told[0][0] if told else i}]: the chance outcomes told after moves[{i}] "
                  f"{entry!r} are not the ones its step had: {', '.join(t for _, t in told)}")
        k += 1
    if not s.is_over and len(s.legal()) == 1:
        seat, raw = s.player, s._raw()
        if s.purpose == "PLAY_CARD" and seat != o:
            # the seat chose among birds it holds unseen: one more it can play
            raise _Repair([b for b in range(NB) if raw["cloc"][b] == L_DECK and s._can_play(seat, b)],
                          [b for b in range(NB) if raw["cloc"][b] == L_HAND and raw["cown"][b] == seat
                           and raw["ctag"][b] != TAG_P and not s._can_play(seat, b)])
        raise _Redeal(f"after the moves seat {seat} has one move only ({s.legal_names()[0]}), "
                      f"where a position is written at a choice")
    return s


def _swap(d, a, b, bonus):
    """Cards ``a`` and ``b`` change places (and keep the places' tags) in the JSON form's
    dict ``d``: the unseen places only, the decks, hands, tucks and bonus discards."""
    def flip(entries):
        for k, e in enumerate(entries):
            if isinstance(e, list):
                e[0] = b if e[0] == a else a if e[0] == b else e[0]
            else:
                entries[k] = b if e == a else a if e == b else e

    if bonus:
        flip(d["bonus_deck"])
        flip(d["bonus_discard"])
        for form in d["bonus_forms"]:
            flip(form)
        for pl in d["players"]:
            flip(pl["bonus"])
        return
    flip(d["deck"])
    for pl in d["players"]:
        flip(pl["hand"])
        for row in pl["mat"]:
            for bd in row:
                flip(bd["tuck"])


def _normal(top):
    """What a view says, for comparing two views: its table as the JSON form's dict (cards
    not named -1) and its moves."""
    d = _table.named(top).d
    for pl in d["players"]:
        for key in ("hand", "bonus"):
            pl[key].sort(key=lambda e: (e[0], str(e[1])))
        for row in pl["mat"]:
            for bd in row:
                bd["tuck"].sort(key=lambda e: (e[0], str(e[1])))
    moves = []
    for i, entry, told in _entries(_table._list(top.get("moves", []), "'moves'")):
        if entry.startswith(HIDDEN_MOVE):
            moves.append(("?",) + _hidden_note(entry, i))
        else:
            try:
                moves.append(parse_move(entry))
            except MoveError as exc:
                fault(f"moves[{i}]: {exc}")
        moves += [_told.encode(t, f"moves[{j}]") for j, t in told]
    return d, moves


# the JSON form's keys (what _normal compares) as a view names them
_KEY_NAMES = {"n": "'players'", "side": "'board'", "goals": "'goals'", "phase": "'turn'", "round": "'round'",
              "first": "'round'", "t": "the seats' cubes", "cur": "'turn'", "deck": "'deck'",
              "deck_epoch": "'reshuffles'", "deck_forms": "'reshuffles'", "discard": "'discard'",
              "tray": "'tray'", "feeder": "'feeder'", "bonus_deck": "'bonus deck'",
              "bonus_epoch": "'bonus reshuffles'", "bonus_forms": "'bonus reshuffles'",
              "bonus_discard": "'bonus discard'", "goal_pts": "'goal scores'", "stack": "'turn'"}


def _first_difference(a, b):
    (da, ma), (db, mb) = a, b
    for key in da:
        if da[key] != db[key]:
            if key == "players":
                return next(f"seats[{p}]" for p in range(len(da[key])) if da[key][p] != db[key][p])
            return _KEY_NAMES.get(key, repr(key))
    return next(f"moves[{k}]" for k in range(max(len(ma), len(mb)))
                if k >= len(ma) or k >= len(mb) or ma[k] != mb[k])


def _check_seen(top, o):
    """The cards a view names are the ones its seat sees, and only those (a clear message
    for the usual slips; the view read back is compared in full after)."""
    def hidden(entry):
        return isinstance(entry, str) and entry.strip().startswith(HIDDEN_MOVE)

    def notes(entry):
        text = entry.partition("(")[2].rstrip(") ") if isinstance(entry, str) else ""
        return [n.strip().lower() for n in text.split(",")]

    for q, seat in enumerate(top["seats"] if isinstance(top["seats"], list) else []):
        if not isinstance(seat, dict):
            continue
        for key in ("hand", "bonus"):
            entries = seat.get(key, [])
            for i, e in enumerate(entries if isinstance(entries, list) else []):
                if q == o and hidden(e):
                    fault(f"seats[{q}].{key}[{i}]: seat {o} sees its own cards: name it")
                if q != o and not hidden(e) and "shown" not in notes(e):
                    fault(f"seats[{q}].{key}[{i}]: seat {o} does not see another seat's "
                          f"{'card drawn face down' if key == 'hand' else 'bonus card'}: write '?'")
    entries = top.get("bonus discard", [])
    for i, e in enumerate(entries if isinstance(entries, list) else []):
        mine = f"seat {o}" in notes(e)
        if isinstance(e, str) and hidden(e) == mine:
            fault(f"bonus discard[{i}]: seat {o} sees the bonus cards it discarded, and no other: "
                  f"{'name it' if mine else 'write ?'}")


def parse_view(cls, top):
    """The position a view stands for (module docstring)."""
    n = _table._int(top["players"], "'players'", 1, MAXP)
    o = _table._int(top["seen by"], "'seen by'", 0, n - 1)
    if "seed" in top or "deck" in top or "bonus deck" in top:
        fault("a view leaves out what its seat has not seen: the deck, the bonus deck and the seed")
    _check_seen(top, o)
    entries = _entries(_table._list(top.get("moves", []), "'moves'"))
    base = {k: v for k, v in top.items() if k not in ("seen by", "moves")}
    want = _normal(top)
    why = None
    for deal in range(DEALS):
        dealt = {}
        d = _table.read(base, dealt, deal)
        try:
            s = _repaired(cls, d, dealt, entries, o)
            got = to_dict(s, o)
            if got is None or _normal(got) != want:
                raise _Redeal(f"it differs at {'?' if got is None else _first_difference(want, _normal(got))} "
                              f"from what the position it stands for shows")
            return s
        except _Redeal as exc:
            why = why or str(exc)
    fault(f"no position shows seat {o} this view ({DEALS} deals of the cards it has not seen "
          f"tried): {why}")


def _repaired(cls, d, dealt, entries, o):
    """The replay of the view's moves on the deal ``d``, its cards moved where the moves
    need them."""
    for _ in range(REPAIRS):
        s = cls._load(jsonform.checked(json.loads(json.dumps(d))))
        s._settle()
        try:
            return _replay(s, entries, o)
        except _Repair as r:
            pair = _pair(d, r, dealt["bonus" if r.bonus else "birds"])
            if pair is None:
                raise _Redeal(f"its moves need {_card_name(r)} where no card seat {o} has not seen "
                              f"can be") from None
            _swap(d, pair[0], pair[1], r.bonus)
    raise _Redeal(f"its moves name cards the deal cannot place ({REPAIRS} moved)")


def _card_name(r):
    names = BONUS_NAMES if r.bonus else BIRD_NAMES
    return " or ".join(names[b] for b in r.cards[:3]) if r.cards else "a card it can play"


def _pair(d, r, dealt):
    """(a card of ``r.cards``, a partner) that the deal placed unseen, of one deck (§6.4)."""
    form = _form(d, r.bonus)
    for card in r.cards:
        if card not in dealt:
            continue
        for b in r.partners:
            if b != card and b in dealt and form.get(b, 0) == form.get(card, 0):
                return card, b
    return None


def _form(d, bonus):
    forms = d["bonus_forms"] if bonus else d["deck_forms"]
    out = {}
    for e, form in enumerate(forms, 1):
        for x in form:
            out[x[0] if bonus else x] = e
    return out
