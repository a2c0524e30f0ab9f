"""The tournament pages in Chromium: joining through an event's page, the
standings updating live when a game of the event ends, and the list and an
event's page on a desktop and at 390 px, with no sideways scroll and no
serious or critical axe violation.

``TOURNAMENT_SCREENSHOTS=<dir>`` keeps a screenshot of each page looked at."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from django.utils import timezone

from accounts.models import User
from clubs.models import Club, Membership
from games import services as games
from games.models import Game
from tests.browser.test_accessibility import SCREENS, context, serious_violations
from tests.live.servers import daphnes
from tests.people.conftest import make_user
from tests.tournaments.page_world import enter, event, running
from tournaments import services
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.slow, pytest.mark.browser]
T = TypeVar("T")


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


def off_loop(work: Callable[..., T], *args: Any) -> T:
    """Database work beside Playwright's event loop, in a thread of its own."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work, *args).result()


def _shoot(page: Any, name: str) -> None:
    where = os.environ.get("TOURNAMENT_SCREENSHOTS")
    if where:
        page.screenshot(path=os.path.join(where, f"{name}.png"), full_page=True)


def test_joining_through_the_page(browser: Any, site: str) -> None:
    t, ada = off_loop(lambda: (event("Open Swiss"), make_user("ada")))
    ctx = context(browser, site, ada, "phone")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"/tournaments/{t.pk}/")
    page.get_by_role("button", name="Join", exact=True).click()
    page.get_by_text("You are in. Good luck!").wait_for()
    page.locator('#standings[data-version="1"]').get_by_role("link", name="ada").wait_for()
    page.locator("#standings li.is-you").get_by_role("link", name="ada").wait_for()  # their own
    assert page.url.endswith(f"/tournaments/{t.pk}/")  # swapped in place
    assert off_loop(lambda: list(t.entries.values_list("user__username", flat=True))) == ["ada"]
    # Withdrawing takes a second, deliberate step.
    page.get_by_text("Withdraw…").click()
    page.get_by_role("button", name="Yes, withdraw").click()
    page.get_by_text("You have withdrawn from this tournament.").first.wait_for()
    assert off_loop(lambda: t.entries.get().status) == "withdrawn"
    ctx.close()


def _registered() -> tuple[Tournament, list[User]]:
    """Three players in an event that has not started."""
    t = event("Live Swiss", starts_at=timezone.now() + timedelta(hours=1))
    players = [make_user(name) for name in ("ann", "ben", "cat")]
    for user in players:
        services.join_tournament(tournament_id=t.pk, user=user)
    return t, players


def _start() -> Game:
    """Round 1: one table of three, its game under way."""
    t = Tournament.objects.get(name="Live Swiss")
    services.start_round(tournament_id=t.pk, number=1)
    game = Table.objects.select_related("game").get(round__tournament=t).game
    assert game is not None
    return game


def _end(game: Game, quitters: list[User]) -> None:
    """Two players resign: the game is over, the table's results in."""
    for user in quitters:
        game.refresh_from_db()
        games.resign(public_id=game.public_id, user=user, expected_version=game.version)


def _open_live(browser: Any, site: str, user: User | None, url: str) -> tuple[Any, Any]:
    """A page with its socket up (its first snapshot in)."""
    ctx = context(browser, site, user, "desktop")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    with page.expect_websocket() as opened:
        page.goto(url)
    opened.value.wait_for_event(
        "framereceived", predicate=lambda payload: str(payload).startswith("<!--snapshot")
    )
    return ctx, page


def _version(page: Any) -> int:
    return int(page.locator("#standings").get_attribute("data-version") or 0)


def test_the_round_and_the_standings_update_live(browser: Any, site: str) -> None:
    t, players = off_loop(_registered)
    url = f"/tournaments/{t.pk}/"
    watcher, spectator = _open_live(browser, site, None, url)
    mine, player = _open_live(browser, site, players[0], url)
    shown = _version(spectator)
    assert shown == off_loop(lambda: Tournament.objects.get(pk=t.pk).version)
    # The round starts: the tables appear for all, the player's own game for them.
    game = off_loop(_start)
    spectator.locator("#rounds").get_by_role("link", name="Watch").wait_for()
    assert _version(spectator) > shown
    go = player.get_by_role("link", name="Round 1, table 1")
    go.wait_for()
    assert go.get_attribute("href") == game.get_absolute_url()
    # The table's game ends: the standings and the table's link change.
    shown = _version(spectator)
    seats = off_loop(lambda: dict(game.seats.values_list("number", "user_id")))
    winner = next(p for p in players if p.pk == seats[0])
    off_loop(_end, game, [p for p in players if p.pk != winner.pk])
    spectator.wait_for_function(
        "v => Number(document.querySelector('#standings').dataset.version) > v", arg=shown
    )
    first = spectator.locator("#standings tbody tr").first
    assert first.get_by_role("link").inner_text() == winner.username
    spectator.locator("#rounds").get_by_role("link", name="See the game").wait_for()
    for ctx in (watcher, mine):
        ctx.close()


def _world() -> dict[str, str]:
    long = make_user("w" * 40)
    long.display_name = "Wolfeschlegelsteinhausenbergerdorff Jr."
    long.save(update_fields=["display_name"])
    world = running()
    enter(world.tournament, long)
    upcoming = event("Weekly Swiss for everyone who likes long evenings of Monopoly")
    enter(upcoming, *world.players[:3], long)
    event("Finished cup", status=Tournament.Status.FINISHED, winner=world.players[0])
    club = Club.objects.create(slug="mayfair", name="Mayfair", name_key="mayfair")
    Membership.objects.create(club=club, user=long, status=Membership.Status.MEMBER)
    event("Mayfair members' cup", club=club, members_only=True)
    return {
        "list": "/tournaments/",
        "running": f"/tournaments/{world.tournament.pk}/",
        "upcoming": f"/tournaments/{upcoming.pk}/",
        "new": "/tournaments/new",
        "profile": f"/u/{world.players[0].username}/",
    }


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_tournament_pages_pass_axe_and_fit_the_screen(browser: Any, site: str, screen: str) -> None:
    pages = off_loop(_world)
    viewer = off_loop(lambda: User.objects.get(username="p1"))
    ctx = context(browser, site, viewer, screen)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state("networkidle")
        problems = serious_violations(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > SCREENS[screen]["width"]:
            problems.append(f"scrolls sideways: {width} px wide")
        if problems:
            found[f"{name} on {screen}"] = problems
        _shoot(page, f"{name}-{screen}")

    for name, url in pages.items():
        page.goto(url)
        check(name)
    ctx.close()
    # The form itself, for someone who may create an event, and its errors.
    staff = off_loop(lambda: User.objects.create_superuser("boss", "b@example.com", "pw-b-12345"))
    ctx = context(browser, site, staff, screen)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto("/tournaments/new")
    check("form")
    page.get_by_label("Players a table").select_option("6")
    page.get_by_role("button", name="Create the tournament").click()
    page.get_by_text("The table size must lie between").wait_for()
    check("form-errors")
    ctx.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
