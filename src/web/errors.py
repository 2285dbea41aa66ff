"""The faults a web request can have, each one JSON error with a 4xx status: the app turns
them into ``{"error": message}`` and never shows a traceback."""


class WebError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the message names the
    fault as the command line would."""
    status = 400

    def __init__(self, message, status=None):
        super().__init__(message)
        if status is not None:
            self.status = status

    @property
    def message(self):
        return str(self)


class BadRequest(WebError):
    """Malformed or impossible input: a position, a move, an engine spec, a field."""
    status = 400


class Forbidden(WebError):
    """A request the server's options do not allow (a ``cmd:`` engine without
    ``--allow-cmd``, a missing or wrong token)."""
    status = 403


class NotFound(WebError):
    """No such game, session, database or stored game."""
    status = 404


class Busy(WebError):
    """Every search slot is taken: the request may be repeated once a page closes."""
    status = 429
