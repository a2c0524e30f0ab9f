"""The game table's rough edges, in Chromium: the chat follows new messages,
a pushed form posts the plain way, the mover's page logs no error, a bid
typed while the game moves on is kept and accepted, and the invite link
has a Copy button."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from games.models import Game, Seat
from live.chat import do_post_message
from tests.browser.test_csp import Browsing, people
from tests.browser.test_play import click_a_decision
from tests.conftest import setup_writes
from tests.live.servers import daphnes

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"
PHONE = {"width": 390, "height": 844}
# Whether a game page shows version N (a push may leave a region it did not
# change at an older version).
SHOWS_VERSION = """(n) => Array.from(document.querySelectorAll("[data-version]"))
    .some((el) => parseInt(el.getAttribute("data-version"), 10) >= n)"""
# Whether the action panel shows version N and has no request in flight.
PANEL_AT = """(n) => {
  const panel = document.getElementById("actions");
  return parseInt(panel.getAttribute("data-version"), 10) >= n && !panel.querySelector(".htmx-request");
}"""


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:  # the sockets need daphne
        yield f"http://127.0.0.1:{port}"


def opened(browsing: Browsing, game: Game) -> Any:
    page = browsing.page()
    browsing.visit(page, game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    return page


def edit(game: Game, change: Callable[[engine.State], Any]) -> None:
    """As tests/games' ``edit_state``: ``change`` scripts the state or returns a new one."""
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    changed = change(state)
    game.state = engine.to_dict(changed if isinstance(changed, engine.State) else state)
    with setup_writes("a scripted position"):
        game.save(update_fields=["state"])


def act(game: Game, user: User, kind: str, **params: Any) -> None:
    game.refresh_from_db()
    services.submit_action(
        public_id=game.public_id,
        user=user,
        action={"kind": kind, **params},
        expected_version=game.version,
    )


def assert_quiet(*browsings: Browsing) -> None:
    for browsing in browsings:
        assert browsing.complaints == [], "\n".join(browsing.complaints)
        assert browsing.other_errors == [], "\n".join(browsing.other_errors)
        browsing.context.close()


@pytest.mark.browser
def test_the_chat_shows_new_messages_unless_the_reader_scrolled_up(browser: Any, site: str) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    seat = game.seats.get(user=grace)
    for n in range(25):
        do_post_message(game=game, seat=seat, user=grace, room="players", body=f"old {n}")
    reader = Browsing(browser, site, ada)
    page = opened(reader, game)
    log = page.locator("#chat-players-log")
    at_bottom = "(l => l.scrollHeight - l.scrollTop - l.clientHeight <= 2)"
    assert log.evaluate(at_bottom)  # opened at the newest message
    assert log.evaluate("l => l.scrollHeight > l.clientHeight + 100")  # the log does scroll

    do_post_message(game=game, seat=seat, user=grace, room="players", body="new one")
    page.wait_for_selector("#chat-players-log li:has-text('new one')")
    page.wait_for_function(f"{at_bottom}(document.getElementById('chat-players-log'))")
    assert page.locator(".chat-new").is_hidden()

    log.evaluate("l => { l.scrollTop = 0; }")  # the reader goes back up to read
    page.wait_for_selector("#chat-players-log[data-scrolled-up]")
    do_post_message(game=game, seat=seat, user=grace, room="players", body="while away")
    page.wait_for_selector("#chat-players-log li:has-text('while away')")
    notice = page.get_by_role("button", name="New messages")
    notice.wait_for(state="visible")
    assert log.evaluate("l => l.scrollTop") == 0  # left where they were reading

    notice.click()
    page.wait_for_function(f"{at_bottom}(document.getElementById('chat-players-log'))")
    notice.wait_for(state="hidden")
    page.set_viewport_size(PHONE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#chat").screenshot(path=str(SHOTS / "chat-phone.png"))
    assert_quiet(reader)


@pytest.mark.browser
def test_a_pushed_form_without_a_token_of_its_own_posts_the_plain_way(
    browser: Any, site: str
) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    state = engine.from_dict(game.state)
    player = engine.next_actor(state)
    mover = game.seats.get(number=player).user
    idle = ada if mover == grace else grace
    with setup_writes("the idle seat taken over after its timeouts"):
        Seat.objects.filter(game=game, user=idle).update(taken_over=True, timeouts_in_row=3)
    browsing = Browsing(browser, site, idle)
    page = opened(browsing, game)

    # Another player's move pushes the idle seat's regions, the reclaim
    # form with them: rendered for the push, it has no token field.
    move = engine.make_bot("heuristic").act(state, player).to_dict()
    services.submit_action(
        public_id=game.public_id, user=mover, action=move, expected_version=game.version
    )
    game.refresh_from_db()
    page.wait_for_selector(f'#pending[data-version="{game.version}"]')
    form = page.locator("form.reclaim")
    assert form.locator("input[name=csrfmiddlewaretoken]").count() == 0

    with page.expect_navigation() as navigation:
        form.get_by_role("button", name="Reclaim my seat").click()
    assert navigation.value.status == 200  # the post was accepted and redirected here
    assert not Seat.objects.get(game=game, user=idle).taken_over
    assert_quiet(browsing)


@pytest.mark.browser
def test_a_player_plays_moves_with_a_spectator_watching_and_no_console_error(
    browser: Any, site: str
) -> None:
    ada, grace, carol = people("ada", "grace", "carol")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    players = [Browsing(browser, site, user) for user in (ada, grace)]
    spectator = Browsing(browser, site, carol)
    watcher = opened(spectator, game)
    pages = [opened(browsing, game) for browsing in players]

    moves = 0
    while moves < 10:
        game.refresh_from_db()
        for page in pages:
            page.wait_for_function(PANEL_AT, arg=game.version)
        watcher.wait_for_function(SHOWS_VERSION, arg=game.version)
        mover = next((page for page in pages if click_a_decision(page)), None)
        if mover is None:
            break
        mover.wait_for_function(PANEL_AT, arg=game.version + 1)
        moves += 1
    assert moves >= 6
    for browsing, page in [*zip(players, pages, strict=True), (spectator, watcher)]:
        browsing.collect(page)
        assert browsing.violations == []
    assert_quiet(*players, spectator)


@pytest.mark.browser
def test_a_bid_typed_while_the_game_moves_on_is_kept_and_accepted(browser: Any, site: str) -> None:
    ada, grace = people("ada", "grace")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    ada_seat = game.seats.get(user=ada).number
    edit(game, lambda s: engine.setup(s, turn=ada_seat))
    edit(game, lambda s: engine.force_dice(s, (1, 2)))
    act(game, ada, engine.ROLL)
    act(game, ada, engine.DECLINE)  # Baltic Avenue goes to auction
    bidder = Browsing(browser, site, ada)
    page = opened(bidder, game)
    page.set_viewport_size(PHONE)
    amount = page.locator("#actions input[name=amount]")
    amount.fill("120")
    amount.focus()

    act(game, grace, engine.BID, amount=40)  # meanwhile, a bid from Grace
    game.refresh_from_db()
    page.wait_for_selector(f'#actions[data-version="{game.version}"]')
    amount = page.locator("#actions input[name=amount]")
    assert amount.input_value() == "120"  # what Ada typed survived the new panel
    assert amount.evaluate("el => el === document.activeElement")
    assert amount.get_attribute("min") == "41"
    version = page.locator("#actions form:has(input[name=amount]) input[name=expected_version]")
    assert version.input_value() == str(game.version)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "bid-kept-phone.png"))

    amount.press("Enter")
    page.wait_for_selector(f'#actions[data-version="{game.version + 1}"]')
    auction = engine.from_dict(Game.objects.get(pk=game.pk).state).auction
    assert auction is not None and auction[2:4] == [120, ada_seat]  # the high bid, its bidder
    assert page.locator("#actions .alert").count() == 0
    assert_quiet(bidder)


@pytest.mark.browser
def test_the_invite_link_is_copied_with_one_click(browser: Any, site: str) -> None:
    (ada,) = people("ada")
    game = services.create_game(host=ada, is_public=False)
    browsing = Browsing(browser, site, ada)
    browsing.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page = browsing.page()
    browsing.visit(page, game.get_absolute_url())
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Copy").click()
    page.get_by_role("status").filter(has_text="Copied.").wait_for()
    link = page.locator("#invite-link").input_value()
    assert game.invite_token in link
    assert page.evaluate("navigator.clipboard.readText()") == link
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#invite").screenshot(path=str(SHOTS / "invite-copy-phone.png"))
    assert_quiet(browsing)


def settle_or_decide(page: Any) -> bool:
    """A debtor with nothing to sell settles (the bank declares them
    bankrupt); anyone else clicks a decision as a scripted player would."""
    settle = page.locator("#actions .action-group.decision button", has_text="Settle automatically")
    if settle.count():
        settle.first.click()
        page.wait_for_load_state("networkidle")
        return True
    return click_a_decision(page)


@pytest.mark.browser
def test_a_whole_game_to_its_end_with_a_spectator_has_no_console_error(
    browser: Any, site: str
) -> None:
    """From the first roll to the final ranking, through the pages only: the
    loser has $1 and the winner owns every property, so it ends in a few
    moves, by a bankruptcy."""
    ada, grace, carol = people("ada", "grace", "carol")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    loser = engine.from_dict(game.state).turn
    owners = dict.fromkeys(engine.PROPERTIES, 1 - loser)
    edit(game, lambda s: engine.setup(s, cash={loser: 1}, owners=owners))
    edit(game, lambda s: engine.force_dice(s, (1, 2)))  # onto Baltic Avenue
    players = [Browsing(browser, site, user) for user in (ada, grace)]
    spectator = Browsing(browser, site, carol)
    watcher = opened(spectator, game)
    pages = [opened(browsing, game) for browsing in players]
    for _ in range(30):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        for page in pages:
            page.wait_for_function(PANEL_AT, arg=game.version)
        watcher.wait_for_function(SHOWS_VERSION, arg=game.version)
        mover = next((page for page in pages if settle_or_decide(page)), None)
        assert mover is not None, "nobody had a decision to click"
        mover.wait_for_function(SHOWS_VERSION, arg=game.version + 1)
    assert game.status == Game.Status.FINISHED
    for page in [*pages, watcher]:
        page.wait_for_selector(".final-banner .ranking")
    watcher.screenshot(path=str(SHOTS / "game-over-spectator.png"), full_page=True)
    for browsing, page in [*zip(players, pages, strict=True), (spectator, watcher)]:
        browsing.collect(page)
        assert browsing.violations == []
    assert_quiet(*players, spectator)
