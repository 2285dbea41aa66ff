"""Connect Four as a picture: the standing board, X's stones red and O's yellow."""

SIDE_NAMES = ("X", "O")
CELL = 60


def svg(state, observer=None):
    """The board as SVG: seven columns, six rows, numbered columns, the side to move or
    the result underneath.  Each column is a click target ``col:4``, each place a mark
    ``stone:4:1`` (column, row from the bottom)."""
    width, height = 7 * CELL + 40, 6 * CELL + 90
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="16">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<rect class="board" x="20" y="20" width="{7 * CELL}" height="{6 * CELL}" rx="10" fill="#2456a6"/>']
    for col in range(7):
        out.append(f'<g class="column" data-target="col:{col + 1}">'
                   f'<rect x="{20 + CELL * col}" y="20" width="{CELL}" height="{6 * CELL}" fill="none" '
                   'pointer-events="all"/>')
        for row in range(6):
            who = state.cell(col, row)
            fill = "white" if who is None else ("#d83a34" if who == 0 else "#f2c93b")
            cx, cy = 20 + CELL * col + CELL / 2, 20 + CELL * (5 - row) + CELL / 2
            kind = "empty" if who is None else f"stone {SIDE_NAMES[who]}"
            out.append(f'<circle class="{kind}" data-target="stone:{col + 1}:{row + 1}" cx="{cx:.0f}" '
                       f'cy="{cy:.0f}" r="{CELL * 0.4:.0f}" fill="{fill}" stroke="#173b75" stroke-width="2"/>')
        out.append('</g>')
        out.append(f'<text x="{20 + CELL * col + CELL / 2:.0f}" y="{6 * CELL + 42}" '
                   f'text-anchor="middle" fill="#333">{col + 1}</text>')
    out.append(f'<text class="status" x="20" y="{6 * CELL + 74}" fill="#222">{_status(state)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def move_targets(state, move):
    """What a person clicks to make ``move``: its column (``col:4``)."""
    name = state.move_name(move)
    return [(f"col:{name}", f"column {name}")]


def move_marks(state, move):
    """The stone ``move`` drops (played from ``state``), marked as the last move."""
    col = int(state.move_name(move))
    row = next(r for r in range(6) if state.cell(col - 1, r) is None)
    return [f"stone:{col}:{row + 1}"]


def _status(state):
    if state.is_over:
        r = state.result()
        return "a draw" if r[0] == r[1] else f"{SIDE_NAMES[0 if r[0] > r[1] else 1]} has won"
    return f"{SIDE_NAMES[state.player]} ({('red', 'yellow')[state.player]}) to move"
