"""Every page works under the Content-Security-Policy in a real browser: no
violation is reported while a player plays a move over htmx, a spectator
gets it over the WebSocket, and the other pages are visited; while the same
policy does block an inline script and a socket to another origin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts.models import User
from games import engine, services
from tests.browser.test_play import click_a_decision
from tests.live.servers import daphnes, session_cookie

SHOTS = Path(__file__).resolve().parents[2] / ".run" / "screenshots"
# Before any script of the page: every violation the browser reports to it.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__violations.push(
    event.effectiveDirective + " blocked " + event.blockedURI + " at " + event.sourceFile
  );
});
"""
# What the browser says when a policy blocks something, and what htmx says
# when the page asks it for eval (turned off in base.html).
POLICY_WORDS = (
    "Content Security Policy",
    "Content-Security-Policy",
    "Permissions-Policy",
    "Permissions policy",
    "evalDisallowed",
)

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    # pytest-django's live_server speaks WSGI only; the sockets need daphne,
    # which also serves the collected static files as production does.
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


class Browsing:
    """A browser context (signed in as ``user``, if given) that records
    what the browser says about the site's policies on every page."""

    def __init__(self, browser: Any, base_url: str, user: User | None) -> None:
        self.context = browser.new_context(
            base_url=base_url, viewport={"width": 1280, "height": 1000}
        )
        if user is not None:
            cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user)}
            self.context.add_cookies([{**cookie, "url": base_url}])
        self.context.add_init_script(RECORD_VIOLATIONS)
        self.who = user.username if user else "anonymous"
        self.complaints: list[str] = []  # about the policies, or a script that failed
        self.other_errors: list[str] = []  # e.g. a missing /favicon.ico on the admin's pages
        self.violations: list[str] = []

    def page(self) -> Any:
        page = self.context.new_page()
        page.set_default_timeout(15_000)
        page.on("console", lambda message: self._console(page, message))
        page.on("pageerror", lambda error: self.complaints.append(f"page error: {error}"))
        return page

    def _console(self, page: Any, message: Any) -> None:
        said = f"console {message.type} on {page.url} ({self.who}): {message.text}"
        if any(word in message.text for word in POLICY_WORDS):
            self.complaints.append(said)
        elif message.type == "error":
            self.other_errors.append(said)

    def visit(self, page: Any, url: str) -> None:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        policy = [d.split() for d in response.headers["content-security-policy"].split(";")]
        assert ["script-src", "'self'"] in policy, url
        page.wait_for_load_state("networkidle")
        self.collect(page)

    def collect(self, page: Any) -> None:
        self.violations += page.evaluate("window.__violations.splice(0)")


def people(*names: str) -> list[User]:
    return [
        User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-12345") for name in names
    ]


@pytest.mark.browser
def test_the_pages_work_under_the_policy_without_a_violation(browser: Any, site: str) -> None:
    ada, grace, carol = people("ada", "grace", "carol")
    game = services.create_seated_game(humans=[ada, grace], bots=[], start=True)
    mover = game.seats.get(number=engine.from_dict(game.state).turn).user
    waiting = services.create_game(host=mover)
    version = game.version
    player, spectator, anonymous = (Browsing(browser, site, u) for u in (mover, carol, None))

    watcher = spectator.page()
    spectator.visit(watcher, game.get_absolute_url())
    page = player.page()
    player.visit(page, game.get_absolute_url())
    for tab in (page, watcher):
        tab.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    board = page.locator("#board svg").first
    assert board.is_visible()
    assert board.bounding_box()["width"] > 300
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "csp-game.png"), full_page=True)

    # A move over htmx; the spectator's board follows over the socket.
    assert click_a_decision(page)
    watcher.wait_for_selector(f'#board[data-version="{version + 1}"]')
    page.wait_for_selector(f'#actions[data-version="{version + 1}"]')
    # Chat over htmx: the box empties once the message is sent (site.js).
    page.locator("#chat-players-body").fill("good luck")
    page.get_by_role("button", name="Send").click()
    page.wait_for_selector("#chat-players-log li:has-text('good luck')")
    page.wait_for_function("document.getElementById('chat-players-body').value === ''")
    player.collect(page)
    spectator.collect(watcher)

    for url in (
        "/",
        "/lobby/",
        "/watch/",
        "/leaderboard/",
        "/notifications/",
        "/settings/",
        f"/u/{mover.username}/",
        f"/games/{game.public_id}/replay/",
        waiting.get_absolute_url(),
    ):
        player.visit(page, url)
    # The invite link selects itself on a click (site.js, not onclick=).
    page.locator("#invite-link").click()
    page.wait_for_function(
        "(f => f.selectionStart === 0 && f.selectionEnd === f.value.length)"
        "(document.getElementById('invite-link'))"
    )
    visitor = anonymous.page()
    for url in (
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/admin/login/",
        "/fair-dice/",
        "/fair-dice/verify",
        game.get_absolute_url(),
    ):
        anonymous.visit(visitor, url)

    for browsing in (player, spectator, anonymous):
        assert browsing.violations == []
        assert browsing.complaints == [], "\n".join(browsing.complaints)
        print(*browsing.other_errors, sep="\n")
        browsing.context.close()


@pytest.mark.browser
def test_the_policy_blocks_inline_script_and_foreign_sockets(browser: Any, site: str) -> None:
    browsing = Browsing(browser, site, None)
    page = browsing.page()
    browsing.visit(page, "/")
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
        page.evaluate(
            """() => {
            const script = document.createElement("script");
            script.textContent = "window.__inlineRan = true";
            document.head.appendChild(script);
            try { new WebSocket("ws://127.0.0.1:9/"); } catch (error) {}
          }"""
        )
    page.wait_for_function("window.__violations.length >= 2")
    browsing.collect(page)
    blocked = " ".join(browsing.violations)
    assert "script-src-elem blocked inline" in blocked
    assert "connect-src blocked ws://127.0.0.1:9" in blocked
    assert page.evaluate("window.__inlineRan") is None
    browsing.context.close()
