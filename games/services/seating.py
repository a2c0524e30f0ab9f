"""Who may sit where, by what people chose and what moderators decided:
a host's block keeps the blocked person out of their games (with no word of
the block), a person joining a game beside someone they blocked confirms it
first, and a suspension from rated play keeps its holder out of games that
may be rated. Challenges ask ``people.relations`` (privacy and blocks)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.services.errors import BlockedPlayerSeated, NotAllowed
from people import relations
from people.errors import Refused
from people.models import Block


def check_may_challenge(challenger: Any, target: Any) -> None:
    """A block reads as the target's privacy choice: the same words."""
    try:
        relations.check_may_challenge(challenger, target)
    except Refused as exc:
        raise NotAllowed(exc.message) from None


def check_not_shut_out(game: Game, user: Any) -> None:
    """The host blocked ``user``: they are told only that they cannot sit here."""
    if game.host_id and Block.objects.filter(blocker_id=game.host_id, blocked_id=user.pk).exists():
        raise NotAllowed(_("You cannot take a seat in this game."))


def blocked_seated(user: Any, seated: list[Any]) -> list[Any]:
    """The people among ``seated`` that ``user`` blocked."""
    others = {u.pk: u for u in seated if u is not None and u.pk != user.pk}
    if not others:
        return []
    blocked = set(
        Block.objects.filter(blocker_id=user.pk, blocked_id__in=others).values_list(
            "blocked_id", flat=True
        )
    )
    return [u for pk, u in others.items() if pk in blocked]


def check_blocked_seated(user: Any, seated: list[Any], *, confirmed: bool) -> None:
    if confirmed:
        return
    names = [u.public_name for u in blocked_seated(user, seated)]
    if names:
        raise BlockedPlayerSeated(
            _("You have blocked %(names)s, who plays in this game. Join anyway?")
            % {"names": ", ".join(names)}
        )


def may_be_rated(game: Game, seats: list[Seat]) -> bool:
    """Whether the game can still end rated (``ratings.services.is_rated``):
    it is unless a site bot sits in it and the host did not rate bots."""
    if not game.rated:
        return False
    return game.rated_with_bots or not any(seat.user_id is None for seat in seats)


def check_rated_standing(user: Any, game: Game, seats: list[Seat]) -> None:
    if getattr(user, "rated_suspended", False) and may_be_rated(game, seats):
        raise NotAllowed(suspended_words())


def suspended_words() -> str:
    return _(
        "Your account is suspended from rated play: you can join or create games with a "
        "site bot that are not rated."
    )


def check_may_start_rated(game: Game, seats: list[Seat]) -> None:
    """A suspended player seated in a game that became rateable since (its
    site bot removed) keeps it from starting rated."""
    if not may_be_rated(game, seats):
        return
    # The seats come with their users (``write.lock``): no query.
    if any(seat.user is not None and seat.user.rated_suspended for seat in seats):
        raise NotAllowed(
            _(
                "A player in this game may not play rated games: add a site bot so that "
                "it is not rated, or start another game."
            )
        )
