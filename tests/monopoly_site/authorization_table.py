"""The authorisation matrix: who gets what from every URL, WebSocket route
and engine action kind. ``test_authorization_matrix`` walks it cell by cell
and fails for any route or action kind that has no row here.

Each row's cells are in ``PERSONAS`` order:

    anonymous  nobody signed in
    stranger   signed in, no part in the game
    spectator  signed in, watching the (public) game, not seated
    waiting    seated in the game, not the one to move
    mover      seated, the player to move
    host       seated, hosts the game (not to move)
    staff      a superuser, not seated

``game`` picks the game that fills ``<public_id>``: a lobby game (host,
mover and waiting seated, plus a bot), a running one (mover to move; the
waiting player's seat is being played by a bot) or a finished one, each
public or private. A private game's rows are the same request without the
invite; ``invite=True`` sends it.

To add a route: copy the row of a route like it, set the pattern exactly as
the failing test prints it, and write each persona's cell. A POST that
succeeds says where it goes (``DONE``, ``TO_LOBBY`` or a ``redirect``);
one that is refused must change nothing, which the test checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games import action_kinds, engine

PERSONAS = ("anonymous", "stranger", "spectator", "waiting", "mover", "host", "staff")
SEATED = frozenset({"waiting", "mover", "host"})


@dataclass(frozen=True)
class Expect:
    """One cell: the status, and for a redirect where to and with what message."""

    label: str
    status: int | None = None  # None: any 2xx
    to: str = ""  # "login", "admin_login", "game" (this row's game page), or a path
    flash: str = ""  # "error": a refusal's message was queued; "none": no error was
    says: str = ""  # in the queued message (or the body when there is none)
    changes: bool = False  # True where the request may change a game

    def __repr__(self) -> str:
        return self.label


OK = Expect("200")
LOGIN = Expect("302 to the login page", 302, to="login")
ADMIN_LOGIN = Expect("302 to the admin login", 302, to="admin_login")
DENIED = Expect("403", 403)
MISSING = Expect("404", 404)
BAD_METHOD = Expect("405", 405)
ILLEGAL = Expect("422: the seat may act, the form or the engine refuses it", 422)
DONE = Expect("302 to the game page, no error", 302, to="game", flash="none", changes=True)
REFUSED = Expect("302 to the game page with an error, nothing changed", 302, "game", "error")
TO_LOBBY = Expect("302 to the lobby", 302, to="/lobby/", flash="none", changes=True)
SAVED = Expect("200, saved", changes=True)
UNUSABLE = Expect("400: nothing to use in the request, nothing changed", 400)


TO_PROFILE = Expect("302 to the profile, no error", 302, to="/u/authz-host/", flash="none")
YOURSELF = Expect(
    "302 to the profile with 'That is you.'",
    302,
    to="/u/authz-host/",
    flash="error",
    says="That is you.",
)


def redirect(path: str, *, changes: bool = False) -> Expect:
    return Expect(f"302 to {path}", 302, to=path, changes=changes)


TO_INBOX = Expect("302 to the inbox with an error", 302, to="/inbox/", flash="error")
MESSAGE_REFUSED = Expect(
    "302 back to the conversation with an error", 302, to="/inbox/authz-host/", flash="error"
)
MESSAGE_SENT = Expect(
    "302 back to the conversation, sent", 302, to="/inbox/authz-host/", flash="none"
)


def refused(says: str) -> Expect:
    """A refusal whose message shows how far the request got."""
    return Expect(f"302 to the game page with {says!r}", 302, "game", "error", says)


def everyone(cell: Expect) -> tuple[Expect, ...]:
    return (cell,) * len(PERSONAS)


def signed_in(cell: Expect) -> tuple[Expect, ...]:
    return (LOGIN,) + (cell,) * (len(PERSONAS) - 1)


def members_only(cell: Expect, outsiders: Expect = MISSING) -> tuple[Expect, ...]:
    """A private game: its seated players get ``cell``; everyone else the
    same answer as for a game that does not exist."""
    return tuple(cell if p in SEATED else outsiders for p in PERSONAS)


@dataclass(frozen=True)
class Row:
    pattern: str  # the resolver's pattern, prefixes joined, e.g. "games/<str:public_id>/act"
    method: str
    cells: tuple[Expect, ...]
    game: str = ""  # "", or "[private ]lobby|running|finished"
    invite: bool = False  # send the private game's invite token
    kwargs: dict[str, str] = field(default_factory=dict)  # other URL parameters
    data: dict[str, str] = field(default_factory=dict)  # "{version}": the game's version
    htmx: bool = False
    wrong_method: Expect | None = BAD_METHOD  # the other method, as the stranger
    # A route that only the newer releases within a dependency's range have
    # (make test-upgrade): checked where the site has it.
    optional: bool = False

    @property
    def variant(self) -> str:
        parts = [self.game.replace(" ", "_")] if self.game else []
        parts += ["invite"] if self.invite else []
        parts += list(self.kwargs.values())
        return "-".join(parts)


GET, POST = "GET", "POST"
G = "games/<str:public_id>/"
T = "tournaments/<int:tournament_id>/"
UNPROCESSABLE = Expect("422: the form is shown again, nothing created", 422)
TO_EVENT = Expect("302 to the event's page, no error", 302, to="/tournaments/880001/", flash="none")
EVENT_REFUSED = Expect(
    "302 to the event's page with an error", 302, to="/tournaments/880001/", flash="error"
)
EVENT_REFUSED_HOST = Expect(
    "302 to the event's page with an error", 302, to="/tournaments/880002/", flash="error"
)
EVENT_REFUSED_STAFF = EVENT_REFUSED_HOST
TO_CLUB_EVENT = Expect(
    "302 to the event's page, no error", 302, to="/tournaments/880002/", flash="none"
)

# The club of the world (authorization_world._club) and its answers.
C = "clubs/<slug:slug>/"
CLUB = {"slug": "authz-club"}
CLUB_PERSON = "people/<str:username>/<str:action>"
IN_CLUB = Expect("302 to the club page, no error", 302, to="/clubs/authz-club/", flash="none")
NOT_CLUB = Expect("302 to the club page with an error", 302, to="/clubs/authz-club/", flash="error")

# fmt: off
ROUTES: list[Row] = [
    # --- site pages ----------------------------------------------------------------
    Row("", GET, (OK,) + (redirect("/lobby/"),) * 6, wrong_method=redirect("/lobby/")),
    Row("healthz", GET, everyone(OK)),
    Row("status/", GET, everyone(OK)),
    Row("fair-dice/", GET, everyone(OK)),
    Row("fair-dice/verify", GET, everyone(OK)),
    Row("lobby/", GET, everyone(OK)),
    Row("lobby/create", POST, signed_in(redirect("/games/*", changes=True)),
        data={"preset": "us-2003", "max_seats": "4", "turn_seconds": "3600",
              "visibility": "public"}),
    Row("lobby/switches", GET, everyone(OK)),
    Row("watch/", GET, everyone(OK)),
    Row("watch/finished/", GET, everyone(OK)),
    Row("leaderboard/", GET, everyone(OK)),
    Row("leaderboard/ratings/", GET, everyone(OK)),
    Row("u/<str:username>/", GET, everyone(OK), kwargs={"username": "authz-host"},
        wrong_method=OK),
    # Reports (social): the form, and filing one; the host reporting themself is
    # refused with a message, back on the profile all the same.
    Row("u/<str:username>/report", GET, signed_in(OK), kwargs={"username": "authz-host"},
        wrong_method=redirect("/u/authz-host/")),
    Row("u/<str:username>/report", POST, signed_in(redirect("/u/authz-host/")),
        kwargs={"username": "authz-host"}, data={"reason": "other", "text": "authz"},
        wrong_method=OK),
    # The moderation queue: moderators only (people.moderate; staff is a
    # superuser). To anyone else signed in it does not exist.
    Row("mod/", GET, (LOGIN,) + (MISSING,) * 5 + (OK,)),
    Row("mod/cases/<int:case_id>/", GET, signed_in(MISSING), kwargs={"case_id": "999999"}),
    Row("mod/cases/<int:case_id>/claim", POST, signed_in(MISSING), kwargs={"case_id": "999999"}),
    Row("mod/cases/<int:case_id>/act", POST, signed_in(MISSING), kwargs={"case_id": "999999"},
        data={"kind": "warn", "reason": "authz"}),
    Row("mod/cases/<int:case_id>/release", POST, signed_in(MISSING), kwargs={"case_id": "999999"}),
    Row("mod/people/<str:username>/lift", POST, signed_in(MISSING),
        kwargs={"username": "nobody-here"}, data={"reason": "authz"}),
    # A post of the form with nothing ticked saves it (time zone: automatic).
    Row("settings/", GET, signed_in(OK), wrong_method=redirect("/settings/")),
    Row("settings/vacation", POST, signed_in(redirect("/settings/", changes=True)),
        data={"days": "3"}),
    # Unconfirmed, the switch to a bot account changes nothing (and seated
    # personas, in open games, could not switch anyway).
    Row("settings/bot-account", POST, signed_in(redirect("/settings/")),
        data={"bot_account": "on"}),
    # A token is shown on the page the post answers; revoking one that is not
    # yours changes nothing and says so on the settings page.
    Row("settings/api-tokens/new", POST, signed_in(OK), data={"scopes": "read"}),
    Row("settings/api-tokens/<int:token_id>/revoke", POST, signed_in(redirect("/settings/")),
        kwargs={"token_id": "999999"}),
    Row("notifications/", GET, signed_in(OK), wrong_method=OK),
    Row("notifications/read", POST, signed_in(redirect("/notifications/", changes=True))),
    # An empty body is no subscription (and Web Push is off without VAPID keys).
    Row("notifications/push/subscribe", POST, signed_in(UNUSABLE)),
    Row("notifications/push/unsubscribe", POST, signed_in(UNUSABLE)),
    Row("sw.js", GET, everyone(OK)),
    # Private messages: one's own inbox; a conversation with oneself is none.
    # The personas are new accounts that nobody follows, so only staff may
    # write (games/newcomers.py); the others are told why, nothing stored.
    Row("inbox/", GET, signed_in(OK)),
    Row("inbox/<str:username>/", GET, (LOGIN, OK, OK, OK, OK, TO_INBOX, OK),
        kwargs={"username": "authz-host"}, wrong_method=MESSAGE_REFUSED),
    Row("inbox/<str:username>/", POST,
        (LOGIN, *(MESSAGE_REFUSED,) * 4, TO_INBOX, MESSAGE_SENT),
        kwargs={"username": "authz-host"}, data={"text": "hello"}, wrong_method=None),

    # --- follow, bell, mute, block (social) -----------------------------------------
    # Each persona acts on the host's profile; each row is undone by the next,
    # so nobody is left following, muting or blocking the host.
    Row("u/<str:username>/follow", POST, (LOGIN, *(TO_PROFILE,) * 4, YOURSELF, TO_PROFILE),
        kwargs={"username": "authz-host"}),
    Row("u/<str:username>/bell", POST, (LOGIN, *(TO_PROFILE,) * 4, YOURSELF, TO_PROFILE),
        kwargs={"username": "authz-host"}, data={"on": "1"}),
    Row("u/<str:username>/unfollow", POST, signed_in(TO_PROFILE),
        kwargs={"username": "authz-host"}),
    Row("u/<str:username>/mute", POST, (LOGIN, *(TO_PROFILE,) * 4, YOURSELF, TO_PROFILE),
        kwargs={"username": "authz-host"}),
    Row("u/<str:username>/unmute", POST, signed_in(TO_PROFILE),
        kwargs={"username": "authz-host"}),
    Row("u/<str:username>/block", POST, (LOGIN, *(TO_PROFILE,) * 4, YOURSELF, TO_PROFILE),
        kwargs={"username": "authz-host"}),
    Row("u/<str:username>/unblock", POST, signed_in(TO_PROFILE),
        kwargs={"username": "authz-host"}),
    Row("u/<str:username>/follow", POST, signed_in(MISSING), kwargs={"username": "nobody-here"}),
    Row("friends/", GET, signed_in(OK)),
    # The lobby's panel: empty for anonymous visitors, not a login page.
    Row("friends/panel", GET, everyone(OK)),
    # A post of the defaults saves them (nobody's privacy changes).
    Row("settings/privacy", GET, signed_in(OK), wrong_method=Expect("422: nothing chosen", 422)),
    Row("settings/privacy", POST, signed_in(redirect("/settings/privacy")),
        data={"challenge_from": "everyone", "message_from": "everyone",
              "chat_from": "everyone"}),

    # --- invites and the game page -------------------------------------------------
    Row("join/<str:token>/", GET, everyone(redirect("/games/*")), game="lobby"),
    Row("join/<str:token>/", GET, everyone(redirect("/games/*")), game="private lobby"),
    Row("join/<str:token>/", GET, everyone(MISSING), kwargs={"token": "no-such-invite"}),
    Row(G, GET, everyone(OK), game="lobby", wrong_method=OK),
    Row(G, GET, members_only(OK), game="private lobby", wrong_method=MISSING),
    Row(G, GET, everyone(OK), game="private lobby", invite=True, wrong_method=OK),
    Row(G, GET, everyone(OK), game="running", wrong_method=OK),
    Row(G, GET, members_only(OK), game="private running", wrong_method=MISSING),
    # The current invite token lets its holder watch a private game, in its
    # lobby and once it runs (games/access.py); rotating it shuts them out.
    Row(G, GET, everyone(OK), game="private running", invite=True, wrong_method=None),
    Row(G, GET, everyone(OK), game="finished", wrong_method=OK),
    Row(G, GET, members_only(OK), game="private finished", wrong_method=MISSING),

    # --- the lobby of one game -----------------------------------------------------
    #                        anonymous  stranger  spectator  waiting   mover     host      staff
    Row(G + "join", POST,     (LOGIN,    DONE,     DONE,      REFUSED,  REFUSED,  REFUSED,  DONE),
        game="lobby"),
    Row(G + "join", POST,     (LOGIN,    MISSING,  MISSING,   REFUSED,  REFUSED,  REFUSED,  MISSING),
        game="private lobby"),
    Row(G + "join", POST,     (LOGIN,    DONE,     DONE,      REFUSED,  REFUSED,  REFUSED,  DONE),
        game="private lobby", invite=True),
    Row(G + "leave", POST,    (LOGIN,    REFUSED,  REFUSED,   TO_LOBBY, TO_LOBBY, TO_LOBBY, REFUSED),
        game="lobby"),
    Row(G + "leave", POST,    (LOGIN,    MISSING,  MISSING,   TO_LOBBY, TO_LOBBY, TO_LOBBY, MISSING),
        game="private lobby"),
    # A seated player takes the suggested standing orders of a days-long game.
    Row(G + "suggested-orders", POST,
        (LOGIN,    REFUSED,  REFUSED,   DONE,     DONE,     DONE,     REFUSED), game="lobby"),
    Row(G + "suggested-orders", POST,
        (LOGIN,    MISSING,  MISSING,   DONE,     DONE,     DONE,     MISSING),
        game="private lobby"),
    # A seated player changes their dice seed until the start.
    Row(G + "seed", POST,
        (LOGIN,    REFUSED,  REFUSED,   DONE,     DONE,     DONE,     REFUSED), game="lobby",
        data={"seed": "5e" * 32}),
    Row(G + "seed", POST,
        (LOGIN,    MISSING,  MISSING,   DONE,     DONE,     DONE,     MISSING),
        game="private lobby", data={"seed": "5e" * 32}),
    Row(G + "bots/add", POST, (LOGIN,    REFUSED,  REFUSED,   REFUSED,  REFUSED,  DONE,     REFUSED),
        game="lobby"),
    Row(G + "bots/add", POST, (LOGIN,    MISSING,  MISSING,   REFUSED,  REFUSED,  DONE,     MISSING),
        game="private lobby"),
    Row(G + "bots/remove", POST, (LOGIN, REFUSED,  REFUSED,   REFUSED,  REFUSED,  DONE,     REFUSED),
        game="lobby", data={"seat": "3"}),
    Row(G + "bots/remove", POST, (LOGIN, MISSING,  MISSING,   REFUSED,  REFUSED,  DONE,     MISSING),
        game="private lobby", data={"seat": "3"}),
    # Only the host challenges someone to the lobby's empty seat.
    Row(G + "challenge", POST, (LOGIN,   REFUSED,  REFUSED,   REFUSED,  REFUSED,  DONE,     REFUSED),
        game="lobby", data={"username": "authz-stranger"}),
    Row(G + "challenge", POST, (LOGIN,   MISSING,  MISSING,   REFUSED,  REFUSED,  DONE,     MISSING),
        game="private lobby", data={"username": "authz-stranger"}),
    # A challenge's page and answers are its two sides' only: to anyone
    # else, as to everyone for an unknown one, it does not exist.
    Row("challenges/<str:challenge_id>/", GET, signed_in(MISSING),
        kwargs={"challenge_id": "nochallenge"}),
    Row("challenges/<str:challenge_id>/<str:answer>", POST, signed_in(MISSING),
        kwargs={"challenge_id": "nochallenge", "answer": "accept"}),
    Row(G + "start", POST,    (LOGIN,    REFUSED,  REFUSED,   REFUSED,  REFUSED,  DONE,     REFUSED),
        game="lobby"),
    Row(G + "start", POST,    (LOGIN,    MISSING,  MISSING,   REFUSED,  REFUSED,  DONE,     MISSING),
        game="private lobby"),

    # Only the host replaces the invite link; the other players are told no.
    #                        anonymous  stranger  spectator  waiting   mover     host      staff
    Row(G + "invite/rotate", POST, (LOGIN, DENIED, DENIED,   DENIED,   DENIED,   OK,       DENIED),
        game="lobby", htmx=True),
    Row(G + "invite/rotate", POST, (LOGIN, MISSING, MISSING, DENIED,   DENIED,   OK,       MISSING),
        game="private lobby", htmx=True),
    Row(G + "invite/rotate", POST, (LOGIN, DENIED, DENIED,   DENIED,   DENIED,   OK,       DENIED),
        game="private running", invite=True, htmx=True),

    # --- a running game ------------------------------------------------------------
    # Plain (not htmx) posts; the per-kind, htmx table of /act is ACTIONS below.
    Row(G + "act", POST,      (REFUSED,  REFUSED,  REFUSED,   REFUSED,  DONE,     REFUSED,  REFUSED),
        game="running", data={"kind": engine.ROLL, "expected_version": "{version}"}),
    Row(G + "act", POST,      (MISSING,  MISSING,  MISSING,   REFUSED,  DONE,     REFUSED,  MISSING),
        game="private running", data={"kind": engine.ROLL, "expected_version": "{version}"}),
    Row(G + "resign", POST,   (REFUSED,  REFUSED,  REFUSED,   DONE,     DONE,     DONE,     REFUSED),
        game="running", data={"expected_version": "{version}"}),
    Row(G + "resign", POST,   (MISSING,  MISSING,  MISSING,   DONE,     DONE,     DONE,     MISSING),
        game="private running", data={"expected_version": "{version}"}),
    Row(G + "regions", GET, everyone(OK), game="running"),
    Row(G + "regions", GET, members_only(OK), game="private running"),
    # A square's card: the same for every viewer of the game.
    Row(G + "square/<int:sq>", GET, everyone(OK), game="running", kwargs={"sq": "39"}),
    Row(G + "square/<int:sq>", GET, members_only(OK), game="private running", kwargs={"sq": "39"}),
    # Only the waiting player's seat is being played by a bot, so only they
    # can take it back; the others get as far as the seat check.
    Row(G + "reclaim", POST,  (LOGIN,    REFUSED,  REFUSED,   DONE,     REFUSED,  REFUSED,  REFUSED),
        game="running"),
    Row(G + "reclaim", POST,  (LOGIN,    MISSING,  MISSING,   DONE,     REFUSED,  REFUSED,  MISSING),
        game="private running"),
    Row(G + "orders", POST,   (LOGIN,    DENIED,   DENIED,    SAVED,    SAVED,    SAVED,    DENIED),
        game="running", htmx=True, data={"auction": "pass"}),
    Row(G + "orders", POST,   (LOGIN,    MISSING,  MISSING,   SAVED,    SAVED,    SAVED,    MISSING),
        game="private running", htmx=True, data={"auction": "pass"}),
    # Players talk in their room; spectators in theirs, which players read
    # only once the game is over.
    Row(G + "chat/<str:room>", POST, (LOGIN, DENIED, DENIED,  SAVED,    SAVED,    SAVED,    DENIED),
        game="running", htmx=True, kwargs={"room": "players"}, data={"body": "hello"}),
    Row(G + "chat/<str:room>", POST, (LOGIN, SAVED, SAVED,    DENIED,   DENIED,   DENIED,   SAVED),
        game="running", htmx=True, kwargs={"room": "spectators"}, data={"body": "hello"}),
    Row(G + "chat/<str:room>", POST, (LOGIN, MISSING, MISSING, SAVED,   SAVED,    SAVED,    MISSING),
        game="private running", htmx=True, kwargs={"room": "players"}, data={"body": "hello"}),

    # The win probabilities (issue #20): never to a seat's holder while the
    # game runs (engine help); to everyone once it is over.
    #                        anonymous  stranger  spectator  waiting   mover     host      staff
    Row(G + "analysis.json", GET, (OK, OK,     OK,        DENIED,   DENIED,   DENIED,   OK),
        game="running"),
    Row(G + "analysis.json", GET, (MISSING, MISSING, MISSING, DENIED, DENIED,  DENIED,   MISSING),
        game="private running"),
    Row(G + "analysis.json", GET, (OK, OK,     OK,        DENIED,   DENIED,   DENIED,   OK),
        game="private running", invite=True),
    Row(G + "analysis.json", GET, everyone(MISSING), game="lobby"),
    Row(G + "analysis.json", GET, everyone(OK), game="finished"),
    Row(G + "analysis.json", GET, members_only(OK), game="private finished"),

    # A running game's replay and record: its moves so far, nothing of its
    # future, and a pending offer's terms to its two parties only.
    Row(G + "replay/", GET, everyone(OK), game="running"),
    Row(G + "replay/", GET, members_only(OK), game="private running"),
    Row(G + "record.json", GET, everyone(OK), game="running"),
    Row(G + "record.json", GET, members_only(OK), game="private running"),
    Row(G + "record.json", GET, everyone(OK), game="private running", invite=True),

    # --- a finished game -----------------------------------------------------------
    Row(G + "replay/", GET, everyone(OK), game="finished"),
    Row(G + "replay/", GET, members_only(OK), game="private finished"),
    Row(G + "record.json", GET, everyone(OK), game="finished"),
    Row(G + "record.json", GET, members_only(OK), game="private finished"),

    # --- accounts (django-allauth) -------------------------------------------------
    # Signing in, signing up and resetting a password are for everyone; the
    # pages about one's own account need a session.
    Row("accounts/login/", GET, (OK,) + (redirect("/lobby/"),) * 6,
        wrong_method=redirect("/lobby/")),
    Row("accounts/logout/", GET, (redirect("/"),) + (OK,) * 6, wrong_method=redirect("/")),
    Row("accounts/inactive/", GET, everyone(OK)),
    Row("accounts/signup/", GET, (OK,) + (redirect("/lobby/"),) * 6,
        wrong_method=redirect("/lobby/")),
    Row("accounts/reauthenticate/", GET, signed_in(OK), wrong_method=OK),
    # Everyone here has a password: reauthenticating by code sends them to it.
    Row("accounts/reauthenticate/code/", GET, signed_in(redirect("/accounts/reauthenticate/")),
        wrong_method=redirect("/accounts/reauthenticate/"), optional=True),
    Row("accounts/reauthenticate/code/confirm/", GET,
        signed_in(redirect("/accounts/reauthenticate/code/")),
        wrong_method=redirect("/accounts/reauthenticate/code/"), optional=True),
    # Posting nothing to one's e-mail page changes nothing and comes back to it.
    Row("accounts/email/", GET, signed_in(OK), wrong_method=redirect("/accounts/email/")),
    Row("accounts/confirm-email/", GET, everyone(OK)),
    Row("accounts/password/change/", GET, signed_in(OK), wrong_method=OK),
    # Everyone here has a password already: setting one means changing it.
    Row("accounts/password/set/", GET, signed_in(redirect("/accounts/password/change/")),
        wrong_method=redirect("/accounts/password/change/")),
    Row("accounts/password/reset/", GET, everyone(OK), wrong_method=OK),
    # Without a sign-in by code under way there is nothing to confirm.
    Row("accounts/login/code/confirm/", GET,
        (redirect("/accounts/login/"),) + (redirect("/lobby/"),) * 6,
        wrong_method=redirect("/lobby/")),
    Row("accounts/^confirm-email/(?P<key>[-:\\w]+)/$", GET, everyone(OK),
        kwargs={"key": "no-such-key"}, wrong_method=MISSING),
    Row("accounts/password/reset/key/done/", GET, everyone(OK)),
    Row("accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$", GET,
        everyone(OK), kwargs={"uidb36": "0", "key": "no-such-key"}, wrong_method=OK),
    Row("accounts/password/reset/done/", GET, everyone(OK)),

    # --- tournaments (issue #33; the events are authorization_world.TOURNAMENTS) ----------
    # A club's members-only event (the host is its club's only member) does not
    # exist to anyone else but staff. Joining the open event works for anyone
    # signed in; withdrawing from one not joined is refused, nothing changed.
    Row("tournaments/", GET, everyone(OK), wrong_method=BAD_METHOD),
    Row("tournaments/new", GET, signed_in(OK), wrong_method=UNPROCESSABLE),
    Row("tournaments/new", POST, signed_in(UNPROCESSABLE), data={"name": ""}),
    Row(T, GET, everyone(OK), kwargs={"tournament_id": "880001"}),
    Row(T, GET, (MISSING,) * 5 + (OK, OK), kwargs={"tournament_id": "880002"}),
    Row(T, GET, everyone(MISSING), kwargs={"tournament_id": "999999"}),
    Row(T + "join", POST, signed_in(TO_EVENT), kwargs={"tournament_id": "880001"}),
    Row(T + "join", POST, (LOGIN,) + (MISSING,) * 4 + (TO_CLUB_EVENT, EVENT_REFUSED_STAFF),
        kwargs={"tournament_id": "880002"}),
    Row(T + "withdraw", POST, signed_in(EVENT_REFUSED), kwargs={"tournament_id": "880001"}),
    Row(T + "withdraw", POST, (LOGIN,) + (MISSING,) * 4 + (EVENT_REFUSED_HOST, EVENT_REFUSED_STAFF),
        kwargs={"tournament_id": "880002"}),
    # --- clubs (clubs/) ----------------------------------------------------------------
    # The world's club is open; the host leads it, the mover and the waiting
    # player are members. A refusal comes back to the club page with why.
    #                        anonymous  stranger  spectator  waiting   mover     host      staff
    Row("clubs/", GET, everyone(OK)),
    Row("clubs/new", POST, signed_in(redirect("/clubs/*")), data={"name": "Authz New Club"}),
    Row(C, GET, everyone(OK), kwargs=CLUB),
    Row(C + "join", POST,      (LOGIN,    IN_CLUB,  IN_CLUB,   NOT_CLUB, NOT_CLUB, NOT_CLUB, IN_CLUB),
        kwargs=CLUB),
    # The host is the only leader: they cannot leave.
    Row(C + "leave", POST,     (LOGIN,    NOT_CLUB, NOT_CLUB,  IN_CLUB,  IN_CLUB,  NOT_CLUB, NOT_CLUB),
        kwargs=CLUB),
    Row(C + "invitation", POST, signed_in(NOT_CLUB), kwargs=CLUB, data={"accept": "1"}),
    Row(C + "edit", POST,      (LOGIN,    NOT_CLUB, NOT_CLUB,  NOT_CLUB, NOT_CLUB, IN_CLUB,  NOT_CLUB),
        kwargs=CLUB, data={"description": "authz", "policy": "open"}),
    Row(C + "invite", POST,    (LOGIN,    NOT_CLUB, NOT_CLUB,  NOT_CLUB, NOT_CLUB, IN_CLUB,  NOT_CLUB),
        kwargs=CLUB, data={"username": "authz-stranger"}),
    Row(C + CLUB_PERSON, POST, (LOGIN,    NOT_CLUB, NOT_CLUB,  NOT_CLUB, NOT_CLUB, IN_CLUB,  NOT_CLUB),
        kwargs={**CLUB, "username": "authz-mover", "action": "promote"}),
    Row(C + CLUB_PERSON, POST, (LOGIN,    NOT_CLUB, NOT_CLUB,  NOT_CLUB, NOT_CLUB, IN_CLUB,  NOT_CLUB),
        kwargs={**CLUB, "username": "authz-waiting", "action": "ban"}),
    Row(C + CLUB_PERSON, POST, (LOGIN,    NOT_CLUB, NOT_CLUB,  NOT_CLUB, NOT_CLUB, IN_CLUB,  NOT_CLUB),
        kwargs={**CLUB, "username": "authz-waiting", "action": "mute"}, data={"minutes": "60"}),
    Row(C + CLUB_PERSON, POST, signed_in(MISSING),
        kwargs={**CLUB, "username": "authz-waiting", "action": "no-such-action"}),
    # Members write in the club's chat; a line that does not exist is neither
    # deleted (leaders) nor reported (members), and to others it is not theirs to.
    Row(C + "chat", POST,      (LOGIN,    NOT_CLUB, NOT_CLUB,  IN_CLUB,  IN_CLUB,  IN_CLUB,  NOT_CLUB),
        kwargs=CLUB, data={"text": "hello"}),
    Row(C + "chat/<int:line_id>/delete", POST, signed_in(NOT_CLUB),
        kwargs={**CLUB, "line_id": "999999"}),
    Row(C + "chat/<int:line_id>/report", POST, signed_in(NOT_CLUB),
        kwargs={**CLUB, "line_id": "999999"}, data={"reason": "abuse"}),
]
# fmt: on

# --- the admin (django.contrib.admin) ---------------------------------------------
# Every admin view but the login page goes through ``AdminSite.admin_view``,
# which sends anyone who is not active staff to the admin login before the
# view runs, and looks at nothing else about them: the seated personas are
# strangers to it. So the rule is by prefix, and the test requests every
# admin URL without parameters (each model's changelist and add page, every
# app index, an unknown page) as these three, and the views of one object as
# the two kept out.
ADMIN_PREFIX = "admin/"
# The API authenticates bearer tokens, not sessions: its own matrix (no token,
# scopes, private games, spectators) is tests/api/test_authorization.py.
API_PREFIX = "api/v1/"
ADMIN_PERSONAS = ("anonymous", "stranger", "staff")
ADMIN = (ADMIN_LOGIN, ADMIN_LOGIN, OK)
ADMIN_EXCEPTIONS: dict[str, tuple[Expect, ...]] = {
    # Signed-in non-staff see the login form, with a note that they may not enter.
    "admin:login": (OK, OK, redirect("/admin/")),
    # Signing out is a POST; the non-staff are sent to the index (and from there to the login).
    "admin:logout": (redirect("/admin/"), redirect("/admin/"), BAD_METHOD),
    # Without a model field to complete, autocomplete refuses even staff.
    "admin:autocomplete": (ADMIN_LOGIN, ADMIN_LOGIN, DENIED),
    # Only the write path adds games, seats, deadlines, events, ratings and
    # chat messages: nobody adds one by hand (games/admin.py).
    "admin:games_gameevent_add": (ADMIN_LOGIN, ADMIN_LOGIN, DENIED),
    "admin:games_game_add": (ADMIN_LOGIN, ADMIN_LOGIN, DENIED),
    "admin:games_seat_add": (ADMIN_LOGIN, ADMIN_LOGIN, DENIED),
    "admin:games_deadline_add": (ADMIN_LOGIN, ADMIN_LOGIN, DENIED),
    "admin:ratings_playerrating_add": (ADMIN_LOGIN, ADMIN_LOGIN, DENIED),
    "admin:live_chatmessage_add": (ADMIN_LOGIN, ADMIN_LOGIN, DENIED),
    "admin:catch_all": (ADMIN_LOGIN, ADMIN_LOGIN, MISSING),
}

# --- WebSockets (monopoly_site/routing.py) ----------------------------------------
PLAYS = Expect("accepted, with the seat's own action panel")
MOVES = Expect("accepted, with the seat's own action panel, offering its roll")
WATCHES = Expect("accepted, without any seat-private content")
LISTENS = Expect("accepted")
CLOSED = Expect("refused at the handshake (403)", 403)


@dataclass(frozen=True)
class Socket:
    pattern: str  # as in websocket_urlpatterns, e.g. "ws/games/<str:public_id>/"
    cells: tuple[Expect, ...]
    game: str = ""
    kwargs: dict[str, str] = field(default_factory=dict)
    query: str = ""  # e.g. "glance=1": it must not change who the viewer is

    @property
    def variant(self) -> str:
        return "-".join(
            [self.game.replace(" ", "_")] * bool(self.game)
            + list(self.kwargs.values())
            + [self.query.replace("=", "")] * bool(self.query)
        )


WS_GAME = "ws/games/<str:public_id>/"
WS_WAITING = "ws/games/<str:public_id>/waiting/"
WS_ROOMS = "^ws/(?P<room>lobby|watch)/$"
WS_INBOX = "ws/inbox/"
WS_CONVERSATION = "ws/inbox/<str:username>/"
WS_TOURNAMENT = "ws/tournaments/<int:tournament_id>/"
STANDINGS = Expect("accepted, with the standings snapshot")

# fmt: off
SOCKETS: list[Socket] = [
    #                       anonymous  stranger  spectator  waiting  mover   host    staff
    Socket(WS_GAME,         (WATCHES,  WATCHES,  WATCHES,   PLAYS,   MOVES,  PLAYS,  WATCHES),
           game="running"),
    Socket(WS_GAME,         (CLOSED,   CLOSED,   CLOSED,    PLAYS,   MOVES,  PLAYS,  CLOSED),
           game="private running"),
    # The home page's small boards: the query string picks no audience, so
    # a seat's holder is still a player (no spectators' chat, no win bar).
    Socket(WS_GAME,         (WATCHES,  WATCHES,  WATCHES,   PLAYS,   MOVES,  PLAYS,  WATCHES),
           game="running", query="glance=1"),
    Socket(WS_WAITING, everyone(LISTENS), game="lobby"),
    Socket(WS_WAITING, members_only(LISTENS, CLOSED), game="private lobby"),
    Socket(WS_ROOMS, everyone(LISTENS), kwargs={"room": "lobby"}),
    Socket(WS_ROOMS, everyone(LISTENS), kwargs={"room": "watch"}),
    # One's own inbox and conversations only (never with oneself).
    Socket(WS_INBOX, (CLOSED,) + (LISTENS,) * 6),
    Socket(WS_CONVERSATION, (CLOSED, LISTENS, LISTENS, LISTENS, LISTENS, CLOSED, LISTENS),
           kwargs={"username": "authz-host"}),
    # An event's standings: as its page, a club's members-only one to its members (and staff).
    Socket(WS_TOURNAMENT, everyone(STANDINGS), kwargs={"tournament_id": "880001"}),
    Socket(WS_TOURNAMENT, (CLOSED,) * 5 + (STANDINGS, STANDINGS),
           kwargs={"tournament_id": "880002"}),
    Socket(WS_TOURNAMENT, everyone(CLOSED), kwargs={"tournament_id": "999999"}),
    # A club's chat: its members only (the world's club: host, mover, waiting).
    Socket("ws/clubs/<str:slug>/chat", members_only(LISTENS, CLOSED), kwargs=CLUB),
]
# fmt: on

# --- actions posted to games/<id>/act (htmx), in the running game -------------------
# The seat acting is always the signed-in user's own (services.check_action
# overwrites any "player" posted). Nobody without a seat gets past the seat
# check (403); a seat gets as far as the engine, which refuses what is not
# legal for it now (422). What matters is that the outsiders' cells stay
# 403 and change nothing, and that a seat's post gets exactly the engine's
# answer.
APPLIED = Expect("200, applied", changes=True)
NOT_ALLOWED = Expect("403: only players in this game can act", 403, says="Only players")
REFUSED_MOVE = Expect("422: the engine refuses this seat's move", 422)
NOT_FOR_FORMS = Expect("422: not an action a form may post", 422, says="not an action you can")

OUTSIDERS = (NOT_ALLOWED,) * 3
N = NOT_ALLOWED

# Each kind's row comes from its registry entry (games/action_kinds.py): a
# kind a player posts gets as far as the engine for every seat, which
# applies it if it is legal for that seat in the world's running game and
# refuses it otherwise (ENGINE: the test asks the engine which); a kind of
# the server's or of its own page is refused as no form's.
ENGINE = Expect("the engine's answer: 200 applied if legal for this seat, else 422")
SEATS = ("waiting", "mover", "host")


def _row(entry: action_kinds.ActionKind) -> tuple[Expect, ...]:
    seats = ENGINE if entry.posted else NOT_FOR_FORMS
    return (*OUTSIDERS, *(seats for _ in SEATS), N)


#                 anonymous, stranger, spectator, waiting, mover, host, staff
ACTIONS: dict[str, tuple[Expect, ...]] = {
    kind: _row(entry) for kind, entry in action_kinds.KINDS.items()
}

# The fields each kind's form posts besides kind and version: the registry's
# examples, but a trade names the host's seat and offers 1 in cash.
ACTION_FIELDS: dict[str, dict[str, str]] = {
    kind: {p.name: p.example for p in entry.params if p.name != engine.TERMS}
    for kind, entry in action_kinds.KINDS.items()
}
ACTION_FIELDS[engine.PROPOSE_TRADE] = {"target": "{host_seat}", "give_cash": "1"}
ACTION_FIELDS[engine.COUNTER_TRADE] = {"target": "0", "give_cash": "1"}
