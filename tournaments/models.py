"""Correspondence tournaments: events, entries, rounds, tables, due rows.

Everything that must happen (registration closing, a round's start, a site
event's creation) is a ``Due`` row that beat's sweep finds; a Celery task is
only a shortcut (docs/tournaments.md). Games are written by ``games.services``
only: a table holds its game, never its state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

USER = settings.AUTH_USER_MODEL


class Format(models.TextChoices):
    SWISS = "swiss", _("Table Swiss")
    ELIMINATION = "elimination", _("Multiplayer elimination")
    ROUNDROBIN = "roundrobin", _("Round-robin groups")


class Settings(models.Model):
    """What an event (or a series' next event) is: shared by ``Tournament``
    and ``Series`` so that a recurring event copies its template field by field."""

    name = models.CharField(max_length=80)
    description = models.TextField(max_length=2000, blank=True)
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    # Swiss and round-robin: how many rounds; elimination: rounds follow from
    # the players and ``advance`` (0 here).
    rounds = models.PositiveSmallIntegerField(default=3)
    table_size = models.PositiveSmallIntegerField(default=4)
    table_min = models.PositiveSmallIntegerField(default=3)
    table_max = models.PositiveSmallIntegerField(default=5)
    # Elimination: the top ``advance`` of each table go through.
    advance = models.PositiveSmallIntegerField(default=2)
    # Round-robin: players per group (0: one group), and how many of each
    # group go on to a final table (0: no final).
    group_size = models.PositiveSmallIntegerField(default=0)
    group_final = models.PositiveSmallIntegerField(default=0)
    # Points by finishing place, first place first; empty: the default for
    # the table's size (tournaments.pairing.default_points).
    points = models.JSONField(default=list, blank=True)
    # The games: preset and switches as the lobby takes them, timers, cap.
    preset = models.CharField(max_length=32, default="us-2003")
    switches = models.JSONField(default=dict, blank=True)
    turn_seconds = models.PositiveIntegerField(default=24 * 3600)
    cap_days = models.PositiveSmallIntegerField(default=14)
    cap_turns = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    # The gap between one round's planned start and the next's; a round
    # also waits until the previous one is over.
    round_gap_seconds = models.PositiveIntegerField(default=24 * 3600)
    max_players = models.PositiveIntegerField(default=1000)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    members_only = models.BooleanField(default=False)

    class Meta:
        abstract = True


class Series(Settings):
    """A recurring event: beat's sweep creates the next one at ``next_at``.
    The site's own daily and weekly events are series with a ``key``."""

    class Every(models.TextChoices):
        DAILY = "daily", _("Every day")
        WEEKLY = "weekly", _("Every week")

    key = models.CharField(max_length=32, unique=True, null=True, blank=True)
    every = models.CharField(max_length=8, choices=Every.choices)
    # Registration stays open this long after an event is created.
    registration_seconds = models.PositiveIntegerField(default=24 * 3600)
    next_at = models.DateTimeField()
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["next_at"], name="series_next_idx", condition=Q(active=True))
        ]

    def __str__(self) -> str:
        return self.name


class Tournament(Settings):
    class Status(models.TextChoices):
        REGISTERING = "registering", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    # The ``club`` of ``Settings`` again, with the reverse relation the club
    # page reads (``club.tournaments``).
    club = models.ForeignKey(
        "clubs.Club",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tournaments",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    # Where a series made it: unique, so that two sweeps make it once.
    series_slot = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments_created"
    )
    # Registration closes and round 1 starts at ``starts_at``.
    starts_at = models.DateTimeField()
    # The pairing's generator is keyed by this (deterministic for a seed);
    # never shown while the event runs.
    seed = models.BigIntegerField()
    current_round = models.PositiveSmallIntegerField(default=0)
    # Rounds of an elimination or a round-robin with a final are decided
    # as the event goes: the planned count once known.
    rounds_planned = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments_won"
    )
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status_idx")]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        # Withdrawn by the site after a no-show; may rejoin before the next round.
        NO_SHOW = "no_show", _("Withdrawn (no-show)")
        ELIMINATED = "eliminated", _("Eliminated")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="tournament_entries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Points in halves are possible (half-byes), so a decimal.
    points = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    # The round they joined in (1 unless late), and their group (round-robin).
    joined_round = models.PositiveSmallIntegerField(default=1)
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    no_shows = models.PositiveSmallIntegerField(default=0)
    final_rank = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_entry_once")
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="entry_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Not started")
        RUNNING = "running", _("Being played")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_rows")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # A final (elimination's last table, round-robin's final) is marked.
    final = models.BooleanField(default=False)
    starts_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    seating_seconds = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_once")]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_table",
    )
    finished = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_once")]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"round {self.round_id} table {self.number}"


class Result(models.Model):
    """A player's seat at a table (``table`` set) or a bye (``table`` empty).

    ``place`` and ``net_worth`` are the seat's, whoever played it; ``points``
    are the player's: none for a seat a bot took over after a no-show (the
    bot's result counts for the table, not for the absent player)."""

    class Kind(models.TextChoices):
        PLAYED = "played", _("Played")
        BYE = "bye", _("Bye")
        HALF_BYE = "half_bye", _("Half-bye (late join)")
        NO_SHOW = "no_show", _("No-show: a bot played")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLAYED)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    net_worth = models.IntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="result_once_a_round")
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} in round {self.round_id}"


class Due(models.Model):
    """Something a tournament must do at a time: beat's sweep claims rows
    whose ``due_at`` has passed and ``done_at`` is empty. ``key`` is unique,
    so a round is scheduled (and so started) once however often it is asked."""

    class Kind(models.TextChoices):
        CLOSE_REGISTRATION = "close", _("Close registration")
        START_ROUND = "round", _("Start a round")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="dues")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(default=0)
    key = models.CharField(max_length=64, unique=True)
    due_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["due_at"], name="tournament_due_idx", condition=Q(done_at=None))
        ]

    def __str__(self) -> str:
        return self.key


class Bar(models.Model):
    """An account barred from joining tournaments until ``until`` (a no-show)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="tournament_bars")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    until = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "until"], name="tournament_bar_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} until {self.until:%Y-%m-%d}"
