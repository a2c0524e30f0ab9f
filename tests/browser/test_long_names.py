"""A 40-character name with no spaces on a 390 px phone: names are cut or
wrapped, so no page grows wider than the screen (issue #31: a finished game
was 468 px wide and a profile 822 px)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import services
from tests.browser.test_phone import PHONE, SHOTS, phone, site, widest, width_of

__all__ = ["site"]

# Minutes of browsers: in `make test-long`, as the other phone checks.
pytestmark = pytest.mark.slow

# The widest letters, as many as a display name holds; and a username as
# long, for the people who set no display name.
LONG_DISPLAY_NAME = "W" * 40
LONG_USERNAME = "Mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"


@pytest.mark.browser
def test_a_forty_character_name_keeps_every_page_within_a_phone(browser: Any, site: str) -> None:
    assert len(LONG_DISPLAY_NAME) == len(LONG_USERNAME) == 40
    wide = User.objects.create_user("wide", "wide@example.com", "pw-wide-12345")
    wide.display_name = LONG_DISPLAY_NAME
    wide.save()
    long = User.objects.create_user(LONG_USERNAME, "long@example.com", "pw-long-12345")
    game = services.create_seated_game(humans=[wide, long], bots=["heuristic"], start=True)
    finished = services.create_seated_game(humans=[wide, long], bots=[], start=True)
    services.resign(public_id=finished.public_id, user=long, expected_version=finished.version)
    waiting = services.create_game(host=long)
    services.join_game(public_id=waiting.public_id, user=wide)
    SHOTS.mkdir(parents=True, exist_ok=True)
    urls = [
        finished.get_absolute_url(),
        f"/u/{wide.username}/",
        f"/u/{long.username}/",
        "/lobby/",
        game.get_absolute_url(),
        waiting.get_absolute_url(),
        f"/games/{finished.public_id}/replay/",
        "/watch/",
        "/leaderboard/",
    ]
    named = {finished.get_absolute_url(), game.get_absolute_url(), f"/u/{wide.username}/"}
    too_wide = []
    for viewer in (wide, None):
        page = phone(browser, site, viewer)
        for url in urls:
            if viewer is None and url == "/lobby/":
                continue
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if url in named:
                assert "WWWWWWWW" in page.content(), url
            slug = url.strip("/").replace("/", "-")
            for name, g in (("game", game), ("finished", finished), ("waiting", waiting)):
                slug = slug.replace(g.public_id, name)
            page.screenshot(path=str(SHOTS / f"long-name-{slug}-{viewer or 'anonymous'}.png"))
            width = width_of(page)
            if width > PHONE["width"]:
                too_wide.append(f"{url} ({viewer}): {width} px: {widest(page)}")
        if viewer is not None:
            # The open menu shows the viewer's own name, cut short.
            page.get_by_role("button", name="Menu").click()
            own = page.locator(f'.account-nav a[href="/u/{viewer.username}/"]')
            own.wait_for()
            box = own.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"]
            page.screenshot(path=str(SHOTS / "long-name-menu.png"))
            if width_of(page) > PHONE["width"]:
                too_wide.append(f"the open menu: {width_of(page)} px: {widest(page)}")
        page.context.close()
    assert too_wide == [], "\n".join(too_wide)
