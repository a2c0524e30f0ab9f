"""Live updates in a real browser: one context plays, another watches, and
the watcher's board changes without a reload."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts.models import User
from games import engine, services
from games.models import Game
from live import groups
from tests.browser.test_play import click_a_decision
from tests.live.servers import Daphne, daphne_servers, daphnes, session_cookie

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"


@pytest.fixture
def daphne_url(transactional_db: None) -> Iterator[str]:
    # pytest-django's live_server speaks WSGI only; the sockets need daphne.
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


# What the page has finished handling, by version: each push from its socket
# and each answer to its own requests. htmx handles both in the events'
# turn: a frame between its two ws events; an answer in its xhr's onload,
# set before send, so before a load listener added at send.
RECORD_HANDLED = """
window.__handled = [];
let frame = null;
const version = (text) => (/^<!--(push|snapshot) (\\d+)(?: after \\d+)?-->/.exec(text || "") || []).slice(1, 3).join(" ");
document.addEventListener("htmx:wsBeforeMessage", (e) => { frame = e.detail.message; });
document.addEventListener("htmx:wsAfterMessage", () => window.__handled.push(version(frame)));
const xhrSend = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.send = function (body) {
  this.addEventListener("load", () => window.__handled.push("answer " + version(this.responseText)));
  return xhrSend.call(this, body);
};
"""


# The page's socket is open, and so in its groups (static/js/live.js): a push
# sent from now on reaches it.
SOCKET_OPEN = "[ws-connect][data-socket='open']"


def context_for(browser: Any, base_url: str, user: User | None) -> Any:
    # These tests read the page with Playwright's string expressions, which the
    # site's policy (no eval) would refuse; tests/browser/test_csp.py tests it.
    context = browser.new_context(
        base_url=base_url, viewport={"width": 1280, "height": 1000}, bypass_csp=True
    )
    if user is not None:
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user), "url": base_url}]
        )
    return context


def people(*names: str) -> list[User]:
    return [
        User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-12345") for name in names
    ]


@pytest.mark.slow  # the sockets' tests check each push; make test keeps the gap's resync in a browser
@pytest.mark.browser
def test_the_spectators_board_changes_without_a_reload(browser: Any, daphne_url: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ada, grace, carol = people("ada", "grace", "carol")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    mover = game.seats.get(number=engine.from_dict(game.state).turn).user
    version = game.version

    player_ctx = context_for(browser, daphne_url, mover)
    player_ctx.add_init_script(RECORD_HANDLED)
    watcher_ctx = context_for(browser, daphne_url, carol)
    player, watcher = player_ctx.new_page(), watcher_ctx.new_page()
    for page in (player, watcher):
        page.set_default_timeout(15_000)
        page.goto(game.get_absolute_url())
        page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up

    watcher.evaluate("window.__notReloaded = true")
    board_before = watcher.locator("#board").inner_html()
    assert click_a_decision(player)
    watcher.wait_for_selector(f'#board[data-version="{version + 1}"]')
    assert watcher.evaluate("window.__notReloaded") is True
    assert watcher.locator("#board").inner_html() != board_before
    assert watcher.locator("#actions form").count() == 0
    # The push carried only the new log lines: put on top, they make the
    # same log as a fresh page shows.
    watcher.wait_for_selector(f'#log[data-version="{version + 1}"]')
    fresh = watcher_ctx.new_page()
    fresh.goto(game.get_absolute_url())
    assert watcher.locator("#log").inner_text() == fresh.locator("#log").inner_text()
    fresh.close()
    # The mover's page had the version twice, as the answer to their move
    # and as its push (two frames on a seat's socket: the public regions
    # and its own, with the panel). Once it has handled all three, each new
    # line is on it once and the panel is the new one.
    player.wait_for_function(
        f"window.__handled.filter((f) => f === 'push {version + 1}').length === 2"
        f" && window.__handled.includes('answer push {version + 1}')"
    )
    fresh = player_ctx.new_page()
    fresh.goto(game.get_absolute_url())
    assert player.locator("#log").inner_text() == fresh.locator("#log").inner_text()
    assert player.locator("#actions").count() == 1
    fresh.close()

    # Presence: the player sees one watcher, the watcher sees the player online.
    player.wait_for_selector("#presence .watching-count:text('1')")
    assert watcher.locator("#presence li.online").count() >= 1

    # Chat: each room reaches its own people only.
    watcher.locator("#chat-spectators-body").fill("<b>nice</b> roll")
    watcher.get_by_role("button", name="Send").click()
    watcher.wait_for_selector("#chat-spectators-log li:has-text('<b>nice</b> roll')")
    player.locator("#chat-players-body").fill("good luck")
    player.get_by_role("button", name="Send").click()
    player.wait_for_selector("#chat-players-log li:has-text('good luck')")
    assert player.locator("#chat-spectators-log").count() == 0
    assert watcher.locator("#chat-players-log").count() == 0

    player.screenshot(path=str(SHOTS / "live-player.png"), full_page=True)
    watcher.screenshot(path=str(SHOTS / "live-spectator.png"), full_page=True)
    game.refresh_from_db()
    assert game.version > version
    player_ctx.close()
    watcher_ctx.close()


@pytest.fixture
def daphne_server(transactional_db: None) -> Iterator[Daphne]:
    with daphne_servers(1) as [server]:
        yield server


def board_version(page: Any) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


@pytest.mark.slow  # real processes started for it: in make test-long, to keep make test under ten minutes
@pytest.mark.browser
def test_the_page_reconnects_after_the_server_goes_away_and_catches_up(
    browser: Any, daphne_server: Daphne
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    base_url = f"http://127.0.0.1:{daphne_server.port}"
    context = context_for(browser, base_url, None)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    page.evaluate("window.__notReloaded = true")

    # The server goes away (a restart, or Daphne's 24-hour limit); a move
    # is made meanwhile; the page comes back and shows it without a reload.
    daphne_server.stop()
    mover = game.seats.get(number=engine.from_dict(game.state).turn).user
    services.submit_action(
        public_id=game.public_id, user=mover, action={"kind": "roll"}, expected_version=game.version
    )
    daphne_server.start()
    daphne_server.wait_until_serving()
    page.wait_for_selector(f'#board[data-version="{game.version + 1}"]')
    assert page.evaluate("window.__notReloaded") is True
    context.close()


def fake_push(game: Game, version: int, text: str) -> None:
    """A push as the broadcast would frame it, straight onto the layer."""
    groups.send(
        [
            (
                groups.spectators_group(game.pk),
                {
                    "type": "game.push",
                    "part": "public",
                    "version": version,
                    "html": f'<!--push {version}--><section id="board" data-version="{version}">{text}</section>',
                },
            )
        ]
    )


RECORD_FRAMES = """
window.__sent = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.__sent.push(data); return send.call(this, data); };
// The text of everything ever put on the page, to show what never was.
window.__shown = [];
new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach(
  (node) => window.__shown.push(node.textContent || ""),
))).observe(document, { childList: true, subtree: true, characterData: true });
"""


@pytest.mark.browser
def test_the_page_drops_stale_pushes_and_resyncs_on_a_gap(
    browser: Any, daphne_server: Daphne
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    context = context_for(browser, f"http://127.0.0.1:{daphne_server.port}", None)
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    version = board_version(page)

    # The layer cannot be used from this thread: Playwright runs a loop here.
    with ThreadPoolExecutor(1) as pool:
        # A stale push (the version the page already shows) is dropped (by
        # the socket's consumer, or else by the page). A push that skips
        # versions is not shown either: the page asks for a snapshot instead,
        # and stays at the true version.
        pool.submit(fake_push, game, version, "STALE").result()
        pool.submit(fake_push, game, version + 5, "FROM THE FUTURE").result()
        page.wait_for_function("window.__sent.some((f) => f.includes('resync'))")
    # The socket keeps their order: the stale push had had its turn when the
    # page met the one from the future, and neither was ever on the page.
    shown = page.evaluate("window.__shown.join(' ')")
    assert "STALE" not in shown and "FROM THE FUTURE" not in shown
    assert " to play" in shown  # the record works: the snapshot is in it
    assert board_version(page) == version
    context.close()


@pytest.fixture
def quick_heartbeat_daphne(
    transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Daphne]:
    monkeypatch.setenv("LIVE_HEARTBEAT_SECONDS", "1")
    with daphne_servers(1) as [server]:
        yield server


def roll_unheard(game: Game) -> None:
    """The player to move rolls, and the push of it is lost on its way (as
    from a process cut off from Redis): nothing is published."""
    from live import fanout

    publish = fanout.publish
    fanout.publish = lambda messages: None  # type: ignore[assignment]
    try:
        mover = game.seats.get(number=engine.from_dict(game.state).turn).user
        services.submit_action(
            public_id=game.public_id,
            user=mover,
            action={"kind": "roll"},
            expected_version=game.version,
        )
    finally:
        fanout.publish = publish


@pytest.mark.slow  # make test keeps the board's push and the gap's resync; the rest here
@pytest.mark.browser
def test_a_page_that_missed_the_last_push_catches_up_by_its_heartbeat(
    browser: Any, quick_heartbeat_daphne: Daphne
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    context = context_for(browser, f"http://127.0.0.1:{quick_heartbeat_daphne.port}", None)
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    assert page.locator(".game").get_attribute("data-heartbeat") == "1"
    version = board_version(page)

    # No push, and no later one to show a gap: only the heartbeat can tell.
    with ThreadPoolExecutor(1) as pool:  # the layer cannot be used from this thread
        pool.submit(roll_unheard, game).result()
    page.wait_for_selector(f'#board[data-version="{version + 1}"]')
    assert page.evaluate(
        f"window.__sent.some((f) => f === JSON.stringify({{type: 'resync', since: {version}}}))"
    )
    context.close()


def chatter(game: Game, stop: threading.Event) -> None:
    """Frames without a version (as presence and chat send), three a second."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    while not stop.wait(0.3):
        async_to_sync(layer.group_send)(
            groups.game_group(game.pk), {"type": "live.push", "html": "<!--live-->"}
        )


@pytest.mark.slow  # make test keeps the board's push and the gap's resync; the rest here
@pytest.mark.browser
def test_frames_without_a_version_do_not_put_off_the_heartbeat(
    browser: Any, quick_heartbeat_daphne: Daphne
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    context = context_for(browser, f"http://127.0.0.1:{quick_heartbeat_daphne.port}", None)
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    version = board_version(page)

    # A busy game's presence and chat frames come more often than the
    # heartbeat's second: the page must still ask, and catch up.
    stop = threading.Event()
    with ThreadPoolExecutor(2) as pool:
        talking = pool.submit(chatter, game, stop)
        try:
            pool.submit(roll_unheard, game).result()
            page.wait_for_selector(f'#board[data-version="{version + 1}"]')
        finally:
            stop.set()
        talking.result()
    context.close()


@pytest.mark.slow  # make test keeps the board's push and the gap's resync; the rest here
@pytest.mark.browser
def test_a_tab_shown_again_asks_for_the_current_version_at_once(
    browser: Any, daphne_server: Daphne
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    context = context_for(browser, f"http://127.0.0.1:{daphne_server.port}", None)
    context.add_init_script(RECORD_FRAMES)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")
    assert page.locator(".game").get_attribute("data-heartbeat") == "30"  # not due for 25 s
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function(
        f"window.__sent.includes(JSON.stringify({{type: 'resync', since: {game.version}}}))"
    )
    context.close()


@pytest.mark.slow  # make test keeps the board's push and the gap's resync; the rest here
@pytest.mark.browser
def test_the_lobby_shows_a_new_game_without_a_reload(browser: Any, daphne_server: Daphne) -> None:
    [ada] = people("ada")
    context = context_for(browser, f"http://127.0.0.1:{daphne_server.port}", None)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/lobby/")
    page.wait_for_selector(SOCKET_OPEN)
    page.evaluate("window.__notReloaded = true")
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        game = pool.submit(services.create_game, host=ada, max_seats=3).result()
    page.wait_for_selector(f"#open-games a[href='{game.get_absolute_url()}']")
    assert page.evaluate("window.__notReloaded") is True
    page.screenshot(path=str(SHOTS / "live-lobby.png"), full_page=True)
    context.close()


@pytest.mark.slow  # make test keeps the board's push and the gap's resync; the rest here
@pytest.mark.browser
def test_your_games_shows_a_started_game_without_a_reload(
    browser: Any, daphne_server: Daphne
) -> None:
    ada, grace = people("ada", "grace")
    context = context_for(browser, f"http://127.0.0.1:{daphne_server.port}", ada)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/lobby/")
    page.wait_for_selector(SOCKET_OPEN)
    page.evaluate("window.__notReloaded = true")
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        game = pool.submit(services.create_seated_game, humans=[ada, grace], bots=[], start=True)
        game = game.result()
    page.wait_for_selector(f"#your-games a[href='{game.get_absolute_url()}']")
    assert page.evaluate("window.__notReloaded") is True
    page.screenshot(path=str(SHOTS / "live-your-games.png"), full_page=True)
    context.close()


@pytest.mark.slow  # make test keeps the board's push and the gap's resync; the rest here
@pytest.mark.browser
def test_pushed_deadlines_show_in_the_zone_the_player_chose(
    browser: Any, daphne_server: Daphne
) -> None:
    players = people("ada", "grace")
    base = f"http://127.0.0.1:{daphne_server.port}"
    pages = {}
    for user in players:
        user.time_zone = "Asia/Tokyo"
        user.save(update_fields=["time_zone"])
        context = browser.new_context(
            base_url=base, bypass_csp=True, locale="en-US", timezone_id="America/New_York"
        )
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user), "url": base}]
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto("/lobby/")
        pages[user.pk] = page
    for page in pages.values():
        page.wait_for_selector(SOCKET_OPEN)
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        game = pool.submit(services.create_seated_game, humans=players, bots=[], start=True)
        game = game.result()
    # Only the player to move has a deadline in their row. It was rendered
    # once (in UTC) and shows in Tokyo time, not the browser's New York.
    mover = game.seats.get(number=engine.from_dict(game.state).turn).user_id
    row = f"#your-games tr:has(a[href='{game.get_absolute_url()}'])"
    local = pages[mover].locator(f"{row} time[data-local]")
    local.filter(has_text="GMT+9").wait_for()
    for page in pages.values():
        page.context.close()


@pytest.mark.browser
def test_the_waiting_page_follows_the_seats_and_the_start(
    browser: Any, daphne_server: Daphne
) -> None:
    ada, grace = people("ada", "grace")
    context = context_for(browser, f"http://127.0.0.1:{daphne_server.port}", ada)
    page = context.new_page()
    page.set_default_timeout(15_000)
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        game = pool.submit(services.create_game, host=ada, max_seats=3).result()
        page.goto(game.get_absolute_url())
        page.wait_for_selector(SOCKET_OPEN)
        pool.submit(services.join_game, public_id=game.public_id, user=grace).result()
        page.wait_for_selector("#seats-heading:has-text('Seats (2 / 3)')")
        pool.submit(services.start_game, public_id=game.public_id, user=ada).result()
    page.wait_for_selector("#board[data-version]")
    page.screenshot(path=str(SHOTS / "live-waiting-started.png"), full_page=True)
    context.close()
