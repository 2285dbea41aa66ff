"""The Analyse page in a real browser: live lines that change while the engine searches,
the best move drawn on the board, stepping through moves made by clicking, the evaluation
graph, stop, and a closed page whose search process ends with it."""
import time

from tests.web.conftest import shot

POND = "bwbwb/w4b/w5w/b6b/b7b/w6w/b5w/b4w/bbwww w 0"


def open_analysis(page, url, game, position=None):
    page.goto(url + "/#/analyse")
    page.select_option("#game", game)
    page.wait_for_selector(".board .picture svg")
    if position:
        page.fill("#position", position)
        page.click("#load")
        page.wait_for_function("document.querySelector('#where').textContent.startsWith('ply 0 of 0')")


def test_analysis_lines_update_live(server, page):
    open_analysis(page, server.url, "ducks", POND)
    page.fill("#engine", "mcts:time=3")
    page.fill("#multipv", "2")
    page.click("#go")
    seen = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        info = page.locator("#info").inner_text()
        if info and (not seen or seen[-1] != info):
            seen.append(info)
        if page.locator("#lines[data-final='1']").count():
            break
        time.sleep(0.05)
    live = [s for s in seen if "iterations" in s and "mcts" not in s]
    assert len(live) >= 2, seen                       # at least two reports before the result
    assert page.locator("#lines tr.line").count() == 2
    assert page.locator(".board svg .mark.pv").count() == 1     # the best move on the board
    shot(page, "analyse-ducks")


def reports_until_final(page, seconds=30):
    """The engine reports the page shows (#info) until its lines are final."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        info = page.locator("#info").inner_text()
        if info and (not seen or seen[-1] != info):
            seen.append(info)
        if page.locator("#lines[data-final='1']").count():
            return seen
        time.sleep(0.02)
    raise AssertionError(f"no result within {seconds} s: {seen}")


def test_alpha_beta_depth_lines_then_a_proven_result(server, page):
    open_analysis(page, server.url, "connect4")
    page.fill("#engine", "ab")
    page.fill("#seconds", "2")
    page.fill("#multipv", "1")
    page.click("#go")
    depths = [int(s.split()[1]) for s in reports_until_final(page) if s.startswith("depth ")]
    assert len(depths) >= 2 and depths == sorted(depths)          # deeper and deeper, live
    open_analysis(page, server.url, "connect4", "4455")
    page.fill("#multipv", "2")
    page.click("#go")
    reports_until_final(page)
    rows = page.locator("#lines tr.line").all_inner_texts()
    assert len(rows) == 2 and all("win in 3" in r for r in rows), rows
    assert "win in 3" in page.locator("#lines").inner_text() and "value for X" in page.locator("#lines").inner_text()
    assert ", win in 3 \u00b7 depth 3," in page.locator("#info").inner_text()
    shot(page, "analyse-connect4-proven")


def test_moves_by_clicking_stepping_and_the_graph(server, page):
    open_analysis(page, server.url, "connect4")
    for played, column in enumerate(("4", "4", "3"), 1):
        page.locator(f'.board svg [data-target="col:{column}"]').click()
        # the move is in the history (the start and the moves so far) before the next click
        page.wait_for_function(f"document.querySelectorAll('#history span').length == {played + 1}")
        page.wait_for_selector(".board svg .clickable")
    assert page.locator("#history span").all_inner_texts() == ["start", "4", "4", "3"]
    page.click("#back")
    page.wait_for_function("document.querySelector('#where').textContent.startsWith('ply 2 of 3')")
    page.click("#first")
    page.wait_for_function("document.querySelector('#where').textContent.startsWith('ply 0 of 3')")
    page.click("#last")
    page.wait_for_function("document.querySelector('#where').textContent.startsWith('ply 3 of 3')")
    page.fill("#graph-seconds", "0.05")
    page.click("#graph")
    page.wait_for_selector("#graphbox svg path.series")
    page.wait_for_function("!document.querySelector('#graph').disabled")
    shot(page, "analyse-connect4-graph")


def test_stop_and_a_closed_page_end_the_search(server, browser):
    context = browser.new_context()
    page = context.new_page()
    open_analysis(page, server.url, "tweeeet")
    page.fill("#engine", "mcts:time=60")
    page.fill("#seconds", "60")
    page.click("#go")
    page.wait_for_function("document.querySelector('#info').textContent.includes('iteration')")
    page.click("#stop")
    page.wait_for_function("document.querySelector('#info').textContent.startsWith('stopped')")
    page.click("#go")
    page.wait_for_function("document.querySelector('#info').textContent.includes('iteration')")
    assert len(server.workers()) >= 1                  # this page's search process
    context.close()                                   # the page goes away mid-search
    assert server.wait_for_no_workers() == []


def test_each_line_says_its_move_in_words(server, page):
    open_analysis(page, server.url, "leaves")
    page.fill("#engine", "ab:depth=1")
    page.fill("#multipv", "2")
    page.click("#go")
    reports_until_final(page)
    words = page.locator("#lines tr.line .words").all_inner_texts()
    assert len(words) == 2                                    # m0@(1,0)o5: which tile, where, turned how
    assert all(w.startswith("tile #") and "the place (" in w and ("front" in w or "back" in w) for w in words)
    shot(page, "analyse-leaves-words")
