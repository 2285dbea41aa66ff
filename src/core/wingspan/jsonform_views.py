"""A seat's view in the JSON form (jsonform.py) read back: a view that form writes parses to a
full position whose view for ``o`` is exactly the text read, so a view alone is a position a
searcher can start from (it redraws the hidden part anyway, §6.4).

The hidden cards are dealt in a fixed way, from what the view itself shows:

- birds: a card is unseen when the view names it nowhere; its epoch is the last deck formation
  holding it (0 when none, §6.4).  The unseen cards of each epoch go, lowest id first, to that
  epoch's hidden places in the order deck, hands (by seat), tucks.  A card named by another
  seat's pending PLAY frame sits in one of that seat's hidden hand places.
- bonus cards: epoch by epoch as §6.4 deals them, each epoch's cards lowest id first over its
  hidden places (held, pending, the discard pile, the deck, later formations), except that a
  card the seat knows to be in a later formation is first put on an entry of the nearest
  formation on its way there.
- another seat's setup choices: the fewest birds kept its stage allows, the lowest food types
  discarded, its lowest bonus card kept.
- the RNG: a hash of the view (the future is the receiver's to draw).

Where that deal leaves the pending seat (not the viewer) without a choice (say, no bird it can
pay for after it chose to play one), the bird cards of each epoch are dealt again in orders drawn
from fixed seeds until one fits, as the determinization redraws (information.pyx)."""
import hashlib
import json
import random

from roost.core.wingspan import jsonform as _text
from roost.core.wingspan import jsonform_fields as _fields
from roost.core.wingspan.tables import (NB, NBON, MAXP, MAXEP, MAXBEP, TK_P, TK_H, BIRD_NAMES,
                                        BONUS_NAMES)

VIEW_KEYS = tuple(k for k in _fields._TOP_KEYS if k != "rng") + ("observer",)
DEALS = 64           # orders of the bird cards tried before a view is called unplayable

_fault = _fields._fault
_int, _lst, _ints = _fields._int, _fields._lst, _fields._ints


def _bird_name(b):
    return f"bird {b} ({BIRD_NAMES[b]})"


def _bonus_name(b):
    return f"bonus card {b} ({BONUS_NAMES[b]})"


def _entry(ent, where, size):
    return _lst(ent, where, size, size)


# ---------------------------------------------------------------------------- birds
class _BirdSlots:
    """The hidden bird places of a view, by epoch, and the cards it names."""

    def __init__(self, d, o, n, depoch):
        self.by_epoch = {}
        self.named = {}
        self.hand_slots = {}           # (seat, epoch) -> that seat's hidden hand entries
        self.deck = _lst(d["deck"], "'deck'", 0, NB)
        if any(x != -1 for x in self.deck):
            _fault(f"a view's 'deck' is one -1 per card (its order and content are hidden), "
                   f"got {_fields._show(self.deck)}")
        self.slots(depoch).extend((self.deck, i) for i in range(len(self.deck)))
        self.name_all(d.get("discard"), "'discard'")
        self.name_all([b for b in _lst(d["tray"], "'tray'") if b != -1], "'tray'")
        self.name_all(d.get("draft"), "'draft'")
        players = _lst(d["players"], "'players'", n, n)
        for q, pd in enumerate(players):
            w = f"players[{q}]"
            if not isinstance(pd, dict):
                _fault(f"{w} must be an object, got {_fields._show(pd)}")
            for i, ent in enumerate(_lst(pd.get("hand"), f"{w}.hand", 0, NB)):
                _entry(ent, f"{w}.hand[{i}]", 2)
                if ent[0] != -1:
                    if q != o and ent[1] != "p":
                        _fault(f"{w}.hand[{i}]: another seat's card drawn face down (tag {_fields._show(ent[1])}) "
                               f"is hidden in a view (-1), got {_fields._show(ent[0])}")
                    self.name(ent[0], f"{w}.hand[{i}]")
                    continue
                if q == o:
                    _fault(f"{w}.hand[{i}]: the observer sees every card of its own hand, got -1")
                if ent[1] == "p":
                    _fault(f"{w}.hand[{i}]: a card tagged \"p\" is public, so it is named, not -1")
                e = _fields._hand_tag_in(ent[1], f"{w}.hand[{i}] tag", depoch)
                self.slots(e).append((ent, 0))
                self.hand_slots.setdefault((q, e), []).append(ent)
            for h, row in enumerate(_lst(pd.get("mat"), f"{w}.mat", 3, 3)):
                for col, bd in enumerate(_lst(row, f"{w}.mat[{h}]", 0, 5)):
                    if not isinstance(bd, dict):
                        _fault(f"{w}.mat[{h}][{col}] must be an object, got {_fields._show(bd)}")
                    self.name(bd.get("id"), f"{w}.mat[{h}][{col}]")
                    self.tucks(bd.get("tuck"), f"{w}.mat[{h}][{col}].tuck", q == o, depoch)

    def slots(self, e):
        return self.by_epoch.setdefault(e, [])

    def name(self, b, where):
        b = _fields._bird(b, f"{where} card")
        if b in self.named:
            _fault(f"{_bird_name(b)} is in two places: {self.named[b]} and {where}")
        self.named[b] = where

    def name_all(self, cards, where):
        for i, b in enumerate(_lst(cards, where, 0, NB)):
            self.name(b, f"{where}[{i}]")

    def tucks(self, tucks, where, own, depoch):
        for i, ent in enumerate(_lst(tucks, where, 0, NB)):
            _entry(ent, f"{where}[{i}]", 2)
            kind, e = _fields._tuck_tag_in(ent[1], f"{where}[{i}] tag", depoch)
            known = kind == TK_P or (kind == TK_H and own)
            if ent[0] != -1:
                if not known:
                    _fault(f"{where}[{i}]: a card tucked face down (tag {ent[1]!r}) that the observer did "
                           f"not tuck is hidden in a view (-1), got {_fields._show(ent[0])}")
                self.name(ent[0], f"{where}[{i}]")
                continue
            if known:
                _fault(f"{where}[{i}]: the observer knows this tucked card (tag {ent[1]!r}), so it is named, not -1")
            self.slots(e).append((ent, 0))

    def place_shown(self, d, forms_of):
        """A card another seat chose to play is named in its PLAY frame but hidden in its hand."""
        for i, fr in enumerate(d["stack"] if isinstance(d["stack"], list) else []):
            if not isinstance(fr, dict) or fr.get("f") != "PLAY":
                continue
            card, seat = fr.get("card"), fr.get("seat")
            if not (_fields._is_int(card) and _fields._is_int(seat)) or not 0 <= card < NB or card in self.named:
                continue
            e = forms_of.get(card, 0)
            hidden = self.hand_slots.get((seat, e), [])
            if not hidden:
                _fault(f"stack[{i}].card: {_bird_name(card)} is in no hand place of seat {seat} "
                       f"(no hidden card of deck epoch {e} there)")
            ent = hidden.pop()
            ent[0] = card
            self.by_epoch[e] = [s for s in self.by_epoch[e] if s[0] is not ent]
            self.named[card] = f"stack[{i}].card"

    def deal(self, forms_of, rnd):
        unseen = {}
        for b in range(NB):
            if b not in self.named:
                unseen.setdefault(forms_of.get(b, 0), []).append(b)
        for e in sorted(set(unseen) | set(self.by_epoch)):
            cards, places = unseen.get(e, []), self.by_epoch.get(e, [])
            if len(cards) != len(places):
                _fault(f"the view's {len(places)} hidden birds of deck epoch {e} (deck, hands, tucks) "
                       f"are not its {len(cards)} unseen birds of that epoch (every bird is in one place)")
            if rnd is not None:
                rnd.shuffle(cards)
            for (box, k), b in zip(places, cards):
                box[k] = b


def _deck_formations(d, depoch):
    forms = _lst(d["deck_forms"], "'deck_forms'", depoch, depoch)
    forms_of = {}
    for e, form in enumerate(forms, 1):
        for b in _ints(form, f"deck_forms[{e - 1}]", 0, NB - 1, 1, NB):
            forms_of[b] = e
    return forms_of


def _fill_birds(d, o, n, rnd):
    depoch = _int(d["deck_epoch"], "'deck_epoch'", 0, MAXEP - 1)
    forms_of = _deck_formations(d, depoch)
    slots = _BirdSlots(d, o, n, depoch)
    slots.place_shown(d, forms_of)
    slots.deal(forms_of, rnd)


# ---------------------------------------------------------------------------- bonus cards
def _fill_bonus(d, o, n):
    """§6.4 bonus cards with fixed choices (module docstring)."""
    bepoch = _int(d["bonus_epoch"], "'bonus_epoch'", 0, MAXBEP)
    deck = _lst(d["bonus_deck"], "'bonus_deck'", 0, NBON)
    if any(x != -1 for x in deck):
        _fault(f"a view's 'bonus_deck' is one -1 per card (its order and content are hidden), "
               f"got {_fields._show(deck)}")
    forms = _lst(d["bonus_forms"], "'bonus_forms'", bepoch, bepoch)
    drew = {}                    # epoch -> the cards o drew from it
    must = {}                    # card -> the epochs whose formation o knows it to be in
    places = {}                  # epoch -> the hidden places tagged with it, in dealing order
    later = []                   # (formation, tag, entry): hidden formation entries

    def own(b, tag, where):
        b = _int(b, f"{where} card", 0, NBON - 1)
        drew.setdefault(tag, set()).add(b)
        must.setdefault(b, set()).add(tag)
        return b

    def entry(ent, where, maxtag, mine):
        """[id, tag] (or [id, tag, discarder]) of a place; True where it is hidden."""
        tag = _int(ent[1], f"{where} epoch tag", 0, maxtag)
        if ent[0] == -1:
            if mine:
                _fault(f"{where}: the observer knows its own bonus cards, so it is named, not -1")
            return True
        if not mine:
            _fault(f"{where}: another seat's bonus card is hidden in a view (-1), got {_fields._show(ent[0])}")
        own(ent[0], tag, where)
        return False

    def hidden_place(tag, box, k=0):
        places.setdefault(tag, []).append((box, k))

    players = _lst(d["players"], "'players'", n, n)
    for q, pd in enumerate(players):
        for i, ent in enumerate(_lst(pd.get("bonus"), f"players[{q}].bonus", 0, NBON)):
            w = f"players[{q}].bonus[{i}]"
            if entry(_entry(ent, w, 2), w, bepoch, q == o):
                hidden_place(ent[1], ent)
    for i, fr in enumerate(_lst(d["stack"], "'stack'")):
        st = fr.get("st") if isinstance(fr, dict) and fr.get("f") == "POW" else None
        if isinstance(st, dict) and "drawn" in st:
            for j, ent in enumerate(_lst(st["drawn"], f"stack[{i}].st.drawn", 2, 2)):
                w = f"stack[{i}].st.drawn[{j}]"
                if entry(_entry(ent, w, 2), w, bepoch, fr.get("seat") == o):
                    hidden_place(ent[1], ent)
    for i, ent in enumerate(_lst(d["bonus_discard"], "'bonus_discard'", 0, NBON)):
        w = f"bonus_discard[{i}]"
        who = _int(_entry(ent, w, 3)[2], f"{w} discarder", 0, n - 1)
        if entry(ent, w, bepoch, who == o):
            hidden_place(ent[1], ent)
    for i in range(len(deck)):
        hidden_place(bepoch, deck, i)
    for f, form in enumerate(forms, 1):
        for i, ent in enumerate(_lst(form, f"bonus_forms[{f - 1}]", 1, NBON)):
            w = f"bonus_forms[{f - 1}][{i}]"
            who = _int(_entry(ent, w, 3)[2], f"{w} discarder", 0, n - 1)
            if entry(ent, w, f - 1, who == o):
                hidden_place(ent[1], ent)
                later.append((f, ent[1], ent))
            else:
                must[ent[0]].add(f)
    for e in range(bepoch + 1):
        pool = set(range(NBON)) if e == 0 else {ent[0] for ent in forms[e - 1]}
        if not drew.get(e, set()) <= pool:
            b = min(drew[e] - pool)
            _fault(f"the observer drew {_bonus_name(b)} from bonus epoch {e}, but no deal of the hidden "
                   f"bonus cards puts it in that epoch's formation")
        cards = sorted(pool - drew.get(e, set()))
        free = places.get(e, [])
        if len(cards) != len(free):
            _fault(f"the view's {len(free)} hidden bonus places of epoch {e} are not its "
                   f"{len(cards)} unseen bonus cards of that epoch")
        taken = set()
        rest = []
        for b in cards:
            ahead = [g for g in must.get(b, ()) if g > e]
            if not ahead:
                rest.append(b)
                continue
            # on its way to the nearest formation the seat knows it in
            g = min(ahead)
            fits = [(-f, k) for k, (f, tag, ent) in enumerate(later)
                    if tag == e and e < f <= g and id(ent) not in taken]
            if not fits:
                _fault(f"the observer knows {_bonus_name(b)} to be in bonus formation {g}, but no "
                       f"hidden place of epoch {e} leads there")
            ent = later[min(fits)[1]][2]
            ent[0] = b
            taken.add(id(ent))
        for (box, k), b in zip([p for p in free if id(p[0]) not in taken], rest):
            box[k] = b


# ---------------------------------------------------------------------------- setup choices
def _fill_setup(d, o, n):
    """Another seat's buffered setup choices are hidden (§6.1); give them the simplest ones its
    stage allows (module docstring)."""
    if d["phase"] != "setup" or not isinstance(d["stack"], list) or len(d["stack"]) != 1:
        return
    fr = d["stack"][0]
    if not isinstance(fr, dict) or fr.get("f") != "SETUP":
        return
    seat, stage, i = fr.get("seat"), fr.get("stage"), fr.get("i")
    if not (_fields._is_int(seat) and _fields._is_int(i) and stage in _fields._STAGES):
        return                   # the full check names the fault
    for p, pd in enumerate(d["players"]):
        if p == o:
            continue
        if "setup" in pd:
            _fault(f"players[{p}].setup: another seat's setup choices are hidden in a view")
        if not (p < seat or (p == seat and (stage != "keep" or i > 0))):
            continue
        dealt = sorted(b for b, _ in pd["hand"])
        keep, food, bonus = [], [0] * 5, -1
        if p < seat:
            held = [b for b, _ in pd["bonus"]]
            bonus = min(held) if held else -1
        elif stage == "food" and 0 <= i < 5:
            keep, food = dealt[:i + 1], [1] * i + [0] * (5 - i)
        pd["setup"] = {"keep": keep, "food": food, "bonus": bonus}


# ---------------------------------------------------------------------------- the whole
def _check_keys(d):
    for key in d:
        if key not in VIEW_KEYS:
            _fault(f"a view has an unknown key {key!r} (keys: {', '.join(VIEW_KEYS)})")
    for key in VIEW_KEYS:
        if key not in d:
            _fault(f"a view misses the key {key!r}")
    if list(d) != list(VIEW_KEYS):
        _fault("a view's keys come in the order " + ", ".join(VIEW_KEYS))


def _full(d, o, n, rnd):
    """A full position dict that agrees with the view ``d`` (a new dict)."""
    full = json.loads(_text._dumps(d))
    _fill_birds(full, o, n, rnd)
    _fill_bonus(full, o, n)
    _fill_setup(full, o, n)
    del full["observer"]
    full["rng"] = hashlib.blake2b(_text._dumps(d).encode(), digest_size=8).hexdigest()
    return full


def parse_view(cls, d, settle=False):
    """The position a view (``d``, read JSON) stands for, at its decision node (with
    ``settle``, advanced to the next one as ``parse`` does)."""
    _check_keys(d)
    n = _int(d["n"], "'n' (players)", 1, MAXP)
    o = _int(d["observer"], "'observer'", 0, n - 1)
    for attempt in range(DEALS):
        s = cls._load(_text.checked(_full(d, o, n, random.Random(attempt) if attempt else None)))
        if attempt == 0:
            shown = _text.view(s, o)
            if shown != _text._dumps(d):
                _fault("the view is not in canonical form: "
                       + _text._first_difference(d, json.loads(shown), "view"))
        probe = s.copy()
        k = probe._settle()
        if settle or ((probe.is_over or k >= 2) and _text.to_text(probe) == _text.to_text(s)):
            return probe
    _fault(f"the view is not at a decision node: no deal of its hidden birds ({DEALS} tried) leaves "
           f"the pending step of seat {s.player} a choice (positions are written where a seat has "
           f"at least two moves, §7.1)")
