"""What the tournament pages read: who may see an event, its settings in
words, its rounds' tables, and whether the viewer may join it.

Read only: joining and withdrawing go through ``tournaments.services``,
which decides; the reason shown beside a missing Join button is the
obvious one, the service's word on a post is final.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Membership
from tournaments import errors, pairing, services
from tournaments.models import Entry, Format, Tournament
from tournaments.regions import number

OPEN_ENTRY = (Entry.Status.ACTIVE,)


def visible(user: Any) -> QuerySet[Tournament]:
    """The events ``user`` may see: every one not for a club's members only,
    and those of the clubs they belong to (staff see all)."""
    shown = Tournament.objects.all()
    if getattr(user, "is_staff", False):
        return shown
    public = Q(members_only=False) | Q(club__isnull=True)
    if getattr(user, "is_authenticated", False):
        mine = Membership.objects.filter(user=user, status=Membership.Status.MEMBER)
        public |= Q(club__in=mine.values("club_id"))
    return shown.filter(public)


def access_tournament(tournament_id: int, user: Any) -> Tournament:
    """The event, if ``user`` may see it; to anyone else a club's
    members-only event does not exist."""
    found = visible(user).select_related("club").filter(pk=tournament_id).first()
    if found is None:
        raise errors.TournamentNotFound()
    return found


def duration(seconds: int) -> str:
    if seconds and seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    if seconds and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    minutes = max(1, seconds // 60)
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


def points_table(t: Tournament) -> list[float]:
    return [float(p) for p in t.points] if t.points else pairing.default_points(t.table_size)


def settings_in_words(t: Tournament) -> list[tuple[str, str]]:
    """The format and settings as (term, description) pairs."""
    rows = [(_("Format"), str(Format(t.format).label))]
    if t.format == Format.ELIMINATION:
        rows.append(
            (
                _("Rounds"),
                _("until a final table; the top %(q)d of each table go through") % {"q": t.advance},
            )
        )
    else:
        rounds = t.rounds_planned or t.rounds
        rows.append((_("Rounds"), ngettext("%(n)d round", "%(n)d rounds", rounds) % {"n": rounds}))
    if t.format == Format.ROUNDROBIN:
        group = (
            _("groups of %(n)d players") % {"n": t.group_size}
            if t.group_size
            else _("one group of everyone")
        )
        if t.group_final:
            group += "; " + _("the top %(n)d of each group play a final") % {"n": t.group_final}
        rows.append((_("Groups"), group))
    rows.append(
        (
            _("Tables"),
            _("%(size)d players a table (%(lo)d to %(hi)d)")
            % {"size": t.table_size, "lo": t.table_min, "hi": t.table_max},
        )
    )
    points = " / ".join(number(p) for p in points_table(t))
    rows.append((_("Points by place"), points))
    rows.append((_("Bye"), _("worth the median place's points")))
    rows.append((_("Turn timer"), duration(t.turn_seconds)))
    caps = []
    if t.cap_days:
        caps.append(ngettext("%(n)d day", "%(n)d days", t.cap_days) % {"n": t.cap_days})
    if t.cap_turns:
        caps.append(ngettext("%(n)d turn", "%(n)d turns", t.cap_turns) % {"n": t.cap_turns})
    rows.append(
        (
            _("Game length cap"),
            _("%(cap)s, then places go by net worth") % {"cap": _(" or ").join(caps)}
            if caps
            else _("none"),
        )
    )
    rows.append(
        (_("Between rounds"), _("at least %(gap)s") % {"gap": duration(t.round_gap_seconds)})
    )
    rows.append((_("Rated"), _("yes") if t.rated else _("no: the games change no rating")))
    rows.append((_("Players"), _("at most %(n)d") % {"n": t.max_players}))
    if t.club_id is not None:
        who = _("members of the club only") if t.members_only else _("anyone")
        rows.append((_("Club"), f"{t.club} ({who})"))
    return rows


@dataclass(frozen=True)
class EntryState:
    entry: Entry | None
    can_join: bool
    can_withdraw: bool
    reason: str  # why the Join button is missing, if it is


def entry_state(t: Tournament, user: Any) -> EntryState:
    if not getattr(user, "is_authenticated", False):
        return EntryState(None, False, False, _("Log in to join this tournament."))
    entry = Entry.objects.filter(tournament=t, user=user).first()
    ended = t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    if entry is not None and entry.status == Entry.Status.ACTIVE:
        return EntryState(entry, False, not ended, "")
    if entry is not None and entry.status == Entry.Status.ELIMINATED:
        return EntryState(entry, False, False, _("You were eliminated."))
    return EntryState(entry, *_may_join(t, user, entry))


def _may_join(t: Tournament, user: Any, entry: Entry | None) -> tuple[bool, bool, str]:
    """What a Join button would be told now (the service's own checks,
    without the lock)."""
    try:
        services.check_may_join(t, user, entry)
    except errors.TournamentError as exc:
        return False, False, str(exc)
    return True, False, ""


def your_next_game(t: Tournament, user: Any) -> Any:
    if not getattr(user, "is_authenticated", False):
        return None
    if t.status != Tournament.Status.RUNNING:
        return None
    if not Entry.objects.filter(tournament=t, user=user).exists():
        return None
    return services.your_next_game(t, user)


def my_entries(user: Any) -> set[int]:
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(
        Entry.objects.filter(user=user, status__in=OPEN_ENTRY).values_list(
            "tournament_id", flat=True
        )
    )


def entry_context(t: Tournament, user: Any, error: str = "", said: str = "") -> dict[str, Any]:
    """What the viewer's own box shows (templates/tournaments/entry.html)."""
    return {
        "tournament": t,
        "state": entry_state(t, user),
        "next_game": your_next_game(t, user),
        "entry_error": error,
        "entry_said": said,
    }


def next_game_pk(tournament_id: int, user: Any) -> int | None:
    t = Tournament.objects.filter(pk=tournament_id).first()
    game = your_next_game(t, user) if t is not None else None
    return None if game is None else int(game.pk)


def entry_box(tournament_id: int, user: Any) -> str:
    """The viewer's own box, out of band, for their socket to send when
    their next game changed (its forms carry no CSRF token: static/js/site.js
    adds the page's)."""
    t = Tournament.objects.select_related("club").get(pk=tournament_id)
    return render_to_string(
        "tournaments/entry.html", {**entry_context(t, user), "oob": True, "user": user}
    )
