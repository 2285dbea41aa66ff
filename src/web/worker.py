"""A search worker: one process per page that searches, started and ended by
``roost.web.searches``.

Searches run here, not in the server, because roost's searchers stop on a signal in the
thread that runs them, and because a process can be ended whatever it is doing: the page
that closes takes its worker with it, search and all.  The worker lowers its own priority
(so that the server stays responsive however many pages search), caps its address space,
and dies with the server (``PR_SET_PDEATHSIG``).

It reads one JSON request a line on stdin and answers in JSON lines on stdout:

- ``{"op": "search", "game", "position", "engine", "seconds", "observer", "multipv",
  "seed"}``: ``{"progress": {...}}`` lines as the search goes, then ``{"result": {...}}``;
- ``{"op": "evaluate", "game", "positions": [...], "engine", "seconds"}``: one
  ``{"values": [...], "index": k}`` line a position, then ``{"done": true}``;
- a fault of the request: ``{"error": message}``.

Every answer carries the request's ``id``, so that a stop arriving just after an answer
(answered ``{"stopped": null}``) is not taken for the answer to the next request.

SIGINT stops the request under way (``{"stopped": partial result or null}``); SIGTERM
stops it and ends the worker, closing any engine program it started; so does the end of
stdin.
"""
import argparse
import ctypes
import json
import os
import resource
import signal
import sys

_PR_SET_PDEATHSIG = 1


class _Flags:
    terminate = False
    request = None          # the id of the request under way: every answer carries it


def _on_signal(signum, frame):
    if signum == signal.SIGTERM:
        _Flags.terminate = True
    # the searchers take KeyboardInterrupt as their stop and report what they have
    raise KeyboardInterrupt


def _die_with_parent():
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass                    # not Linux: the end of stdin still ends the worker


def _limit_memory(megabytes):
    if megabytes:
        limit = megabytes << 20
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ValueError, OSError):
            pass


def _send(obj):
    obj["id"] = _Flags.request
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _run(request, options):
    from roost.web import library
    from roost.web.errors import WebError
    op = request.get("op")
    seconds = min(float(request.get("seconds") or options.seconds), options.seconds)
    try:
        if op == "search":
            result = library.search(request["game"], request["position"], request["engine"], seconds,
                                    options.memory, observer=request.get("observer"),
                                    multipv=int(request.get("multipv") or 1),
                                    seed=int(request.get("seed") or 0),
                                    progress=lambda p: _send({"progress": p}),
                                    allow_cmd=options.allow_cmd)
            _send({"result": result})
        elif op == "evaluate":
            for k, position in enumerate(request["positions"]):
                values = library.evaluate(request["game"], position, request["engine"], seconds,
                                          options.memory, seed=int(request.get("seed") or 0))
                _send({"index": k, "values": values})
            _send({"done": True})
        else:
            _send({"error": f"unknown request {op!r}"})
    except library.Stopped as e:
        _send({"stopped": e.partial})
    except KeyboardInterrupt:
        _send({"stopped": None})
    except WebError as e:
        _send({"error": e.message})
    except MemoryError:
        _send({"error": f"the search ran out of its {options.memory} MB"})


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m roost.web.worker")
    parser.add_argument("--seconds", type=float, required=True, help="the most a search may take")
    parser.add_argument("--memory", type=int, required=True, help="MB an engine's tree or table may take")
    parser.add_argument("--address-space", type=int, default=0, help="MB of address space (0: no cap)")
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--allow-cmd", action="store_true")
    options = parser.parse_args(argv)
    _die_with_parent()
    os.nice(options.nice)
    _limit_memory(options.address_space)
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    from roost.web import library            # noqa: F401  (imported before the first request)
    _send({"ready": True})
    while not _Flags.terminate:
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            continue                        # a stop with nothing to stop, or SIGTERM: see the loop
        if not line:
            return
        try:
            request = json.loads(line)
        except ValueError:
            _send({"error": "a request is one JSON object a line"})
            continue
        if not isinstance(request, dict):
            _send({"error": "a request is one JSON object a line"})
            continue
        _Flags.request = request.get("id")
        try:
            _run(request, options)
        except KeyboardInterrupt:
            _send({"stopped": None})


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
