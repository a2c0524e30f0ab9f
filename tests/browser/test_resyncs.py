"""A player's page takes a full snapshot only when it must (on connect, after
a gap or a reconnect), and what the player is typing in the chat survives
the pushes and snapshots that do come."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games import engine, services
from games.models import Game
from live import groups
from tests.browser.test_live import context_for, people
from tests.browser.test_play import click_a_decision
from tests.browser.test_table_edges import edit
from tests.live.servers import daphnes

# Browsers for half a minute: in `make test-long` (which CI runs too), so that
# `make test` stays within its time; test_live.py keeps a gap's resync there.
pytestmark = pytest.mark.slow

# Every frame the page's socket received, by its frame ("push 12", "push 12
# after 9", "snapshot 12", "live"), and every frame the page sent.
RECORD_FRAMES = """
window.__frames = [];
window.__sent = [];
document.addEventListener("htmx:wsBeforeMessage", (e) => {
  const m = /^<!--([^>]*?)-->/.exec(e.detail.message || "");
  window.__frames.push(m ? m[1] : "?");
});
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.__sent.push(data); return send.call(this, data); };
"""
SNAPSHOTS = "window.__frames.filter((f) => f.startsWith('snapshot')).length"
# The action panel shows version N and no request of it is in flight.
PANEL_AT = """(n) => {
  const panel = document.getElementById("actions");
  return parseInt(panel.getAttribute("data-version"), 10) >= n && !panel.querySelector(".htmx-request");
}"""


def push_to_players(game: Game, version: int) -> None:
    """A push of the public regions, as the broadcast frames it, to the players."""
    html = f'<!--push {version}--><section id="board" data-version="{version}">AHEAD</section>'
    message = {"type": "game.push", "part": "public", "version": version, "html": html}
    groups.send([(groups.players_group(game.pk), message)])


def settle(page: Any, game: Game) -> None:
    """Wait until the page's panel shows the game's version, whatever moves
    were still on their way when asked."""
    for _ in range(20):
        game.refresh_from_db()
        page.wait_for_function(PANEL_AT, arg=game.version)
        if page.locator("#actions").get_attribute("data-version") == str(game.version):
            return
    raise AssertionError("the page and the game never agreed")


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:  # the sockets need daphne
        yield f"http://127.0.0.1:{port}"


def game_against_an_instant_bot() -> tuple[Game, Any]:
    """Ada against a site bot that answers within her moves (a move of hers
    then commits several versions at once), Ada to move."""
    (ada,) = people("ada")
    game = services.create_seated_game(humans=[ada], bots=["heuristic"], bot_delay_ms=0, start=True)
    edit(game, lambda s: engine.setup(s, turn=0))
    return game, ada


@pytest.mark.browser
def test_moves_that_commit_several_versions_bring_no_snapshot_and_a_gap_does(
    browser: Any, site: str
) -> None:
    game, ada = game_against_an_instant_bot()
    context = context_for(browser, site, ada)
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    assert page.evaluate(SNAPSHOTS) == 1  # the connect's

    for _ in range(16):
        game.refresh_from_db()
        page.wait_for_function(PANEL_AT, arg=game.version)
        if not click_a_decision(page):
            break
    settle(page, game)
    frames = page.evaluate("window.__frames")
    # The bot answered within moves: pushes that skip the versions between.
    assert sum(" after " in frame for frame in frames) >= 2, frames
    assert page.evaluate(SNAPSHOTS) == 1, frames
    assert not page.evaluate("window.__sent.some((f) => f.includes('resync'))")
    assert page.locator("#log").get_attribute("data-version") == str(game.version)
    fresh = context.new_page()
    fresh.goto(game.get_absolute_url())
    assert page.locator("#log").inner_text() == fresh.locator("#log").inner_text()
    fresh.close()

    # A push that skips a version the page never had: it asks for, and
    # gets, a snapshot.
    game.refresh_from_db()
    with ThreadPoolExecutor(1) as pool:  # the layer cannot be used from this thread
        pool.submit(push_to_players, game, game.version + 2).result()
    page.wait_for_function(f"{SNAPSHOTS} === 2")
    assert page.evaluate("window.__sent.some((f) => f.includes('resync'))")
    context.close()


def play_until_their_move(game: Game, user: Any) -> None:
    """The others play (as the site's bot would) until ``user`` has a
    decision the game waits for."""
    seats = {seat.number: seat.user for seat in game.seats.all()}
    for _ in range(40):
        game.refresh_from_db()
        state = engine.from_dict(game.state)
        waiting = {d.player for d in engine.pending_decisions(state) if d.blocking}
        if any(seats[player] == user for player in waiting):
            return
        player = engine.next_actor(state)
        move = engine.make_bot("heuristic").act(state, player).to_dict()
        services.submit_action(
            public_id=game.public_id, user=seats[player], action=move, expected_version=game.version
        )
    raise AssertionError("their move never came")


# The chat box's text, whether it has the focus, and its caret (selection).
CHAT_BOX = """() => {
  const box = document.getElementById("chat-players-body");
  return [box.value, box === document.activeElement, box.selectionStart, box.selectionEnd];
}"""


@pytest.mark.browser
def test_text_typed_in_the_chat_survives_the_turn_arriving_and_a_snapshot(
    browser: Any, site: str
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    edit(game, lambda s: engine.setup(s, turn=game.seats.get(user=grace).number))
    context = context_for(browser, site, ada)
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    assert page.locator("#pending[data-your-move]").count() == 0
    page.locator("#chat-players-body").press_sequentially("see you on Boardwalk")
    page.locator("#chat-players-body").evaluate("box => box.setSelectionRange(4, 7)")
    typed = ["see you on Boardwalk", True, 4, 7]

    with ThreadPoolExecutor(1) as pool:  # the layer cannot be used from this thread
        pool.submit(play_until_their_move, game, ada).result()
        page.wait_for_selector("#pending[data-your-move]")  # the turn arrived
        assert page.evaluate(CHAT_BOX) == typed

        # A snapshot (after a gap) renders the chat afresh: the text stays.
        game.refresh_from_db()
        pool.submit(push_to_players, game, game.version + 2).result()
        page.wait_for_function(f"{SNAPSHOTS} === 2")
    assert page.evaluate(CHAT_BOX) == typed
    # And it is still the box that sends: the rest of the message, then Enter.
    page.keyboard.press("End")
    page.keyboard.type("!")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-players-log li:has-text('see you on Boardwalk!')")
    page.wait_for_function("document.getElementById('chat-players-body').value === ''")
    context.close()


@pytest.fixture
def quick_heartbeat_site(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("LIVE_HEARTBEAT_SECONDS", "1")
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


@pytest.mark.browser
@pytest.mark.parametrize("viewer", ["player", "spectator"])
def test_heartbeats_of_a_page_that_is_up_to_date_bring_no_snapshot(
    browser: Any, quick_heartbeat_site: str, viewer: str
) -> None:
    ada, grace, carol = people("ada", "grace", "carol")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    context = context_for(browser, quick_heartbeat_site, ada if viewer == "player" else carol)
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    with ThreadPoolExecutor(1) as pool:  # the layer cannot be used from this thread
        pool.submit(play_until_their_move, game, grace).result()
        pool.submit(play_until_their_move, game, ada).result()  # pushed as usual
    game.refresh_from_db()
    page.wait_for_selector(f'#board[data-version="{game.version}"]')
    # Three heartbeats asked about the version the page shows, now the game's.
    asked = f"window.__sent.filter((f) => f === JSON.stringify({{type: 'resync', since: {game.version}}})).length"
    page.wait_for_function(f"{asked} >= 3")
    assert page.evaluate(SNAPSHOTS) == 1, page.evaluate("window.__frames")
    context.close()
