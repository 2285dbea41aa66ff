"""Whole games played in a real browser by clicking the board: every game, a person against
an engine with a short budget (Wingspan from the deal against random, and from a late
position against a search); undo, hint and resign; what a seat may not see stays hidden."""
import pytest

from tests.web.clicking import game_view, how_it_ended, play_to_the_end, start_game
from tests.web.conftest import shot

QUICK = "auto:time=0.05"


def history(page):
    return page.locator("#history span:not(.ply)").all_inner_texts()


@pytest.mark.parametrize("game, players, seed", [
    ("ducks", 2, 1), ("connect4", 2, 2), ("tweeeet", 2, 3), ("cubirds", 2, 4), ("leaves", 2, 5),
])
def test_a_whole_game_by_clicking(server, page, game, players, seed):
    start_game(page, server.url, game, ["human"] + [QUICK] * (players - 1), players=players, seed=seed)
    shot(page, f"play-{game}-start")
    clicks = play_to_the_end(page, seed=seed)
    result = page.locator("#result").inner_text()
    shot(page, f"play-{game}-over")
    assert clicks > 0 and result.startswith("Game over: ")
    assert how_it_ended(page, server.url) in result   # the result says how it came
    assert len(history(page)) >= clicks // 3          # every move made is in the list


def test_wingspan_from_a_late_position_by_clicking(server, page):
    from roost.core.wingspan import random_position
    late = random_position(2, 5, 120)                # round 4, six turns left
    assert late._raw()["round"] == 4 and not late.is_over
    start_game(page, server.url, "wingspan", ["human", QUICK], players=2, position=late.text(), seed=6)
    shot(page, "play-wingspan-late")
    clicks = play_to_the_end(page, seed=6)
    result = page.locator("#result").inner_text()
    assert clicks > 0 and "Game over" in result and how_it_ended(page, server.url) in result
    shot(page, "play-wingspan-over")


def test_a_whole_wingspan_game_from_the_start_by_clicking(server, page):
    start_game(page, server.url, "wingspan", ["human", "random"], players=2, seed=16)
    shot(page, "play-wingspan-start")
    clicks = play_to_the_end(page, seed=16, seconds=600)
    result = page.locator("#result").inner_text()
    assert clicks > 50 and how_it_ended(page, server.url) in result
    view = game_view(page, server.url)
    assert view["position"] is None and len(view["history"]) > 2 * 26   # from the deal: 26 turns a seat
    shot(page, "play-wingspan-whole-over")


def test_wingspan_asks_its_question_with_readable_cards(server, page):
    start_game(page, server.url, "wingspan", ["human", QUICK], players=2, seed=11)
    question = page.locator(".board div.question").inner_text()
    assert "keep" in question                          # setup: keep this bird?
    card = page.locator(".board .choices .shared-card")
    assert card.count() == 1                           # the bird asked about, shown once
    text = card.inner_text()
    assert "cost" in text and "points" in text and "nest" in text and "When" in text   # its power
    answers = page.locator(".board .choices button.choice").all_inner_texts()
    assert len(answers) == 2 and any(a.startswith("yes") for a in answers)
    shot(page, "play-wingspan-setup")


def test_a_seat_sees_only_its_own_hand(server, page):
    start_game(page, server.url, "cubirds", ["human", QUICK, QUICK], players=3, seed=8)
    svg = page.locator(".board .picture svg")
    assert svg.locator(".card.hidden").count() > 0      # the engines' hands are face down
    assert "seat 0 (you)" in svg.text_content()


def test_leaves_previews_the_orientation_before_placing(server, page):
    start_game(page, server.url, "leaves", ["human", QUICK], players=2, seed=9)
    page.locator('.board svg [data-target="market:0"]').click()
    page.locator(".board svg .clickable").first.click()          # a free place in the garden
    choices = page.locator(".board .choices button.choice")
    assert choices.count() == 8                                  # the eight orientations
    before = page.locator(".board .picture").inner_html()
    choices.nth(3).hover()
    page.wait_for_selector(".board .picture.preview")
    assert page.locator(".board .picture").inner_html() != before
    shot(page, "play-leaves-preview")
    choices.nth(3).click()
    page.wait_for_function("document.querySelectorAll('#history span:not(.ply)').length >= 1")
    played = page.locator("#history span:not(.ply)").first.get_attribute("title")
    assert played.startswith("seat 0: tile #") and "the place (" in played      # the move in words


def test_undo_hint_and_resign(server, page):
    start_game(page, server.url, "connect4", ["human", QUICK], seed=10)
    page.locator('.board svg [data-target="col:4"]').click()
    page.wait_for_function("document.querySelectorAll('#history span:not(.ply)').length >= 2")
    assert page.locator(".board svg .mark.last").count() == 1     # the engine's stone is marked
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#history span:not(.ply)').length === 0")
    page.click("#hint")
    page.wait_for_selector(".board svg .mark.hint")
    assert "hint:" in page.locator("#thinking").inner_text()
    shot(page, "play-connect4-hint")
    page.click("#resign")
    page.wait_for_selector("#result")
    assert "resigned" in page.locator("#result").inner_text()


def test_a_closed_page_stops_the_engine_thinking(server, browser):
    context = browser.new_context()
    page = context.new_page()
    start_game(page, server.url, "tweeeet", ["mcts:time=60", "human"], seed=12)
    page.wait_for_function("document.querySelector('#thinking').textContent.includes('thinks')")
    assert server.workers()                            # the engine searches in its process
    context.close()
    assert server.wait_for_no_workers() == []          # and no longer once the page is gone


def test_a_person_out_of_time_loses(server, page):
    page.goto(server.url + "/#/play")
    page.select_option("#game", "ducks")
    page.select_option('.who[data-seat="1"]', "engine")
    page.fill('.spec[data-seat="1"]', QUICK)
    page.fill("#tc", "1+0")
    page.click("#start")
    page.wait_for_selector(".seat .clock")
    assert page.locator(".seat .clock").first.inner_text().startswith("0:")
    page.wait_for_selector("#result", timeout=20_000)
    assert "White lost on time" in page.locator("#result").inner_text()


def test_a_game_continues_in_the_analysis(server, page):
    start_game(page, server.url, "connect4", ["human", QUICK], seed=13)
    page.locator('.board svg [data-target="col:3"]').click()
    page.wait_for_function("document.querySelectorAll('#history span:not(.ply)').length >= 2")
    page.click("#analyse")
    page.wait_for_selector("#where")
    page.wait_for_function("document.querySelector('#where').textContent.includes('X to move')")
    assert page.locator("#position").input_value().startswith("3")


def test_new_game_starts_afresh_with_the_same_setup(server, page):
    start_game(page, server.url, "connect4", ["human", QUICK], seed=14, position="44")
    first = game_view(page, server.url)
    page.locator('.board svg [data-target="col:3"]').click()
    page.wait_for_function("document.querySelectorAll('#history span:not(.ply)').length >= 2")
    seats = page.locator("#seats").inner_text()
    page.click("#again")
    page.wait_for_function(f"location.hash !== '#/play/{first['id']}'")
    page.wait_for_selector("#turn")
    fresh = game_view(page, server.url)
    assert fresh["id"] != first["id"] and fresh["history"] == [] and fresh["text"] == "44"
    assert fresh["seats"] == first["seats"] and fresh["position"] == "44"
    assert page.locator("#seats").inner_text() == seats and history(page) == []
    shot(page, "play-connect4-new-game")


def test_new_game_deals_afresh_with_the_same_seats_and_clocks(server, page):
    page.goto(server.url + "/#/play")
    page.select_option("#game", "cubirds")
    page.select_option("#players", "3")
    page.fill('.spec[data-seat="1"]', QUICK)
    page.fill('.spec[data-seat="2"]', "random")
    page.fill("#tc", "300+2")
    page.fill("#seed", "15")
    page.click("#start")
    page.wait_for_selector(".board .picture svg")
    first = game_view(page, server.url)
    page.click("#resign")
    page.wait_for_selector("#result")
    page.click("#again")
    page.wait_for_selector("#turn")
    fresh = game_view(page, server.url)
    assert fresh["id"] != first["id"] and not fresh["over"] and fresh["players"] == 3
    assert fresh["seats"] == ["human", first["seats"][1], "random"] and fresh["tc"] == "300+2"
    assert fresh["seed"] != first["seed"] and fresh["position"] is None
    assert page.locator(".seat .clock").nth(2).inner_text() == "5:00.0"      # not yet its turn


def test_the_default_engine_is_auto_and_answers_a_move(server, page):
    page.goto(server.url + "/#/play")
    page.select_option("#game", "connect4")
    assert page.locator('.spec[data-seat="1"]').input_value() == "auto"      # as the form comes
    page.click("#start")
    page.locator('.board svg [data-target="col:4"]').click()
    page.wait_for_function("document.querySelectorAll('#history span:not(.ply)').length >= 2", timeout=60_000)
    assert page.locator('.seat[data-seat="1"]').inner_text() == "O: auto"
    assert game_view(page, server.url)["seats"] == ["human", "auto"]
