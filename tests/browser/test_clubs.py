"""The club pages in Chromium, on a desktop and at 390 px: axe finds no
serious or critical violation and no page scrolls sideways, with a
leader's controls open; and a line sent in the club's chat comes back over
its socket."""

from __future__ import annotations

import datetime as dt
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from clubs import chat, services
from clubs.models import Club, Membership
from games import services as games
from ratings.models import PlayerRating, Pool
from tests.browser.test_accessibility import context, site
from tests.browser.test_csp import people
from tests.browser.test_social_pages import _check as check_page

__all__ = ["site"]

pytestmark = [pytest.mark.slow, pytest.mark.browser]
# Set to a folder to keep the screenshots (to look at them).
SHOTS = os.environ.get("CLUB_SCREENSHOTS", "")


def _world() -> tuple[Club, User, User]:
    from tournaments.models import Tournament

    lena, ada, grace, carol = people("lena", "ada", "grace", "carol")
    ada.display_name = "Wolfeschlegelsteinhausenbergerdorff Jr."
    ada.save(update_fields=["display_name"])
    club = services.do_create_club(
        user=lena,
        name="The Boardwalk and Park Place Appreciation Society",
        description="We play slow games and long ones.\nEveryone welcome: " + "x" * 80,
        policy="request",
    )
    for user in (ada, grace):
        Membership.objects.create(club=club, user=user, status=Membership.Status.MEMBER)
    services.do_join(club=club, user=carol)  # a request for the leader
    services.do_invite(club=club, leader=lena, target=people("dora")[0])
    chat.do_post_line(club=club, user=grace, text="Anyone for a game tonight?")
    chat.do_post_line(club=club, user=ada, text="Sure! " + "y" * 70)
    chat.do_mute_member(club=club, leader=lena, target=grace, minutes=60)
    PlayerRating.objects.create(user=ada, pool=Pool.REGULAR, ordinal=12.5, games=14)
    PlayerRating.objects.create(user=lena, pool=Pool.REGULAR, ordinal=3.0, games=4)
    games.create_seated_game(humans=[ada, grace], bots=[], start=True)
    Tournament.objects.create(
        name="Tuesday Table Swiss",
        club=club,
        starts_at=timezone.now() + dt.timedelta(days=2),
        seed=1,
    )
    return club, lena, ada


def _check(page: Any, screen: str, where: str, found: dict[str, list[str]]) -> None:
    check_page(page, screen, where, found)
    if SHOTS:
        name = where.strip("/").replace("/", "_").replace(" ", "_") or "root"
        page.screenshot(path=os.path.join(SHOTS, f"{screen}-{name}.png"), full_page=True)


def _socket_pane(page: Any) -> None:
    """Wait for the pane the socket sends when it connects, which replaces
    the page's (with controls closed): its form has no CSRF field of its own."""
    page.wait_for_selector(".chat-form:not(:has(input[name=csrfmiddlewaretoken]))")
    page.wait_for_selector("#club-chat-log li")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_club_pages_pass_axe_fit_the_screen_and_chat_live(
    browser: Any, site: str, screen: str
) -> None:
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        club, lena, ada = pool.submit(_world).result()
    url = f"/clubs/{club.slug}/"
    found: dict[str, list[str]] = {}
    anonymous = context(browser, site, None, screen)
    page = anonymous.new_page()
    page.set_default_timeout(15_000)
    page.goto("/clubs/")
    _check(page, screen, "the list", found)
    page.goto(url)
    _check(page, screen, "the club page, anonymous", found)
    anonymous.close()

    led = context(browser, site, lena, screen)
    page = led.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    _socket_pane(page)
    page.locator(".club-member-actions summary").first.click()
    page.locator("#club-chat-log .chat-actions summary").first.click()
    _check(page, screen, "the club page, its leader's controls open", found)

    member = context(browser, site, ada, screen)
    other = member.new_page()
    other.set_default_timeout(15_000)
    other.goto(url)
    _socket_pane(other)
    _check(other, screen, "the club page, a member", found)
    # The leader writes; the line comes to both pages over their sockets.
    page.fill("#club-chat-text", "Game at eight, table two.")
    page.locator(".chat-form button[type=submit]").click()
    page.wait_for_selector("#club-chat-log li:has-text('Game at eight')")
    other.wait_for_selector("#club-chat-log li:has-text('Game at eight')")
    # A refused line says why under the form.
    other.fill("#club-chat-text", "   ")
    other.locator(".chat-form button[type=submit]").click()
    other.wait_for_selector(".chat-error:has-text('Write something first')")
    member.close()
    led.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
