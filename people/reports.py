"""Filing a report. Every report joins its person's one live case (made if
none is open), which the moderation queue (``social``) scores and works.
The site files reports too: the chat filter and the collusion check, with
no reporter."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from people.errors import PeopleError
from people.models import Case, Report

MAX_TEXT = 500


def live_case(user_id: int) -> Case:
    """The open or claimed case of ``user_id``, made if there is none; two
    reports at once share one (the partial unique key decides)."""
    for _attempt in range(3):
        found = Case.objects.filter(user_id=user_id).exclude(status=Case.Status.CLOSED).first()
        if found is not None:
            return found
        try:
            with transaction.atomic():
                return Case.objects.create(user_id=user_id)
        except IntegrityError:
            continue
    raise RuntimeError(f"no live case could be made for user {user_id}")


def file_report(
    *,
    reporter: Any | None,
    reported: Any,
    reason: str,
    source: str,
    text: str = "",
    evidence: dict[str, Any] | None = None,
) -> Report:
    """Store a report with its evidence as it is now. ``reporter`` None: the site's own."""
    if reason not in Report.Reason.values:
        raise PeopleError(_("Choose a reason for the report."))
    if source not in Report.Source.values:
        raise PeopleError(_("Unknown report source."))
    if reporter is not None and reporter.pk == reported.pk:
        raise PeopleError(_("You cannot report yourself."))
    text = " ".join((text or "").split())
    if "\x00" in text:
        raise PeopleError(_("The text cannot contain NUL characters."))
    if len(text) > MAX_TEXT:
        raise PeopleError(_("Keep the text under %(n)d characters.") % {"n": MAX_TEXT})
    with transaction.atomic():
        case = live_case(reported.pk)
        return Report.objects.create(
            reporter=reporter,
            reported=reported,
            case=case,
            reason=reason,
            source=source,
            text=text,
            evidence=evidence or {},
        )
