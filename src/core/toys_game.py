"""The toy games of ``toys.pyx`` that the generic tests run on, registered: Dice Race (not
listed as one of the games roost plays)."""
from roost.core.games import GameInfo, register_game
from roost.core.toys import DiceRace

GAME = register_game(GameInfo(
    "dice", "Dice Race", DiceRace, 2, 2, 2, (),
    "a toy with dice-like chance for testing the searchers",
    examples=("0 0 6 0 -", "3 5 2 1 roll", "4 4 1 1 coin"),
    bench_position="0 0 6 0 -", listed=False))
