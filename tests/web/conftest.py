"""The web tests' fixtures: a real ``roost serve`` in its own process, and Debian's chromium
driven by Playwright (its own browser download cannot work on these machines).

Set ``ROOST_SHOTS=/tmp/roost-shots`` to keep a screenshot of every page the tests show."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

CHROMIUM = os.environ.get("ROOST_CHROMIUM", "/usr/bin/chromium")


def children_of(pid):
    """The process ids whose parent is ``pid`` (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(entry))
    return out


class Server:
    """``roost serve`` on a free port of 127.0.0.1."""

    def __init__(self, db_dir, *options):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "roost.cli.main", "serve", "--port", "0", "--db-dir", str(db_dir), *options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("roost serve ended: " + "".join(self.lines))
            self.lines.append(line)
            found = re.search(r"(http://\S+)", line)
            if found:
                self.url = found.group(1).rstrip("/")
                return
        raise RuntimeError("roost serve printed no address")

    def workers(self):
        return children_of(self.proc.pid)

    def wait_for_no_workers(self, seconds=15):
        deadline = time.monotonic() + seconds
        while self.workers() and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.workers()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="session")
def db_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("tournaments")


@pytest.fixture(scope="session")
def server(db_dir):
    s = Server(db_dir, "--max-time", "5")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser():
    try:
        import playwright.sync_api as playwright
    except ImportError:
        pytest.fail("the browser tests need Playwright: pip install -e '.[test]'")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need chromium at {CHROMIUM}: apt-get install -y chromium")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    context.close()
    assert not errors, f"the page raised: {errors}"


def shot(page, name):
    """Keep a screenshot of the page when ROOST_SHOTS names a folder."""
    folder = os.environ.get("ROOST_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name + ".png"), full_page=True)


def roost_cli(*args, cwd=None):
    """Run the roost command line (the tests' tournaments are made with it)."""
    return subprocess.run([sys.executable, "-m", "roost.cli.main", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)

