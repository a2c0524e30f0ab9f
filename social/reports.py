"""A person reports another: checked, its evidence captured as it is now,
then filed into the reported person's live case (``people.reports``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from people.errors import PeopleError
from people.models import Report
from people.reports import MAX_TEXT, file_report
from social import evidence

# What a person may give as a report's source; the site's own sources
# (the chat filter, the collusion check) are not theirs to claim.
PERSON_SOURCES = ("profile", "chat", "message", "game", "trade")
MAX_REF = 80


def check_report_input(reason: str, source: str, ref: str, text: str) -> tuple[str, str, str]:
    """The fields as the report will keep them; ``PeopleError`` if unusable."""
    if reason not in Report.Reason.values:
        raise PeopleError(_("Choose a reason for the report."))
    source = source or "profile"
    if source not in PERSON_SOURCES:
        raise PeopleError(_("Unknown report source."))
    ref = (ref or "").strip()
    if len(ref) > MAX_REF or any(ord(c) < 32 or ord(c) == 127 for c in ref):
        raise PeopleError(_("That reference is not valid."))
    if source != "profile" and not ref:
        raise PeopleError(_("Say what you are reporting."))
    if any((ord(c) < 32 and c not in "\t\n\r") or ord(c) == 127 for c in text or ""):
        raise PeopleError(_("The text cannot contain control characters."))
    if len(" ".join((text or "").split())) > MAX_TEXT:
        raise PeopleError(_("Keep the text under %(n)d characters.") % {"n": MAX_TEXT})
    return reason, source, ref


def capture(source: str, ref: str, reporter: Any, reported: Any, session: Any) -> dict[str, Any]:
    if source == "chat":
        return evidence.of_chat(ref, reporter, reported, session)
    if source == "message":
        return evidence.of_message(ref, reporter, reported)
    if source == "game":
        return evidence.of_game(ref, reporter, reported, session)
    if source == "trade":
        return evidence.of_trade(ref, reporter, reported, session)
    return evidence.of_profile(reported)


def do_report(
    *,
    reporter: Any,
    reported: Any,
    reason: str,
    source: str = "profile",
    ref: str = "",
    text: str = "",
    session: Any = None,
) -> Report:
    """File ``reporter``'s report of ``reported``; ``PeopleError`` and
    nothing stored if the input or the evidence is refused."""
    if reporter.pk == reported.pk:
        raise PeopleError(_("You cannot report yourself."))
    reason, source, ref = check_report_input(reason, source, ref, text)
    captured = capture(source, ref, reporter, reported, session)
    captured["ref"] = ref
    return file_report(
        reporter=reporter,
        reported=reported,
        reason=reason,
        source=source,
        text=text,
        evidence=captured,
    )
