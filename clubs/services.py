"""The writes of clubs: creating one, and who belongs to it.

Each write locks its club's row first, so that two leaders acting at once
are taken one after the other (the last leader cannot be demoted twice
over). Refusals are ``clubs.errors``; nothing is written when one is raised.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs import access, live, notices
from clubs.errors import (
    BadName,
    ClubError,
    ClubNotFound,
    MembershipRefused,
    NotLeader,
    TooManyClubs,
)
from clubs.models import Club, Membership
from clubs.naming import check_club_name, check_name_free, free_slug
from people import relations, wordfilter

Status = Membership.Status
Role = Membership.Role
MAX_DESCRIPTION = 2000


def access_club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise ClubNotFound()
    return club


def _locked(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def _row(club: Club, user: Any) -> Membership | None:
    return Membership.objects.filter(club=club, user=user).first()


def check_signed_in(user: Any) -> None:
    if not getattr(user, "is_authenticated", False):
        raise ClubError(_("Sign in first."))


def check_leader(club: Club, user: Any) -> None:
    if not access.is_leader(club, user):
        raise NotLeader()


def check_description(raw: str) -> str:
    text = (raw or "").strip()
    if "\x00" in text:
        raise ClubError(_("The description cannot contain NUL characters."))
    if len(text) > MAX_DESCRIPTION:
        raise ClubError(
            _("Keep the description under %(n)d characters.") % {"n": MAX_DESCRIPTION + 1}
        )
    if text and wordfilter.screen(text).matched:
        raise ClubError(_("The description contains words this site does not allow."))
    return text


def check_policy(policy: str) -> str:
    if policy not in Club.Policy.values:
        raise ClubError(_("Choose how people join: open, by request or by invitation."))
    return policy


def check_may_create(user: Any) -> None:
    check_signed_in(user)
    if user.is_staff:
        return
    made = Club.objects.filter(created_by=user).count()
    if made >= settings.CLUBS_PER_ACCOUNT:
        raise TooManyClubs(
            _("An account may create %(n)d clubs, and you have.")
            % {"n": settings.CLUBS_PER_ACCOUNT}
        )


def do_create_club(*, user: Any, name: str, description: str = "", policy: str = "open") -> Club:
    """A new club with ``user`` its leader."""
    check_signed_in(user)
    name, keys = check_club_name(name)
    description = check_description(description)
    policy = check_policy(policy)
    with transaction.atomic():
        # The creator's row: two of their creations at once are counted in turn.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        check_may_create(user)
        check_name_free(name, keys)
        try:
            with transaction.atomic():
                club = Club.objects.create(
                    slug=free_slug(name),
                    name=name,
                    name_key=keys[0],
                    shape_key=keys[1],
                    description=description,
                    policy=policy,
                    created_by=user,
                )
        except IntegrityError:
            # Another club took the name (or its look-alike) a moment ago.
            raise BadName(_("Another club has just taken this name; choose another.")) from None
        Membership.objects.create(club=club, user=user, status=Status.MEMBER, role=Role.LEADER)
    return club


def do_edit_club(*, club: Club, leader: Any, description: str, policy: str) -> Club:
    description = check_description(description)
    policy = check_policy(policy)
    with transaction.atomic():
        club = _locked(club)
        check_leader(club, leader)
        club.description, club.policy = description, policy
        club.save(update_fields=["description", "policy"])
    return club


# --- joining and leaving ---------------------------------------------------------------


def do_join(*, club: Club, user: Any) -> Membership:
    """By the club's policy: a member at once (open, or invited), or a
    request for the leaders (by request)."""
    check_signed_in(user)
    with transaction.atomic():
        club = _locked(club)
        row = _row(club, user)
        if row is not None:
            return _join_again(row)
        if club.policy == Club.Policy.INVITE:
            raise MembershipRefused(_("This club takes new members by invitation only."))
        status = Status.MEMBER if club.policy == Club.Policy.OPEN else Status.REQUESTED
        row = Membership.objects.create(club=club, user=user, status=status)
        if status == Status.REQUESTED:
            notices.requested(club, user)
        return row


def _join_again(row: Membership) -> Membership:
    if row.status == Status.BANNED:
        raise MembershipRefused(_("You cannot join this club."))
    if row.status == Status.MEMBER:
        raise MembershipRefused(_("You are a member already."))
    if row.status == Status.REQUESTED:
        raise MembershipRefused(_("You have asked to join already: a leader will answer."))
    row.status = Status.MEMBER  # invited: joining accepts the invitation
    row.save(update_fields=["status", "updated_at"])
    return row


def do_leave(*, club: Club, user: Any) -> None:
    """Leave, withdraw one's request, or decline an invitation."""
    check_signed_in(user)
    with transaction.atomic():
        club = _locked(club)
        row = _row(club, user)
        if row is None or row.status == Status.BANNED:
            raise MembershipRefused(_("You are not in this club."))
        if row.role == Role.LEADER:
            _check_another_leader(club, row)
        row.delete()
    live.members_changed(club.pk)


def _check_another_leader(club: Club, row: Membership) -> None:
    others = Membership.objects.filter(club=club, role=Role.LEADER).exclude(pk=row.pk)
    if not others.exists():
        raise MembershipRefused(
            _("A club keeps at least one leader: make another member a leader first.")
        )


def do_answer_invitation(*, club: Club, user: Any, accept: bool) -> None:
    check_signed_in(user)
    with transaction.atomic():
        club = _locked(club)
        row = _row(club, user)
        if row is None or row.status != Status.INVITED:
            raise MembershipRefused(_("You have no invitation to this club."))
        if accept:
            row.status = Status.MEMBER
            row.save(update_fields=["status", "updated_at"])
        else:
            row.delete()


# --- the leaders' part -----------------------------------------------------------------


def _target_row(club: Club, leader: Any, target: Any) -> Membership | None:
    """The target's row, once ``leader`` is found to lead and not to be the target."""
    check_leader(club, leader)
    if target.pk == leader.pk:
        raise MembershipRefused(_("That is you."))
    return _row(club, target)


def do_invite(*, club: Club, leader: Any, target: Any) -> Membership:
    """Invite ``target``; one who asked to join already is taken in. Someone
    who blocked the leader, or takes neither challenges nor messages from
    them, cannot be invited, in the words a privacy refusal uses."""
    with transaction.atomic():
        club = _locked(club)
        row = _target_row(club, leader, target)
        if row is not None and row.status == Status.MEMBER:
            raise MembershipRefused(
                _("%(name)s is a member already.") % {"name": target.public_name}
            )
        if row is not None and row.status == Status.BANNED:
            raise MembershipRefused(
                _("%(name)s is banned from this club: lift the ban first.")
                % {"name": target.public_name}
            )
        if row is not None and row.status == Status.REQUESTED:
            row.status = Status.MEMBER
            row.save(update_fields=["status", "updated_at"])
            notices.accepted(club, target)
            return row
        if row is not None:
            raise MembershipRefused(
                _("%(name)s is invited already.") % {"name": target.public_name}
            )
        if not (
            relations.allows(target, "challenge_from", leader)
            and relations.allows(target, "message_from", leader)
        ):
            raise MembershipRefused(
                _("%(name)s is not accepting invitations from you.") % {"name": target.public_name}
            )
        row = Membership.objects.create(
            club=club, user=target, status=Status.INVITED, invited_by=leader
        )
        notices.invited(club, leader, target)
        return row


def do_answer_request(*, club: Club, leader: Any, target: Any, accept: bool) -> None:
    with transaction.atomic():
        club = _locked(club)
        row = _target_row(club, leader, target)
        if row is None or row.status != Status.REQUESTED:
            raise MembershipRefused(
                _("%(name)s has not asked to join.") % {"name": target.public_name}
            )
        if accept:
            row.status = Status.MEMBER
            row.save(update_fields=["status", "updated_at"])
            notices.accepted(club, target)
        else:
            row.delete()


def _drop(club: Club, leader: Any, target: Any, status: str, refusal: str) -> None:
    """Delete ``target``'s row of ``status``; ``refusal`` (with ``name``) if they have none."""
    with transaction.atomic():
        club = _locked(club)
        row = _target_row(club, leader, target)
        if row is None or row.status != status:
            raise MembershipRefused(refusal % {"name": target.public_name})
        row.delete()


def do_cancel_invitation(*, club: Club, leader: Any, target: Any) -> None:
    _drop(club, leader, target, Status.INVITED, _("%(name)s is not invited."))


def _member_row(club: Club, leader: Any, target: Any) -> Membership:
    row = _target_row(club, leader, target)
    if row is None or row.status != Status.MEMBER:
        raise MembershipRefused(_("%(name)s is not a member.") % {"name": target.public_name})
    return row


def do_remove(*, club: Club, leader: Any, target: Any) -> None:
    with transaction.atomic():
        club = _locked(club)
        _member_row(club, leader, target).delete()
    live.members_changed(club.pk)


def do_ban(*, club: Club, leader: Any, target: Any) -> Membership:
    """Out of the club for good: a banned person can neither join nor ask to."""
    with transaction.atomic():
        club = _locked(club)
        row = _target_row(club, leader, target)
        if row is None:
            return Membership.objects.create(club=club, user=target, status=Status.BANNED)
        if row.status == Status.BANNED:
            raise MembershipRefused(_("%(name)s is banned already.") % {"name": target.public_name})
        row.status, row.role, row.chat_muted_until = Status.BANNED, Role.MEMBER, None
        row.save(update_fields=["status", "role", "chat_muted_until", "updated_at"])
    live.members_changed(club.pk)
    return row


def do_unban(*, club: Club, leader: Any, target: Any) -> None:
    _drop(club, leader, target, Status.BANNED, _("%(name)s is not banned."))


def do_set_leader(*, club: Club, leader: Any, target: Any, make_leader: bool) -> Membership:
    """Promote a member, or demote a leader (oneself too) while another remains."""
    with transaction.atomic():
        club = _locked(club)
        check_leader(club, leader)
        row = _row(club, target)
        if row is None or row.status != Status.MEMBER:
            raise MembershipRefused(_("%(name)s is not a member.") % {"name": target.public_name})
        if not make_leader and row.role == Role.LEADER:
            _check_another_leader(club, row)
        row.role = Role.LEADER if make_leader else Role.MEMBER
        if make_leader:
            row.chat_muted_until = None
        row.save(update_fields=["role", "chat_muted_until", "updated_at"])
    live.members_changed(club.pk)
    return row
