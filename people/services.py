"""The writes of follows, blocks and mutes. Each is idempotent (a second
follow changes nothing) and announces after commit."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from people import signals
from people.errors import PeopleError, Yourself
from people.models import Block, Follow, Mute


def _check_other(user: Any, target: Any) -> None:
    if not getattr(user, "is_authenticated", False):
        raise PeopleError(_("Sign in first."))
    if target.pk == user.pk:
        raise Yourself(_("That is you."))


def _create_once(model: Any, **fields: Any) -> bool:
    """Insert the row unless it is there; False if it was (a double submit too)."""
    try:
        with transaction.atomic():
            _, made = model.objects.get_or_create(**fields)
    except IntegrityError:
        return False
    return bool(made)


def _hidden_changed(user_id: int) -> None:
    transaction.on_commit(lambda: signals.hidden_changed.send(sender=Block, user_id=user_id))


def do_follow(user: Any, target: Any) -> bool:
    _check_other(user, target)
    return _create_once(Follow, follower_id=user.pk, followed_id=target.pk)


def do_unfollow(user: Any, target: Any) -> bool:
    deleted, _rows = Follow.objects.filter(follower_id=user.pk, followed_id=target.pk).delete()
    return deleted > 0


def do_set_bell(user: Any, target: Any, *, on: bool) -> None:
    """Turn "tell me when they start a game" on or off; turning it on follows."""
    _check_other(user, target)
    with transaction.atomic():
        if on:
            _create_once(Follow, follower_id=user.pk, followed_id=target.pk)
        Follow.objects.filter(follower_id=user.pk, followed_id=target.pk).update(bell=on)


def do_block(user: Any, target: Any) -> bool:
    """Block ``target``; the blocker stops following them. The blocked person's
    own follow stays (removing it would tell them), but brings them nothing."""
    _check_other(user, target)
    with transaction.atomic():
        made = _create_once(Block, blocker_id=user.pk, blocked_id=target.pk)
        Follow.objects.filter(follower_id=user.pk, followed_id=target.pk).delete()
        _hidden_changed(user.pk)
    return made


def do_unblock(user: Any, target: Any) -> bool:
    with transaction.atomic():
        deleted, _rows = Block.objects.filter(blocker_id=user.pk, blocked_id=target.pk).delete()
        _hidden_changed(user.pk)
    return deleted > 0


def do_mute(user: Any, target: Any) -> bool:
    _check_other(user, target)
    with transaction.atomic():
        made = _create_once(Mute, muter_id=user.pk, muted_id=target.pk)
        _hidden_changed(user.pk)
    return made


def do_unmute(user: Any, target: Any) -> bool:
    with transaction.atomic():
        deleted, _rows = Mute.objects.filter(muter_id=user.pk, muted_id=target.pk).delete()
        _hidden_changed(user.pk)
    return deleted > 0


# The privacy choices that change which chat lines a person sees.
CHAT_FIELDS = frozenset({"chat_from", "no_chat"})


def do_save_privacy(form: Any) -> None:
    """Save a valid privacy form of the user's own; when what they see of the
    chat changed, their open pages redraw it once committed."""
    with transaction.atomic():
        account = form.save()
        if CHAT_FIELDS & set(form.changed_data):
            _hidden_changed(account.pk)
