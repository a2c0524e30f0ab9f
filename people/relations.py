"""May one person reach another? The reads every door asks (challenge,
message, chat, join), answered from ``people.models`` and the privacy
fields of the user (``challenge_from``, ``message_from``, ``chat_from``,
``no_chat``). A block always reads as the privacy refusal: its words are
the same (``Refused``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from people.errors import Refused
from people.models import Audience, Block, Follow, Mute


def _pk(user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", True):
        return None
    return int(user.pk) if getattr(user, "pk", None) is not None else None


def follows(follower: Any, followed: Any) -> bool:
    a, b = _pk(follower), _pk(followed)
    return bool(a and b) and Follow.objects.filter(follower_id=a, followed_id=b).exists()


def blocks(blocker: Any, blocked: Any) -> bool:
    """Whether ``blocker`` has blocked ``blocked``."""
    a, b = _pk(blocker), _pk(blocked)
    return bool(a and b) and Block.objects.filter(blocker_id=a, blocked_id=b).exists()


def blocked_either_way(a: Any, b: Any) -> bool:
    x, y = _pk(a), _pk(b)
    if not (x and y):
        return False
    return Block.objects.filter(
        Q(blocker_id=x, blocked_id=y) | Q(blocker_id=y, blocked_id=x)
    ).exists()


def following_ids(user: Any) -> set[int]:
    pk = _pk(user)
    if not pk:
        return set()
    return set(Follow.objects.filter(follower_id=pk).values_list("followed_id", flat=True))


def friend_ids(user: Any) -> set[int]:
    """People ``user`` follows who follow ``user`` back."""
    pk = _pk(user)
    if not pk:
        return set()
    return set(
        Follow.objects.filter(follower_id=pk, followed__following_rows__followed_id=pk)
        .values_list("followed_id", flat=True)
        .distinct()
    )


def hidden_author_ids(viewer: Any) -> frozenset[int]:
    """Whose chat lines ``viewer`` never sees: the people they blocked or muted."""
    pk = _pk(viewer)
    if not pk:
        return frozenset()
    blocked = Block.objects.filter(blocker_id=pk).values_list("blocked_id", flat=True)
    muted = Mute.objects.filter(muter_id=pk).values_list("muted_id", flat=True)
    return frozenset(blocked) | frozenset(muted)


def allows(owner: Any, field: str, other: Any) -> bool:
    """Whether ``owner``'s privacy choice ``field`` (``challenge_from``,
    ``message_from``, ``chat_from``) lets ``other`` through, blocks counted."""
    if blocks(owner, other):
        return False
    audience = getattr(owner, field, Audience.EVERYONE)
    if audience == Audience.NOBODY:
        return False
    if audience == Audience.FOLLOWING:
        return follows(owner, other)
    return True


def check_may_challenge(challenger: Any, target: Any) -> None:
    if not allows(target, "challenge_from", challenger):
        raise Refused(
            _("%(name)s is not accepting challenges from you.") % {"name": target.username}
        )


def check_may_message(sender: Any, target: Any) -> None:
    if not allows(target, "message_from", sender):
        raise Refused(_("%(name)s is not accepting messages from you.") % {"name": target.username})


def chat_timed_out_until(user: Any) -> Any:
    """When a moderator's chat timeout of ``user`` ends, or None if none runs."""
    until = getattr(user, "chat_timeout_until", None)
    return until if until is not None and until > timezone.now() else None
