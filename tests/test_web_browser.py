"""The web page in a real browser: Playwright driving Debian's chromium against `machiavelli serve`.

Each test starts from a page the user would open (the lobby, a table link, a position link, the
record viewer) and acts as a person would: clicks, drags, typing. Screenshots of every page go
under the test's temporary directory; with UPDATE_DOCS_SCREENSHOTS=1 the table and the position
editor are also copied to docs/ for the README.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[1]
WAIT_MS = 30_000  # the longest a page may take to show a server's answer (bots think first)

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is absent (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_serving(base: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"machiavelli serve exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/api/info", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("machiavelli serve did not answer within a minute")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The real server on a free loopback port; its base URL."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bots", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(base, process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """Debian's chromium, headless, driven by Playwright (which cannot download its own)."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium, server):
    """A fresh browser page on the server (its own cookies and storage); fails the test on any
    JavaScript error the page raised."""
    context = chromium.new_context(base_url=server, viewport={"width": 1280, "height": 900},
                                  accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def browser_pair(chromium, server):
    """Two pages in two separate browser contexts: two people at one table."""
    contexts = [chromium.new_context(base_url=server) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(WAIT_MS)
    yield pages
    for context in contexts:
        context.close()


def _screenshot(page, tmp_path: Path, name: str, docs_name: str | None = None) -> Path:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if docs_name and os.environ.get("UPDATE_DOCS_SCREENSHOTS") == "1":
        shutil.copy(path, ROOT / "docs" / docs_name)
    return path


# ---- helpers: the game as the page shows it ----

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _parts(card: str) -> tuple[int, str]:
    return RANKS.index(card[:-1]) + 1, card[-1]


def find_group(hand: list[str]) -> list[str] | None:
    """Three cards of the hand that make a set, or a run without an ace (valid for any ace rule)."""
    plain = sorted({c for c in hand if not c.startswith("*")}, key=_parts)
    for card in plain:
        rank, suit = _parts(card)
        same_rank = [c for c in plain if _parts(c)[0] == rank and _parts(c)[1] != suit]
        if len({_parts(c)[1] for c in same_rank}) >= 2:
            suits = {suit}
            group = [card]
            for other in same_rank:
                if _parts(other)[1] not in suits:
                    suits.add(_parts(other)[1])
                    group.append(other)
            return group[:3]
        run = [f"{RANKS[r - 1]}{suit}" for r in (rank, rank + 1, rank + 2) if 1 < r <= 13]
        if len(run) == 3 and all(c in plain for c in run):
            return run
    return None


def hand_cards(page) -> list[str]:
    return page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")


def states_seen(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.states || 0)"))


def wait_my_turn(page, after: int = 0) -> str:
    """Wait until a state newer than `after` shows the person to move or the game over (the
    page may still be loading the table after the lobby: no body yet)."""
    page.wait_for_function(
        "after => document.body !== null && Number(document.body.dataset.states || 0) > after && "
        "(document.body.dataset.turn === 'over' || "
        " (document.body.dataset.turn === 'mine' && !document.getElementById('hint').disabled))",
        arg=after)
    return str(page.evaluate("document.body.dataset.turn"))


def act(page, do) -> str:
    """Do something that sends a move, then wait for the person's next turn (or the end)."""
    before = states_seen(page)
    do()
    return wait_my_turn(page, before)


def api_game(server: str, variant: str, seats: list[str], seed: int) -> dict:
    body = json.dumps({"variant": variant, "seats": seats, "seed": seed}).encode()
    request = urllib.request.Request(f"{server}/api/games", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def open_table_with_group(page, server: str, variant: str = "machiavelli") -> list[str]:
    """Open a game against greedy whose first person turn holds a playable group; the group."""
    for seed in range(40):
        game = api_game(server, variant, ["person", "greedy"], seed)
        page.goto(game["seats"][0]["link"])
        wait_my_turn(page)
        group = find_group(hand_cards(page))
        if group:
            return group
    raise AssertionError("no seed in 0..39 deals a playable group")


def card(page, where: str, name: str):
    return page.locator(f"{where} .card[data-card='{name}']").first


# ---- the tests ----


def test_lobby_starts_a_game_against_greedy(page, tmp_path):
    page.goto("/")
    page.wait_for_selector("#variant option[value='guadalupe']", state="attached")
    variants = page.eval_on_selector_all("#variant option", "os => os.map(o => o.value)")
    assert len(variants) == 8
    page.select_option("#variant", "machiavelli")
    page.wait_for_selector("#options select[aria-label='ace']", state="attached")
    page.select_option("#count", "3")
    page.select_option("select[aria-label='seat 2']", "greedy")
    page.select_option("select[aria-label='seat 3']", "person")
    page.fill("#seed", "3")
    _screenshot(page, tmp_path, "lobby")
    page.click("#start")
    page.wait_for_url("**/table.html?game=*")
    assert wait_my_turn(page) == "mine"
    assert len(hand_cards(page)) == 13
    assert page.locator("#players .player[data-seat]").count() == 3
    by_suit = hand_cards(page)
    page.click("#sort")
    by_rank = hand_cards(page)
    assert sorted(by_rank) == sorted(by_suit) and by_rank != by_suit
    assert [_parts(c)[0] for c in by_rank] == sorted(_parts(c)[0] for c in by_rank)
    links = page.locator("#links a")
    assert links.count() == 1 and "seat=2" in links.first.get_attribute("href")
    _screenshot(page, tmp_path, "table-start")


def test_drag_and_click_cards_into_a_new_group_and_play(page, server, tmp_path):
    group = open_table_with_group(page, server)
    size = len(hand_cards(page))
    card(page, "#hand", group[0]).drag_to(page.locator(".new-group"))
    new_group = page.locator("#groups .group").last
    assert new_group.locator(f".card[data-card='{group[0]}']").count() == 1
    assert "invalid" in new_group.get_attribute("class")
    card(page, "#hand", group[1]).drag_to(new_group)
    card(page, "#hand", group[2]).click()
    new_group.locator(".card").first.click()
    assert "invalid" not in page.locator("#groups .group").last.get_attribute("class")
    _screenshot(page, tmp_path, "table-staged")
    act(page, lambda: page.click("#done"))
    assert page.locator("#message.error").count() == 0
    assert page.locator("#log .entry", has_text="You played").count() == 1
    assert len(hand_cards(page)) == size - 3


def test_auto_place_selected_cards(page, server, tmp_path):
    group = open_table_with_group(page, server)
    size = len(hand_cards(page))
    for name in group:
        card(page, "#hand", name).click()
    assert page.locator("#hand .card.selected").count() == 3
    page.click("#place")
    page.wait_for_selector("#groups .card.from-hand")
    assert page.locator("#groups .card.from-hand").count() == 3
    assert page.locator("#groups .group.invalid").count() == 0
    act(page, lambda: page.click("#done"))
    assert page.locator("#log .entry", has_text="You played").count() == 1
    assert len(hand_cards(page)) == size - 3


def test_hint_and_follow_it(page, server, tmp_path):
    open_table_with_group(page, server)
    page.click("#hint")
    page.wait_for_selector("#hint-panel:not(.hidden)")
    assert page.locator("#hint-steps li").count() >= 1
    played = page.locator("#hand .card.hinted").count()
    assert played >= 3
    page.click("#analyze")
    page.wait_for_selector("#analysis-panel:not(.hidden) h3")
    assert "Best play:" in page.inner_text("#analysis")
    assert re.search(r"Winning chances: \d+% \(95% interval \d+%–\d+%; .* 100 deals",
                     page.inner_text("#analysis"))
    _screenshot(page, tmp_path, "table-hint")
    size = len(hand_cards(page))
    page.click("#hint-play")
    assert page.locator("#groups .card.from-hand").count() == played
    act(page, lambda: page.click("#done"))
    assert page.locator("#message.error").count() == 0
    assert len(hand_cards(page)) == size - played


def test_penalty_turns_reset_into_give_up(page, server):
    group = open_table_with_group(page, server, "machiavelli:incomplete=penalty")
    size = len(hand_cards(page))
    card(page, "#hand", group[0]).drag_to(page.locator(".new-group"))
    assert page.locator("#groups .group.invalid").count() == 1
    page.click("#done")
    page.wait_for_selector("#message.error")
    page.wait_for_selector("#reset:text('Give up (+3)')")
    assert page.locator("#draw").is_disabled()
    act(page, lambda: page.click("#reset"))
    assert len(hand_cards(page)) == size + 3
    penalty = re.compile(r"You gave up and drew (\S+ ){3}as a penalty")
    assert page.locator("#log .entry", has_text=penalty).count() == 1


def test_two_people_see_each_other_move_without_reloading(browser_pair, server):
    game = api_game(server, "guadalupe", ["person", "person"], 11)
    first, second = browser_pair
    for page, seat in zip(browser_pair, game["seats"], strict=True):
        page.goto(seat["link"])
        page.wait_for_selector("#hand .card")
    mover, waiter = (first, second) if first.evaluate("document.body.dataset.turn") == "mine" \
        else (second, first)
    before = states_seen(waiter)
    mover.click("#draw")
    assert wait_my_turn(waiter, before) == "mine"  # the push reached the other table
    assert waiter.locator("#log .entry", has_text="drew 2 cards").count() == 1


def test_a_dropped_connection_rejoins_its_seat(page, server):
    open_table_with_group(page, server)
    cards = sorted(hand_cards(page))
    page.evaluate("window.tableClient.socket.close()")
    page.wait_for_selector("#message:text('Reconnected.')")
    assert sorted(hand_cards(page)) == cards
    act(page, lambda: page.click("#draw"))
    assert len(hand_cards(page)) == len(cards) + 1


def play_one_turn(page) -> str:
    """One person turn as a player would: ask a hint, type its cards, Done; else type draw."""
    page.click("#hint")
    page.wait_for_selector("#hint-panel:not(.hidden)")
    cards = page.eval_on_selector_all("#hand .card.hinted", "cs => cs.map(c => c.dataset.card)")
    keys = page.locator("#keys")
    if cards:
        keys.fill(" ".join(cards))
        keys.press("Enter")
        page.wait_for_selector("#groups .card.from-hand, #message.error")
        if page.locator("#groups .card.from-hand").count():
            if page.locator("#done").is_enabled():
                return act(page, lambda: page.click("#done"))
            page.click("#reset")  # a play is not allowed yet (carousel: draw first)
    keys.fill("draw" if not page.locator("#draw").is_disabled() else "pass")
    return act(page, lambda: keys.press("Enter"))


def test_a_short_game_reaches_the_end(page, tmp_path):
    page.goto("/")
    page.wait_for_selector("#variant option[value='guadalupe']", state="attached")
    page.select_option("#variant", "guadalupe")
    page.select_option("select[aria-label='seat 2']", "greedy")
    page.fill("#seed", "5")
    page.click("#start")
    turn = wait_my_turn(page)
    pictured = False
    for _ in range(150):
        if turn == "over":
            break
        if not pictured and page.locator("#groups .group").count() >= 3:
            page.click("#hint")  # the README's picture: a table in play, a hint on the hand
            page.wait_for_selector("#hint-panel:not(.hidden)")
            if page.locator("#hand .card.hinted").count():
                _screenshot(page, tmp_path, "table-midgame", "web-table.png")
                pictured = True
        turn = play_one_turn(page)
    assert turn == "over", "the game did not end in 150 person turns"
    page.wait_for_selector("#results-panel:not(.hidden)")
    assert page.locator("#results tr").count() == 3
    assert "winner" in page.inner_text("#results")
    _screenshot(page, tmp_path, "table-over")


def test_position_page_from_a_url_shows_the_best_play(page, tmp_path):
    text = "5C 6C 7C 8C | 9H 9D 9S / 8D 8H 2C / machiavelli"
    page.goto(f"/position.html#{urllib.parse.quote(text)}")
    page.wait_for_selector("#groups .group >> nth=1")
    assert page.locator("#groups .group").count() == 2
    assert sorted(hand_cards(page)) == ["2C", "8D", "8H"]
    page.click("#solve")
    page.wait_for_selector("#result-solve .played-text")
    assert sorted(page.inner_text("#result-solve .played-text").split()[-2:]) == ["8D", "8H"]
    page.click("#hint")
    page.wait_for_selector("#result-hint .steps li")
    assert "8C" in page.inner_text("#result-hint .steps")  # 8C comes off the run
    page.click("#analyze")
    page.wait_for_selector("#result-analyze h3")
    assert "2C: needs" in page.inner_text("#result-analyze")  # the stuck card
    page.click("#picker .card[data-card='8S']")  # the picker adds to the hand
    assert page.locator("#result > *").count() == 0
    shared = urllib.parse.unquote(page.url.split("#", 1)[1])
    table, hand, variant = shared.split(" / ")
    assert (table, sorted(hand.split()), variant) == (
        "5C 6C 7C 8C | 9S 9H 9D", ["2C", "8D", "8H", "8S"], "machiavelli")
    page.click("#solve")
    page.wait_for_selector("#result-solve .played-text")
    assert page.inner_text("#result-solve .played-text").startswith("Play 3 card(s)")
    _screenshot(page, tmp_path, "position", "web-position.png")
    page.goto("/")
    page.goto(f"/position.html#{urllib.parse.quote(shared)}")  # the link opens the same position
    page.wait_for_selector("#hand .card >> nth=3")
    assert sorted(hand_cards(page)) == ["2C", "8D", "8H", "8S"]


def test_download_a_record_and_step_through_it(page, server, tmp_path):
    open_table_with_group(page, server, "guadalupe")
    act(page, lambda: page.click("#draw"))
    act(page, lambda: page.click("#draw"))
    with page.expect_download() as download:
        page.click("#save")
    path = tmp_path / "record.json"
    download.value.save_as(path)
    assert json.loads(path.read_text())["variant"].startswith("guadalupe")
    _screenshot(page, tmp_path, "table-saved")
    page.goto("/record.html")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#viewer:not(.hidden)")
    assert page.inner_text("#counter").startswith("move 0 of ")
    total = int(page.inner_text("#counter").split()[-1])
    assert total >= 4  # two draws of the person, two turns of greedy at least
    page.click("#next")
    assert page.inner_text("#counter") == f"move 1 of {total}"
    first_event = page.inner_text("#event")
    page.click("#next")
    page.click("#prev")
    assert page.inner_text("#event") == first_event
    page.keyboard.press("End")
    assert page.inner_text("#counter") == f"move {total} of {total}"
    assert page.locator("#next").is_disabled()
    _screenshot(page, tmp_path, "record")


GROUPS = [  # (group, ace rule, status) as docs/rules.md §2 rules them
    ("2C 3C 4C", "high", "valid"), ("2C 3C 4C", "low", "valid"), ("AS 2S 3S", "low", "valid"),
    ("AS 2S 3S", "high", "invalid"), ("QS KS AS", "high", "valid"), ("QS KS AS", "low", "invalid"),
    ("AS 2S 3S", "both", "valid"), ("QS KS AS", "both", "valid"), ("KS AS 2S", "both", "invalid"),
    ("8S 8D 8H", "both", "valid"), ("8S 8D 8H 8C", "both", "valid"),
    ("8S 8S 8H", "both", "invalid"), ("8S 8D", "both", "invalid"), ("5H 6H 8H", "both", "invalid"),
    ("5H 6H 7D", "both", "invalid"), ("*7H 8H 9H", "both", "valid"), ("* 8H 9H", "both", "unknown"),
]


def test_client_side_group_validity(page):
    page.goto("/position.html")
    statuses = page.evaluate(
        """async groups => {
            const { groupStatus } = await import('/static/js/groups.js');
            return groups.map(([cards, ace]) => groupStatus(cards.split(' '), ace));
        }""", [[cards, ace] for cards, ace, _ in GROUPS])
    assert statuses == [status for _, _, status in GROUPS]
