"""The Notifications page's Web Push section in Chromium, with the site's
VAPID key set: the service worker registers under the policy, the page
knows the device is not subscribed, and turning push on either stores the
subscription or says why it could not (this machine reaches no browser
push service), never failing silently."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from notifications.management.commands.vapid_keys import new_keys
from notifications.models import PushSubscription
from tests.browser.test_csp import Browsing, people
from tests.live.servers import Daphne, free_port

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

ON = "Push notifications are on for this device."
OFF = "Push notifications are off for this device."
FAILED = "Push notifications could not be turned on"  # the browser's push service said no


@pytest.fixture
def push_site(transactional_db: None) -> Iterator[str]:
    public, private = new_keys()
    server = Daphne(free_port(), env={"VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private})
    server.start()
    try:
        server.wait_until_serving()
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()


@pytest.mark.browser
def test_the_push_section_registers_its_worker_and_answers_the_switch(
    browser: Any, push_site: str
) -> None:
    [ada] = people("ada")
    ada_browsing = Browsing(browser, push_site, ada)
    ada_browsing.context.grant_permissions(["notifications"], origin=push_site)
    page = ada_browsing.page()
    ada_browsing.visit(page, "/notifications/")
    # The worker is ready and has no subscription: the switch offers "on".
    status = page.locator("[data-push-status]")
    status.filter(has_text=OFF).wait_for()
    switch_on = page.get_by_role("button", name="Turn on for this device")
    assert switch_on.is_visible()
    switch_on.click()
    status.filter(has_text=ON).or_(status.filter(has_text=FAILED)).wait_for()
    if ON in status.inner_text():
        assert PushSubscription.objects.filter(user=ada).count() == 1
        assert page.get_by_role("button", name="Turn off for this device").is_visible()
    else:
        assert not PushSubscription.objects.filter(user=ada).exists()
        assert switch_on.is_visible()  # still offered: they can try again
    ada_browsing.collect(page)
    assert ada_browsing.violations == []
    assert ada_browsing.complaints == []
    # Chromium's own word on a test context (it is incognito), not the site's.
    incognito = "does not support the Push API in incognito mode"
    assert [e for e in ada_browsing.other_errors if incognito not in e] == []
    ada_browsing.context.close()
