"""Opening suites (src/arena/openings.py): reading a suite file, the order its openings
are taken in, the suites roost ships, and making one."""
import glob
import os

import pytest

from roost.arena.openings import OpeningsError, Suite, balanced, generate, pick, shipped_path
from roost.core.games import all_games, get_game

DUCKS = get_game("ducks")
CONNECT4 = get_game("connect4")


def test_a_suite_reads_position_texts_and_move_lists_and_skips_comments():
    start = CONNECT4.default_position(2)
    after = CONNECT4.default_position(2)
    for m in ("4", "4", "3"):
        after.play_move(after.parse_move(m))
    suite = Suite.parse(CONNECT4, 2, f"# a suite\n\n{start.text()}\n4 4 3\n  # more\n")
    assert suite.texts == (start.text(), after.text())
    assert suite.count == 2 and len(suite.digest) == 64
    # the digest is what the suite holds, not how its lines were written
    assert Suite.parse(CONNECT4, 2, f"{start.text()}\n{after.text()}").digest == suite.digest


@pytest.mark.parametrize("text, msg", [
    ("4 4\nnonsense\n", "suite, line 2: neither a position of Connect Four"),
    ("# nothing\n\n", "holds no opening"),
    ("4 4 4 4 4 4 4\n", "move 7, '4'"),
    ("1 2 1 2 1 2 1 2\n", "the game is over after move 7"),
])
def test_a_bad_line_is_named(text, msg):
    with pytest.raises(OpeningsError, match=msg):
        Suite.parse(CONNECT4, 2, text)


def test_bad_suite_files_are_refused(tmp_path):
    with pytest.raises(OpeningsError, match="cannot read the opening suite"):
        Suite.read(CONNECT4, 2, str(tmp_path / "missing.txt"))
    with pytest.raises(OpeningsError, match="is a directory"):
        Suite.read(CONNECT4, 2, str(tmp_path))
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(OpeningsError, match="not a text file"):
        Suite.read(CONNECT4, 2, str(binary))
    with pytest.raises(OpeningsError, match="ships no opening suite for Wingspan with 1 players"):
        Suite.read(get_game("wingspan"), 1, "builtin")


def test_sequential_goes_round_the_suite_and_random_shuffles_each_lap_by_the_seed():
    assert [pick(3, k, 7) for k in range(7)] == [0, 1, 2, 0, 1, 2, 0]
    laps = [[pick(5, lap * 5 + k, 7, "random") for k in range(5)] for lap in range(4)]
    assert all(sorted(lap) == list(range(5)) for lap in laps)          # each lap takes all
    assert len({tuple(lap) for lap in laps}) > 1                       # shuffled anew
    assert laps == [[pick(5, lap * 5 + k, 7, "random") for k in range(5)] for lap in range(4)]
    assert laps != [[pick(5, lap * 5 + k, 8, "random") for k in range(5)] for lap in range(4)]


def test_every_shipped_suite_reads_for_its_game_and_player_count():
    files = sorted(glob.glob(os.path.join(os.path.dirname(shipped_path("ducks", 2)), "*.txt")))
    # one for every game and number of players with seats to balance
    assert {os.path.basename(f) for f in files} == {
        f"{g.name}-{n}.txt" for g in all_games() for n in range(max(2, g.min_players), g.max_players + 1)}
    for f in files:
        name, players = os.path.basename(f)[:-4].rsplit("-", 1)
        suite = Suite.read(get_game(name), int(players), "builtin")
        assert suite.name == f"builtin:{name}-{players}"
        head = open(f, encoding="utf-8").read().splitlines()[0]
        assert f"{suite.count} openings" in head            # the header says what it holds
        assert len(set(suite.texts)) == suite.count          # no opening twice


def test_generate_keeps_new_openings_its_engine_rates_near_even_and_repeats_itself():
    made = generate(CONNECT4, 2, 4, 4, "ab:depth=4", 0.05, seed=3)
    assert len(made) == 4 and len(set(made)) == 4
    assert made == generate(CONNECT4, 2, 4, 4, "ab:depth=4", 0.05, seed=3)
    assert made != generate(CONNECT4, 2, 4, 4, "ab:depth=4", 0.05, seed=4)
    from roost.search.engines import parse_engine
    engine = parse_engine("ab:depth=4")
    for text in made:
        state = CONNECT4.parse(text)
        assert not state.is_over
        engine.new_game()
        assert balanced(state, engine.choose(state, seed=0), 0.05)


def test_a_repeated_suite_gives_every_rotation_of_n_seats_the_same_opening(tmp_path):
    from roost.arena.records import read_records
    from roost.arena.tournament import TournamentConfig, run_tournament
    cubirds = get_game("cubirds")
    suite = Suite.read(cubirds, 3, "builtin")
    engines = ["random", "mcts:iterations=5", "mcts:iterations=6"]
    cfg = TournamentConfig(game=cubirds, engines=engines, players=3, games=6, seed=2,
                           openings=suite, repeat=True)
    res = run_tournament(cfg, db=str(tmp_path / "t.db"), jobs=1)
    assert res.finished
    recs = read_records(res.db)
    assert [r.opening["index"] for r in recs] == [1, 1, 1, 2, 2, 2]
    assert [r.start for r in recs] == [suite.texts[0]] * 3 + [suite.texts[1]] * 3
    for first in (0, 3):                  # the three games of a round: every engine in every seat
        seatings = [tuple(r.seats) for r in recs[first:first + 3]]
        assert all(sorted(s[k] for s in seatings) == sorted(engines) for k in range(3))
