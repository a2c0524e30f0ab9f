"""The phone layout's rough places at 390 px (issue #31): the lobby's tables
break headings only between words and fit the screen, Settings fits with
every Revoke button inside its token's card, and on a game page the board
comes within one and a half screens, "Manage property" folded until the
reader opens it, and kept as they left it across pushes and reloads."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from accounts.models import User
from api import tokens
from games import engine, services
from games.deadlines import format_deadline
from games.models import Deadline, Game
from tests.browser.test_csp import people
from tests.conftest import setup_writes
from tests.live.servers import daphnes, session_cookie

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

T = TypeVar("T")
SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"
PHONE = {"width": 390, "height": 844}
KOLKATA = "Asia/Kolkata"  # a zone with a half-hour offset
# The mover's property in the scripted game: twelve rows of "Manage property".
TWELVE = (1, 3, 5, 6, 8, 9, 11, 12, 13, 14, 15, 28)

# Every word of every table heading, and whether it is drawn on one line.
BROKEN_HEADINGS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll("table th")) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:  # the game page's socket needs daphne
        yield f"http://127.0.0.1:{port}"


class Phone:
    """A 390 px phone logged in as ``user``, collecting what the console says.
    (bypass_csp: the checks read the page with Playwright's string
    expressions, which the site's policy, no eval, refuses.)"""

    def __init__(self, browser: Any, base_url: str, user: User, **options: Any) -> None:
        viewport = options.pop("viewport", PHONE)
        mobile = viewport["width"] <= PHONE["width"]
        self.context = browser.new_context(
            base_url=base_url, viewport=viewport, device_scale_factor=2 if mobile else 1,
            is_mobile=mobile, has_touch=mobile, bypass_csp=True, **options,
        )  # fmt: skip
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user)}
        self.context.add_cookies([{**cookie, "url": base_url}])
        self.errors: list[str] = []
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console error on {self.page.url}: {message.text}")

    def open(self, url: str) -> Any:
        self.page.goto(url)
        self.page.wait_for_load_state("networkidle")
        return self.page

    def width(self) -> int:
        return int(self.page.evaluate("document.documentElement.scrollWidth"))

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()
        assert self.errors == []


def off_loop(work: Callable[[], T]) -> T:
    """Run ``work`` (which writes games, and so pushes) in a thread of its
    own: Playwright runs an event loop in this one, where a push cannot be sent."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def mover_of(game: Game) -> User:
    game.refresh_from_db()
    seat = game.seats.get(number=engine.next_actor(engine.from_dict(game.state)))
    assert seat.user is not None
    return seat.user


@pytest.mark.browser
def test_lobby_tables_fit_a_phone_and_break_headings_between_words(browser: Any, site: str) -> None:
    ada, grace, linus = people("ada", "grace", "linus")

    def games() -> None:
        services.create_seated_game(humans=[ada, grace], bots=[], start=True)
        for host in (ada, linus):
            services.create_game(host=host)
        services.create_seated_game(humans=[linus], bots=["heuristic"], start=False)

    off_loop(games)
    phone = Phone(browser, site, grace)
    page = phone.open("/lobby/")
    page.locator("#your-games table").wait_for()
    page.locator("#open-games table").wait_for()
    phone.shot("phone-lobby-tables")
    assert page.evaluate(BROKEN_HEADINGS) == []
    assert phone.width() <= PHONE["width"]
    # Watch's seven columns too: a table wider than the screen scrolls in its own box.
    page = phone.open("/watch/")
    page.locator("#watch-games table").wait_for()
    phone.shot("phone-watch-table")
    assert page.evaluate(BROKEN_HEADINGS) == []
    assert phone.width() <= PHONE["width"]
    phone.close()


@pytest.mark.browser
def test_settings_fit_a_phone_with_each_revoke_button_in_its_card(browser: Any, site: str) -> None:
    [ada] = people("ada")
    tokens.issue(ada, scopes=["read", "play"], name="my-laptop-bot-with-a-long-name")
    tokens.issue(ada, scopes=["read"])
    phone = Phone(browser, site, ada)
    page = phone.open("/settings/")
    phone.shot("phone-settings")
    assert phone.width() <= PHONE["width"]
    cards = page.locator(".token-card")
    assert cards.count() == 2
    for i in range(2):
        card = cards.nth(i).bounding_box()
        button = cards.nth(i).get_by_role("button", name="Revoke").bounding_box()
        assert card is not None and button is not None
        assert card["x"] + card["width"] <= PHONE["width"]
        assert card["x"] <= button["x"]
        assert button["x"] + button["width"] <= card["x"] + card["width"]
        assert card["y"] <= button["y"]
        assert button["y"] + button["height"] <= card["y"] + card["height"]
    phone.close()


def scripted(game: Game, owner: int) -> None:
    state = engine.setup(engine.from_dict(game.state), owners=dict.fromkeys(TWELVE, owner))
    game.state = engine.to_dict(state)
    with setup_writes("a scripted position"):
        game.save(update_fields=["state"])


def deadlines_shown(page: Any) -> list[str]:
    return [str(text) for text in page.locator(".deadline-by time").all_inner_texts()]


def panel_version(page: Any) -> int:
    return int(page.locator("#actions").get_attribute("data-version"))


@pytest.mark.browser
def test_the_board_is_near_the_top_of_a_phone_game_with_manage_property_folded(
    browser: Any, site: str
) -> None:
    ada, grace = people("ada", "grace")
    game = off_loop(lambda: services.create_seated_game(humans=[ada, grace], bots=[], start=True))
    mover = mover_of(game)
    mover.time_zone = KOLKATA
    mover.save(update_fields=["time_zone"])
    scripted(game, engine.next_actor(engine.from_dict(game.state)))
    phone = Phone(browser, site, mover, timezone_id=KOLKATA)
    page = phone.open(game.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    manage = page.locator("#manage-property")
    manage.wait_for()
    phone.shot("phone-game-manage-folded")
    assert page.locator(".manage-row").count() == len(TWELVE)
    assert manage.evaluate("d => d.open") is False
    board = page.locator(".board-stack").bounding_box()
    assert board is not None
    assert board["y"] + page.evaluate("window.scrollY") <= 1.5 * PHONE["height"]
    assert phone.width() <= PHONE["width"]
    # The fair-dice disclosure's marker sits inside the green header, not on its edge.
    header = page.locator("#status").bounding_box()
    fair = page.locator("#fair-dice > summary").bounding_box()
    assert header is not None and fair is not None
    assert fair["x"] >= header["x"] + 8
    # The deadline reads as the server writes it for the reader's zone.
    due = Deadline.objects.get(game=game).due_at
    assert deadlines_shown(page) == [format_deadline(due, ZoneInfo(KOLKATA))]

    # Opened, it stays open through the answer to the reader's own move and
    # the push of it, and after a reload.
    page.get_by_text("Manage property").click()
    assert manage.evaluate("d => d.open") is True
    before = panel_version(page)
    page.get_by_role("button", name="Roll the dice").click()
    page.wait_for_function(
        f"parseInt(document.getElementById('actions').dataset.version, 10) > {before}"
    )
    game.refresh_from_db()
    page.wait_for_function(f"document.getElementById('status').dataset.version >= {game.version}")
    assert page.locator("#manage-property").evaluate("d => d.open") is True
    # The push was written in UTC; at once on the page, it reads as before.
    assert deadlines_shown(page) == [
        format_deadline(d.due_at, ZoneInfo(KOLKATA))
        for d in Deadline.objects.filter(game=game).order_by("due_at")
    ]
    page = phone.open(game.get_absolute_url())
    assert page.locator("#manage-property").evaluate("d => d.open") is True
    # Folded again, a reload keeps it folded.
    page.get_by_text("Manage property").click()
    assert page.locator("#manage-property").evaluate("d => d.open") is False
    page = phone.open(game.get_absolute_url())
    assert page.locator("#manage-property").evaluate("d => d.open") is False
    phone.close()

    # A wide screen has room: there it starts open.
    desk = Phone(browser, site, mover, viewport={"width": 1280, "height": 900})
    page = desk.open(game.get_absolute_url())
    assert page.locator("#manage-property").evaluate("d => d.open") is True
    desk.close()


@pytest.mark.browser
def test_a_note_that_something_worked_shows_briefly_and_goes(browser: Any, site: str) -> None:
    """As "The game has started." on a game's page, which stays open for hours."""
    [ada] = people("ada")
    phone = Phone(browser, site, ada)
    page = phone.open("/settings/")
    page.get_by_role("button", name="Save settings").click()
    note = page.locator(".messages .message.success", has_text="Settings saved.")
    note.wait_for()
    note.wait_for(state="detached")
    assert page.locator(".messages").count() == 0
    phone.close()


@pytest.mark.browser
def test_the_new_pages_fit_a_phone(browser: Any, site: str) -> None:
    [ada] = people("ada")
    phone = Phone(browser, site, ada)
    for url in ("/status/", "/leaderboard/ratings/", "/leaderboard/"):
        phone.open(url)
        phone.shot("phone-" + url.strip("/").replace("/", "-"))
        assert phone.width() <= PHONE["width"], url
    phone.close()


@pytest.mark.browser
def test_the_game_lobby_shows_the_commitment_inside_its_panel(browser: Any, site: str) -> None:
    [ada] = people("ada")
    game = off_loop(lambda: services.create_game(host=ada))
    assert game.commitment
    for viewport in ({"width": 1280, "height": 900}, PHONE):
        phone = Phone(browser, site, ada, viewport=viewport)
        page = phone.open(game.get_absolute_url())
        phone.shot(f"game-lobby-commitment-{viewport['width']}")
        panel = page.locator("#fair-dice").bounding_box()
        code = page.locator("#fair-dice [data-commitment]")
        box = code.bounding_box()
        assert panel is not None and box is not None
        assert panel["x"] <= box["x"]
        assert box["x"] + box["width"] <= panel["x"] + panel["width"]
        # The 64 hex digits take a line or two, not a letter a line.
        line = float(code.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 16"))
        assert box["height"] <= 3 * line, viewport
        assert phone.width() <= viewport["width"]
        phone.close()


@pytest.mark.browser
def test_a_profiles_recent_games_break_no_word_on_a_phone(browser: Any, site: str) -> None:
    ada, grace = people("ada", "grace")

    def finished() -> None:
        game = services.create_seated_game(humans=[ada, grace], bots=["heuristic"], start=True)
        for person in (ada, grace):  # the bot is left: a game with a bot is unrated
            game.refresh_from_db()
            services.resign(public_id=game.public_id, user=person, expected_version=game.version)

    off_loop(finished)
    phone = Phone(browser, site, ada)
    page = phone.open(f"/u/{ada.username}/")
    phone.shot("phone-profile-recent-games")
    # A cell's word is not cut ("unrate/d"); only a game's id or a long name may wrap.
    broken = page.evaluate(BROKEN_HEADINGS.replace('"table th"', '"table td"'))
    assert "unrated" in page.locator("table").inner_text()
    assert "unrated" not in broken
    assert phone.width() <= PHONE["width"]
    phone.close()
