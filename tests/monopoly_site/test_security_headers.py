"""Every page tells the browser what it may do: a Content-Security-Policy
without inline script, a Referrer-Policy and a Permissions-Policy; and a
page's HTML has no inline script that the policy would block."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game
from tests.games.conftest import alice, bob, duel, no_bot_tasks

__all__ = ["alice", "bob", "duel", "no_bot_tasks"]

pytestmark = pytest.mark.django_db

TAG = re.compile(r"<[a-zA-Z][^>]*>")
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
HANDLER = re.compile(r"\s(on[a-z]+|hx-on[:\w-]*)\s*=", re.I)


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


def pages(game: Game, lobby: Game, user: User) -> list[str]:
    return [
        "/lobby/",
        "/watch/",
        "/leaderboard/",
        "/notifications/",
        "/settings/",
        f"/u/{user.username}/",
        game.get_absolute_url(),
        f"/games/{game.public_id}/replay/",
        lobby.get_absolute_url(),
        "/healthz",
    ]


@pytest.fixture
def signed_in(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


@pytest.fixture
def lobby(alice: User) -> Game:
    return services.create_game(host=alice)


def test_every_page_has_a_policy_without_inline_script(
    signed_in: Client, duel: Game, lobby: Game, alice: User
) -> None:
    anonymous = [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/admin/login/",
        duel.get_absolute_url(),
    ]
    for client, url in [
        *((signed_in, url) for url in pages(duel, lobby, alice)),
        *((Client(), url) for url in anonymous),
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = directives(response["Content-Security-Policy"])
        assert policy["script-src"] == ["'self'"], url
        assert policy["default-src"] == ["'self'"]
        assert policy["style-src"] == ["'self'"]
        assert policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert policy["base-uri"] == ["'self'"]
        assert policy["form-action"] == ["'self'"]
        assert policy["connect-src"] == ["'self'", "ws://testserver"]
        assert "'unsafe-eval'" not in response["Content-Security-Policy"]
        assert response["Referrer-Policy"] == "same-origin"
        assert "camera=()" in response["Permissions-Policy"]
        assert response["X-Frame-Options"] == "DENY"
        assert response["X-Content-Type-Options"] == "nosniff"


def test_no_page_has_a_script_the_policy_would_block(
    signed_in: Client, duel: Game, lobby: Game, alice: User
) -> None:
    for url in [*pages(duel, lobby, alice), "/"]:
        client = Client() if url == "/" else signed_in
        html = client.get(url).content.decode()
        assert "{#" not in html and "{%" not in html, f"{url} shows template syntax"
        assert not INLINE_SCRIPT.search(html), url
        for tag in TAG.findall(html):
            assert not HANDLER.search(tag), (url, tag)
            assert "javascript:" not in tag.lower(), (url, tag)


HTMX_CONFIG = re.compile(r"<meta name=\"htmx-config\" content='([^']*)'>")


def test_every_page_has_one_htmx_config_that_forbids_eval(
    signed_in: Client, duel: Game, lobby: Game, alice: User
) -> None:
    # htmx reads only the first htmx-config tag: a page's own keys (the game
    # page's handling of refusals) must be in that one.
    for url in pages(duel, lobby, alice):
        html = signed_in.get(url).content.decode()
        if "<html" not in html:
            continue
        [config] = HTMX_CONFIG.findall(html)
        keys = json.loads(config)
        assert keys["allowEval"] is False and keys["includeIndicatorStyles"] is False, url
    game_config = json.loads(
        HTMX_CONFIG.findall(signed_in.get(duel.get_absolute_url()).content.decode())[0]
    )
    refusals = [r for r in game_config["responseHandling"] if r.get("error") is False]
    assert refusals and re.fullmatch(refusals[0]["code"], "429"), game_config
    assert re.fullmatch(refusals[0]["code"], "400"), game_config  # monopoly_site/badinput.py


def test_a_secure_page_lets_scripts_connect_to_its_wss_origin(signed_in: Client) -> None:
    response = signed_in.get("/lobby/", secure=True)
    assert directives(response["Content-Security-Policy"])["connect-src"] == [
        "'self'",
        "wss://testserver",
    ]


def test_the_permissions_policy_denies_powerful_features() -> None:
    response = Client().get("/")
    features = dict(item.split("=") for item in response["Permissions-Policy"].split(", "))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb", "serial"):
        assert features[feature] == "()"


def test_a_request_for_a_host_the_site_does_not_serve_gets_no_socket_address() -> None:
    response = Client().get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "evil.example" not in response.get("Content-Security-Policy", "")


def csrf_post(client: Client, **headers: Any) -> int:
    client.get("/notifications/", secure=True)  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/notifications/read", secure=True, headers={"X-CSRFToken": token, **headers}
    )
    return int(response.status_code)


def test_a_secure_post_from_a_foreign_origin_is_refused(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert csrf_post(client, Origin="https://evil.example") == 403
    assert csrf_post(client, Origin="http://testserver") == 403  # the HTTP variant
    assert csrf_post(client, Referer="https://evil.example/page") == 403


def test_a_secure_post_from_the_sites_own_origin_is_accepted(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert csrf_post(client, Origin="https://testserver") != 403
    assert csrf_post(client, Referer="https://testserver/notifications/") != 403
