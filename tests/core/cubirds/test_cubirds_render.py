"""CuBirds' picture in words: a card drawn says its species and where it goes, and who
sees which card it is (State.seen_by)."""
import random

from roost.core.cubirds import render
from roost.core.cubirds.text import LETTERS, SPECIES_NAMES
from roost.core.games import get_game


def test_every_drawn_card_says_its_species_and_where_it_goes():
    state = get_game("cubirds").start(players=3, seed=4)
    rnd = random.Random(4)
    said = set()
    while not state.is_over and len(said) < 3:
        if state.is_chance:
            outcome = state.sample(rnd.randrange(1 << 30))
            letter = state.move_name(outcome).partition(":")[2]
            words = render.outcome_words(state, outcome)
            assert f" {SPECIES_NAMES[LETTERS.index(letter)]} ({letter}) drawn" in words
            seers = {q for q in range(3) if state.seen_by(outcome, q)}
            if state.phase == "filling":
                assert words.endswith(f"to complete row {state._raw()['row'] + 1}")
                assert seers == {0, 1, 2}                        # a row card lies face up
                said.add("row")
            elif state.phase == "drawing":
                assert words.endswith(f"for seat {state.turn_player}")
                assert seers == {state.turn_player}              # into the drawer's hand
                said.add("hand")
            elif state.phase == "deal":
                assert words.endswith(f"for seat {state.next_recipient}")
                assert seers == {state.next_recipient}
                said.add("deal")
            state.play_unchecked(outcome)
        else:
            state.play_unchecked(rnd.choice(state.legal()))
    assert said == {"row", "hand", "deal"}
