"""How ``roost serve`` holds up with many pages analysing at once: N pages (WebSockets)
each run a long analysis on its own search process while API calls are timed; then the
pages close, and the time until no search process is left is measured.

    python benchmarks/web_load.py                 # 20 pages, 30 API calls, 127.0.0.1 only
    python benchmarks/web_load.py --pages 20 --calls 60 --seconds 30

It starts its own server on a free port of 127.0.0.1, sends traffic to nothing else, and
stops by itself (every wait is bounded).  It prints the API latencies (median, 95th
percentile, worst) while every page searches, and how long the search processes took to
end once the pages closed.  A report, not a test: it asserts nothing about speed.
"""
import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

POSITIONS = [
    ("ducks", "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"),
    ("connect4", "4453"),
    ("tweeeet", None),
    ("leaves", None),
    ("cubirds", None),
    ("wingspan", None),
]


def children(pid):
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except OSError:
                pass
    return out


def start_server(options):
    proc = subprocess.Popen([sys.executable, "-m", "roost.cli.main", "serve", "--port", "0", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = re.search(r"http://localhost:(\d+)", line or "")
        if found:
            return proc, int(found.group(1))
        if not line:
            break
    proc.kill()
    raise SystemExit("roost serve did not start")


def timed_call(port, k):
    """One API call, alternating the game list and a position: its seconds."""
    url = f"http://127.0.0.1:{port}"
    if k % 2:
        request = urllib.request.Request(url + "/api/games")
    else:
        body = json.dumps({"game": "ducks", "moves": ["W@a1", "B@a2"]}).encode()
        request = urllib.request.Request(url + "/api/position", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
    t0 = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()
    return time.perf_counter() - t0


async def page(port, k, seconds, searching, stop):
    import websockets
    game, position = POSITIONS[k % len(POSITIONS)]
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/analyse", max_size=1 << 24) as ws:
        await ws.send(json.dumps({"op": "analyse", "game": game, "position": position, "engine": "auto",
                                  "seconds": seconds, "tag": k}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if msg["type"] == "progress":
                searching.add(k)
                break
            if msg["type"] == "error":
                raise SystemExit(f"page {k}: {msg['error']}")
        await stop.wait()


async def main(args):
    server, port = start_server(["--max-time", str(args.seconds), "--max-searches", str(args.pages + 4)])
    try:
        searching, stop = set(), asyncio.Event()
        t0 = time.monotonic()
        pages = [asyncio.ensure_future(page(port, k, args.seconds, searching, stop)) for k in range(args.pages)]
        while len(searching) < args.pages:
            if time.monotonic() - t0 > 120:
                raise SystemExit(f"only {len(searching)} of {args.pages} pages searching after 120 s")
            await asyncio.sleep(0.1)
        started = time.monotonic() - t0
        workers = len(children(server.pid))
        latencies = []
        for k in range(args.calls):
            latencies.append(await asyncio.to_thread(timed_call, port, k))
            await asyncio.sleep(0.2)
        still = len(children(server.pid))
        stop.set()
        await asyncio.gather(*pages)
        t1 = time.monotonic()
        while children(server.pid) and time.monotonic() - t1 < 30:
            await asyncio.sleep(0.02)
        ended = time.monotonic() - t1
        left = len(children(server.pid))
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    latencies.sort()
    p95 = latencies[max(0, int(round(0.95 * len(latencies))) - 1)]
    print(f"{args.pages} pages analysing ({workers} search processes, all searching after {started:.1f} s; "
          f"{still} still searching after the calls), {os.cpu_count()} cores")
    print(f"API calls while they search: {len(latencies)}, median {1000 * statistics.median(latencies):.0f} ms, "
          f"95th percentile {1000 * p95:.0f} ms, worst {1000 * latencies[-1]:.0f} ms; "
          f"{sum(t <= 0.5 for t in latencies)} of {len(latencies)} within 0.5 s")
    print(f"pages closed: no search process left after {ended:.2f} s ({left} left)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0, help="each analysis's budget (longer than the run)")
    asyncio.run(main(parser.parse_args()))
