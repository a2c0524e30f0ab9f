"""Control characters are refused at the door with a clear 400
(``monopoly_site.badinput``); test_fuzz.py throws junk at every route."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.models import User
from games.models import Game
from live.models import ChatMessage
from monopoly_site.badinput import control_character
from tests.live.conftest import run

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def test_control_characters_are_found_and_lines_allowed_only_when_asked() -> None:
    assert control_character("plain text, é€ 漢字") is None
    assert control_character("a\x00b") == "U+0000"
    assert control_character("\x7f") == "U+007F"
    assert control_character("\x85") == "U+0085"
    assert control_character("\ud800") == "U+D800"
    assert control_character("two\r\nlines\tand a tab") == "U+000D"
    assert control_character("two\r\nlines\tand a tab", lines=True) is None
    assert control_character("\x0b", lines=True) == "U+000B"


@pytest.mark.parametrize("path", ["/games/%00/", "/join/%00/", "/u/%00/", "/games/a%01b/replay/"])
def test_a_control_character_in_the_address_is_a_clear_400(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 400
    body = response.content.decode()
    assert "The address contains a control character" in body and "Nothing was changed" in body


def test_a_control_character_in_a_query_parameter_names_the_parameter(
    client: Client, duel: Game
) -> None:
    response = client.get(f"/games/{duel.public_id}/replay/", {"step": "1\x00"})
    assert response.status_code == 400
    assert "query parameter “step” contains a control character (U+0000)" in (
        response.content.decode()
    )


def test_a_nul_in_a_chat_message_is_refused_in_the_panel_and_nothing_is_stored(
    client: Client, duel: Game, alice: User
) -> None:
    client.force_login(alice)
    url = f"/games/{duel.public_id}/chat/players"
    response = client.post(url, {"body": "hi\x00there"}, headers=HTMX)
    assert response.status_code == 400
    assert response.content.decode() == (
        '<p class="error" role="alert">The form field “body” contains a control character '
        "(U+0000). Remove it and try again.</p>"
    )
    assert "HX-Reswap" not in response  # into the chat's error slot, as the form asks
    assert not ChatMessage.objects.exists()


def test_a_refused_move_keeps_the_action_panel_and_shows_why_at_its_top(
    client: Client, duel: Game, alice: User
) -> None:
    client.force_login(alice)
    version = duel.version
    form = {"kind": "bid", "amount": "1\x0b0", "expected_version": str(version)}
    response = client.post(
        f"/games/{duel.public_id}/act", form, headers={**HTMX, "HX-Target": "actions"}
    )
    assert response.status_code == 400 and response["HX-Reswap"] == "afterbegin"
    assert "“amount” contains a control character (U+000B)" in response.content.decode()
    duel.refresh_from_db()
    assert duel.version == version


def test_line_breaks_in_a_form_value_pass(client: Client, duel: Game, alice: User) -> None:
    client.force_login(alice)
    url = f"/games/{duel.public_id}/chat/players"
    assert client.post(url, {"body": "two\r\nlines"}, headers=HTMX).status_code == 200
    assert ChatMessage.objects.get().body == "two lines"  # the chat is one line


def test_a_junk_field_name_is_shown_escaped(client: Client) -> None:
    response = client.post("/accounts/login/", {"<b>\x01": "x"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "The name of a form field contains a control character (U+0001)" in body
    response = client.post("/accounts/login/", {"<b>": "\x02"})
    assert "“&lt;b&gt;”" in response.content.decode()


def test_a_session_cookie_holding_a_nul_is_no_session(client: Client, alice: User) -> None:
    client.cookies[settings.SESSION_COOKIE_NAME] = "a" * 31 + "\x00"
    assert client.get("/lobby/").status_code == 200
    assert client.get("/settings/").status_code == 302  # to the login page


@pytest.mark.parametrize(
    "path", ["/ws/games/%00/", "/ws/games/a\x00b/", "/ws/lobby/?x=%01", "/ws/nowhere/"]
)
def test_a_socket_with_a_control_character_or_no_route_is_refused(path: str) -> None:
    from monopoly_site.asgi import application

    async def scenario() -> None:
        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
        path_only, _, query = path.partition("?")
        comm = WebsocketCommunicator(application, path_only, headers=headers)
        comm.scope["path"] = path_only.replace("%00", "\x00")  # as the server decodes it
        comm.scope["query_string"] = query.encode()
        connected, _ = await comm.connect()
        assert not connected

    run(scenario)


# --- JSON bodies (the API's, a push subscription's) and numbers -----------------------


def test_a_nul_in_an_api_json_field_is_a_clear_400_before_any_service(
    alice: User, bob: User
) -> None:
    from games import services
    from games.models import Challenge
    from tests.api.conftest import api_for

    game = services.create_game(host=alice, max_seats=3, bot_delay_ms=0)
    api = api_for(alice)
    response = api.post(f"/games/{game.public_id}/challenges", {"username": "bob\u0000"})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["detail"] == (
        "The field “username” contains a control character (U+0000). Remove it and try again."
    )
    # Nested fields and names are checked too, whatever the declared content type.
    nested = {"action": {"kind": "roll", "terms": {"give\u0001": 1}}, "expected_version": 0}
    answer = api.client.post(
        f"/api/v1/games/{game.public_id}/actions",
        json.dumps(nested),
        content_type="text/plain",
        headers=api.headers(),
    )
    assert answer.status_code == 400
    assert "The name of a field contains a control character (U+0001)" in answer.json()["detail"]
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"expected_version": ' + "9" * 5000 + "}", "more than 12 digits"),
        ('{"username": "' + "x" * 1001 + '"}', "“username” is too long: at most 1,000"),
        ("[" * 50 + "]" * 50, "nested too deeply"),
        ("[" * 100_000, "nested too deeply"),
        ('{"a": "\\ud800"}', "“a” contains a control character (U+D800)"),
    ],
)
def test_a_json_body_with_a_huge_number_long_text_or_deep_nesting_is_a_clear_400(
    alice: User, body: str, message: str
) -> None:
    from tests.api.conftest import api_for

    api = api_for(alice)
    response = api.client.post(
        "/api/v1/games/ABC/resign", body, content_type="application/json", headers=api.headers()
    )
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_a_push_subscription_with_a_nul_is_refused_at_the_door(client: Client, alice: User) -> None:
    client.force_login(alice)
    body = json.dumps({"endpoint": "https://push.example.com/a\u0000", "keys": {}})
    response = client.post("/notifications/push/subscribe", body, content_type="application/json")
    assert response.status_code == 400
    assert "“endpoint” contains a control character (U+0000)" in response.content.decode()


HUGE = "9" * 5000


def test_numbers_past_pythons_digit_limit_are_no_number_not_a_500(
    client: Client, duel: Game
) -> None:
    # Logged out: the three answers that were 500s (issue 31, item 15).
    assert client.get(f"/games/{duel.public_id}/regions", {"since": HUGE}).status_code == 200
    assert client.get(f"/games/{duel.public_id}/square/1", {"step": HUGE}).status_code == 200
    assert client.get("/lobby/switches", {"turn_seconds": HUGE}).status_code == 200
    replay = client.get(f"/games/{duel.public_id}/replay/", {"step": HUGE, "turn": "-" + HUGE})
    assert replay.status_code == 200


def test_the_number_reader_caps_digits_and_refuses_what_int_would_misread() -> None:
    from common.numbers import whole_number

    assert whole_number(" 42 ") == 42
    assert whole_number("9" * 12) == 999_999_999_999
    assert whole_number("9" * 13) is None
    assert whole_number(HUGE) is None
    assert whole_number("²") is None and whole_number("1_000") is None
    assert whole_number("-3") is None and whole_number("-3", signed=True) == -3
    assert whole_number("") is None and whole_number(None) is None


def test_a_control_character_in_a_header_is_a_clear_400_on_the_api_and_its_streams(
    client: Client,
) -> None:
    from tests.api.streams import served
    from tests.live.conftest import run

    token = "Bearer mnp_" + "\x00" * 12 + "_secret"  # reached the token lookup: a 500
    response = client.get("/api/v1/me", headers={"Authorization": token})
    assert response.status_code == 400
    detail = (
        "The header “Authorization” contains a control character (U+0000). Remove it and try again."
    )
    assert response.json()["detail"] == detail
    # The streams, which their consumer serves before Django: the same answer.

    async def scenario() -> list[dict[str, object]]:
        return await served("/api/v1/stream/events", {"Authorization": token})

    sent = run(scenario)
    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"])["detail"] == detail
