"""The people and games the authorisation matrix is walked against.

Built once per test module and committed (so that a real Daphne sees them
too), then removed. Each test runs in a transaction that is rolled back, so
a cell that changes a game leaves the next cell the same world.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from accounts.models import User
from clubs.models import Club, Membership
from games import engine, services
from games.models import Game, PositionEstimate, Seat
from live.chat import do_post_message
from live.models import ChatMessage
from tests.conftest import setup_writes
from tests.live.servers import session_cookie
from tests.monopoly_site.authorization_table import PERSONAS, SEATED
from tournaments.models import Tournament

# Seat numbers in every game of the world.
HOST_SEAT, MOVER_SEAT, WAITING_SEAT, BOT_SEAT = 0, 1, 2, 3
GAMES = tuple(f"{p}{s}" for p in ("", "private ") for s in ("lobby", "running", "finished"))

# What every running game holds that must not reach the wrong viewer, and
# how it would read if it did (``leaks``): the host's pending offer to the
# mover (its terms are theirs alone), a live win estimate of the current
# position (never current while people play), and, in the public one, a
# line in the spectators' chat (never for a seat's holder while it runs).
OFFERED_CASH = 1357
TRADE_PARTIES = frozenset({"host", "mover"})
TERMS_MARKERS = ("1,357", "$1357", '"give_cash": 1357', '"give_cash":1357')
ESTIMATE = [0.0313, 0.9374, 0.0313]
ESTIMATE_MARKERS = ("0.9374", "93.74", "authz-mover 94%")
SPECTATOR_LINE = "spectators-only-line-e7c1"


def username(persona: str) -> str:
    return f"authz-{persona}"


@dataclass
class World:
    users: dict[str, User]  # by persona; nobody for "anonymous"
    games: dict[str, Game]  # by name, as in GAMES
    cookies: dict[str, str] = field(default_factory=dict)  # session cookies, for Daphne

    def user(self, persona: str) -> User | None:
        return self.users.get(persona)

    def client(self, persona: str) -> Client:
        """A client signed in as ``persona``, with the session made once for the world."""
        client = Client()
        user = self.user(persona)
        if user is not None:
            if persona not in self.cookies:
                self.cookies[persona] = session_cookie(user)
            client.cookies[settings.SESSION_COOKIE_NAME] = self.cookies[persona]
        return client

    def game(self, name: str) -> Game:
        game = self.games[name]
        game.refresh_from_db()
        return game

    def private_ids(self) -> list[str]:
        return [g.public_id for name, g in self.games.items() if name.startswith("private")]

    def running_secrets(self) -> list[str]:
        """The dice secrets of the games waiting or running, and the dice
        keys made of them and the players' seeds: no answer to anyone,
        seated or not, may contain one (docs/fair-dice.md)."""
        games = Game.objects.filter(pk__in=[g.pk for g in self.games.values()])
        live = [g for g in games if g.secret and not g.has_ended]
        keys = [g.dice_key for g in live if g.dice_key != g.secret]
        # A running game's seeds (a lobby shows each player their own).
        seeds = [seed for g in live for seed in g.seeds or [] if seed]
        # A tournament's pairing seed, until it is over.
        events = Tournament.objects.filter(pk__in=TOURNAMENTS.values()).exclude(status="finished")
        return [g.secret for g in live] + keys + seeds + [str(t.seed) for t in events]

    def fingerprint(self) -> tuple[Any, ...]:
        """What a refused request must leave as it was."""
        pks = [g.pk for g in self.games.values()]
        games = Game.objects.filter(pk__in=pks).order_by("pk")
        seats = Seat.objects.filter(game__in=pks).order_by("game_id", "number")
        seat_fields = ("game_id", "number", "user_id", "bot_kind", "status", "taken_over", "seed")
        return (
            list(games.values_list("pk", "version", "status", "host_id", "is_public")),
            list(seats.values_list(*seat_fields, "standing_orders")),
            Game.objects.count(),
            ChatMessage.objects.count(),
        )

    def remove(self) -> None:
        people = list(self.users.values())
        with setup_writes("the world's games and people removed"):
            Game.objects.filter(
                Q(pk__in=[g.pk for g in self.games.values()])
                | Q(host__in=people)
                | Q(seats__user__in=people)
            ).distinct().delete()
            Tournament.objects.filter(pk__in=TOURNAMENTS.values()).delete()
            Club.objects.filter(pk=CLUB_PK).delete()
            User.objects.filter(pk__in=[u.pk for u in people]).delete()


def leaks(persona: str, text: str) -> list[str]:
    """What of a running game's secrets ``text`` shows that ``persona`` may not see."""
    found = []
    if persona not in TRADE_PARTIES:
        found += [f"pending trade terms ({m!r})" for m in TERMS_MARKERS if m in text]
    found += [f"a current win estimate ({m!r})" for m in ESTIMATE_MARKERS if m in text]
    if persona in SEATED and SPECTATOR_LINE in text:
        found.append("the spectators' chat")
    return found


def build_world() -> World:
    users = {}
    for persona in PERSONAS[1:]:
        name = username(persona)
        make = User.objects.create_superuser if persona == "staff" else User.objects.create_user
        users[persona] = make(name, f"{name}@example.com", f"pw-{name}-123")
    games = {}
    for private in (False, True):
        prefix = "private " if private else ""
        games[prefix + "lobby"] = _lobby(users, private)
        games[prefix + "running"] = running_game(users, private)
        games[prefix + "finished"] = _finished(users, private)
    _tournaments(users)
    return World(users, games, {p: session_cookie(user) for p, user in users.items()})


def _seated(users: dict[str, User], private: bool, max_seats: int) -> Game:
    game = services.create_game(
        host=users["host"],
        max_seats=max_seats,
        is_public=not private,
        bot_delay_ms=0,
    )
    services.set_seed(
        public_id=game.public_id, user=users["host"], seed=seed_of(users["host"], game)
    )
    for persona in ("mover", "waiting"):
        services.join_game(
            public_id=game.public_id,
            user=users[persona],
            invite_token=game.invite_token,
            seed=seed_of(users[persona], game),
        )
    return game


def seed_of(user: User, game: Game) -> str:
    """A player's dice seed in one game."""
    return hashlib.sha256(f"{user.username} {game.public_id}".encode()).hexdigest()


def _lobby(users: dict[str, User], private: bool) -> Game:
    """Host, mover and waiting seated, a bot in seat 3, and a seat free."""
    game = _seated(users, private, max_seats=5)
    services.add_bot(public_id=game.public_id, user=users["host"])
    return game


def running_game(users: dict[str, User], private: bool = False, taken_over: bool = True) -> Game:
    """Started, the mover to roll, and a bot playing the waiting player's seat."""
    game = _seated(users, private, max_seats=3)
    services.start_game(public_id=game.public_id, user=users["host"])
    game.refresh_from_db()
    # Test setup: the first player is drawn by the dice; script it.
    state = engine.from_dict(game.state)
    state = engine.setup(state, turn=MOVER_SEAT)
    game.state = engine.to_dict(state)
    with setup_writes("the mover to roll, the waiting seat taken over"):
        game.save(update_fields=["state"])
        if taken_over:
            game.seats.filter(number=WAITING_SEAT).update(taken_over=True)
    _secrets_to_keep(game, users)
    return game


def _secrets_to_keep(game: Game, users: dict[str, User]) -> None:
    """The offer, the estimate and the spectators' line ``leaks`` looks for."""
    offer = {"kind": engine.PROPOSE_TRADE, "target": MOVER_SEAT}
    offer["terms"] = {"give_cash": OFFERED_CASH}
    services.submit_action(
        public_id=game.public_id, user=users["host"], action=offer, expected_version=game.version
    )
    game.refresh_from_db()
    PositionEstimate.objects.create(
        game=game, version=game.version, playouts=1000, probabilities=ESTIMATE, stderr=[0.01] * 3
    )
    if game.is_public:
        do_post_message(
            game=game, seat=None, user=users["spectator"], room="spectators", body=SPECTATOR_LINE
        )


def _finished(users: dict[str, User], private: bool) -> Game:
    """The host and the waiting player resigned; the mover won."""
    game = _seated(users, private, max_seats=3)
    services.start_game(public_id=game.public_id, user=users["host"])
    for persona in ("host", "waiting"):
        game.refresh_from_db()
        services.resign(
            public_id=game.public_id, user=users[persona], expected_version=game.version
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


# --- tournaments (the rows name them by these fixed ids) -----------------------------
TOURNAMENTS = {"open": 880001, "members only": 880002}
CLUB_PK = 880001


def _tournaments(users: dict[str, User]) -> None:
    """A public event open for registration, and a club's members-only one
    whose club has the host as its only member."""
    club = Club.objects.create(
        pk=CLUB_PK, slug="authz-club", name="Authz club", name_key="authz club"
    )
    Membership.objects.create(club=club, user=users["host"], status=Membership.Status.MEMBER)
    for name, pk in TOURNAMENTS.items():
        Tournament.objects.create(
            pk=pk,
            name=f"Authz {name}",
            starts_at=timezone.now() + timedelta(days=1),
            seed=pk * 1_000_003,
            club=club if name == "members only" else None,
            members_only=name == "members only",
        )


# --- the resolver's routes ------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    name: str  # with its namespace, e.g. "admin:index"; "" when unnamed
    view: str  # module.function, for messages


def site_routes() -> dict[str, Route]:
    """Every URL pattern of the site by its full pattern string (includes'
    prefixes joined), e.g. ``games/<str:public_id>/act``."""
    out: dict[str, Route] = {}

    def walk(resolver: URLResolver, prefix: str, namespace: str) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = ":".join(filter(None, [namespace, entry.namespace or ""]))
                walk(entry, prefix + str(entry.pattern), inner)
            elif isinstance(entry, URLPattern):
                name = ":".join(filter(None, [namespace, entry.name or ""])) if entry.name else ""
                # The API's views are partials of ninja's router (no __qualname__).
                qualname = getattr(entry.callback, "__qualname__", type(entry.callback).__name__)
                view = f"{entry.callback.__module__}.{qualname}"
                out[prefix + str(entry.pattern)] = Route(name, view)

    walk(get_resolver(), "", "")
    return out
