"""Hidden information and N players in the searchers (generic over the contract, checked
on CuBirds): the no-peeking property, determinizations, max^n values, seat rotation."""
import random

import pytest
from click.testing import CliRunner

from roost.cli.main import cli
from roost.core.games import get_game
from roost.search.engines import parse_engine


CUBIRDS = get_game("cubirds")


def decision_positions(players, count, seed):
    """Decision nodes along a seeded random CuBirds game."""
    rnd = random.Random(seed)
    s = CUBIRDS.start(players=players, seed=seed)
    out = []
    while not s.is_over and len(out) < count:
        if s.is_chance:
            s.play_unchecked(s.sample(rnd.getrandbits(63)))
            continue
        if rnd.random() < 0.15:
            out.append(s.copy())
        s.play_unchecked(rnd.choice(s.legal()))
    return out


def other_world(state, seed):
    """The same position with the opponents' hidden cards (and the pile) dealt afresh,
    consistently with everything the player to move knows."""
    me = state.player
    for k in range(50):
        w = state.determinized(me, seed + k)
        if w.text() != state.text():
            assert w.view(me) == state.view(me)
            return w
    raise AssertionError("no other world consistent with the mover's knowledge was drawn")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("spec", ["ismcts:iterations=1500", "mcts:iterations=800",
                                  "pimc:worlds=3,iterations=300", "ab:depth=2,paranoid=1",
                                  "pimc:worlds=3,iterations=300,threads=2"])
def test_search_never_reads_what_the_mover_cannot_see(players, spec):
    # the no-peeking test: swap the hidden cards for others consistent with the mover's
    # knowledge; the same seed must give the same choice and the same statistics
    for s in decision_positions(players, 3, seed=players * 7):
        t = other_world(s, seed=99)
        a = parse_engine(spec).choose(s, seed=5)
        b = parse_engine(spec).choose(t, seed=5)
        assert a.move == b.move
        assert [(x.move, x.visits, x.value) for x in a.stats] == [(x.move, x.visits, x.value) for x in b.stats]


HIDDEN_GAMES = [("cubirds", 2), ("cubirds", 4), ("wingspan", 2), ("wingspan", 3), ("leaves", 2),
                ("leaves", 3)]


def family_specs(players, budget):
    paranoid = ",paranoid=1" if players > 2 else ""
    return ["random", f"ab:depth=2{paranoid}", f"mcts:iterations={budget}",
            f"ismcts:iterations={budget}", f"pimc:worlds=2,iterations={budget // 2}"]


def seat_positions(game, players, count, seed):
    """Decision positions along a seeded random game with the hidden cards that matter: the
    middle third of the game, where hands and decks are full of cards the mover cannot see."""
    from tests.search.positions import decisions, random_game
    states = decisions(random_game(get_game(game), players, seed))
    middle = states[len(states) // 3: 2 * len(states) // 3]
    return [middle[(k * len(middle)) // count] for k in range(count)]


def another_world(state, seed):
    """The same position with every card the mover cannot see dealt afresh, consistently
    with what the mover knows (the view, where the game prints one, is unchanged)."""
    me = state.player
    for k in range(50):
        w = state.determinized(me, seed + k)
        if w.text() != state.text():
            if hasattr(state, "view"):
                assert w.view(me) == state.view(me)
            return w
    raise AssertionError("no other world consistent with the mover's knowledge was drawn")


def report(result):
    """Everything an engine reports, but the clock."""
    d = result.as_dict()
    d.pop("seconds")
    d.pop("speed")
    return d


@pytest.mark.parametrize("game,players", HIDDEN_GAMES)
def test_the_whole_report_depends_only_on_the_movers_view(game, players):
    # move, values, visits, PV, notes, stats: identical for two positions that
    # differ only in what the mover cannot see, for every engine family
    budget = 60 if game == "wingspan" else 200
    compared = 0
    for s in seat_positions(game, players, 2, seed=players):
        assert s.hidden_info
        t = another_world(s, seed=11)
        for spec in family_specs(players, budget):
            a = report(parse_engine(spec).choose(s, seed=5))
            b = report(parse_engine(spec).choose(t, seed=5))
            assert a == b, (game, spec, s.text())
            compared += 1
    assert compared == 2 * 5


def test_the_principal_variation_does_not_show_the_opponents_hidden_hand():
    # the positions differ only in seat 1's hand (and so the deck); a PV that read that
    # hand would differ between them (say "T2L flock:O" against "T2L flock:O F1L")
    first = ('{"players": 2, "dealer": 0, "to_move": 0, "phase": "lay", "rows": ["RRFWWWWPPPT", '
             '"OOOOPTWW", "MMMW", "MMRRRRRRDTTWW"], "hands": ["TDDMMMMM", "%s"], "known": ["M", '
             '"TRRR"], "lacks": ["", "MW"], "collections": ["FW", "D"], "discard": "FFWW", '
             '"deck": "%s", "turn": 26}')
    a = CUBIRDS.parse(first % ("TPPPRRR", "FFFOOOOOOTTTTDDDDDDDDDPPPPPPMMMMMMMWWWWWWWWRRRRRRRRR"))
    b = CUBIRDS.parse(first % ("FTTRRRR", "FFOOOOOOTTTDDDDDDDDDPPPPPPPPPMMMMMMMWWWWWWWWRRRRRRRR"))
    assert a.view(0) == b.view(0) and a.text() != b.text()
    for seed in range(8):
        for spec in ("ismcts:iterations=300", "mcts:iterations=300", "ab:depth=3"):
            ra = parse_engine(spec).choose(a, seed=seed)
            rb = parse_engine(spec).choose(b, seed=seed)
            assert report(ra) == report(rb), (spec, seed)
            assert len(ra.pv) >= 1 and ra.pv[0] == ra.move_name


def test_a_perfect_information_search_of_the_true_state_would_differ():
    # guard for the test above: the true hidden cards do matter to a peeking search, so
    # identical statistics are not an accident of the positions chosen
    from roost.search.mcts import MCTS
    differ = 0
    for s in decision_positions(4, 6, seed=31):
        t = other_world(s, seed=7)
        stats = []
        for state in (s, t):
            tree = MCTS(capacity=200000, solver=False, seed=3)
            stats.append([(x.move, x.visits) for x in tree.search(state, iterations=600).root_moves])
        differ += stats[0] != stats[1]
    assert differ > 0


def test_determinizations_keep_what_the_observer_knows():
    for players in (2, 4, 5):
        for s in decision_positions(players, 4, seed=players):
            for observer in range(players):
                view = s.view(observer)
                for seed in range(5):
                    assert s.determinized(observer, seed).view(observer) == view


def test_alpha_beta_refuses_more_than_two_players_unless_paranoid():
    s = decision_positions(4, 1, seed=2)[0]
    with pytest.raises(ValueError, match="paranoid=1"):
        parse_engine("ab:depth=2").choose(s, seed=0)
    assert parse_engine("ab:depth=2,paranoid=1").choose(s, seed=0).move in s.legal()


def test_mcts_reports_every_players_value_in_n_player_games():
    s = decision_positions(4, 1, seed=3)[0]
    r = parse_engine("ismcts:iterations=2000").choose(s, seed=1)
    assert len(r.values) == 4
    assert abs(sum(r.values) - 1.0) < 1e-6
    best = max(r.stats, key=lambda x: x.visits)
    assert abs(best.values[s.player] - best.value) < 0.05


def test_cli_analyse_and_show_from_a_seat():
    s = decision_positions(3, 1, seed=4)[0]
    seat = s.player
    r = CliRunner().invoke(cli, ["analyse", "cubirds", s.text(), "--as", str(seat),
                                 "--engine", "ismcts:iterations=300"])
    assert r.exit_code == 0, r.output
    assert "mover's information" in r.output and "players  seat 0 " in r.output
    other = (seat + 1) % 3
    r = CliRunner().invoke(cli, ["show", "cubirds", s.text(), "--as", str(other)])
    assert r.exit_code == 0 and f"seen by seat {other}" in r.output
    r = CliRunner().invoke(cli, ["analyse", "cubirds", s.text(), "--as", str(other),
                                 "--engine", "ismcts:iterations=300"])
    assert r.exit_code == 0 and f"for      seat {other}, from what seat {other} sees" in r.output
    r = CliRunner().invoke(cli, ["show", "cubirds", s.text(), "--as", "4"])
    assert r.exit_code == 2 and "seat 4 does not exist" in r.output


def test_cli_play_rotates_n_engines_over_seats():
    r = CliRunner().invoke(cli, ["play", "cubirds", "--players", "4", "-e", "random", "-e",
                                 "ismcts:iterations=30", "--games", "4", "--seed", "2"])
    assert r.exit_code == 0, r.output
    seats = [l.split(": result")[0] for l in r.output.splitlines() if l.startswith("game ")]
    assert len(seats) == 4
    # every engine sits in every seat equally often over the four games
    for k in range(4):
        column = [line.split(", ")[k].split("=", 1)[1] for line in seats]
        assert sorted(column) == sorted(["random", "random", "ismcts:iterations=30", "ismcts:iterations=30"])
    assert "in 4 games" in r.output


def test_match_tallies_count_an_engine_in_several_seats_once_a_game():
    from roost.arena.match import play_match
    m = play_match(CUBIRDS, ["ismcts:iterations=50", "random"], games=2, seed=1, players=4)
    for w, d, l in m.tallies():
        assert w + d + l == 2
    assert sum(m.scores()) == pytest.approx(2.0)
