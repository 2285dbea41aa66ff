"""A Wingspan seat's view (docs/rules/wingspan-text.md, "A seat's view"): it hides exactly
what the seat has not seen (checked apart from the code that writes it, against the native
information model), parses back to a position whose view is the view, lets the mover make
every move it has, and a whole game is played from views alone."""
import json
import random
import subprocess
import sys

import pytest

from roost.core.errors import PositionError
from roost.core.games import get_game
from roost.core.wingspan import jsonform, parse_move
from roost.protocol.lines import LineReader

WINGSPAN = get_game("wingspan")


def wingspan_positions(players, seed, every, thin_every=0):
    """Every `every`-th decision of a seeded random Wingspan game, the end included; with
    `thin_every`, at the first turn's start after every so many decisions most of the bird
    deck and the bonus deck are moved to their discard piles, so that both decks run out and
    are reshuffled again and again (deck numbers, reshuffles: what random games hardly
    reach)."""
    rnd = random.Random(seed)
    s = WINGSPAN.start(players=players, seed=seed)
    k, due = 0, False
    while not s.is_over:
        due = due or (thin_every and k % thin_every == thin_every - 1)
        if due and s.phase == "play" and "moves" not in json.loads(s.text()):
            s, due = thinned(s, rnd), False
        if k % every == 0:
            yield s.copy()
        k += 1
        s.play_unchecked(rnd.choice(s.legal()))
    yield s


def thinned(s, rnd):
    """``s`` (at a turn's start) with most of both decks discarded (in the JSON form)."""
    d = jsonform.to_dict(s)
    keep = rnd.randint(0, 3)
    d["discard"] += d["deck"][keep:]
    d["deck"] = d["deck"][:keep]
    keep = rnd.randint(0, 1)
    d["bonus_discard"] += [[b, d["bonus_epoch"], rnd.randrange(d["n"])] for b in d["bonus_deck"][keep:]]
    d["bonus_deck"] = d["bonus_deck"][:keep]
    return WINGSPAN.parse(json.dumps(d, separators=(",", ":")))


def _seen_cards(s, seat):
    """The birds and bonus cards ``seat`` sees in ``s`` (jsonform.mask: the JSON form's
    view, the native information model written out)."""
    v = jsonform.mask(jsonform.to_dict(s), seat)
    birds = set(v["discard"]) | {b for b in v["tray"] if b >= 0} | set(v["draft"])
    birds |= {b for form in v["deck_forms"] for b in form}          # seen when reshuffled
    bonus = {b for b, _, _ in v["bonus_discard"] if b >= 0}
    bonus |= {b for form in v["bonus_forms"] for b, _, _ in form if b >= 0}
    for pd in v["players"]:
        birds |= {b for b, _ in pd["hand"] if b >= 0}
        bonus |= {b for b, _ in pd["bonus"] if b >= 0}
        for row in pd["mat"]:
            for bd in row:
                birds |= {bd["id"]} | {b for b, _ in bd["tuck"] if b >= 0}
    for fr in v["stack"]:
        bonus |= {b for b, _ in fr.get("st", {}).get("drawn", []) if b >= 0}
        if fr["f"] == "PLAY" and fr["card"] >= 0:          # a card chosen to play is named
            birds.add(fr["card"])
    return birds, bonus


def _hidden(entry, mine, tuck=False):
    """What a truth entry (hand, bonus or tuck) becomes in the view of a seat."""
    name, _, notes = entry.partition(" (")
    notes = "(" + notes if notes else ""
    if "shown" in notes or (mine and "from deck" not in notes):
        return entry
    return "?" + (" " + notes if notes else "")


def assert_hides_secrets(view, truth, seat):
    """Checked apart from the code that writes views: the view's table is the truth's with
    another seat's face-down hand cards, bonus cards and bonus discards, and the tucks the
    seat did not see, written '?' (their notes kept), the decks and the seed left out; and
    no card is named anywhere in the view that the seat has not seen (at the turn's start or
    now, as the native information model has it)."""
    v, t = json.loads(view), json.loads(truth.text())
    assert v.pop("seen by") == seat
    assert "deck" not in v and "bonus deck" not in v and "seed" not in v
    t.pop("deck"), t.pop("bonus deck"), t.pop("seed")
    vmoves, tmoves = v.pop("moves", []), t.pop("moves", [])
    assert bool(vmoves) == bool(tmoves)
    for key in ("bonus discard",):
        if key in t:
            t[key] = [e if f"(seat {seat}" in e else "?" + e[e.index(" ("):] for e in t[key]]
    if "bonus reshuffles" in t:
        t["bonus reshuffles"] = [[e if f"(seat {seat}" in e else "?" + e[e.index(" ("):] for e in form]
                                 for form in t["bonus reshuffles"]]
    for q, (vs, ts) in enumerate(zip(v["seats"], t["seats"])):
        mine = q == seat
        ts["hand"] = sorted(_hidden(e, mine) for e in ts.get("hand", []))
        vs["hand"] = sorted(vs.get("hand", []))
        ts["bonus"] = sorted(e if mine else _hidden(e, False) for e in ts.get("bonus", []))
        vs["bonus"] = sorted(vs.get("bonus", []))
        for habitat in ("forest", "grassland", "wetland"):
            for vb, tb in zip(vs.get(habitat, []), ts.get(habitat, [])):
                if isinstance(tb, dict) and "tucked" in tb:
                    tb["tucked"] = sorted(_hidden(e, mine, True) for e in tb["tucked"])
                    vb["tucked"] = sorted(vb["tucked"])
    assert v == t
    start = WINGSPAN.parse(json.dumps({k: x for k, x in json.loads(truth.text()).items() if k != "moves"}))
    birds, bonus = (a | b for a, b in zip(_seen_cards(truth, seat), _seen_cards(start, seat)))
    named_birds, named_bonus = _named(json.loads(view))
    assert named_birds <= birds and named_bonus <= bonus


def _named(view):
    """The birds and bonus cards a view names anywhere (its table and its moves)."""
    from roost.core.wingspan import names
    birds, bonus = set(), set()

    def card(entry, look, into):
        name = entry.partition(" (")[0].strip()
        if name and name != "?":
            into.add(look(name, "view"))

    for key in ("tray", "discard"):
        for e in view.get(key, []):
            if e:
                card(e, names.bird, birds)
    for form in view.get("reshuffles", []):
        for e in form:
            card(e, names.bird, birds)
    for e in view.get("bonus discard", []) + [x for f in view.get("bonus reshuffles", []) for x in f]:
        card(e, names.bonus, bonus)
    for seat in view["seats"]:
        for e in seat.get("hand", []) + seat.get("pink used", []):
            card(e, names.bird, birds)
        for e in seat.get("bonus", []):
            card(e, names.bonus, bonus)
        for habitat in ("forest", "grassland", "wetland"):
            for b in seat.get(habitat, []):
                b = {"bird": b} if isinstance(b, str) else b
                card(b["bird"], names.bird, birds)
                for e in b.get("tucked", []):
                    card(e, names.bird, birds)
    for m in view.get("moves", []):
        if m.startswith("card:") and m != "card:skip":
            birds.add(parse_move(m) - 6)
        elif m.startswith("bonus:"):
            bonus.add(parse_move(m) - 216)
        elif m.startswith("drew bonus:"):
            card(m[len("drew bonus:"):], names.bonus, bonus)
        elif m.startswith("drew:"):
            card(m[len("drew:"):], names.bird, birds)
    return birds, bonus


def check_wingspan_view(s, seat):
    """The view hides what the seat may not see and parses to a position whose view is the
    view; the mover's own options are all in its view; a searcher's determinization of the
    parsed position keeps the view."""
    view = s.view(seat)
    assert_hides_secrets(view, s, seat)
    parsed = WINGSPAN.parse(view)
    assert parsed.view(seat) == view
    if not s.is_over:
        assert parsed.player == s.player
        if seat == s.player:
            assert parsed.legal() == s.legal()
        assert parsed.determinized(seat, 5).view(seat) == view
    return parsed


@pytest.mark.parametrize("players, seeds, every", [(1, 3, 4), (2, 2, 6), (3, 2, 11), (4, 1, 11), (5, 1, 13)])
def test_every_wingspan_view_parses_back_to_itself(players, seeds, every):
    checked = 0
    for seed in range(seeds):
        for s in wingspan_positions(players, seed, every):
            for seat in range(players):
                check_wingspan_view(s, seat)
                checked += 1
    assert checked > 30 * players


@pytest.mark.parametrize("players, seed, every", [(2, 40, 5), (4, 43, 13), (5, 51, 19)])
def test_wingspan_views_after_many_reshuffles_parse_back_to_themselves(players, seed, every):
    epochs = bonus_epochs = checked = 0
    for s in wingspan_positions(players, seed, every, thin_every=7):
        d = jsonform.to_dict(s)
        epochs, bonus_epochs = max(epochs, d["deck_epoch"]), max(bonus_epochs, d["bonus_epoch"])
        for seat in range(players):
            check_wingspan_view(s, seat)
            checked += 1
    assert epochs >= 10 and bonus_epochs >= 2 and checked > 60


class Served:
    """`roost engine GAME --engine SPEC` playing one seat, spoken to over pipes; every line
    it is sent is kept."""

    def __init__(self, game, spec, players, seat):
        self.proc = subprocess.Popen([sys.executable, "-m", "roost.cli.main", "engine", game, "--engine", spec],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.reader = LineReader(self.proc.stdout.fileno())
        self.sent = []
        self.send("roost 1")
        self.until("roostok")
        self.send(f"newgame {game} players {players} seat {seat}", "isready")
        self.until("readyok")

    def send(self, *lines):
        for line in lines:
            self.sent.append(line)
            self.proc.stdin.write((line + "\n").encode())

    def until(self, word, timeout=60.0):
        got = []
        while not got or got[-1].split()[:1] != [word]:
            line = self.reader.readline(timeout=timeout)
            assert line is not None and not line.startswith("error"), f"the engine said {got + [line]}"
            got.append(line)
        return got

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.mark.parametrize("players, specs", [
    (2, ["ismcts:iterations=6", "pimc:worlds=2,iterations=3"]),
    (3, ["ismcts:iterations=3", "auto:nodes=3", "ismcts:iterations=3"]),
])
def test_roost_engine_plays_a_whole_wingspan_game_from_views_alone(players, specs):
    # each seat's process is sent its view and nothing else (no world, no moves), and plays
    # every decision of a game from it
    s = WINGSPAN.start(players=players, seed=players)
    seats = [Served("wingspan", spec, players, k) for k, spec in enumerate(specs)]
    truths = [[] for _ in range(players)]
    try:
        while not s.is_over:
            k = s.player
            truths[k].append(s.copy())
            seats[k].send(f"position {s.view(k)}", f"go seed {len(truths[k])}")
            name = seats[k].until("bestmove")[-1].split()[1]
            move = s.parse_move(name)
            assert move in s.legal()
            s.play_move(move)
    finally:
        for e in seats:
            e.close()
    for k, e in enumerate(seats):
        assert e.sent[:3] == ["roost 1", f"newgame wingspan players {players} seat {k}", "isready"]
        positions, gos = e.sent[3:-1:2], e.sent[4:-1:2]
        assert len(positions) == len(truths[k]) > 20 and all(g.startswith("go ") for g in gos)
        for line, truth in zip(positions, truths[k]):
            assert_hides_secrets(line[len("position "):], truth, k)


def wingspan_view_of():
    """A position of round 1 (3 players) at a turn's start and the view of a seat that is
    not to move: another hand with a card shown and unseen ones, unseen bonus cards."""
    for k, s in enumerate(wingspan_positions(3, 2, 1)):
        if k >= 40 and "moves" not in json.loads(s.text()):
            seat = (s.player + 1) % 3
            return s, seat, json.loads(s.view(seat))


def _other(d, o):
    """A seat other than ``o`` whose hand holds a card ``o`` has not seen."""
    return next(q for q, seat in enumerate(d["seats"]) if q != o and "?" in seat.get("hand", []))


def _hand(d, q, value):
    d["seats"][q]["hand"][d["seats"][q]["hand"].index("?") if value != "?" else 0] = value


@pytest.mark.parametrize("change, says", [
    (lambda d, o: _hand(d, _other(d, o), "Mallard"), r"seats\[\d\].hand\[\d\]: seat \d does not see .* write '\?'"),
    (lambda d, o: _hand(d, o, "?"), r"seats\[\d\].hand\[0\]: seat \d sees its own cards"),
    (lambda d, o: _hand(d, _other(d, o), "? (shown)"), r"a card shown to all is named"),
    (lambda d, o: d.__setitem__("deck", []), "a view leaves out what its seat has not seen"),
    (lambda d, o: d["seats"][_other(d, o)]["bonus"].__setitem__(0, "Anatomist"),
     r"seats\[\d\].bonus\[0\]: seat \d does not see"),
    (lambda d, o: d["seats"][o]["bonus"].__setitem__(0, "?"), r"seats\[\d\].bonus\[0\]: seat \d sees its own cards"),
    (lambda d, o: d.__setitem__("seen by", 3), "'seen by' must be 0..2"),
    (lambda d, o: d.pop("feeder"), "misses the key 'feeder'"),
    (lambda d, o: d.__setitem__("seed", "0123456789abcdef"), "a view leaves out"),
    (lambda d, o: d["tray"].__setitem__(0, "Dark-Eyed Junko"),
     r"tray\[0\]: 'Dark-Eyed Junko' is not a bird .*nearest: Dark-Eyed Junco"),
    (lambda d, o: d.__setitem__("moves", ["food", "die:R"]), r"moves\[1\]"),
])
def test_a_bad_wingspan_view_is_one_position_error(change, says):
    s, seat, d = wingspan_view_of()
    assert WINGSPAN.parse(json.dumps(d)).view(seat) == s.view(seat)
    change(d, seat)
    with pytest.raises(PositionError, match=says):
        WINGSPAN.parse(json.dumps(d))


def test_a_view_names_a_card_twice_is_one_position_error():
    s, seat, d = wingspan_view_of()
    d["tray"][0] = d["seats"][seat]["hand"][0].split(" (")[0]
    with pytest.raises(PositionError, match="in two places"):
        WINGSPAN.parse(json.dumps(d))


def test_roost_show_reads_a_wingspan_view_and_names_a_bad_one():
    from click.testing import CliRunner
    from roost.cli.main import cli
    s, seat, d = wingspan_view_of()
    r = CliRunner().invoke(cli, ["show", "wingspan", json.dumps(d), "--as", str(seat)])
    assert r.exit_code == 0 and s.render(observer=seat) in r.output
    d["tray"][0] = "Blu Jay"
    r = CliRunner().invoke(cli, ["show", "wingspan", json.dumps(d), "--as", str(seat)])
    assert r.exit_code != 0 and "'Blu Jay' is not a bird" in r.output and "Traceback" not in r.output


def test_the_json_form_of_a_view_is_still_read():
    # views written by earlier versions (the JSON form) still parse, to the same position's view
    s, seat, _ = wingspan_view_of()
    old = jsonform.view(s, seat)
    assert jsonform.view(WINGSPAN.parse(old), seat) == old
    assert WINGSPAN.parse(old).view(seat) == s.view(seat)
