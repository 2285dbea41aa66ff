"""The rules every engine plays under, in-process or external: breaking one forfeits the
game.  The arena enforces them; an external engine's client raises them as it sees them."""
from roost.core.errors import RoostError

MARGIN = 0.1            # seconds an answer may come after the clock ran out
REASONS = ("time", "crash", "illegal", "malformed", "error", "handshake")


class Forfeit(RoostError):
    """An engine broke the arena's rules: ``reason`` (one of REASONS) and what happened."""

    def __init__(self, reason, detail):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
