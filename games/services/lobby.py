"""Creating, joining and starting games."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games import access, engine
from games.bot_accounts import is_bot_account, seating_refusal
from games.estimates import MAX_DELAY_MOVES
from games.models import (
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Game,
    GameEvent,
    Seat,
    new_invite_token,
    new_secret,
)
from games.services import seating
from games.services.clocks import sync_deadlines
from games.services.errors import InvalidRequest, NotAllowed, StateConflict, TooManyGames
from games.services.locking import lock_game
from games.services.play import answer_instant_bots, set_auto_move
from games.services.subscribers import announce
from games.services.write import Committed, Write, game_transaction, lock
from games.standing_orders import with_suggested
from games.switches import SITE_ONLY

BOT_KINDS = {Seat.BotKind.RANDOM, Seat.BotKind.HEURISTIC}


def check_ruleset(preset: str, switches: dict[str, Any]) -> engine.Ruleset:
    try:
        return engine.ruleset(preset, **switches)
    except engine.EngineError as exc:
        raise InvalidRequest(str(exc)) from None


def open_games_cap(user: Any) -> int:
    """How many lobby or active games one person may be in at once: the
    base, plus one for every ``OPEN_GAMES_BONUS_EVERY`` games they have
    played to the end, up to ``OPEN_GAMES_CAP_MAX``. Finishing games earns
    room; opening many and abandoning them does not."""
    base, every = settings.OPEN_GAMES_CAP, settings.OPEN_GAMES_BONUS_EVERY
    if every < 1:
        return base
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).count()
    return max(base, min(settings.OPEN_GAMES_CAP_MAX, base + finished // every))


def lock_user(user: Any) -> None:
    """Lock the user's row, so that two of their requests at once cannot
    both take the last place under their cap. Users are locked before
    games, the order ``start_vacation`` takes them in. The lock is FOR NO
    KEY UPDATE: a row referring to the user (a notice, made under a game's
    lock) must not wait for it, or the two would deadlock."""
    users = get_user_model().objects.select_for_update(no_key=True)
    fresh = users.filter(pk=user.pk).only("pk", "bot_account").first()
    if fresh is not None:
        # Whether they are a bot account, as of the lock: the switch takes
        # the same lock (accounts.bot).
        user.bot_account = fresh.bot_account


def check_open_games(user: Any) -> None:
    """Refuse one more game to someone at their cap (call after ``lock_user``)."""
    open_now = (
        Game.objects.filter(status__in=[Game.Status.LOBBY, Game.Status.ACTIVE])
        .filter(Q(host=user) | Q(seats__user=user))
        .distinct()
        .count()
    )
    if is_bot_account(user):
        if open_now >= settings.API_BOT_MAX_GAMES:
            raise TooManyGames(
                f"This bot account is in {open_now} games that are open or under way, its "
                f"limit (API_BOT_MAX_GAMES = {settings.API_BOT_MAX_GAMES}). Finish or leave "
                "one first."
            )
        return
    cap = open_games_cap(user)
    if open_now >= cap:
        every, most = settings.OPEN_GAMES_BONUS_EVERY, settings.OPEN_GAMES_CAP_MAX
        raise NotAllowed(
            f"You are in {open_now} games that are open or under way, which is your limit. "
            f"Finish or leave one first (every {every} games you finish raise the limit "
            f"by one, up to {most})."
        )


def create_game(
    *,
    host: Any,
    preset: str = "us-2003",
    switches: dict[str, Any] | None = None,
    max_seats: int = 4,
    turn_seconds: int = 24 * 3600,
    is_public: bool = True,
    auto_start: bool = False,
    rated_with_bots: bool = False,
    allow_bot_accounts: bool = False,
    bot_delay_ms: int = 1000,
    analysis_delay_moves: int = 0,
    seat_host: bool = True,
    timers: dict[str, int] | None = None,
    capped: bool = True,
    seed: str | None = None,
) -> Game:
    """``timers``: any of ``TIMER_FIELDS`` (time bank, windows, take-over).
    ``capped=False`` skips the host's open-games cap (tooling only).
    ``seed``: the seated host's dice seed (``check_seed``)."""
    seed = check_seed(seed)
    timers = check_timers(timers or {})
    switches = dict(switches or {})
    if not SITE_ONLY.isdisjoint(switches):
        raise InvalidRequest(
            "The turn limit is not a house rule: the site sets it for games without people."
        )
    rules = check_ruleset(preset, switches)
    if not rules.min_players <= max_seats <= rules.max_players:
        raise InvalidRequest(
            f"This ruleset seats {rules.min_players} to {rules.max_players} players."
        )
    if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise InvalidRequest("The turn timer must be between 1 minute and 3 days.")
    if not 0 <= analysis_delay_moves <= MAX_DELAY_MOVES:
        raise InvalidRequest(
            f"The spectators' win bar can be delayed by 0 to {MAX_DELAY_MOVES} moves."
        )
    if rated_with_bots and getattr(host, "rated_suspended", False):
        raise NotAllowed(seating.suspended_words())
    with game_transaction():
        if capped and host is not None:
            lock_user(host)
            check_open_games(host)
        game = Game.objects.create(
            host=host,
            preset=preset,
            switches=switches,
            max_seats=max_seats,
            turn_seconds=turn_seconds,
            is_public=is_public,
            auto_start=auto_start,
            rated_with_bots=rated_with_bots,
            allow_bot_accounts=allow_bot_accounts,
            bot_delay_ms=bot_delay_ms,
            analysis_delay_moves=analysis_delay_moves,
            **timers,
        )
        if seat_host and host is not None:
            Seat.objects.create(game=game, number=0, user=host, seed=seed)
        announce(Committed(game, game.version))
    return game


TIMER_FIELDS = {
    # field: (lowest, highest)
    "time_bank_seconds": (0, 7 * 24 * 3600),
    "time_bank_increment_seconds": (0, 24 * 3600),
    "claim_window_seconds": (60, 3 * 24 * 3600),
    "bid_window_seconds": (30, 3 * 24 * 3600),
    "trade_expiry_seconds": (60, 7 * 24 * 3600),
    "takeover_after": (0, 20),
    "time_limit_seconds": (0, 30 * 24 * 3600),
}


def check_timers(timers: dict[str, int]) -> dict[str, int]:
    out = {}
    for name, value in timers.items():
        if name not in TIMER_FIELDS:
            raise InvalidRequest(f"Unknown timer setting {name!r}.")
        low, high = TIMER_FIELDS[name]
        if not isinstance(value, int) or not low <= value <= high:
            raise InvalidRequest(f"{name.replace('_', ' ')} must be from {low} to {high}.")
        out[name] = value
    return out


def _lobby_game(public_id: str) -> Game:
    game = lock_game(public_id=public_id)
    if game.status != Game.Status.LOBBY:
        raise StateConflict("This game has already started.")
    return game


def _next_number(game: Game) -> int:
    taken = set(game.seats.values_list("number", flat=True))
    if len(taken) >= game.max_seats:
        raise StateConflict("This game is full.")
    return min(set(range(game.max_seats)) - taken)


def check_seed(seed: str | None) -> str:
    """A player's dice seed as stored: lower-case hex of 16 to 64 bytes, or
    "" for none."""
    seed = (seed or "").strip().lower()
    if not seed:
        return ""
    try:
        engine.seed_bytes(seed)
    except ValueError as exc:
        raise InvalidRequest(f"This dice seed cannot be used: {exc}") from None
    return seed


def join_game(
    *,
    public_id: str,
    user: Any,
    invite_token: str | None = None,
    suggested_orders: bool = False,
    seed: str | None = None,
    confirm_blocked: bool = False,
) -> Seat:
    """``suggested_orders``: the seat starts with the standing orders the
    lobby suggests for a days-long game (``standing_orders.SUGGESTED``).
    ``seed``: the player's dice seed (``check_seed``), "" or None for none.
    ``confirm_blocked``: the joiner knows that someone they blocked sits here
    (else ``BlockedPlayerSeated``)."""
    if not getattr(user, "is_authenticated", False):
        raise NotAllowed("Log in to join a game.")
    seed = check_seed(seed)
    with game_transaction():
        lock_user(user)
        game = _lobby_game(public_id)
        if not game.is_public and not access.token_matches(invite_token, game):
            raise NotAllowed("This is a private game: you need its invite link.")
        if game.seats.filter(user=user).exists():
            raise StateConflict("You already have a seat in this game.")
        check_open_games(user)
        seats = list(game.seats.select_related("user"))
        seated = [seat.user for seat in seats if seat.user_id]
        refusal = seating_refusal(game, seated, user)
        if refusal:
            raise NotAllowed(refusal)
        seating.check_not_shut_out(game, user)
        seating.check_rated_standing(user, game, seats)
        seating.check_blocked_seated(user, seated, confirmed=confirm_blocked)
        try:
            with game_transaction():
                seat = Seat.objects.create(
                    game=game, number=_next_number(game), user=user,
                    standing_orders=with_suggested({}) if suggested_orders else {},
                    seed=seed,
                )  # fmt: skip
        except IntegrityError:
            raise StateConflict("You already have a seat in this game.") from None
        _seat_taken(game)
    return seat


def use_suggested_orders(*, public_id: str, user: Any) -> Seat:
    """Before the start: the player's seat takes the suggested standing
    orders in one click (their other orders are kept)."""
    with game_transaction():
        game = _lobby_game(public_id)
        seat = game.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            raise StateConflict("You have no seat in this game.")
        seat.standing_orders = with_suggested(seat.standing_orders)
        seat.save(update_fields=["standing_orders"])
    return seat


def set_seed(*, public_id: str, user: Any, seed: str | None) -> Seat:
    """Before the start: the player's seat takes a new dice seed ("" or None
    removes it). From the start the seeds are fixed: they make the key."""
    seed = check_seed(seed)
    with game_transaction():
        game = _lobby_game(public_id)
        seat = game.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            raise StateConflict("You have no seat in this game.")
        seat.seed = seed
        seat.save(update_fields=["seed"])
    return seat


def leave_game(*, public_id: str, user: Any) -> None:
    with game_transaction():
        game = _lobby_game(public_id)
        seat = game.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            raise StateConflict("You have no seat in this game.")
        seat.delete()
        if not game.seats.filter(user__isnull=False).exists():
            game.status = Game.Status.ABANDONED
            game.finished_at = timezone.now()
        elif game.host_id == user.pk:
            # The longest-seated human takes over hosting.
            game.host = game.seats.filter(user__isnull=False).order_by("number").first().user  # type: ignore[union-attr]
        game.save()
        announce(Committed(game, game.version))


def _seat_taken(game: Game) -> None:
    """After a seat fills: start if the game auto-starts and is full, else
    just tell the lobby."""
    if game.auto_start and game.seats.count() == game.max_seats:
        _start(Write(game))
    else:
        game.save(update_fields=["updated_at"])
        announce(Committed(game, game.version))


def _require_host(game: Game, user: Any) -> None:
    if not getattr(user, "is_authenticated", False) or game.host_id != user.pk:
        raise NotAllowed("Only the host can do that.")


def do_rotate_invite(*, public_id: str, user: Any) -> Game:
    """A new invite token for the game: the old link stops working at once,
    for joining and for watching a private game; sockets it let in close.
    Only the host, while the game is waiting or in play (afterwards no one
    can join, and a finished private game stays with its players)."""
    with game_transaction():
        game = lock_game(public_id=public_id)
        _require_host(game, user)
        if game.status not in (Game.Status.LOBBY, Game.Status.ACTIVE):
            raise StateConflict("This game is over; its invite link can no longer be changed.")
        game.invite_token = new_invite_token()
        game.save(update_fields=["invite_token", "updated_at"])
        pk = game.pk
        transaction.on_commit(lambda: access.close_invited_sockets(pk))
    return game


def add_bot(*, public_id: str, user: Any, kind: str = Seat.BotKind.HEURISTIC) -> Seat:
    if kind not in BOT_KINDS:
        raise InvalidRequest(f"Unknown bot kind {kind!r}.")
    with game_transaction():
        game = _lobby_game(public_id)
        _require_host(game, user)
        seat = Seat.objects.create(game=game, number=_next_number(game), bot_kind=kind)
        _seat_taken(game)
    return seat


def remove_bot(*, public_id: str, user: Any, seat_number: int) -> None:
    with game_transaction():
        game = _lobby_game(public_id)
        _require_host(game, user)
        deleted, _ = game.seats.filter(number=seat_number, user__isnull=True).delete()
        if not deleted:
            raise InvalidRequest("There is no bot in that seat.")
        game.save(update_fields=["updated_at"])
        announce(Committed(game, game.version))


def start_game(*, public_id: str, user: Any) -> Game:
    with game_transaction():
        # The seats and deadline rows come with the lock, as for a move.
        w = lock(public_id=public_id)
        if w.game.status != Game.Status.LOBBY:
            raise StateConflict("This game has already started.")
        _require_host(w.game, user)
        _start(w)
    return w.game


def _start(w: Write) -> None:
    """Start the locked lobby game. A write like a move's: the seats, the
    game row, the start's events and the deadline rows, in the write's
    transaction, and the record is announced for commit."""
    game, seats = w.game, w.seats
    game.switches = with_turn_limit(game.switches, seats)
    rules = check_ruleset(game.preset, game.switches)
    if len(seats) < max(2, rules.min_players):
        raise StateConflict("At least two players are needed to start.")
    seating.check_may_start_rated(game, seats)
    # Engine players are numbered 0..n-1; close the gaps left by departures.
    # Each renumbering is its own UPDATE, in order, so the unique constraint holds throughout.
    for index, seat in enumerate(seats):
        if seat.number != index:
            seat.number = 100 + index  # dodge the unique constraint while renumbering
            seat.save(update_fields=["number"])
    for index, seat in enumerate(seats):
        seat.number = index
        seat.status = Seat.Status.PLAYING
        seat.save(update_fields=["number", "status"])
    events: list[engine.Event] = []
    if not game.secret:  # created before secrets were drawn at creation
        game.secret = new_secret()
    game.seeds = start_seeds(seats)
    state = engine.new_game(rules, [seat.name for seat in seats], 0, events, secret=game.dice_key)
    game.state = engine.to_dict(state)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    game.version += 1
    set_auto_move(w, state)
    fields = [
        "secret",
        "seeds",
        "state",
        "status",
        "started_at",
        "version",
        "auto_move_at",
        "switches",
    ]
    # The start's rows and an opening instant bot's answers are written
    # together at the end (``Write.write_behind``).
    with w.write_behind():
        w.save_game([*fields, "updated_at"])
        # The start (with the commitment to the secret), then the engine's events.
        start = GameEvent(
            game=game, seq=game.version, index=0, kind="start",
            payload={"commitment": game.commitment},
        )  # fmt: skip
        rows = [start] + [
            GameEvent(game=game, seq=game.version, index=1 + i, kind=ev.kind, payload=ev.to_dict())
            for i, ev in enumerate(events)
        ]
        w.add_events(rows)
        # The deadline rows go out with the rest (``sync_deadlines`` sends them).
        sync_deadlines(w, state, actor=None)
        # A site bot that opens a game at the instant pace answers within its
        # start, as within a move: no task, and the start's answer holds the
        # first person's decision.
        state = answer_instant_bots(w, state)
    announce(w.committed(state))


def start_seeds(seats: list[Seat]) -> list[str | None] | None:
    """The seeds the dice key is made of, in seat order: each account's
    seed ("" if it gave none), None for a site bot's seat. None for a game
    of site bots only, which keeps the secret itself as its key."""
    if not any(seat.user_id for seat in seats):
        return None
    return [seat.seed if seat.user_id else None for seat in seats]


def with_turn_limit(switches: dict[str, Any], seats: list[Seat]) -> dict[str, Any]:
    """The game's switches at the start: with the site's turn limit
    (``BOT_GAME_TURN_LIMIT``), which ends the game by net worth once no
    person is left playing (site bots and bot accounts only), so that such a
    game cannot run for ever: at once in a game of bots, after the last
    person's bankruptcy or resignation in another (the seats of people,
    ``turn_limit_people``). Kept in the switches, so that everything that
    rebuilds the rules (the replay, the record) has it. A person still
    playing is never cut short."""
    switches = {k: v for k, v in switches.items() if k not in SITE_ONLY}
    people = sum(
        1 << number
        for number, seat in enumerate(seats)
        if seat.user is not None and not is_bot_account(seat.user)
    )
    if settings.BOT_GAME_TURN_LIMIT:
        switches["turn_limit"] = settings.BOT_GAME_TURN_LIMIT
        if people:
            switches["turn_limit_people"] = people
    return switches


def create_seated_game(
    *,
    humans: list[Any],
    bots: list[str],
    preset: str = "us-2003",
    switches: dict[str, Any] | None = None,
    is_public: bool = True,
    turn_seconds: int = 24 * 3600,
    bot_delay_ms: int = 1000,
    start: bool = False,
) -> Game:
    """A game with its seats already filled (demo games, tooling, tests)."""
    for kind in bots:
        if kind not in BOT_KINDS:
            raise InvalidRequest(f"Unknown bot kind {kind!r}.")
    with game_transaction():
        game = create_game(
            host=humans[0] if humans else None,
            preset=preset,
            switches=switches,
            max_seats=max(2, len(humans) + len(bots)),
            turn_seconds=turn_seconds,
            is_public=is_public,
            bot_delay_ms=bot_delay_ms,
            seat_host=False,
            capped=False,
        )
        for number, user in enumerate(humans):
            Seat.objects.create(game=game, number=number, user=user)
        for number, kind in enumerate(bots, start=len(humans)):
            Seat.objects.create(game=game, number=number, bot_kind=kind)
        if start:
            _start(lock(game.pk))
            game.refresh_from_db()
    return game


def create_table_game(
    *,
    humans: list[Any],
    preset: str = "us-2003",
    switches: dict[str, Any] | None = None,
    turn_seconds: int = 24 * 3600,
    rated: bool = True,
    is_public: bool = True,
    takeover_on_first_timeout: bool = True,
) -> Game:
    """A tournament table's game: ``humans`` seated in this order and the
    game started at once, in the caller's transaction. Nobody hosts it.
    ``rated=False`` keeps it unrated whoever sits in it;
    ``takeover_on_first_timeout`` hands a seat whose first decision times
    out to a bot (a no-show). People and bot accounts may share the table
    (they chose the event), rated then in the people's pool."""
    switches = dict(switches or {})
    rules = check_ruleset(preset, switches)
    if not max(2, rules.min_players) <= len(humans) <= rules.max_players:
        raise InvalidRequest(
            f"This ruleset seats {rules.min_players} to {rules.max_players} players."
        )
    if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise InvalidRequest("The turn timer must be between 1 minute and 3 days.")
    bot_accounts = sum(1 for user in humans if is_bot_account(user))
    with game_transaction():
        game = Game.objects.create(
            host=None,
            preset=preset,
            switches=switches,
            max_seats=len(humans),
            turn_seconds=turn_seconds,
            is_public=is_public,
            rated=rated,
            takeover_on_first_timeout=takeover_on_first_timeout,
            allow_bot_accounts=0 < bot_accounts < len(humans),
        )
        Seat.objects.bulk_create(
            [Seat(game=game, number=number, user=user) for number, user in enumerate(humans)]
        )
        _start(lock(game.pk))
        game.refresh_from_db()
    return game
