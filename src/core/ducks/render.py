"""Feed the Ducks as a picture in text: the pond as a hexagon, row i on top."""
from roost.core.ducks.board import ROW_NAMES, ROW_LENGTHS, ROW_STARTS


SIDE_NAMES = ("White", "Black")


def render(state):
    """``W``/``B`` ducks, ``*`` the crumb, ``.`` water; then whose turn it is or the result."""
    raw = state._raw()
    white, black, crumb, side, plies, result = (raw[k] for k in ("white", "black", "crumb", "side",
                                                                  "plies", "result"))
    lines = []
    for y in range(8, -1, -1):
        cells = []
        for col in range(ROW_LENGTHS[y]):
            cell = ROW_STARTS[y] + col
            bit = 1 << cell
            cells.append("W" if white & bit else "B" if black & bit
                         else "*" if cell == crumb else ".")
        lines.append(f"{ROW_NAMES[y]}  " + " " * (9 - ROW_LENGTHS[y]) + " ".join(cells))
    lines.append("   " + "   columns count from 1 at the left of each row")
    if result >= 0:
        status = ["White has gathered and wins", "Black has gathered and wins", "Drawn"][result]
    else:
        task = "place a duck" if state.phase == "setup" else "place the crumb"
        status = f"{'White' if side == 0 else 'Black'} to {task}"
    lines.append(f"{status}; {plies} crumb placements")
    return "\n".join(lines)
