"""A report through to its outcome, in Chromium (issue #32): the reporter
reports a chat line from the game page; a moderator claims the case and
times the person out; the person's next line is refused with a clear
message on their already open page; the reporter gets the outcome notice;
the audit log has the action. And axe on the queue and a case page."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from accounts.models import User
from games import services
from people.models import Case, ModAction
from people.reports import file_report
from tests.browser.test_accessibility import SCREENS, context, serious_violations
from tests.browser.test_csp import people
from tests.live.servers import daphnes
from tests.social.conftest import make_moderator

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


def open_page(browser: Any, site: str, user: User, url: str, screen: str = "desktop") -> Any:
    page = context(browser, site, user, screen).new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    return page


def test_a_reported_chat_line_through_to_the_timeout_and_the_outcome(
    browser: Any, site: str
) -> None:
    alice, bob = people("alice", "bob")
    mod = make_moderator("mod")
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        game = pool.submit(
            services.create_seated_game, humans=[alice, bob], bots=[], start=True
        ).result()
    url = game.get_absolute_url()
    rude = open_page(browser, site, alice, url)
    reporter = open_page(browser, site, bob, url)
    for page in (rude, reporter):
        page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    rude.get_by_label("Message").first.fill("you play like a potato")
    rude.get_by_role("button", name="Send").first.click()

    # Bob sees the line arrive and reports it from the game page.
    reporter.get_by_text("you play like a potato").wait_for()
    line = reporter.locator(".chat-message", has_text="you play like a potato")
    line.locator("summary", has_text="Mute, block or report alice").click()
    line.get_by_label("Reason").select_option("abuse")
    line.get_by_label("What happened (optional)").fill("insults in chat")
    line.get_by_role("button", name="Report alice").click()
    reporter.wait_for_url(f"**{url}")
    reporter.get_by_text("Thank you: your report was sent.").wait_for()

    # The moderator claims the case and times alice out for two hours.
    desk = open_page(browser, site, mod, "/mod/")
    desk.get_by_role("link", name="alice").click()
    desk.get_by_text("you play like a potato").first.wait_for()  # the evidence
    desk.get_by_role("button", name="Claim this case").click()
    desk.get_by_text("You hold this case now.").wait_for()
    desk.get_by_role("radio", name="Chat timeout").check()
    desk.get_by_label("Hours (for a chat timeout)").fill("2")
    desk.get_by_label("Reason (kept in the audit log)").fill("insults")
    desk.get_by_role("button", name="Apply and close the case").click()
    desk.get_by_text("Done: Chat timeout. The case is closed.").wait_for()

    # Alice's page was open all along: her next line is refused, saying until when.
    rude.get_by_label("Message").first.fill("and another thing")
    rude.get_by_role("button", name="Send").first.click()
    refusal = rude.locator(".chat-error").first
    refusal.get_by_text("A moderator has timed you out of chat until").wait_for()
    assert "UTC" in refusal.inner_text()
    assert not reporter.get_by_text("and another thing").count()

    # Bob hears the outcome, and nothing about alice.
    reporter.goto("/notifications/")
    reporter.get_by_text("Thank you: we took action on your report.").wait_for()

    # The audit log has it, on the case's person's profile too.
    desk.goto("/u/alice/")
    history = desk.locator("section", has=desk.get_by_role("heading", name="Moderation history"))
    history.get_by_text("Chat timeout").wait_for()
    history.get_by_text("insults").wait_for()
    action = ModAction.objects.get(kind="timeout")
    assert (action.moderator, action.user, action.hours, action.reason) == (
        mod,
        alice,
        2,
        "insults",
    )
    for page in (rude, reporter, desk):
        page.context.close()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_queue_a_case_and_the_report_controls_pass_axe_and_fit_the_screen(
    browser: Any, site: str, screen: str
) -> None:
    alice, bob = people("alice", "bob")
    mod = make_moderator("mod")
    file_report(
        reporter=bob,
        reported=alice,
        reason="abuse",
        source="profile",
        text="a rather long complaint " * 8,
        evidence={"username": "alice", "display_name": "A" * 60},
    )
    file_report(
        reporter=None,
        reported=alice,
        reason="collusion",
        source="collusion_check",
        evidence={"game": "x" * 10, "trade": 3, "terms": {"give_cash": 1200}, "why": "share"},
    )
    case = Case.objects.get(user=alice)
    found = {}
    for url in ("/mod/", f"/mod/cases/{case.pk}/", "/u/alice/", "/u/alice/report"):
        page = open_page(browser, site, mod, url, screen)
        page.wait_for_load_state("networkidle")
        if url == "/u/alice/":  # the report control open, and the moderation history
            page.get_by_text("Report alice").click()
            page.get_by_role("heading", name="Moderation history").wait_for()
        if violations := serious_violations(page):
            found[url] = violations
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= SCREENS[screen]["width"], f"{url} scrolls sideways at {screen}"
        page.context.close()
    assert found == {}, found
