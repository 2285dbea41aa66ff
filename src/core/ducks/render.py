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


_R = 22          # a cell's radius in the picture


def svg(state, observer=None):
    """The pond as SVG: the 61 cells of the hexagon (row i on top, as in the text), white
    and black ducks, the crumb, each cell's name (rows on both sides, the name inside
    every cell, under a duck or the crumb too), whose turn it is or the result.  Every cell is a click target
    ``cell:e5`` (``move_targets``)."""
    raw = state._raw()
    white, black, crumb = raw["white"], raw["black"], raw["crumb"]
    step_x, step_y = 2 * _R + 4, 2 * _R
    width = int(9 * step_x + 84)
    height = int(9 * step_y + 90)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<polygon class="pond" points="{_hexagon(width, step_x, step_y)}" fill="#bfe0f5"/>']
    for y in range(8, -1, -1):
        n = ROW_LENGTHS[y]
        cy = 40 + (8 - y) * step_y
        x0 = 50 + (9 - n) * step_x / 2 + step_x / 2
        out.append(f'<text class="row" x="14" y="{cy + 5:.0f}" fill="#555">{ROW_NAMES[y]}</text>')
        out.append(f'<text class="row" x="{width - 24}" y="{cy + 5:.0f}" fill="#555">{ROW_NAMES[y]}</text>')
        for col in range(n):
            cell = ROW_STARTS[y] + col
            bit = 1 << cell
            cx = x0 + col * step_x
            name = f"{ROW_NAMES[y]}{col + 1}"
            out.append(f'<g class="cell" data-target="cell:{name}">')
            if white & bit or black & bit:
                kind, fill = ("duck white", "#ffffff") if white & bit else ("duck black", "#222222")
                out.append(f'<circle class="{kind}" cx="{cx:.1f}" cy="{cy:.1f}" r="{_R - 3}" fill="{fill}" '
                           'stroke="#222" stroke-width="2"/>')
                ink = "#9a9a9a" if white & bit else "#8a8a8a"       # faint on either duck
            else:
                out.append(f'<circle class="water" cx="{cx:.1f}" cy="{cy:.1f}" r="{_R - 3}" fill="#d9eefa" '
                           'stroke="#9cc9e6" stroke-width="1"/>')
                ink = "#7aa7c7"
            if cell == crumb:
                out.append(f'<circle class="crumb" cx="{cx:.1f}" cy="{cy:.1f}" r="7" fill="#c8862e" '
                           'stroke="#7a4f16" stroke-width="1.5"/>')
                out.append(f'<text class="name" x="{cx:.1f}" y="{cy + 16:.1f}" text-anchor="middle" '
                           f'font-size="8" fill="{ink}">{name}</text>')        # under the crumb
            else:
                out.append(f'<text class="name" x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" '
                           f'font-size="11" fill="{ink}">{name}</text>')
            out.append('</g>')
    out.append(f'<text class="status" x="14" y="{height - 18}" fill="#222">{_status(raw, state)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


_COLOURS = {"W": "white duck", "B": "black duck"}


def move_targets(state, move):
    """What a person clicks to make ``move``: the cell (``cell:e5``), then during setup
    the colour of the duck, a choice the picture does not draw."""
    name = state.move_name(move)
    colour, at, cell = name.rpartition("@")
    if not at:
        return [(f"cell:{name}", f"the crumb on {name}")]
    return [(f"cell:{cell}", cell), (None, f"a {_COLOURS[colour]} on {cell}")]


def move_marks(state, move):
    """The cell of ``move`` (played from ``state``), marked as the last move."""
    return [f"cell:{state.move_name(move).rpartition('@')[2]}"]


def _hexagon(width, step_x, step_y):
    """The pond's outline around the cells."""
    top, bottom = 40 - step_y * 0.75, 40 + 8 * step_y + step_y * 0.75
    mid = 40 + 4 * step_y
    left, right = 50 - step_x * 0.1, 50 + 9 * step_x + step_x * 0.1
    inner_left, inner_right = 50 + 2 * step_x, 50 + 7 * step_x
    points = [(inner_left, top), (inner_right, top), (right, mid), (inner_right, bottom),
              (inner_left, bottom), (left, mid)]
    return " ".join(f"{x:.0f},{y:.0f}" for x, y in points)


def _status(raw, state):
    result, side, plies = raw["result"], raw["side"], raw["plies"]
    if result >= 0:
        return ["White has gathered and wins", "Black has gathered and wins", "Drawn"][result] + \
            f" ({plies} crumb placements)"
    task = "place a duck" if state.phase == "setup" else "place the crumb"
    return f"{SIDE_NAMES[side]} to {task}; {plies} crumb placements"
