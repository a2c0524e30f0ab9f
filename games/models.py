"""Games, seats and the append-only event log.

Only ``games.services`` writes these rows; views, tasks and consumers read.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from games import engine

PUBLIC_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no look-alikes (l/1, o/0, i)
DEFAULT_TURN_SECONDS = 24 * 3600
MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 3 * 24 * 3600


def new_public_id() -> str:
    return "".join(secrets.choice(PUBLIC_ID_ALPHABET) for _ in range(10))


INVITE_TOKEN_BYTES = 32  # 256 bits: never guessed, however many tries


def new_invite_token() -> str:
    return secrets.token_urlsafe(INVITE_TOKEN_BYTES)


def new_seed() -> int:
    return secrets.randbits(63)


def new_secret() -> str:
    """A game's dice secret: 256 bits from the OS's generator, as hex."""
    return secrets.token_hex(32)


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    preset = models.CharField(max_length=32, default="us-2003")
    switches = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    # Games before the keyed generator ran on splitmix64 from ``seed``. Since,
    # a game draws its dice and cards from ``secret`` and publishes its
    # ``commitment`` (SHA-256); the secret itself leaves the server only once
    # the game has ended (see docs/fair-dice.md). The secret is drawn when
    # the game is created, so that its commitment is public before any
    # player gives a seed; ``seeds`` are the players' seeds as the game
    # started (``dice_key``), None for a game keyed by its secret alone.
    seed = models.BigIntegerField(default=new_seed)
    secret = models.CharField(max_length=128, blank=True, default=new_secret)
    seeds = models.JSONField(null=True, blank=True, default=None)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="hosted_games"
    )
    is_public = models.BooleanField(default=True)
    # 43 characters now; older games keep their shorter tokens, which still work.
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    max_seats = models.PositiveSmallIntegerField(default=4)
    auto_start = models.BooleanField(default=False)
    # Games with bots are unrated unless the host opts in; bots then count as
    # fixed-strength opponents (see ratings.services.BOT_STRENGTH).
    rated_with_bots = models.BooleanField(default=False)
    # Bot accounts (people's programs, playing through the API) may join this
    # game, which is then rated in the people's pool; without it, people and
    # bot accounts are never seated together in a rated game (games.bot_accounts).
    allow_bot_accounts = models.BooleanField(default=False)
    # False: never rated whoever sits in it (an unrated tournament's table).
    rated = models.BooleanField(default=True)
    # A seat whose first decision times out goes to a bot at once (a
    # tournament table's no-show), whatever ``takeover_after`` says.
    takeover_on_first_timeout = models.BooleanField(default=False)
    turn_seconds = models.PositiveIntegerField(default=DEFAULT_TURN_SECONDS)
    bot_delay_ms = models.PositiveIntegerField(default=1000)
    # When a bot (or a seat a bot took over) is next due to act, written with
    # the version that made it due; empty when no bot is. Beat's sweep finds
    # overdue rows here as it finds overdue deadlines, so a bot's move never
    # depends on a queued task surviving (the countdown task only cuts latency).
    auto_move_at = models.DateTimeField(null=True, blank=True)
    # Timers (issue 6). A time bank of 0 means a plain per-move timer.
    time_bank_seconds = models.PositiveIntegerField(default=0)
    time_bank_increment_seconds = models.PositiveIntegerField(default=0)
    claim_window_seconds = models.PositiveIntegerField(default=6 * 3600)
    bid_window_seconds = models.PositiveIntegerField(default=3600)
    trade_expiry_seconds = models.PositiveIntegerField(default=24 * 3600)
    takeover_after = models.PositiveSmallIntegerField(
        default=3, help_text="Timeouts in a row before a bot takes the seat; 0 never."
    )
    time_limit_seconds = models.PositiveIntegerField(
        default=0, help_text="Time-limit games end this long after the start; 0 means no limit."
    )
    # The turn player's clock while an interrupt (a debt, an auction, a
    # shortage's wish window) holds their decision up: its deadline row is
    # gone meanwhile, and it resumes with the time it had left, so that no
    # interrupt, least of all one they start by building, gives a fresh one.
    # Written only by ``games.services.clocks``.
    held_clock = models.JSONField(null=True, blank=True)
    # Spectators see the win-probability bar this many moves late, so that
    # none can pass a player help during the game (lichess's delayed feeds).
    analysis_delay_moves = models.PositiveSmallIntegerField(
        default=0, help_text="Spectators see the win-probability bar this many moves late."
    )
    end_reason = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "is_public", "-created_at"], name="game_list_idx"),
            models.Index(fields=["status", "-updated_at"], name="game_watch_idx"),
            models.Index(fields=["-finished_at"], name="game_finished_idx"),
            models.Index(
                fields=["auto_move_at"],
                name="game_auto_move_idx",
                condition=Q(auto_move_at__isnull=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_seats__gte=2) & Q(max_seats__lte=8), name="game_seats_2_to_8"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.public_id}"

    def get_absolute_url(self) -> str:
        return f"/games/{self.public_id}/"

    @property
    def bot_speed(self) -> str:
        """ "instant" (site bots answer within the move that hands them a
        decision, ``games.services.play``) or "paced" (after their delay)."""
        return "paced" if self.bot_delay_ms else "instant"

    @property
    def has_ended(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABANDONED)

    @property
    def commitment(self) -> str:
        """SHA-256 of the secret's bytes: public from the start; "" for games
        from before the keyed generator."""
        return hashlib.sha256(bytes.fromhex(self.secret)).hexdigest() if self.secret else ""

    @property
    def revealed_secret(self) -> str:
        """The secret, once nothing is left to predict; "" before."""
        return self.secret if self.has_ended else ""

    @property
    def dice_key(self) -> str:
        """What the dice are drawn with: ``engine.dice_key`` of the secret and
        the seeds of a game started with a person seated, else the secret
        (games of site bots only, and games from before player seeds)."""
        if self.seeds is None:
            return self.secret
        return engine.dice_key(self.secret, self.seeds)

    @property
    def seed_rows(self) -> list[dict[str, str]]:
        """Each seat of a started game and what it gave to the dice key:
        ``given`` "seed", "none" (a person whose client gave none) or "bot";
        ``seed`` itself only once the game has ended."""
        if self.seeds is None or not self.state:
            return []
        ended = self.has_ended
        return [
            {
                "name": name,
                "given": "bot" if seed is None else ("seed" if seed else "none"),
                "seed": seed if ended and seed else "",
            }
            for name, seed in zip(self.state["names"], self.seeds, strict=False)
        ]


class Seat(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", "Seated"
        PLAYING = "playing", "Playing"
        BANKRUPT = "bankrupt", "Bankrupt"
        RESIGNED = "resigned", "Resigned"
        WINNER = "winner", "Winner"
        FINISHED = "finished", "Finished"

    class BotKind(models.TextChoices):
        NONE = "", "Human"
        RANDOM = "random", "Random bot"
        HEURISTIC = "heuristic", "Heuristic bot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    bot_kind = models.CharField(max_length=16, choices=BotKind.choices, blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SEATED)
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    final_net_worth = models.IntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Timers: a run of timeouts hands the seat to a bot until the player reclaims it.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    timeouts_total = models.PositiveIntegerField(default=0)
    takeovers_total = models.PositiveIntegerField(default=0)
    # Decisions the player made themselves (standing orders included): with
    # timeouts_total, the reliability shown on profiles.
    decisions_total = models.PositiveIntegerField(default=0)
    taken_over = models.BooleanField(default=False)
    bank_seconds = models.PositiveIntegerField(null=True, blank=True)
    standing_orders = models.JSONField(default=dict, blank=True)
    # The player's own contribution to the dice (hex, ``engine.seed_bytes``),
    # made in their browser or sent by their program; changeable until the
    # start, "" when none was given. Only its player sees it before the end.
    seed = models.CharField(max_length=128, blank=True, default="")

    class Meta:
        ordering = ["number"]
        indexes = [models.Index(fields=["user", "-joined_at"], name="seat_user_idx")]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="seat_user_unique"
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot_kind=""))
                | (Q(user__isnull=True) & ~Q(bot_kind="")),
                name="seat_user_xor_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game.public_id} seat {self.number}: {self.name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.public_name
        return f"{self.get_bot_kind_display()} {self.number + 1}"


class GameEvent(models.Model):
    """One engine event (or the action that caused it). Never updated or deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(help_text="The game version this event produced.")
    index = models.PositiveSmallIntegerField(default=0, help_text="Order within the version.")
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    # None: everyone may see it. A seat number: only that seat.
    audience_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq", "index"], name="event_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}.{self.index} {self.kind}"


class Deadline(models.Model):
    """When one pending decision times out. The sweep reads these rows; the
    game row's version is the compare-and-set guard when one is resolved."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deadlines")
    player = models.SmallIntegerField(help_text="Engine player (seat number); -1 is the system.")
    kind = models.CharField(max_length=32)
    ref = models.CharField(max_length=64, blank=True)
    version = models.PositiveIntegerField(help_text="Game version when this was last set.")
    started_at = models.DateTimeField()
    due_at = models.DateTimeField()
    remind_at = models.DateTimeField(null=True, blank=True)
    reminded = models.BooleanField(default=False)
    # When to look whether this decision's player is away and so owed the
    # "your move" notice: set in the write that made it (a person's seat
    # only), claimed and cleared by whoever looks (the task queued after the
    # commit, or beat's sweep), and set again a little later while they are
    # at the game (``TURN_NOTICE_RECHECK_SECONDS``), so that a page closed
    # or hidden with the decision open is found by the sweep.
    notice_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["due_at"], name="deadline_due_idx"),
            models.Index(
                fields=["notice_at"],
                name="deadline_notice_at_idx",
                condition=Q(notice_at__isnull=False),
            ),
            models.Index(
                fields=["remind_at"], name="deadline_remind_idx", condition=Q(reminded=False)
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player", "kind", "ref"], name="deadline_decision_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.kind}({self.player}) due {self.due_at:%Y-%m-%d %H:%M:%S}"


class PositionEstimate(models.Model):
    """Each seat's chance of winning at one version of a running game, by
    playouts that never see the game's secret (``engine.estimate_win_probabilities``).
    Computed off the request path; seated players never see it during the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="estimates")
    version = models.PositiveIntegerField()
    playouts = models.PositiveIntegerField()
    probabilities = models.JSONField(help_text="Per seat number, summing to 1.")
    stderr = models.JSONField(help_text="Per seat number: the standard error of each.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="estimate_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version}: {self.probabilities}"


class GameAnalysis(models.Model):
    """A finished game's analysis, made once in the background: the win
    probabilities over the whole game and the moves that changed them most."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    playouts = models.PositiveIntegerField(help_text="Playouts per analysed position.")
    points = models.JSONField(
        help_text="[{step, turn, probabilities: [per seat]}] over the replay's steps."
    )
    turning_points = models.JSONField(
        help_text="[{step, turn, seat, before, after, text}]: the largest swings, largest first."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Analysis of {self.game_id}"


class Challenge(models.Model):
    """An invitation from a game's host to one person (or bot account) to
    take a seat in that game, answered from the game's page or the API
    (Lichess's challenges). It lapses when the game leaves the lobby."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Withdrawn"

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "challenged"],
                condition=Q(status="pending"),
                name="one_pending_challenge_per_person",
            )
        ]
        indexes = [models.Index(fields=["challenged", "status"], name="challenge_inbox_idx")]

    def __str__(self) -> str:
        return f"Challenge {self.public_id}: {self.challenger} → {self.challenged}"
