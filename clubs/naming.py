"""A club's name: readable, not offensive, and not a look-alike of another
club's. Two names meet when their keys do (``name_key``, unique in the
database, so two clubs racing for "Club" and "C1ub" cannot both have it).

A name has the two keys a user name has (``accounts.names``): its folded
form (case and width folded, letters of other scripts read as the Latin
ones they look like) and its shape (case kept; I, l, 1 and | made one, and
O and 0). So "CLUB", "C1ub", "CIub" and "club" spelt with a Cyrillic c
(U+0441) all meet "Club", while "Eli" and "Ell" stay two names.
"""

from __future__ import annotations

import re

from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts import names
from clubs.errors import BadName
from clubs.models import Club
from people import wordfilter

MIN_LENGTH = 3
MAX_LENGTH = 60  # Club.name and Club.name_key
SLUG_LENGTH = 40  # Club.slug


def name_keys(name: str) -> tuple[str, str]:
    """The folded key and the shape key."""
    return names.folded_key(name), names.shape_key(name)


def check_club_name(raw: str) -> tuple[str, tuple[str, str]]:
    """The name as it will be kept (spaces tidied) and its keys; ``BadName``
    saying why not. Whether another club holds them is ``check_name_free``'s."""
    name = re.sub(" +", " ", raw or "").strip(" ")
    if len(name) < MIN_LENGTH:
        raise BadName(_("A club's name needs at least %(n)d characters.") % {"n": MIN_LENGTH})
    if len(name) > MAX_LENGTH:
        raise BadName(_("Keep the club's name under %(n)d characters.") % {"n": MAX_LENGTH + 1})
    problem = names.text_problem(name) or names.mixed_problem(name)
    if problem is not None:
        raise BadName(problem)
    if wordfilter.screen(name).matched:
        raise BadName(_("This name contains words this site does not allow; choose another."))
    keys = name_keys(name)
    if max(len(key) for key in keys) > MAX_LENGTH:
        raise BadName(_("This name is too long once its characters are written out."))
    return name, keys


def check_name_free(name: str, keys: tuple[str, str]) -> None:
    folded, shape = keys
    clash = Q(name_key=folded) | Q(shape_key=shape)
    other = Club.objects.filter(clash).only("name").first()
    if other is not None:
        raise BadName(
            _("“%(name)s” is too like the name of another club, “%(other)s”.")
            % {"name": name, "other": other.name}
        )


def free_slug(name: str) -> str:
    """A slug of ``name`` no club has: "chess-lovers", else "chess-lovers-2"..."""
    base = slugify(name)[:SLUG_LENGTH].strip("-") or "club"
    taken = set(
        Club.objects.filter(slug__startswith=base[: SLUG_LENGTH - 4]).values_list("slug", flat=True)
    )
    if base not in taken:
        return base
    for n in range(2, 10_000):
        suffix = f"-{n}"
        slug = base[: SLUG_LENGTH - len(suffix)].rstrip("-") + suffix
        if slug not in taken:
            return slug
    raise BadName(_("Choose another name for the club."))
