"""Fuzzing the site's every way in: no answer is ever a server error.

Every URL pattern of the resolver gets its parameters filled with junk (NUL
and other control characters, huge and negative numbers, unicode, very long
strings), as a GET and a POST with junk query and form fields; every form
field the pages show (and the action fields the game reads) gets junk with
the real parameters, as anonymous, as the player to move in a running game
and as staff; the session cookie gets junk; and the WebSocket routes get junk
addresses and junk frames. Nothing may answer 500 or raise, and a request
holding a control character gets the 400 of ``monopoly_site.badinput``.

Hypothesis is derandomized with a fixed number of examples and no deadline,
so a run is the same every time and takes seconds. Each request runs in a
savepoint that is rolled back, so every example starts from the same world.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections, transaction
from django.http import HttpResponse
from django.test import Client
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games import engine
from live.consumers import CLOSE_BAD_FRAME, CLOSE_REFUSED, parse_frame
from monopoly_site.routing import websocket_urlpatterns
from tests.live.conftest import run
from tests.monopoly_site.authorization_world import World, build_world, site_routes, username

pytestmark = pytest.mark.django_db

ROUTES = sorted(site_routes())
SOCKET_ROUTES = sorted(str(route.pattern) for route in websocket_urlpatterns)
PERSONAS = ("anonymous", "mover", "staff")
FORM_TYPE = "application/x-www-form-urlencoded"
# ``<str:name>`` converters, and regex groups ``(?P<name>...)`` of the
# admin's and allauth's patterns.
PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>([^)]*)\)")

NASTY = [
    "\x00",
    "a\x00b",
    "\x01\x08\x0b\x1f\x7f",
    "\x85\x9f",
    "\t\n\r",
    "",
    " ",
    "-1",
    "0",
    "-9223372036854775809",
    "9223372036854775808",
    "9" * 5000,
    "1e309",
    "NaN",
    "x" * 10_000,
    "é€𝄞漢字",
    "\u202eevil",
    "\ufeff\u200b",
    "../../etc/passwd",
    "%00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "{{ 7*7 }}",
]
# What makes a request go further than the first check: real kinds,
# squares, rooms and numbers.
PLAUSIBLE = [
    "roll", "buy", "decline", "bid", "pass_bid", "end_turn", "pay_jail_fine", "build",
    "mortgage", "propose_trade", "players", "spectators", "end", "heuristic", "1", "2", "3",
    "5", "39", "100", "on", "true", "us-2003", "uk-2017", "public", "private",
]  # fmt: skip
# Form fields no page shows up front (the trade form, the admin's lists).
EXTRA_FIELDS = [
    "kind", "square", "target", "amount", "expected_version", "give_cash", "take_cash",
    "give_cards_0", "give_cards_1", "take_cards_0", "take_cards_1", "give", "take", "to",
    "body", "seat", "days", "action", "invite", "invite_token", "step", "turn", "sort",
    "preset", "switches_present", "next", "q", "o", "p", "e", "all", "_popup", "_to_field",
    "login", "password", "remember",
]  # fmt: skip

junk = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=30),
    st.text(st.characters(max_codepoint=0xA0), max_size=8),
    st.integers().map(str),
)
# A value as a browser or a script could send it in a form (no lone surrogates:
# a request's bytes are decoded, so they cannot arrive).
form_value = st.one_of(junk, st.sampled_from(PLAUSIBLE))
# In an address, lone surrogates go out as the invalid UTF-8 they would be.
path_value = st.one_of(junk, st.text(st.characters(categories=["Cs", "Cc"]), max_size=4))


def fuzz(examples: int) -> hypothesis_settings:
    """Deterministic, a fixed number of examples, no deadline (CI's pace varies)."""
    return hypothesis_settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    with django_db_blocker.unblock():
        built = build_world()
    yield built
    with django_db_blocker.unblock():
        built.remove()


@pytest.fixture(autouse=True)
def _no_rate_limits(settings: Any) -> None:
    """Junk must reach the views, not the rate limits' 429."""
    settings.RATE_LIMITS = {scope: [] for scope in settings.RATE_LIMITS}


@pytest.fixture(scope="module")
def field_names(world: World, django_db_blocker: Any) -> list[str]:
    """Every form field name on the pages the world's people see."""
    running, lobby = world.games["running"].public_id, world.games["lobby"].public_id
    pages = {
        "anonymous": ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"],
        "mover": ["/lobby/", f"/games/{running}/", "/settings/", "/notifications/",
                  "/accounts/email/", "/accounts/password/change/"],
        "host": [f"/games/{lobby}/"],
        "staff": ["/admin/accounts/user/add/", "/admin/games/game/"],
    }  # fmt: skip
    names = set(EXTRA_FIELDS)
    with django_db_blocker.unblock():
        for persona, paths in pages.items():
            client = world.client(persona)
            for path in paths:
                response = client.get(path)
                assert response.status_code == 200, path
                names.update(re.findall(r'\bname="([^"]+)"', response.content.decode()))
    names -= {"csrfmiddlewaretoken", "viewport", "htmx-config", "description"}
    return sorted(names)


def real_value(world: World, name: str, choices: str) -> str:
    """A value the parameter ``name`` matches in the world."""
    game = world.games["running"]
    values = {
        "public_id": game.public_id,
        "token": world.games["private lobby"].invite_token,
        "username": username("mover"),
        "room": "players",
        "app_label": "games",
    }
    if name in values:
        return values[name]
    first = choices.split("|")[0]
    return first if choices and re.fullmatch(r"\w+", first) else "1"


def fill(pattern: str, value: Any) -> str:
    """The path of ``pattern`` with each parameter set by ``value(name, choices)``
    (percent-encoded as UTF-8, lone surrogates as the bytes they would be)."""
    parts, at = [], 0
    for match in PARAM.finditer(pattern):
        parts.append(pattern[at : match.start()].replace("^", "").replace("$", ""))
        name = match.group(1) or match.group(2)
        text = value(name, match.group(3) or "")
        parts.append(quote(text.encode("utf-8", "surrogatepass"), safe=""))
        at = match.end()
    parts.append(pattern[at:].replace("^", "").replace("$", ""))
    return "/" + "".join(parts)


def send(
    world: World,
    persona: str,
    method: str,
    path: str,
    query: dict[str, str],
    form: dict[str, Any],
    htmx: bool = False,
) -> HttpResponse:
    """One request, in a savepoint rolled back after it (the next example
    finds the world as it was)."""
    client = world.client(persona)
    headers = {"HX-Request": "true"} if htmx else {}
    with transaction.atomic():
        if method == "GET":
            response = client.get(path, {**query, **form}, headers=headers)
        else:
            if query:
                path += "?" + "&".join(f"{quote(k)}={quote(v)}" for k, v in query.items())
            # As a browser sends a form; the test client's multipart encoder
            # would write a junk field name into the part headers unescaped.
            body = urlencode(form, doseq=True)
            response = client.post(path, body, content_type=FORM_TYPE, headers=headers)
        transaction.set_rollback(True)
    assert response.status_code < 500, f"{method} {path} as {persona}: {response.status_code}"
    return response


def has_control(*texts: str) -> bool:
    return any(re.search(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]", t) for t in texts)


# --- every URL pattern ------------------------------------------------------------------


@pytest.mark.parametrize("pattern", [p for p in ROUTES if PARAM.search(p)])
def test_a_nul_in_any_parameter_of_any_route_is_a_clear_400(world: World, pattern: str) -> None:
    path = fill(pattern, lambda name, choices: "a\x00b")
    for method in ("GET", "POST"):
        response = send(world, "staff", method, path, {}, {})
        assert response.status_code == 400, (method, path)
        assert "control character (U+0000)" in response.content.decode()


@pytest.mark.parametrize("pattern", ROUTES)
def test_every_route_survives_junk_parameters_query_and_form(
    world: World, field_names: list[str], pattern: str
) -> None:
    names = st.one_of(st.sampled_from(field_names), junk)

    @fuzz(4)
    @given(
        data=st.data(),
        persona=st.sampled_from(PERSONAS),
        method=st.sampled_from(("GET", "POST")),
        query=st.dictionaries(names, form_value, max_size=3),
        form=st.dictionaries(names, form_value, max_size=4),
        htmx=st.booleans(),
    )
    def check(
        data: Any,
        persona: str,
        method: str,
        query: dict[str, str],
        form: dict[str, str],
        htmx: bool,
    ) -> None:
        values = {}

        def value(name: str, choices: str) -> str:
            real = real_value(world, name, choices)
            values[name] = data.draw(st.one_of(st.just(real), path_value), label=name)
            return values[name]

        path = fill(pattern, value)
        response = send(world, persona, method, path, query, form, htmx)
        in_query = {**query, **form} if method == "GET" else query
        sent = [*values.values(), *in_query, *in_query.values()]
        if method == "POST":  # form values may hold lines
            sent += [*form, *(re.sub(r"[\t\n\r]", "", v) for v in form.values())]
        if has_control(*sent):
            assert response.status_code == 400

    check()


@pytest.mark.slow  # every form of the site: in make test-long
@fuzz(150)
@given(
    pattern=st.sampled_from([p for p in ROUTES if not p.startswith("admin/")]),
    persona=st.sampled_from(("anonymous", "mover", "host")),
    fields=st.data(),
    htmx=st.booleans(),
)
@example(pattern="games/<str:public_id>/act", persona="mover", fields=None, htmx=True)
def test_every_form_field_survives_junk(
    world: World, field_names: list[str], pattern: str, persona: str, fields: Any, htmx: bool
) -> None:
    """The real game, player and room, and junk in the form's fields."""
    path = fill(pattern, lambda name, choices: real_value(world, name, choices))
    if fields is None:  # the example: a plausible move with a junk expected_version
        form = {"kind": "roll", "expected_version": "9" * 5000}
    else:
        values = st.one_of(form_value, st.just(str(world.game("running").version)))
        form = fields.draw(st.dictionaries(st.sampled_from(field_names), values, max_size=8))
    send(world, persona, "POST", path, {}, form, htmx)
    send(world, persona, "GET", path, form, {}, htmx)


MOVE_FIELDS = ["square", "target", "amount", "give_cash", "take_cash", "give_cards_0",
               "give_cards_1", "take_cards_0", "take_cards_1"]  # fmt: skip
number = st.one_of(st.integers(-3, 45).map(str), st.integers().map(str), junk)
squares = st.lists(st.one_of(st.integers(-1, 41).map(str), junk), max_size=4)


@fuzz(100)
@given(
    persona=st.sampled_from(("mover", "waiting")),
    kind=st.one_of(st.sampled_from(sorted(engine.ACTION_KINDS)), junk),
    stale=st.booleans(),
    fields=st.dictionaries(st.sampled_from(MOVE_FIELDS), number, max_size=4),
    give_props=squares,
    take_props=squares,
    htmx=st.booleans(),
)
def test_a_move_with_junk_fields_is_refused_or_played(
    world: World,
    persona: str,
    kind: str,
    stale: bool,
    fields: dict[str, str],
    give_props: list[str],
    take_props: list[str],
    htmx: bool,
) -> None:
    """Every action kind, the engine's own (end_now, expire_claim) included,
    with junk and out-of-range squares, targets, amounts and trade terms."""
    game = world.game("running")
    version = game.version - 1 if stale else game.version
    form = {"kind": kind, "expected_version": str(version), **fields}
    form |= {"give_props": give_props, "take_props": take_props}
    send(world, persona, "POST", f"/games/{game.public_id}/act", {}, form, htmx)


@fuzz(20)
@given(
    cookie=st.one_of(
        st.sampled_from([n for n in NASTY if max(n, default="a") <= "\xff"]),
        st.text(st.characters(max_codepoint=0xFF), max_size=40),  # a header is Latin-1
    )
)
@example(cookie="\x00" * 32)
@example(cookie="a" * 31 + "\x00")
def test_a_junk_session_cookie_is_no_session(world: World, cookie: str) -> None:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    running = world.games["running"].public_id
    for path in ("/", f"/games/{running}/"):
        assert client.get(path).status_code == 200
    assert client.get("/settings/").status_code == 302  # to the login page


# --- the WebSocket routes ------------------------------------------------------------


async def _close_connections() -> None:
    """The consumers' database connections, made in the scenario's own
    thread, closed with it (else they outlive the test database)."""
    await sync_to_async(connections.close_all, thread_sensitive=True)()


async def _connect(path: str) -> tuple[WebsocketCommunicator, bool, Any]:
    from monopoly_site.asgi import application

    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=10)
    return comm, connected, code


@pytest.mark.slow  # generated addresses on every socket route: in make test-long
@fuzz(20)
@given(pattern=st.sampled_from(SOCKET_ROUTES), value=path_value, query=junk)
@example(pattern="ws/games/<str:public_id>/", value="\x00", query="")
@example(pattern="ws/games/<str:public_id>/waiting/", value="a", query="invite=\x00")
def test_a_socket_with_a_junk_address_is_refused_not_crashed(
    world: World, pattern: str, value: str, query: str
) -> None:
    path = fill(pattern, lambda name, choices: value)
    path += "?" + quote(query.encode("utf-8", "surrogatepass"), safe="=&")

    async def scenario() -> None:
        comm, connected, code = await _connect(path)
        # Connected: a lobby or watch room (junk in the room name never matches).
        assert connected or code in (CLOSE_REFUSED, 1000), code
        await comm.disconnect()  # the consumer ends; it re-raises what the consumer raised
        await _close_connections()

    run(scenario)


ODD_FRAMES = [
    '{"type": "resync"}', '{"type": "ping"}', "[]", "null", '{"type": 1}',
    '{"type": "resync", "x": "\\u0000"}', "[" * 200, '"\\ud800"', "1e999",
]  # fmt: skip
frame_text = st.one_of(junk, st.sampled_from(ODD_FRAMES), st.text(max_size=300))


@fuzz(12)
@given(
    room=st.sampled_from(["/ws/games/{}/", "/ws/games/{}/waiting/", "/ws/lobby/"]),
    text=st.one_of(frame_text, st.none()),
    raw=st.binary(max_size=40),
)
def test_a_socket_closes_on_a_junk_frame_without_crashing(
    world: World, room: str, text: str | None, raw: bytes
) -> None:
    game = world.games["running" if "waiting" not in room else "lobby"]
    path = room.format(game.public_id)

    async def scenario() -> None:
        comm, connected, _ = await _connect(path)
        assert connected, path
        # Not ``send_to``, which refuses an empty frame.
        frame = {"bytes": raw} if text is None else {"text": text}
        await comm.send_input({"type": "websocket.receive", **frame})
        if text is None or parse_frame(text, None) is None:
            while True:  # the snapshot and presence come first
                output = await comm.receive_output(timeout=10)
                if output["type"] == "websocket.close":
                    assert output.get("code") == CLOSE_BAD_FRAME
                    break
        await comm.disconnect()  # re-raises what the consumer raised, if anything
        await _close_connections()

    run(scenario)


# --- NUL and a 5,000-digit number in every parameter and field -------------------------

NUL, HUGE = "a\x00b", "9" * 5000
# Routes whose views read fields one by one: not Django's admin, nor the API
# (its JSON fields have their own test below), nor fixed files.
FIELD_READERS = [
    p for p in ROUTES if not p.startswith(("admin/", "api/")) and p not in ("sw.js", "healthz")
]


def _persona_for(pattern: str) -> str:
    return "staff" if pattern.startswith("admin/") else "mover"


@pytest.mark.parametrize("pattern", [p for p in ROUTES if PARAM.search(p)])
def test_each_parameter_of_each_route_alone_takes_a_nul_or_a_huge_number(
    world: World, pattern: str
) -> None:
    """One parameter at a time, the others real, so that each is reached."""
    names = [m.group(1) or m.group(2) for m in PARAM.finditer(pattern)]
    for junk_name in names:
        for bad in (NUL, HUGE):

            def value(name: str, choices: str, junk_name: str = junk_name, bad: str = bad) -> str:
                return bad if name == junk_name else real_value(world, name, choices)

            path = fill(pattern, value)
            # The door reads the address alike for every method.
            for method in ("GET",) if bad == NUL else ("GET", "POST"):
                response = send(world, _persona_for(pattern), method, path, {}, {})
                if bad == NUL:
                    assert response.status_code == 400, (method, path)


@pytest.mark.parametrize("pattern", ROUTES)
def test_every_field_of_each_route_takes_a_nul_or_a_huge_number(
    world: World, field_names: list[str], pattern: str
) -> None:
    """Every field the pages show, in the query and in the form, at once:
    a NUL is refused at the door, a huge number is no server error."""
    path = fill(pattern, lambda name, choices: real_value(world, name, choices))
    persona = _persona_for(pattern)
    for bad in (NUL, HUGE):
        everything = {name: bad for name in field_names}
        tries = [("POST", everything, everything)]
        if bad == HUGE:  # a NUL's 400 comes first, from the query or the form alike
            tries.append(("GET", everything, {}))
        for method, query, form in tries:
            response = send(world, persona, method, path, query, form)
            if bad == NUL:
                assert response.status_code == 400, (method, path)


@pytest.mark.slow  # one request per route, field and method: minutes
@pytest.mark.parametrize("pattern", FIELD_READERS)
def test_each_field_of_each_route_alone_takes_a_huge_number(
    world: World, field_names: list[str], pattern: str
) -> None:
    """One field at a time, so that a view checking its fields in turn
    reaches each (the fast test above sends them all at once)."""
    path = fill(pattern, lambda name, choices: real_value(world, name, choices))
    for name in field_names:
        send(world, "mover", "GET", path, {name: HUGE}, {})
        send(world, "mover", "POST", path, {}, {name: HUGE})


# The API: every path and query parameter and every field of every body
# variant its schema describes (each action kind's included), one at a time.


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _variants(document: dict[str, Any], schema: dict[str, Any]) -> list[Any]:
    """Example values of ``schema``: its first variant, then one per other
    variant of any of its parts (so every field of every variant shows)."""
    schema = _resolve(document, schema)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            out = []
            for option in schema[key]:
                if _resolve(document, option).get("type") != "null":
                    out += _variants(document, option)
            return out or [None]
    if "allOf" in schema:
        return _variants(document, schema["allOf"][0])
    if "const" in schema:
        return [schema["const"]]
    if "enum" in schema:
        return [schema["enum"][0]]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = {n: _variants(document, s) for n, s in schema.get("properties", {}).items()}
        base = {n: options[0] for n, options in props.items()}
        out = [base]
        for name, options in props.items():
            out += [{**base, name: other} for other in options[1:]]
        return out
    if kind == "array":
        return [[item] for item in _variants(document, schema.get("items", {}))]
    return [{"integer": 1, "number": 1, "boolean": True}.get(str(kind), "1")]


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict) and value:
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list) and value:
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [path]


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    return [_replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


class RawNumber(str):
    """A 5,000-digit JSON number, written into the body as it is."""


def _body(value: Any) -> str:
    if isinstance(value, RawNumber):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {_body(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_body(v) for v in value) + "]"
    return json.dumps(value)


def _api_path(template: str, values: dict[str, str]) -> str:
    for name, text in values.items():
        template = template.replace("{" + name + "}", quote(text, safe=""))
    return template


def test_every_parameter_and_json_field_of_the_api_takes_a_nul_or_a_huge_number(
    world: World,
) -> None:
    from api import tokens

    _, token = tokens.issue(world.users["mover"], scopes=["play", "read"])
    client = Client(headers={"Authorization": f"Bearer {token}"})
    document = client.get("/api/v1/openapi.json").json()
    real = {
        "game_id": world.games["running"].public_id,
        "username": username("mover"),
        "challenge_id": "1",
    }
    sent = 0

    def call(method: str, path: str, query: dict[str, str], body: str | None) -> Any:
        nonlocal sent
        sent += 1
        with transaction.atomic():
            response = client.generic(
                method,
                path + ("?" + urlencode(query) if query else ""),
                body or "",
                content_type="application/json",
            )
            transaction.set_rollback(True)
        assert response.status_code < 500, f"{method} {path} {query} {body!r:.300}"
        return response

    for template, operations in document["paths"].items():
        for method, operation in operations.items():
            params = operation.get("parameters", [])
            path_names = [p["name"] for p in params if p["in"] == "path"]
            query_names = [p["name"] for p in params if p["in"] == "query"]

            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/json", {}).get("schema")
            bodies = _variants(document, schema) if schema else [None]
            base = None if bodies[0] is None else _body(bodies[0])
            for bad in (NUL, HUGE):
                for name in path_names:
                    answer = call(
                        method.upper(), _api_path(template, {**real, name: bad}), {}, base
                    )
                    assert bad != NUL or answer.status_code == 400
                for name in query_names:
                    answer = call(method.upper(), _api_path(template, real), {name: bad}, base)
                    assert bad != NUL or answer.status_code == 400
            for header in ("Authorization", "Idempotency-Key", "Last-Event-ID"):
                with transaction.atomic():
                    answer = client.generic(
                        method.upper(),
                        _api_path(template, real),
                        base or "",
                        content_type="application/json",
                        headers={header: f"Bearer mnp_{NUL * 4}_x"},
                    )
                    transaction.set_rollback(True)
                assert answer.status_code == 400, (template, header)
            for body in bodies:
                if body is None:
                    continue
                for leaf in _leaves(body):
                    for bad in (NUL, HUGE, RawNumber(HUGE)):
                        text = _body(_replaced(body, leaf, bad))
                        answer = call(method.upper(), _api_path(template, real), {}, text)
                        if bad != HUGE:  # refused at the door, naming the field or the number
                            assert answer.status_code == 400, (template, leaf, bad[:5])
                            detail = answer.json()["detail"]
                            assert "control character" in detail or "digits" in detail
    assert sent > 300
