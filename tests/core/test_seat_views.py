"""A seat's view is a position text its receiver can parse (issue 12: "the position text as
that seat sees it"): the games' parsers take their own views, hidden cards dealt in a fixed
way from the unseen ones, and the view of the result is the view sent."""
import json
import random
import subprocess
import sys

import pytest

from roost.core.errors import PositionError
from roost.core.games import get_game
from roost.protocol.lines import LineReader

CUBIRDS = get_game("cubirds")


def positions(game, players, seed, every=1):
    """Every `every`-th decision node of a seeded random game (chance included)."""
    rnd = random.Random(seed)
    s = get_game(game).start(players=players, seed=seed)
    k = 0
    while not s.is_over:
        if s.is_chance:
            s.play_unchecked(s.sample(rnd.getrandbits(63)))
            continue
        if k % every == 0:
            yield s.copy()
        k += 1
        s.play_unchecked(rnd.choice(s.legal()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_cubirds_view_parses_back_to_itself(players):
    checked = 0
    for s in positions("cubirds", players, seed=players, every=2):
        for seat in range(players):
            view = s.view(seat)
            parsed = CUBIRDS.parse(view)
            assert parsed.view(seat) == view
            if seat == s.player:           # the mover's own options are all in its view
                assert parsed.legal() == s.legal()
            checked += 1
    assert checked > 50


def test_a_parsed_view_depends_on_the_view_alone():
    for s in positions("cubirds", 4, seed=9, every=7):
        seat = (s.player + 1) % 4
        other = s.determinized(seat, 77)
        assert other.view(seat) == s.view(seat)
        assert CUBIRDS.parse(other.view(seat)).text() == CUBIRDS.parse(s.view(seat)).text()


def test_a_parsed_flock_view_lets_the_mover_flock():
    found = 0
    for s in positions("cubirds", 3, seed=4):
        if json.loads(s.text())["phase"] != "flock":
            continue
        for seat in range(3):
            assert CUBIRDS.parse(s.view(seat)).legal() != []
        found += 1
    assert found


def view_of(players=3, seed=2):
    s = next(positions("cubirds", players, seed=seed))
    return s, json.loads(s.view((s.player + 1) % players))


@pytest.mark.parametrize("change, says", [
    (lambda d: d.__setitem__("deck", d["deck"] + 1), "unknown hand cards and"),
    (lambda d: d.__setitem__("deck", "FFO"), "the number of cards in the draw pile"),
    (lambda d: d.pop("unseen"), "a view needs 'unseen'"),
    (lambda d: d["hands"].__setitem__(d["observer"], d["hands"][d["observer"]] + "?"), "ends in '?'"),
    (lambda d: d.__setitem__("observer", 9), "'observer' must be 0..2"),
    (lambda d: d.__setitem__("unseen", "X" + d["unseen"]), "not a species letter"),
])
def test_a_bad_view_is_one_position_error(change, says):
    s, d = view_of()
    change(d)
    with pytest.raises(PositionError, match=says):
        CUBIRDS.parse(json.dumps(d))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_leaves_view_parses_back_to_itself(players):
    leaves = get_game("leaves")
    checked = 0
    for s in positions("leaves", players, seed=players, every=3):
        view = s.view((s.player + 1) % players)
        # the bag is hidden exactly where tiles were removed unseen (2 and 3 players)
        assert ("bag=?" in view) == (players < 4) and (players < 4 or view == s.text())
        parsed = leaves.parse(view)
        assert parsed.view(0) == view and parsed.legal() == s.legal()
        assert leaves.parse(s.determinized(s.player, 5).view(1)).text() == parsed.text()
        checked += 1
    assert checked > 5
    with pytest.raises(Exception, match="observer must be a seat"):
        s.view(players)


def test_what_the_arena_sends_a_seat_parses_on_every_hidden_information_game():
    from roost.protocol.views import seat_texts
    for game, players in (("cubirds", 2), ("cubirds", 4), ("leaves", 2), ("leaves", 3)):
        for s in positions(game, players, seed=11, every=9):
            position, world = seat_texts(s, s.player, 3)
            assert get_game(game).parse(position).view(s.player) == position
            assert get_game(game).parse(world).view(s.player) == position


# ---------------------------------------------------------------------------- Wingspan
WINGSPAN = get_game("wingspan")


def wingspan_positions(players, seed, every, thin_every=0):
    """Every `every`-th decision of a seeded random Wingspan game, the end included; with
    `thin_every`, every so many decisions most of the bird deck and the bonus deck are moved
    to their discard piles, so that both decks run out and are reshuffled again and again
    (deck and bonus epochs, formations, epoch tags: what random games hardly reach)."""
    rnd = random.Random(seed)
    s = WINGSPAN.start(players=players, seed=seed)
    k = 0
    while not s.is_over:
        if thin_every and k % thin_every == thin_every - 1:
            s = thinned(s, rnd)
        if k % every == 0:
            yield s.copy()
        k += 1
        s.play_unchecked(rnd.choice(s.legal()))
    yield s


def thinned(s, rnd):
    d = json.loads(s.text())
    if d["phase"] != "play":
        return s
    keep = rnd.randint(0, 3)
    d["discard"] += d["deck"][keep:]
    d["deck"] = d["deck"][:keep]
    keep = rnd.randint(0, 2)
    d["bonus_discard"] += [[b, d["bonus_epoch"], rnd.randrange(d["n"])] for b in d["bonus_deck"][keep:]]
    d["bonus_deck"] = d["bonus_deck"][:keep]
    return WINGSPAN.parse(json.dumps(d, separators=(",", ":")))


def assert_hides_secrets(view, truth, seat):
    """Checked apart from the code that writes views (rules §6.1, §8): every card hidden from
    ``seat`` is -1 in its view (the decks, other seats' face-down hand cards, bonus cards,
    bonus discards and formation entries, tucks it did not see, a bonus draw it did not
    make), other seats' setup choices and the RNG are left out, and the rest is the truth."""
    v, t = json.loads(view), json.loads(truth)
    key = json.dumps
    assert v.pop("observer") == seat and "rng" not in v and t.pop("rng")
    assert v.pop("deck") == [-1] * len(t.pop("deck"))
    assert v.pop("bonus_deck") == [-1] * len(t.pop("bonus_deck"))
    assert v.pop("bonus_discard") == [[c if w == seat else -1, tag, w] for c, tag, w in t.pop("bonus_discard")]
    assert v.pop("bonus_forms") == [[[c if w == seat else -1, tag, w] for c, tag, w in form]
                                    for form in t.pop("bonus_forms")]
    for q, (vp, tp) in enumerate(zip(v.pop("players"), t.pop("players"))):
        mine = q == seat
        hand = tp.pop("hand") if mine else [[c if tag == "p" else -1, tag] for c, tag in tp.pop("hand")]
        assert sorted(vp.pop("hand"), key=key) == sorted(hand, key=key)
        bonus = tp.pop("bonus") if mine else [[-1, tag] for _, tag in tp.pop("bonus")]
        assert sorted(vp.pop("bonus"), key=key) == sorted(bonus, key=key)
        if not mine:
            tp.pop("setup", None)
        for vrow, trow in zip(vp["mat"], tp["mat"]):
            for vb, tb in zip(vrow, trow):
                tuck = [[c if tag == "p" or (tag[0] == "h" and mine) else -1, tag] for c, tag in tb.pop("tuck")]
                assert sorted(vb.pop("tuck"), key=key) == sorted(tuck, key=key)
        assert vp == tp
    for vf, tf in zip(v["stack"], t["stack"]):
        if tf["f"] == "POW" and "drawn" in tf["st"] and tf["seat"] != seat:
            tf["st"]["drawn"] = [[-1, tag] for _, tag in tf["st"]["drawn"]]
    assert v == t


def check_wingspan_view(s, seat):
    """The view hides what the seat may not see and parses to a position whose view is the
    view; the mover's own options are all in its view; a searcher's determinization of the
    parsed position keeps the view."""
    view = s.view(seat)
    assert_hides_secrets(view, s.text(), seat)
    parsed = WINGSPAN.parse(view)
    assert parsed.view(seat) == view
    if not s.is_over:
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


@pytest.mark.parametrize("players, seed, every", [(2, 43, 5), (4, 45, 13), (5, 53, 19)])
def test_wingspan_views_after_many_reshuffles_parse_back_to_themselves(players, seed, every):
    epochs = bonus_epochs = checked = 0
    for s in wingspan_positions(players, seed, every, thin_every=7):
        d = json.loads(s.text())
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
    # issue 12: each seat's process is sent its view and nothing else (no world, no moves),
    # and plays every decision of a game from it
    s = WINGSPAN.start(players=players, seed=players)
    seats = [Served("wingspan", spec, players, k) for k, spec in enumerate(specs)]
    truths = [[] for _ in range(players)]
    try:
        while not s.is_over:
            k = s.player
            truths[k].append(s.text())
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
    """A position of round 1 (3 players) and the view of a seat that is not to move: other
    hands with a public card and hidden ones, hidden bonus cards, the deck."""
    for k, s in enumerate(wingspan_positions(3, 2, 1)):
        if k == 40:
            seat = (s.player + 1) % 3
            return s, seat, json.loads(s.view(seat))


def _set(path, value):
    def change(d):
        *where, last = path
        for key in where:
            d = d[key]
        d[last] = value
    return change


@pytest.mark.parametrize("change, says", [
    (_set(["players", 2, "hand", 0], [0, 0]), r"players\[2\].hand\[0\]: another seat's card drawn face down"),
    (_set(["players", 1, "hand", 0], [-1, 0]), r"players\[1\].hand\[0\]: the observer sees every card"),
    (_set(["players", 0, "hand", 0], [-1, "p"]), r"a card tagged \"p\" is public"),
    (lambda d: d["deck"].pop(), r"the view's 154 hidden birds of deck epoch 0 \(deck, hands, tucks\) are not its 155 unseen"),
    (_set(["deck", 3], 17), "a view's 'deck' is one -1 per card"),
    (_set(["players", 0, "bonus", 0], [12, 0]), r"players\[0\].bonus\[0\]: another seat's bonus card is hidden"),
    (_set(["players", 1, "bonus", 0], [-1, 0]), "the observer knows its own bonus cards"),
    (lambda d: d["bonus_deck"].pop(), "hidden bonus places of epoch 0 are not its"),
    (_set(["observer"], 3), "'observer' must be 0..2"),
    (lambda d: d.pop("feeder"), "a view misses the key 'feeder'"),
    (_set(["rng"], "0123456789abcdef"), "a view has an unknown key 'rng'"),
    (lambda d: d["players"][1]["hand"].reverse(), r"not in canonical form: view.players\[1\].hand\[0\]\[0\] should be 154, not 157"),
    (_set(["tray", 0], 154), r"bird 154 .* is in two places"),
])
def test_a_bad_wingspan_view_is_one_position_error(change, says):
    s, seat, d = wingspan_view_of()
    assert seat == 1 and WINGSPAN.parse(json.dumps(d)).view(seat) == s.view(seat)
    change(d)
    with pytest.raises(PositionError, match=says):
        WINGSPAN.parse(json.dumps(d))


def test_roost_show_reads_a_wingspan_view_and_names_a_bad_one():
    from click.testing import CliRunner
    from roost.cli.main import cli
    s, seat, d = wingspan_view_of()
    r = CliRunner().invoke(cli, ["show", "wingspan", json.dumps(d), "--as", str(seat)])
    assert r.exit_code == 0 and s.render(observer=seat) in r.output
    d["deck"].pop()
    r = CliRunner().invoke(cli, ["show", "wingspan", json.dumps(d), "--as", str(seat)])
    assert r.exit_code != 0 and "hidden birds of deck epoch 0" in r.output and "Traceback" not in r.output
