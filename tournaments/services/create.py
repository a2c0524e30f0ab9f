"""Creating an event (or a recurring series): who may, and what is valid.

Any player with ``TOURNAMENT_CREATE_MIN_GAMES`` finished games and a timeout
ratio (decisions left to the timer, of all their decisions) of at most
``TOURNAMENT_CREATE_MAX_TIMEOUT_RATIO`` may create a public event; staff
always may; a club's events, and recurring events, are for staff and the
club's leaders."""

from __future__ import annotations

import itertools
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import access as club_access
from clubs.models import Club
from games import engine
from games.models import MAX_TURN_SECONDS, MIN_TURN_SECONDS, Game, Seat
from games.services.errors import GameError
from games.services.lobby import check_ruleset
from people import wordfilter
from tournaments.errors import NotEligible, TournamentError
from tournaments.models import Format, Series, Tournament
from tournaments.scheduling import schedule_start

# What a creator may set (``tournaments.models.Settings``, less the club).
FIELDS = (
    "name", "description", "format", "rounds", "table_size", "table_min", "table_max",
    "advance", "group_size", "group_final", "points", "preset", "switches", "turn_seconds",
    "cap_days", "cap_turns", "rated", "round_gap_seconds", "max_players", "members_only",
)  # fmt: skip
MAX_ROUNDS = 20
MAX_CAP_DAYS = 30
MAX_CAP_TURNS = 1000  # the engine's own bound for ``cap_turns``
MAX_GAP_SECONDS = 30 * 24 * 3600
MAX_LEAD_DAYS = 90
# The site's own length cap switches: the event's settings, not its switches.
CAP_SWITCHES = frozenset({"cap_days", "cap_turns"})


def check_may_create(user: Any, *, club: Club | None = None, recurring: bool = False) -> None:
    """Raise ``NotEligible`` (with the reason) unless ``user`` may create
    such an event."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotEligible(_("Log in to create a tournament."))
    if user.is_staff:
        return
    if club is not None:
        if not club_access.is_leader(club, user):
            raise NotEligible(_("Only the club's leaders can create its tournaments."))
        return
    if recurring:
        raise NotEligible(_("Only staff and club leaders can schedule recurring tournaments."))
    finished, timeouts, decisions = creator_record(user)
    need = settings.TOURNAMENT_CREATE_MIN_GAMES
    if finished < need:
        raise NotEligible(
            _("Finish %(need)s games to create a tournament (you have finished %(done)s).")
            % {"need": need, "done": finished}
        )
    answered = timeouts + decisions
    ratio = timeouts / answered if answered else 0.0
    most = settings.TOURNAMENT_CREATE_MAX_TIMEOUT_RATIO
    if ratio > most:
        raise NotEligible(
            _(
                "You let %(ratio)s%% of your decisions time out; at most %(most)s%% may "
                "to create a tournament."
            )
            % {"ratio": round(100 * ratio), "most": round(100 * most)}
        )


def creator_record(user: Any) -> tuple[int, int, int]:
    """(finished games, timeouts, own decisions) over the user's seats."""
    row = Seat.objects.filter(user=user).aggregate(
        finished=Count("pk", filter=Q(game__status=Game.Status.FINISHED)),
        timeouts=Coalesce(Sum("timeouts_total"), 0),
        decisions=Coalesce(Sum("decisions_total"), 0),
    )
    return int(row["finished"]), int(row["timeouts"]), int(row["decisions"])


def _int(fields: dict[str, Any], name: str, low: int, high: int, label: str) -> int:
    value = fields[name]
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        number = int(value)
    if number is None:
        raise TournamentError(_("%(label)s must be a whole number.") % {"label": label})
    if not low <= number <= high:
        raise TournamentError(
            _("%(label)s must be from %(low)s to %(high)s.")
            % {"label": label, "low": low, "high": high}
        )
    return number


def _default(name: str) -> Any:
    field = Tournament._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field.get_default()


def check_settings(raw: dict[str, Any], *, club: Club | None) -> dict[str, Any]:
    """The event's settings, validated and normalised (defaults for what is
    not given); ``TournamentError`` with a clear message otherwise."""
    unknown = set(raw) - set(FIELDS)
    if unknown:
        raise TournamentError(
            _("Unknown tournament setting: %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )
    defaults = {f: _default(f) for f in FIELDS}
    fields = {**defaults, **raw}
    out: dict[str, Any] = {}
    name = str(fields["name"] or "").strip()
    if not 3 <= len(name) <= 80:
        raise TournamentError(_("The name must be 3 to 80 characters long."))
    # An event's name and description reach everyone who browses the list.
    if wordfilter.screen(name).matched:
        raise TournamentError(_("The name contains words this site does not allow."))
    out["name"] = name
    description = str(fields["description"] or "").strip()
    if len(description) > 2000:
        raise TournamentError(_("The description can be at most 2,000 characters long."))
    if description and wordfilter.screen(description).matched:
        raise TournamentError(_("The description contains words this site does not allow."))
    out["description"] = description
    if fields["format"] not in Format.values:
        raise TournamentError(_("Choose a format: table Swiss, elimination or round-robin."))
    out["format"] = fmt = fields["format"]
    size = out["table_size"] = _int(fields, "table_size", 2, 6, _("The table size"))
    lo = out["table_min"] = _int(fields, "table_min", 2, 6, _("The smallest table"))
    hi = out["table_max"] = _int(fields, "table_max", 2, 6, _("The largest table"))
    if not lo <= size <= hi:
        raise TournamentError(
            _("The table size must lie between the smallest and the largest table.")
        )
    if fmt == Format.ELIMINATION:
        out["rounds"] = 0
        out["advance"] = _int(fields, "advance", 1, max(1, lo - 1), _("Players going through"))
    else:
        out["rounds"] = _int(fields, "rounds", 1, MAX_ROUNDS, _("The number of rounds"))
        out["advance"] = 0
    if fmt == Format.ROUNDROBIN:
        group = _int(fields, "group_size", 0, settings.TOURNAMENT_MAX_PLAYERS, _("Group size"))
        if group and group < hi:
            raise TournamentError(_("A group must be at least as large as the largest table."))
        out["group_size"] = group
        out["group_final"] = _int(
            fields, "group_final", 0, hi, _("Players of each group in the final")
        )
    else:
        out["group_size"] = out["group_final"] = 0
    out["points"] = _check_points(fields["points"], hi)
    out["preset"], out["switches"] = _check_rules(fields["preset"], fields["switches"], lo, hi)
    out["turn_seconds"] = _int(
        fields, "turn_seconds", MIN_TURN_SECONDS, MAX_TURN_SECONDS, _("The turn timer (seconds)")
    )
    out["cap_days"] = _int(fields, "cap_days", 0, MAX_CAP_DAYS, _("The length cap in days"))
    out["cap_turns"] = _int(fields, "cap_turns", 0, MAX_CAP_TURNS, _("The length cap in turns"))
    if not out["cap_days"] and not out["cap_turns"]:
        raise TournamentError(
            _("Every tournament game needs a length cap: set a number of days or of turns.")
        )
    try:
        check_ruleset(out["preset"], {**out["switches"], **caps(out["cap_days"], out["cap_turns"])})
    except GameError as exc:
        raise TournamentError(str(exc)) from None
    out["round_gap_seconds"] = _int(
        fields, "round_gap_seconds", 0, MAX_GAP_SECONDS, _("The gap between rounds (seconds)")
    )
    most = settings.TOURNAMENT_MAX_PLAYERS
    out["max_players"] = _int(fields, "max_players", max(2, lo), most, _("The player limit"))
    out["rated"] = bool(fields["rated"])
    out["members_only"] = bool(fields["members_only"])
    if out["members_only"] and club is None:
        raise TournamentError(_("Only a club's tournament can be for members only."))
    return out


def _check_points(points: Any, hi: int) -> list[float]:
    if not points:
        return []
    bad = TournamentError(
        _(
            "Points by place must be numbers from 0 to 100, first place first, never "
            "rising, one for each place at the largest table."
        )
    )
    if not isinstance(points, list | tuple) or len(points) < hi or len(points) > 6:
        raise bad
    try:
        values = [float(p) for p in points]
    except (TypeError, ValueError):
        raise bad from None
    if any(not 0 <= v <= 100 for v in values) or any(a < b for a, b in itertools.pairwise(values)):
        raise bad
    return values


def _check_rules(preset: Any, switches: Any, lo: int, hi: int) -> tuple[str, dict[str, Any]]:
    if not isinstance(switches, dict):
        raise TournamentError(_("The house rules must be a mapping of switch names to values."))
    if CAP_SWITCHES & set(switches):
        raise TournamentError(_("Set the length cap with the tournament's own settings."))
    try:
        rules = check_ruleset(str(preset), dict(switches))
    except GameError as exc:
        raise TournamentError(str(exc)) from None
    if lo < rules.min_players or hi > rules.max_players:
        raise TournamentError(
            _("These rules seat %(lo)s to %(hi)s players at a table.")
            % {"lo": rules.min_players, "hi": rules.max_players}
        )
    return str(preset), dict(switches)


def check_starts_at(starts_at: Any, now: datetime) -> datetime:
    if not isinstance(starts_at, datetime) or timezone.is_naive(starts_at):
        raise TournamentError(_("Give the start as a date and time."))
    if starts_at < now - timedelta(minutes=1):
        raise TournamentError(_("The start must be in the future."))
    if starts_at > now + timedelta(days=MAX_LEAD_DAYS):
        raise TournamentError(
            _("The start can be at most %(days)s days ahead.") % {"days": MAX_LEAD_DAYS}
        )
    return starts_at


def create_tournament(
    *, user: Any, club: Club | None = None, every: str | None = None, **fields: Any
) -> Tournament:
    """A new event open for registration until ``starts_at``; with ``every``
    (``Series.Every``) a recurring series whose first event this is."""
    if every is not None and every not in Series.Every.values:
        raise TournamentError(_("Choose how often the event recurs: every day or every week."))
    check_may_create(user, club=club, recurring=every is not None)
    now = timezone.now()
    starts_at = check_starts_at(fields.pop("starts_at", None), now)
    values = check_settings(fields, club=club)
    with transaction.atomic():
        series = None
        if every is not None:
            series = Series.objects.create(
                **values,
                club=club,
                every=every,
                registration_seconds=max(60, int((starts_at - now).total_seconds())),
                next_at=now + period(every),
                created_by=user,
            )
        t = Tournament.objects.create(
            **values,
            club=club,
            series=series,
            created_by=user,
            starts_at=starts_at,
            seed=secrets.randbits(62),
            rounds_planned=values["rounds"],
        )
        schedule_start(t)
    return t


def period(every: str) -> timedelta:
    return timedelta(days=7 if every == Series.Every.WEEKLY else 1)


def table_switches(t: Tournament) -> dict[str, Any]:
    """The switches of the event's games: its house rules and its length
    cap (the cap's switches only once the engine knows them)."""
    return {**t.switches, **caps(t.cap_days, t.cap_turns)}


def caps(days: int, turns: int) -> dict[str, int]:
    """The length cap as the games' switches (those the engine knows)."""
    pairs = (("cap_days", days), ("cap_turns", turns))
    return {name: value for name, value in pairs if value and name in engine.SWITCH_NAMES}
