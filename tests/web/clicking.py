"""A person at the browser board, for the tests: it moves only by clicking what the page
offers (the picture's targets, then the choice buttons), as someone with a mouse would."""
import json
import random
import time
import urllib.request

OFFERED = ".board .picture svg .clickable, .board .choices button.choice"
DONE = "#result"


def start_game(page, url, game, seats, players=None, position=None, seed=1):
    """Fill in the Play page's form and start the game; ``seats``: 'human' or an engine spec
    for each seat."""
    page.goto(url + "/#/play")
    page.select_option("#game", game)
    if players is not None:
        page.select_option("#players", str(players))
    for k, spec in enumerate(seats):
        if spec == "human":
            page.select_option(f'.who[data-seat="{k}"]', "human")
        else:
            page.select_option(f'.who[data-seat="{k}"]', "engine")
            page.fill(f'.spec[data-seat="{k}"]', spec)
    page.fill("#seed", str(seed))
    if position:
        page.fill("#position", position)
    page.click("#start")
    page.wait_for_selector(".board .picture svg")


def click_once(page, rnd):
    """Click one of the targets or choices offered now; returns what was clicked, or None
    when nothing is offered or the board was drawn again between the look and the click
    (the last move's answer came in): the caller looks again."""
    from playwright.sync_api import Error as PlaywrightError
    offered = (page.locator(".board .picture svg .clickable").element_handles()
               + page.locator(".board .choices button.choice").element_handles())
    if not offered:
        return None
    element = rnd.choice(offered)
    try:
        what = element.get_attribute("data-target") or element.get_attribute("data-label")
        element.click(timeout=10_000)
    except PlaywrightError:          # detached: a handle outlives its element, a locator waits
        return None
    return what


def play_to_the_end(page, seed=1, seconds=120):
    """Click moves until the game's result is shown; returns the number of clicks."""
    rnd = random.Random(seed)
    clicks = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page.wait_for_selector(f"{DONE}, {OFFERED}", timeout=60_000)
        if page.locator(DONE).count():
            return clicks
        if click_once(page, rnd) is not None:
            clicks += 1
    raise AssertionError(f"the game did not end within {seconds} s ({clicks} clicks)")


def game_view(page, url):
    """The view of the game the page shows, as the API gives it."""
    gid = page.evaluate("location.hash").split("/")[2]
    with urllib.request.urlopen(f"{url}/api/play/{gid}", timeout=10) as answer:
        return json.load(answer)


def how_it_ended(page, url):
    """How the game the page shows ended, in the game's own words (``State.ending()`` of
    its final position)."""
    from roost.core.games import get_game
    view = game_view(page, url)
    return get_game(view["game"]).parse(view["text"]).ending()["detail"]
