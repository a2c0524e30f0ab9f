"""Domain errors of tournaments: services raise them, views and the API
catch them and show ``str(error)`` (already translated) with ``status``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class TournamentError(Exception):
    status = 400
    default = _("That cannot be done in this tournament.")

    def __init__(self, message: object = None) -> None:
        super().__init__(str(message if message is not None else self.default))


class TournamentNotFound(TournamentError):
    status = 404
    default = _("No such tournament.")


class NotEligible(TournamentError):
    status = 403
    default = _("You cannot do that yet.")


class Barred(TournamentError):
    status = 403
    default = _("You missed a tournament game and cannot join tournaments for now.")


class RegistrationClosed(TournamentError):
    status = 409
    default = _("Registration for this tournament is closed.")


class AlreadyEntered(TournamentError):
    status = 409
    default = _("You are already in this tournament.")


class NotEntered(TournamentError):
    status = 409
    default = _("You are not in this tournament.")


class TournamentFull(TournamentError):
    status = 409
    default = _("This tournament is full.")


class MembersOnly(TournamentError):
    status = 403
    default = _("This tournament is for members of its club.")


class TournamentOver(TournamentError):
    status = 409
    default = _("This tournament is over.")
