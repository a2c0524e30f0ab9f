"""Checking and claiming names (``accounts.names``) against other accounts'.

``check_names`` is what forms call: it says why a name may not be had.
``claim`` is what ``User.save`` calls in the save's transaction: the
``NameClaim`` rows' unique key refuses the second of two accounts racing
for names that look alike, which then gets ``NameTaken`` and saves nothing.
Only names set or changed are checked and claimed: two accounts whose names
clashed before the rule keep them. (``NameClaim`` lives here, not in
``accounts.models``, which imports this module for ``User.save``.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from accounts import names
from accounts.names import NAME_FIELDS


class NameClaim(models.Model):
    """A key of a name an account holds (``accounts.names.keys``): the
    unique constraint keeps any two accounts from holding names that look
    alike, even when they claim them at the same moment. Names from before
    the rule keep their rows where they did not clash (migration 0008)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_claims"
    )
    key = models.CharField(max_length=320, unique=True)

    def __str__(self) -> str:
        return self.key


class NameTaken(ValidationError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message, code="name_taken")
        self.field = field
        self.message = message


def _holder_name(holder: Any, key: str) -> str:
    """The name of ``holder`` that makes ``key``."""
    for field in NAME_FIELDS:
        value = getattr(holder, field) or ""
        if key in names.keys(value):
            return str(value)
    return str(holder.public_name)


def taken(user: Any, field: str, value: str) -> NameTaken | None:
    """``NameTaken`` if another account holds a name that looks like ``value``."""
    wanted = sorted(names.keys(value))
    claims = NameClaim.objects.filter(key__in=wanted)
    pk = getattr(user, "pk", None)
    if pk is not None:
        claims = claims.exclude(user_id=pk)
    clash = claims.select_related("user").order_by("key").first()
    if clash is None:
        return None
    return NameTaken(
        field, names.taken_message(value, _holder_name(clash.user, clash.key), clash.key)
    )


def check_name(user: Any, field: str, value: str) -> None:
    """``ValidationError`` (``NameTaken`` if another account is the reason)
    saying why ``user`` may not be called ``value``."""
    problem = names.text_problem(value)
    if problem is not None:
        raise ValidationError(problem, code="name_refused")
    clash = taken(user, field, value)
    if clash is not None:
        raise clash
    problem = names.mixed_problem(value)
    if problem is not None:
        raise ValidationError(problem, code="name_refused")


def check_names(user: Any, fields: Iterable[str]) -> None:
    errors: dict[str, list[ValidationError]] = {}
    for field in fields:
        value = getattr(user, field) or ""
        if not value:
            continue
        try:
            check_name(user, field, value)
        except ValidationError as exc:
            errors[field] = [exc]
    if errors:
        raise ValidationError(errors)


def claim(user: Any, changed: Iterable[str]) -> None:
    """Make ``user``'s claims those of its names: every key of a changed
    name, and the keys it held already of the others."""
    changed = set(changed)
    current = set(NameClaim.objects.filter(user=user).values_list("key", flat=True))
    wanted: set[str] = set()
    for field in NAME_FIELDS:
        made = names.keys(getattr(user, field) or "")
        wanted |= made if field in changed else made & current
    if current - wanted:
        NameClaim.objects.filter(user=user, key__in=current - wanted).delete()
    new = sorted(wanted - current)  # one order for everyone: no deadlock between two racers
    if not new:
        return
    try:
        with transaction.atomic():
            NameClaim.objects.bulk_create([NameClaim(user=user, key=key) for key in new])
    except IntegrityError:
        for field in NAME_FIELDS:
            value = getattr(user, field) or ""
            clash = taken(user, field, value) if field in changed and value else None
            if clash is not None:
                raise clash from None
        raise
