"""Domain errors of clubs: services raise them, views catch them and show
``str(error)`` (already translated) with ``status`` (pretix's way, as
``tournaments.errors``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class ClubError(Exception):
    status = 400
    default = _("That cannot be done in this club.")

    def __init__(self, message: object = None) -> None:
        super().__init__(str(message if message is not None else self.default))

    @property
    def message(self) -> str:
        return str(self)


class ClubNotFound(ClubError):
    status = 404
    default = _("No such club.")


class NotLeader(ClubError):
    status = 403
    default = _("Only the club's leaders can do that.")


class NotMember(ClubError):
    status = 403
    default = _("Only the club's members can do that.")


class BadName(ClubError):
    status = 422
    default = _("Choose another name for the club.")


class TooManyClubs(ClubError):
    status = 429
    default = _("You have created as many clubs as an account may.")


class MembershipRefused(ClubError):
    """A join, a request, an invitation or a leader's change the rules refuse."""

    status = 409


class ChatRefused(ClubError):
    status = 422
