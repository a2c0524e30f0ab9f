"""Walks the authorisation matrix (``authorization_table``): every URL and
every action kind, as every persona, one test per cell; and fails for any
route, WebSocket route or action kind without a row."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse, QueryDict
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Game, GameEvent, PositionEstimate
from games.web.action_forms import parse_action
from monopoly_site.routing import websocket_urlpatterns
from tests.monopoly_site.authorization_table import (
    ACTION_FIELDS,
    ACTIONS,
    ADMIN,
    ADMIN_EXCEPTIONS,
    ADMIN_PERSONAS,
    ADMIN_PREFIX,
    API_PREFIX,
    APPLIED,
    BAD_METHOD,
    ENGINE,
    PERSONAS,
    REFUSED_MOVE,
    ROUTES,
    SEATED,
    SOCKETS,
    Expect,
    Row,
)
from tests.monopoly_site.authorization_world import (
    HOST_SEAT,
    MOVER_SEAT,
    SPECTATOR_LINE,
    TRADE_PARTIES,
    WAITING_SEAT,
    World,
    build_world,
    leaks,
    site_routes,
    username,
)

pytestmark = pytest.mark.django_db
TABLE = "tests/monopoly_site/authorization_table.py"
HTMX = {"HTTP_HX_REQUEST": "true"}
ROUTE_NAMES = {pattern: route.name for pattern, route in site_routes().items()}
CHECKED = [row for row in ROUTES if not row.optional or row.pattern in ROUTE_NAMES]


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    with django_db_blocker.unblock():
        built = build_world()
    yield built
    with django_db_blocker.unblock():
        built.remove()


# --- every route has a row -----------------------------------------------------------


def test_every_route_socket_and_action_kind_has_a_row() -> None:
    routes = site_routes()
    rows = {row.pattern for row in CHECKED}
    problems = []
    for pattern, route in routes.items():
        if pattern not in rows and not pattern.startswith((ADMIN_PREFIX, API_PREFIX)):
            problems.append(
                f"No row for the URL {pattern!r} (view {route.view}). Add to ROUTES in {TABLE}:\n"
                f"    Row({pattern!r}, GET or POST, (anonymous, stranger, spectator, waiting, "
                "mover, host, staff)),\n"
                '  with game="lobby", "running" or "finished" if it names a game, and a second '
                'row with game="private ..." for it. Cells: OK, LOGIN, DENIED, MISSING, '
                "BAD_METHOD, ILLEGAL, DONE, REFUSED, TO_LOBBY, SAVED or redirect(path); "
                "helpers everyone(...), signed_in(...), members_only(...)."
            )
    problems += [f"Stale row in ROUTES: {p!r} is no URL of the site." for p in rows - set(routes)]
    sockets = {str(route.pattern) for route in websocket_urlpatterns}
    rows = {row.pattern for row in SOCKETS}
    problems += [
        f"No row for the WebSocket route {p!r}. Add to SOCKETS in {TABLE}:\n"
        f"    Socket({p!r}, (anonymous, stranger, spectator, waiting, mover, host, staff)),\n"
        "  with game=... and a private game's row if it names a game."
        for p in sorted(sockets - rows)
    ]
    problems += [f"Stale row in SOCKETS: {p!r} is no WebSocket route." for p in rows - sockets]
    problems += [
        f"No row for the action kind {kind!r}: its row comes from its entry in "
        "games/action_kinds.py."
        for kind in sorted(engine.ACTION_KINDS - set(ACTIONS))
    ]
    problems += [
        f"Stale row in ACTIONS: {k!r} is no action kind."
        for k in set(ACTIONS) - engine.ACTION_KINDS
    ]
    assert not problems, "\n".join(problems)


def test_every_row_has_a_cell_per_persona() -> None:
    short = [row for row in [*ROUTES, *SOCKETS] if len(row.cells) != len(PERSONAS)]
    short += [kind for kind, cells in ACTIONS.items() if len(cells) != len(PERSONAS)]
    assert not short, f"Rows without exactly {len(PERSONAS)} cells ({PERSONAS}): {short}"


# --- one test per cell ---------------------------------------------------------------


def _id(row: Row) -> str:
    name = ROUTE_NAMES.get(row.pattern) or row.pattern
    return "-".join(filter(None, [name, row.variant]))


ROUTE_CELLS = [
    pytest.param(row, persona, cell, id=f"{_id(row)}-{persona}")
    for row in CHECKED
    for persona, cell in zip(PERSONAS, row.cells, strict=False)
]


@pytest.mark.parametrize(("row", "persona", "expect"), ROUTE_CELLS)
def test_authorization(world: World, row: Row, persona: str, expect: Expect) -> None:
    game = world.game(row.game) if row.game else None
    _check_route(world, row, persona, expect, game, row.method)


def _wrong_method_cells() -> Iterator[Any]:
    # A method decorator answers 405 before the view looks at the game, so
    # one 405 cell per pattern is enough; other answers are kept per row.
    seen = set()
    for row in CHECKED:
        if row.wrong_method is None or (row.wrong_method is BAD_METHOD and row.pattern in seen):
            continue
        seen.add(row.pattern)
        yield pytest.param(row, row.wrong_method, id=f"{_id(row)}-wrong_method")


@pytest.mark.parametrize(("row", "expect"), list(_wrong_method_cells()))
def test_authorization_of_the_other_method(world: World, row: Row, expect: Expect) -> None:
    game = world.game(row.game) if row.game else None
    _check_route(world, row, "stranger", expect, game, "POST" if row.method == "GET" else "GET")


def _check_route(
    world: World, row: Row, persona: str, expect: Expect, game: Game | None, method: str
) -> None:
    kwargs = dict(row.kwargs)
    if game is not None:
        kwargs.setdefault("token" if "<str:token>" in row.pattern else "public_id",
                          game.invite_token if "<str:token>" in row.pattern else game.public_id)  # fmt: skip
    url = reverse(ROUTE_NAMES[row.pattern], kwargs=kwargs)
    data = {k: v.format(version=game.version if game else 0) for k, v in row.data.items()}
    if row.invite and game is not None:
        if method == "GET":
            url += f"?invite={game.invite_token}"
        data["invite_token"] = game.invite_token
    client = world.client(persona)
    before = world.fingerprint()
    send = client.get if method == "GET" else client.post
    response = send(url, data if method == "POST" else None, **(HTMX if row.htmx else {}))
    _check(response, expect, game=game, before=before, after=world.fingerprint())
    _check_no_secret(world, response, f"{method} {url} as {persona}", persona)
    if persona not in SEATED and not row.invite and 200 <= response.status_code < 300:
        body = response.content.decode(errors="replace")
        leaked = [public_id for public_id in world.private_ids() if public_id in body]
        assert not leaked, f"{method} {url} shows {persona} private games: {leaked}"


def _check_no_secret(world: World, response: HttpResponse, where: str, persona: str) -> None:
    body = response.content.decode(errors="replace") if not response.streaming else ""
    assert not [s for s in world.running_secrets() if s in body], f"{where} reveals a dice secret"
    # Pending trade terms, live estimates and the spectators' chat (leaks).
    assert not leaks(persona, body), f"{where} reveals {leaks(persona, body)}"


def _check(
    response: HttpResponse, expect: Expect, *, game: Game | None, before: Any, after: Any
) -> None:
    request = response.wsgi_request  # type: ignore[attr-defined]
    messages = [(m.level_tag, str(m)) for m in get_messages(request)]
    got = f"{response.status_code}"
    if response.status_code in (301, 302):
        got += f" to {response['Location']}"
    where = f"{request.method} {request.get_full_path()}: expected {expect.label}, got {got}"
    where += f" (messages: {messages})"
    if expect.status is None:
        assert 200 <= response.status_code < 300, where
    else:
        assert response.status_code == expect.status, where
    if expect.to:
        location = urlsplit(response["Location"])
        if expect.to in ("login", "admin_login"):
            login = reverse("account_login" if expect.to == "login" else "admin:login")
            assert location.path == login and "next=" in location.query, where
        elif expect.to == "game":
            assert game is not None and location.path == game.get_absolute_url(), where
        elif expect.to.endswith("*"):
            assert location.path.startswith(expect.to[:-1]), where
        else:
            assert location.path == expect.to, where
    errors = [text for level, text in messages if level == "error"]
    if expect.flash == "error":
        assert errors, where
    if expect.flash == "none":
        assert not errors, where
    if expect.says:
        said = " ".join(text for _, text in messages) or response.content.decode()
        assert expect.says in said, where
    if not expect.changes:
        assert after == before, f"{where}: it changed a game"


# --- actions --------------------------------------------------------------------------

ACTION_CELLS = [
    pytest.param(kind, persona, cell, id=f"game_act-{kind}-{persona}")
    for kind, cells in sorted(ACTIONS.items())
    for persona, cell in zip(PERSONAS, cells, strict=False)
]


def _act(world: World, persona: str, game: Game, kind: str, **extra: Any) -> HttpResponse:
    fields = {k: v.format(host_seat=HOST_SEAT) for k, v in ACTION_FIELDS.get(kind, {}).items()}
    data = {"kind": kind, "expected_version": game.version, **fields, **extra}
    return world.client(persona).post(f"{game.get_absolute_url()}act", data, **HTMX)


def _engine_answer(world: World, persona: str, game: Game, kind: str) -> Expect:
    """What the engine says of this seat's move in the running game."""
    seat = game.seats.get(user=world.user(persona)).number
    fields = {k: v.format(host_seat=HOST_SEAT) for k, v in ACTION_FIELDS.get(kind, {}).items()}
    data = QueryDict(mutable=True)
    data.update({"kind": kind, **fields})
    action = engine.action_from_dict({**parse_action(data), "player": seat})
    return APPLIED if engine.is_legal(engine.from_dict(game.state), action) else REFUSED_MOVE


@pytest.mark.parametrize(("kind", "persona", "expect"), ACTION_CELLS)
def test_action_authorization(world: World, kind: str, persona: str, expect: Expect) -> None:
    game = world.game("running")
    version, before = game.version, world.fingerprint()
    if expect is ENGINE:
        expect = _engine_answer(world, persona, game, kind)
    response = _act(world, persona, game, kind)
    _check(response, expect, game=game, before=before, after=world.fingerprint())
    _check_no_secret(world, response, f"{kind} as {persona}", persona)
    if expect is APPLIED:
        assert world.game("running").version > version


def _actor_of(game: Game, version: int) -> int:
    event = GameEvent.objects.get(game=game, seq=version, kind="action")
    return int(event.payload["player"])


FORGED = {"player": str(WAITING_SEAT), "seat": str(WAITING_SEAT), "actor": str(WAITING_SEAT)}


def test_a_forged_seat_in_the_post_is_ignored(world: World) -> None:
    game = world.game("running")
    version = game.version
    response = _act(world, "mover", game, engine.ROLL, **FORGED)
    assert response.status_code == 200
    assert _actor_of(game, version + 1) == MOVER_SEAT


def test_a_waiting_player_cannot_move_for_the_seat_to_move(world: World) -> None:
    game = world.game("running")
    version = game.version
    forged = {"player": str(MOVER_SEAT), "seat": str(MOVER_SEAT), "actor": str(MOVER_SEAT)}
    response = _act(world, "waiting", game, engine.ROLL, **forged)
    assert response.status_code == 422
    assert "It is not your turn." in response.content.decode()
    assert world.game("running").version == version


def test_an_outsider_naming_the_seat_to_move_is_refused(world: World) -> None:
    game = world.game("running")
    version = game.version
    forged = {"player": str(MOVER_SEAT), "seat": str(MOVER_SEAT), "user": username("mover")}
    response = _act(world, "stranger", game, engine.ROLL, **forged)
    assert response.status_code == 403
    assert world.game("running").version == version


# --- the admin ------------------------------------------------------------------------

OBJECT_VIEW = re.compile(r"<path:object_id>|<id>|<path:content_type_id>")


def _admin_urls() -> Iterator[tuple[str, str, bool]]:
    """(name, url, has an object) for every admin route: the ones without
    parameters as they are, an app index per app, the object views with an
    object id (the check comes before the object is looked up)."""
    labels = set()
    for pattern, route in site_routes().items():
        if not pattern.startswith(ADMIN_PREFIX) or not route.name:
            continue
        if route.name == "admin:app_list":
            continue
        if route.name.endswith("_changelist"):
            labels.add(reverse(route.name).split("/")[2])
        if OBJECT_VIEW.search(pattern):
            args = ["1", "1"] if route.name == "admin:view_on_site" else ["1"]
            yield route.name, reverse(route.name, args=args), True
        else:
            yield route.name, reverse(route.name), False
    for label in sorted(labels):
        yield f"admin:app_list:{label}", reverse("admin:app_list", args=[label]), False
    # The catch-all: unknown admin pages are also behind the login.
    yield "admin:catch_all", "/admin/no-such-page/", False


ADMIN_CELLS = [
    pytest.param(url, persona, cell, id=f"{name}-{persona}")
    for name, url, has_object in _admin_urls()
    for persona, cell in zip(ADMIN_PERSONAS, ADMIN_EXCEPTIONS.get(name, ADMIN), strict=True)
    # Staff would need an object of each model; the check comes first anyway.
    if not has_object or persona != "staff"
]


@pytest.mark.parametrize(("url", "persona", "expect"), ADMIN_CELLS)
def test_admin_authorization(world: World, url: str, persona: str, expect: Expect) -> None:
    before = world.fingerprint()
    response = world.client(persona).get(url)
    _check(response, expect, game=None, before=before, after=world.fingerprint())


def test_the_running_games_have_dice_secrets_to_guard(world: World) -> None:
    # Without them, the check that no answer reveals one would pass vacuously.
    # Two lobbies' secrets; two running games' secrets, dice keys and 3 seeds each;
    # the two tournaments' pairing seeds.
    assert len(world.running_secrets()) == 12 + 2


def test_the_running_games_have_terms_estimates_and_chat_to_guard(world: World) -> None:
    """Without them, the leak search would pass vacuously: the offer's
    parties see its terms on their page, a spectator reads the spectators'
    chat, and the estimate is stored (shown a round later)."""
    game = world.game("running")
    for persona in TRADE_PARTIES:
        page = world.client(persona).get(game.get_absolute_url()).content.decode()
        assert "$1,357" in page, persona
        record = world.client(persona).get(f"{game.get_absolute_url()}record.json")
        assert '"give_cash": 1357' in record.content.decode(), persona
    page = world.client("spectator").get(game.get_absolute_url()).content.decode()
    assert SPECTATOR_LINE in page
    assert PositionEstimate.objects.filter(game=game, version=game.version).exists()


# --- the API's reads -------------------------------------------------------------------

API_PERSONAS = [p for p in PERSONAS if p != "anonymous"]  # no token: 401 everywhere
API_READS = [
    pattern.removeprefix(API_PREFIX)
    for pattern, route in site_routes().items()
    if pattern.startswith(API_PREFIX) and not re.search(r"<(?!game_id>|username>)", pattern)
]


@pytest.mark.parametrize("persona", API_PERSONAS)
@pytest.mark.parametrize("game_name", ["running", "private running"])
def test_no_api_read_shows_what_the_persona_may_not_see(
    world: World, persona: str, game_name: str
) -> None:
    """Every API route read with the persona's token (the stream's catch-up
    from the start): no dice secret, no pending terms but the parties', no
    current estimate, no spectators' chat to a seat's holder."""
    from api import tokens

    game = world.game(game_name)
    user = world.user(persona)
    assert user is not None
    _, token = tokens.issue(user, scopes=["read"])
    headers = {"Authorization": f"Bearer {token}"}
    for pattern in API_READS:
        path = pattern.replace("<game_id>", game.public_id).replace("<username>", user.username)
        url = f"/{API_PREFIX}{path}" + ("?since=0" if path.endswith("/stream") else "")
        response = Client().get(url, headers=headers)
        assert response.status_code < 500, f"GET {url} as {persona}: {response.status_code}"
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode(errors="replace")
        where = f"GET {url} as {persona}"
        assert not [s for s in world.running_secrets() if s in text], f"{where}: a dice secret"
        assert not leaks(persona, text), f"{where} reveals {leaks(persona, text)}"


# --- the API's tournament reads --------------------------------------------------------
# The API's routes answer tokens, not sessions: who may call them is walked in
# tests/api/test_tournaments.py (no token, read, play, bot). Here every API read
# of an event, as each persona, of an event running on the world's running game:
# no pairing seed (it would tell the seatings ahead), and nothing of the game.

EVENT_SEED = 6_021_774_318_905_551_239
API_TOURNAMENT_READS = [
    pattern.removeprefix(API_PREFIX)
    for pattern in site_routes()
    if pattern.startswith(f"{API_PREFIX}tournaments")
    and not re.search(r"<(?!tournament_id>|username>)", pattern)
]


@pytest.fixture(scope="module")
def running_event(world: World, django_db_blocker: Any) -> Iterator[Any]:
    """Round 1 of a Swiss under way: the host, mover and waiting player at
    the world's running game, the spectator with a bye."""
    from django.utils import timezone

    from tournaments.models import Entry, Result, Round, Table, Tournament

    with django_db_blocker.unblock():
        now = timezone.now()
        event = Tournament.objects.create(
            name="authz event",
            starts_at=now,
            started_at=now,
            seed=EVENT_SEED,
            status=Tournament.Status.RUNNING,
            current_round=1,
        )
        first = Round.objects.create(
            tournament=event, number=1, status=Round.Status.RUNNING, starts_at=now, started_at=now
        )
        table = Table.objects.create(round=first, number=1, game=world.game("running"))
        seats = {"host": HOST_SEAT, "mover": MOVER_SEAT, "waiting": WAITING_SEAT}
        for persona in ("host", "mover", "waiting", "spectator"):
            entry = Entry.objects.create(tournament=event, user=world.user(persona))
            if persona in seats:
                Result.objects.create(
                    round=first, entry=entry, table=table, seat_number=seats[persona]
                )
            else:
                Result.objects.create(round=first, entry=entry, kind=Result.Kind.BYE, points=1)
    yield event
    with django_db_blocker.unblock():
        event.delete()


@pytest.mark.parametrize("persona", API_PERSONAS)
def test_no_api_tournament_read_shows_the_seed_of_a_running_event(
    world: World, running_event: Any, persona: str
) -> None:
    from api import tokens

    assert len(API_TOURNAMENT_READS) >= 2  # the list and the event, at least
    user = world.user(persona)
    assert user is not None
    _, token = tokens.issue(user, scopes=["read"])
    headers = {"Authorization": f"Bearer {token}"}
    for pattern in API_TOURNAMENT_READS:
        path = pattern.replace("<tournament_id>", str(running_event.pk))
        url = f"/{API_PREFIX}{path.replace('<username>', user.username)}"
        response = Client().get(url, headers=headers)
        assert response.status_code < 500, f"GET {url} as {persona}: {response.status_code}"
        text = response.content.decode(errors="replace")
        where = f"GET {url} as {persona}"
        assert str(EVENT_SEED) not in text, f"{where}: the running event's seed"
        assert not [s for s in world.running_secrets() if s in text], f"{where}: a dice secret"
        assert not leaks(persona, text), f"{where} reveals {leaks(persona, text)}"
    shown = Client().get(f"/{API_PREFIX}tournaments/{running_event.pk}", headers=headers).json()
    assert shown["rounds"][0]["tables"][0]["game"] == world.game("running").public_id


# The API's answers for the world's events match their pages' rows: the
# members-only event exists to its club's member (the host) and staff alone.
EVENT_READS = {"open": (200,) * 6, "members only": (404, 404, 404, 404, 200, 200)}


@pytest.mark.parametrize("name", EVENT_READS)
def test_the_api_shows_each_event_to_whom_its_page_does(world: World, name: str) -> None:
    from api import tokens
    from tests.monopoly_site.authorization_world import TOURNAMENTS

    for persona, status in zip(API_PERSONAS, EVENT_READS[name], strict=True):
        user = world.user(persona)
        assert user is not None
        _, token = tokens.issue(user, scopes=["read"])
        api = Client(headers={"Authorization": f"Bearer {token}"})
        shown = api.get(f"/{API_PREFIX}tournaments/{TOURNAMENTS[name]}")
        assert shown.status_code == status, f"{name} as {persona}: {shown.status_code}"
        listed = [row["id"] for row in api.get(f"/{API_PREFIX}tournaments").json()["tournaments"]]
        assert (TOURNAMENTS[name] in listed) == (status == 200), f"{name} listed to {persona}"
