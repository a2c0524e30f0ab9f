"""The inbox in Chromium: axe finds no serious or critical violation on
``/inbox/`` and a conversation, on a desktop and at 390 px, neither page
scrolls sideways, a message arrives live on the open conversation, and a
reply sent from the page shows once."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from people import services as people_services
from social import messages
from tests.browser.test_accessibility import SCREENS, context, serious_violations
from tests.browser.test_csp import people
from tests.live.servers import daphnes

pytestmark = [pytest.mark.slow, pytest.mark.browser]

LONG_NAME = "w" * 40  # a display name with no space must wrap, not widen the page


@pytest.fixture
def site(transactional_db: None) -> Iterator[str]:
    with daphnes(1) as [port]:
        yield f"http://127.0.0.1:{port}"


WIDEST = """() => {
  const limit = document.documentElement.clientWidth;
  return Array.from(document.querySelectorAll("main *"))
    .filter(el => el.getBoundingClientRect().right > limit + 1)
    .slice(0, 5).map(el => el.outerHTML.slice(0, 120));
}"""


def scrolls_sideways(page: Any) -> list[str]:
    """What sticks out past the screen's right edge, if the page scrolls sideways."""
    wide = page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )
    return list(page.evaluate(WIDEST)) or ["(something outside main)"] if wide else []


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_inbox_pages_pass_axe_and_a_message_arrives_live(
    browser: Any, site: str, screen: str
) -> None:
    ada, grace = people("ada", "grace")
    grace.display_name = LONG_NAME
    grace.save()
    # New accounts write only to people who follow them.
    people_services.do_follow(ada, grace)
    people_services.do_follow(grace, ada)
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        pool.submit(
            messages.do_send_message, grace, ada, "Fancy a game tonight? " + "long words " * 30
        ).result()
    ctx = context(browser, site, ada, screen)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[str]] = {}
    page.goto("/inbox/")
    page.wait_for_load_state("networkidle")
    assert page.locator("#nav-inbox .unread-count").inner_text() == "1"
    assert page.locator(".inbox-row.unread").count() == 1
    if violations := serious_violations(page):
        found["/inbox/"] = violations
    assert not scrolls_sideways(page), f"/inbox/ scrolls sideways: {scrolls_sideways(page)}"

    page.goto("/inbox/grace/")
    page.wait_for_selector("#messages .message-line")
    page.wait_for_selector(".conversation[data-socket='open']")  # static/js/live.js
    page.locator(".message-report summary").first.click()  # the report form, open
    if violations := serious_violations(page):
        found["/inbox/grace/"] = violations
    assert not scrolls_sideways(page), f"/inbox/grace/ scrolls sideways: {scrolls_sideways(page)}"

    # A message arrives over the socket while the page is open.
    page.wait_for_selector(".conversation[data-socket='open']")
    with ThreadPoolExecutor(1) as pool:  # Playwright runs a loop in this thread
        pool.submit(messages.do_send_message, grace, ada, "Still there?").result()
    page.wait_for_selector("#messages .message-line:has-text('Still there?')")
    if violations := serious_violations(page):
        found["the conversation after a push"] = violations

    # A reply from the form shows once (the post's answer and the socket's copy).
    page.fill("#message-text", "Yes, 8 pm")
    page.click(".message-form button[type=submit]")
    page.wait_for_selector("#messages .message-line.mine:has-text('Yes, 8 pm')")
    page.wait_for_function(
        "Array.from(document.querySelectorAll('#messages .message-line'))"
        ".filter(li => li.textContent.includes('Yes, 8 pm')).length === 1"
    )
    assert page.input_value("#message-text") == ""
    ctx.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
