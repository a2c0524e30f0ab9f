"""The rate-limit counters, their settings and the client's address."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory, override_settings

from common import ratelimit
from common.env import Rate, env_rates
from monopoly_site.localservices import free_port

PERS = {"user", "ip"}


def test_rates_are_read_from_the_environment() -> None:
    assert env_rates("R", "1/s/ip", PERS, {"R": "10/10s/user, 30/2m/ip"}) == (
        Rate(10, 10, "user"),
        Rate(30, 120, "ip"),
    )
    assert env_rates("R", "5/1h/user", PERS, {}) == (Rate(5, 3600, "user"),)
    assert env_rates("R", "5/1h/user", PERS, {"R": ""}) == ()


@pytest.mark.parametrize("raw", ["10/10/user", "ten/10s/user", "10/10s/pair", "0/1m/ip", "10/10s"])
def test_malformed_rates_stop_start_up_naming_the_variable(raw: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="RATE_LIMIT_CHAT must be rates like"):
        env_rates("RATE_LIMIT_CHAT", "", PERS, {"RATE_LIMIT_CHAT": raw})


def test_forwarded_for_is_ignored_unless_proxies_are_trusted(settings: Any) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="1.2.3.4")
    settings.TRUSTED_PROXY_COUNT = 0
    assert ratelimit.client_ip(request) == "10.0.0.5"
    settings.TRUSTED_PROXY_COUNT = 1
    assert ratelimit.client_ip(request) == "1.2.3.4"


def test_only_the_entries_our_proxies_added_count(settings: Any) -> None:
    # The client wrote the first entry itself; our one proxy appended the second.
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4"
    )
    settings.TRUSTED_PROXY_COUNT = 1
    assert ratelimit.client_ip(request) == "1.2.3.4"


def test_an_ipv6_client_is_counted_by_its_64(settings: Any) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:aaaa::1")
    assert ratelimit.client_ip(request) == "2001:db8:1:2::"


def test_hits_over_the_rate_are_refused_with_the_wait(settings: Any) -> None:
    settings.RATE_LIMITS = {"chat": (Rate(2, 60, "ip"),)}
    request = RequestFactory().post("/", REMOTE_ADDR="10.0.0.7")
    ratelimit.hit(request, "chat")
    ratelimit.hit(request, "chat")
    with pytest.raises(ratelimit.RateLimited) as refused:
        ratelimit.hit(request, "chat")
    assert 0 < refused.value.retry_after <= 60
    assert refused.value.message.startswith("You are sending messages too quickly. Try again in")
    ratelimit.hit(RequestFactory().post("/", REMOTE_ADDR="10.0.0.8"), "chat")


def test_check_does_not_count(settings: Any) -> None:
    settings.RATE_LIMITS = {"login_failed": (Rate(1, 60, "account"),)}
    request = RequestFactory().post("/", REMOTE_ADDR="10.0.0.7")
    for _ in range(3):
        ratelimit.check(request, "login_failed", account="alice")
    ratelimit.hit(request, "login_failed", account="alice")
    with pytest.raises(ratelimit.RateLimited):
        ratelimit.check(request, "login_failed", account="alice")
    ratelimit.check(request, "login_failed", account="bob")


def test_windows_are_counted_in_one_call_and_always_expire() -> None:
    counter: Any = cache
    (a, b) = counter.count_windows([("w:a", 10), ("w:b", 60)])
    assert a[0] == b[0] == 1 and 0 < a[1] <= 10 and 10 < b[1] <= 60
    ((count, left),) = counter.count_windows([("w:a", 10)], count=False)
    assert count == 1 and 0 < left <= 10
    assert counter.count_windows([("w:none", 10)], count=False) == [(0, -2)]
    cache.set("w:stuck", 5, timeout=None)  # a counter without an expiry
    ((count, left),) = counter.count_windows([("w:stuck", 30)])
    assert count == 6 and 0 < left <= 30


def test_without_redis_requests_are_let_through(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    settings.RATE_LIMITS = {"chat": (Rate(1, 60, "ip"),)}
    caches = {"default": {"BACKEND": "common.cache.RedisCache", "LOCATION": dead}}
    request = RequestFactory().post("/", REMOTE_ADDR="10.0.0.7")
    with override_settings(CACHES=caches), caplog.at_level(logging.WARNING, "common.ratelimit"):
        for _ in range(3):  # over the limit of one from the second on
            ratelimit.hit(request, "chat")
    # Each was let through, uncounted, and said so.
    uncounted = [r for r in caplog.records if r.name == "common.ratelimit"]
    assert [r.getMessage() for r in uncounted] == [
        "Rate limits are not counted: Redis does not answer."
    ] * 3
