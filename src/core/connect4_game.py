"""Connect Four, the calibration game, registered: its position and move generator are
``connect4.pyx``, its picture ``connect4_render.py``."""
from roost.core import connect4_render
from roost.core.connect4 import Connect4
from roost.core.games import GameInfo, register_game

GAME = register_game(GameInfo(
    "connect4", "Connect Four", Connect4, 2, 2, 2, ("connect-four", "connect_four", "c4"),
    "drop stones into a 7x6 grid to line up four (OpenSpiel's connect_four; "
    "solved positions in the calibration data)",
    examples=("-", "4453", "444444326"),
    bench_position="4453", calibration=True, picture=connect4_render))
