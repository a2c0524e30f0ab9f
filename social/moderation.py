"""Working the moderation queue: who may, the queue's order, claiming a
case, and a moderator's actions (docs/moderation.md).

Every action writes a ``ModAction`` (the audit log), closes the case with
its reports' outcome, tells the reporters what came of their report (never
what was done to whom), and, once committed, sends
``people.signals.standing_changed`` so that live sockets follow at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Count, Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from notifications.models import Notification
from notifications.services import notify
from people.errors import PeopleError
from people.models import Case, ModAction, Report
from people.relations import chat_timed_out_until
from people.signals import standing_changed
from social.scoring import ReportFacts, case_score

PERMISSION = "people.moderate"
MAX_HOURS = 24 * 30  # the longest chat timeout
MAX_REASON = 500
Kind = ModAction.Kind
# What a moderator may do to a case (claiming is its own step).
ACTIONS = (
    Kind.WARN,
    Kind.TIMEOUT,
    Kind.SHADOW_MUTE,
    Kind.SUSPEND_RATED,
    Kind.CLOSE_ACCOUNT,
    Kind.DISMISS,
)
NOTICE_KIND = Notification.Kind.MODERATION


def may_moderate(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active) and bool(
        user.has_perm(PERMISSION)
    )


def access_moderator(request: Any) -> Any:
    """The moderator making the request; anyone else finds no such page (404)."""
    if not may_moderate(request.user):
        raise Http404(_("There is no such page."))
    return request.user


@dataclass
class QueueRow:
    case: Case
    score: float
    reports: int
    reporters: int
    auto: int
    reasons: list[str]


def queue() -> list[QueueRow]:
    """The cases not closed, the most urgent first (then the oldest)."""
    cases = list(
        Case.objects.exclude(status=Case.Status.CLOSED).select_related("user", "claimed_by")
    )
    reports = list(Report.objects.filter(case__in=cases).values("case_id", "reporter_id", "reason"))
    standing = reporter_standing({r["reporter_id"] for r in reports if r["reporter_id"]})
    rows = []
    for case in cases:
        mine = [r for r in reports if r["case_id"] == case.pk]
        facts = [
            ReportFacts(r["reporter_id"], r["reason"], *standing.get(r["reporter_id"], (0, 0)))
            for r in mine
        ]
        rows.append(
            QueueRow(
                case=case,
                score=case_score(facts),
                reports=len(mine),
                reporters=len({r["reporter_id"] for r in mine if r["reporter_id"]}),
                auto=sum(1 for r in mine if r["reporter_id"] is None),
                reasons=sorted({str(Report.Reason(r["reason"]).label) for r in mine}),
            )
        )
    rows.sort(key=lambda row: (-row.score, row.case.created_at))
    return rows


def reporter_standing(reporter_ids: set[int]) -> dict[int, tuple[int, int]]:
    """(upheld, dismissed) of each reporter's decided reports."""
    counted = (
        Report.objects.filter(reporter_id__in=reporter_ids)
        .values("reporter_id")
        .annotate(
            upheld=Count("pk", filter=Q(outcome=Report.Outcome.ACTIONED)),
            dismissed=Count("pk", filter=Q(outcome=Report.Outcome.DISMISSED)),
        )
    )
    return {row["reporter_id"]: (row["upheld"], row["dismissed"]) for row in counted}


def case_for(case_id: int) -> Case:
    case = Case.objects.select_related("user", "claimed_by").filter(pk=case_id).first()
    if case is None:
        raise Http404(_("There is no such case."))
    return case


def do_claim_case(case_id: int, moderator: Any) -> Case:
    """Take the case: one conditional UPDATE, so that of two moderators
    claiming at once exactly one wins; the other is told who has it."""
    now = timezone.now()
    with transaction.atomic():
        won = Case.objects.filter(pk=case_id, status=Case.Status.OPEN).update(
            status=Case.Status.CLAIMED, claimed_by=moderator, claimed_at=now
        )
        case = case_for(case_id)
        if won:
            ModAction.objects.create(
                moderator=moderator, user_id=case.user_id, case=case, kind=Kind.CLAIM
            )
            return case
    if case.status == Case.Status.CLOSED:
        raise PeopleError(_("This case is closed."))
    if case.claimed_by_id != moderator.pk:
        name = case.claimed_by.username if case.claimed_by else _("another moderator")
        raise PeopleError(_("%(name)s has already claimed this case.") % {"name": name})
    return case


def do_release_case(case_id: int, moderator: Any) -> Case:
    """Hand a claimed case back to the queue (only its claimer can)."""
    with transaction.atomic():
        released = Case.objects.filter(
            pk=case_id, status=Case.Status.CLAIMED, claimed_by=moderator
        ).update(status=Case.Status.OPEN, claimed_by=None, claimed_at=None)
        case = case_for(case_id)
        if not released:
            raise PeopleError(_("Only the moderator holding this case can release it."))
        ModAction.objects.create(
            moderator=moderator, user_id=case.user_id, case=case, kind=Kind.RELEASE
        )
    return case


def check_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise PeopleError(_("Say why: the reason goes into the audit log."))
    if len(reason) > MAX_REASON or "\x00" in reason:
        raise PeopleError(_("Keep the reason under %(n)d characters.") % {"n": MAX_REASON})
    return reason


def do_lift(user_id: int, moderator: Any, reason: str) -> ModAction:
    """End a person's chat timeout, shadow mute and rated suspension at once
    (a closed account stays closed: that is the admin's to reopen)."""
    reason = check_reason(reason)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:
            raise Http404(_("There is no such player."))
        restricted = chat_timed_out_until(user) or user.shadow_muted or user.rated_suspended
        if not restricted:
            raise PeopleError(_("%(name)s has no restriction to lift.") % {"name": user.username})
        user.chat_timeout_until = None
        user.shadow_muted = False
        user.rated_suspended = False
        user.save(update_fields=["chat_timeout_until", "shadow_muted", "rated_suspended"])
        action = ModAction.objects.create(
            moderator=moderator, user=user, kind=Kind.LIFT, reason=reason
        )
        transaction.on_commit(
            lambda: standing_changed.send(sender=ModAction, user_id=user.pk, kind=Kind.LIFT)
        )
    return action


def check_action(kind: str, reason: str, hours: Any) -> tuple[str, str, int | None]:
    if kind not in ACTIONS:
        raise PeopleError(_("Choose an action."))
    reason = check_reason(reason)
    if kind != Kind.TIMEOUT:
        return kind, reason, None
    try:
        count = int(str(hours).strip())
    except (TypeError, ValueError):
        count = 0
    if not 1 <= count <= MAX_HOURS:
        raise PeopleError(_("A timeout lasts 1 to %(n)d hours.") % {"n": MAX_HOURS})
    return kind, reason, count


def do_act(case_id: int, moderator: Any, kind: str, reason: str, hours: Any = None) -> ModAction:
    """Take ``kind`` on the case's person (the moderator must hold the case),
    log it, close the case and tell the reporters."""
    kind, reason, count = check_action(kind, reason, hours)
    with transaction.atomic():
        case = Case.objects.select_for_update().filter(pk=case_id).first()
        if case is None:
            raise Http404(_("There is no such case."))
        if case.status == Case.Status.CLOSED:
            raise PeopleError(_("This case is closed."))
        if case.status != Case.Status.CLAIMED or case.claimed_by_id != moderator.pk:
            raise PeopleError(_("Claim the case before acting on it."))
        user = get_user_model().objects.select_for_update().get(pk=case.user_id)
        apply_standing(user, kind, count)
        action = ModAction.objects.create(
            moderator=moderator, user=user, case=case, kind=kind, reason=reason, hours=count
        )
        if kind == Kind.WARN:
            notify(
                user.pk,
                None,
                NOTICE_KIND,
                _("A moderator warned you: %(reason)s") % {"reason": reason},
            )
        close_case(case, actioned=kind != Kind.DISMISS)
        transaction.on_commit(
            lambda: standing_changed.send(sender=ModAction, user_id=user.pk, kind=kind)
        )
    return action


def apply_standing(user: Any, kind: str, hours: int | None) -> None:
    """Change what ``user`` may do, inside the action's transaction."""
    if kind == Kind.TIMEOUT:
        assert hours is not None
        user.chat_timeout_until = timezone.now() + timedelta(hours=hours)
        user.save(update_fields=["chat_timeout_until"])
    elif kind == Kind.SHADOW_MUTE:
        user.shadow_muted = True
        user.save(update_fields=["shadow_muted"])
    elif kind == Kind.SUSPEND_RATED:
        user.rated_suspended = True
        user.save(update_fields=["rated_suspended"])
    elif kind == Kind.CLOSE_ACCOUNT:
        user.is_active = False
        user.save(update_fields=["is_active"])
        # Sessions carry no user index: finding them reads them all, which is
        # done after the commit rather than with the person's row locked. An
        # inactive account is signed out by every request meanwhile anyway.
        pk = user.pk
        transaction.on_commit(lambda: end_sessions(pk))
        # ``api`` sits above this layer: its tokens are found by name.
        ApiToken = apps.get_model("api", "ApiToken")
        ApiToken.objects.filter(user_id=user.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )


def end_sessions(user_pk: int) -> None:
    """Delete the person's sessions, and their cached copies (their sockets
    are closed by ``live`` hearing ``standing_changed``)."""
    from django.contrib.sessions.backends.db import SessionStore

    doomed = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = SessionStore().decode(session.session_data)
        if str(data.get("_auth_user_id")) == str(user_pk):
            doomed.append(session.session_key)
    Session.objects.filter(session_key__in=doomed).delete()
    _forget_cached(doomed)


def _forget_cached(keys: list[str]) -> None:
    from django.conf import settings
    from django.utils.module_loading import import_string

    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    for key in keys:
        try:
            store(session_key=key).delete()
        except Exception:
            continue  # the database row is gone, which is what counts


def close_case(case: Case, *, actioned: bool) -> None:
    """Close the case, decide its pending reports, and tell each reporter."""
    now = timezone.now()
    outcome = Report.Outcome.ACTIONED if actioned else Report.Outcome.DISMISSED
    pending = case.reports.filter(outcome=Report.Outcome.PENDING)
    reporters = set(pending.exclude(reporter=None).values_list("reporter_id", flat=True))
    pending.update(outcome=outcome)
    case.status = Case.Status.CLOSED
    case.closed_at = now
    case.save(update_fields=["status", "closed_at"])
    for reporter_id in sorted(reporters):
        notify(
            reporter_id,
            None,
            NOTICE_KIND,
            outcome_words(actioned),
            dedupe_key=f"report-outcome-{case.pk}-{reporter_id}",
        )


def outcome_words(actioned: bool) -> str:
    if actioned:
        return _("Thank you: we took action on your report.")
    return _("We looked at your report and took no action.")
