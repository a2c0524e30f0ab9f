"""The club pages and the members' and leaders' POSTs (README, "Clubs").

Thin: ``clubs.services`` and ``clubs.chat`` write and raise
``clubs.errors``; a refusal comes back to the club page with its message
and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from clubs import access, chat, chatpane, reads, services
from clubs.errors import ClubError, ClubNotFound
from clubs.models import Club, Membership
from common import ratelimit


def club_or_404(slug: str) -> Club:
    try:
        return services.access_club(slug)
    except ClubNotFound:
        raise Http404(_("No such club.")) from None


def club_url(club: Club) -> str:
    return reverse("club", kwargs={"slug": club.slug})


def _done(request: HttpRequest, club: Club, said: str) -> HttpResponse:
    messages.success(request, said)
    return HttpResponseRedirect(club_url(club))


def _refused(request: HttpRequest, club: Club, exc: ClubError) -> HttpResponse:
    messages.error(request, exc.message)
    return HttpResponseRedirect(club_url(club))


@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    context = {
        "clubs": reads.clubs_list(query),
        "query": query,
        "mine": reads.mine(request.user),
        "policies": Club.Policy.choices,
    }
    return render(request, "clubs/list.html", context)


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    try:
        club = services.do_create_club(
            user=request.user,
            name=request.POST.get("name", ""),
            description=request.POST.get("description", ""),
            policy=request.POST.get("policy", Club.Policy.OPEN),
        )
    except ClubError as exc:
        messages.error(request, exc.message)
        return redirect("club_list")
    return _done(request, club, _("Your club is open. You are its leader."))


@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    user = request.user
    row = Membership.objects.filter(club=club, user=user).first() if user.is_authenticated else None
    leader = access.is_leader(club, user)
    context = {
        "club": club,
        "mine": row,
        "leader": leader,
        "people": reads.people(club, request.GET.get("members", 1)),
        "games": reads.live_games(club),
        "events": reads.events(club),
        "board": reads.leaderboard(club),
        "policies": Club.Policy.choices,
        "mute_minutes": chatpane.MUTE_MINUTES,
        **chatpane.pane_context(club, user),
        "oob": False,
    }
    return render(request, "clubs/club.html", context)


@login_required
@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    try:
        row = services.do_join(club=club, user=request.user)
    except ClubError as exc:
        return _refused(request, club, exc)
    if row.status == Membership.Status.REQUESTED:
        return _done(request, club, _("You asked to join: a leader will answer."))
    return _done(request, club, _("Welcome to %(club)s.") % {"club": club.name})


@login_required
@require_POST
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    try:
        services.do_leave(club=club, user=request.user)
    except ClubError as exc:
        return _refused(request, club, exc)
    return _done(request, club, _("You are no longer in %(club)s.") % {"club": club.name})


@login_required
@require_POST
def invitation(request: HttpRequest, slug: str) -> HttpResponse:
    """Accept (``accept=1``) or decline (``accept=0``) one's invitation."""
    club = club_or_404(slug)
    accept = request.POST.get("accept") == "1"
    try:
        services.do_answer_invitation(club=club, user=request.user, accept=accept)
    except ClubError as exc:
        return _refused(request, club, exc)
    if accept:
        return _done(request, club, _("Welcome to %(club)s.") % {"club": club.name})
    return _done(request, club, _("You declined the invitation."))


@login_required
@require_POST
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    try:
        services.do_edit_club(
            club=club,
            leader=request.user,
            description=request.POST.get("description", ""),
            policy=request.POST.get("policy", ""),
        )
    except ClubError as exc:
        return _refused(request, club, exc)
    return _done(request, club, _("The club is saved."))


def _person(username: str) -> Any:
    return get_user_model().objects.filter(username=username, is_active=True).first()


@login_required
@require_POST
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    target = _person(request.POST.get("username", "").strip())
    try:
        # An invitation reaches another person, as a challenge does.
        ratelimit.hit(request, "challenge")
        if target is None:
            raise ClubError(_("There is no player of that name."))
        services.do_invite(club=club, leader=request.user, target=target)
    except ratelimit.RateLimited as exc:
        return _refused(request, club, ClubError(exc.message))
    except ClubError as exc:
        return _refused(request, club, exc)
    return _done(request, club, _("%(name)s is invited.") % {"name": target.public_name})


def _minutes(request: HttpRequest) -> dict[str, int]:
    try:
        return {"minutes": int(request.POST.get("minutes", ""))}
    except ValueError:
        raise ClubError(_("Choose how long the mute lasts.")) from None


Do = Callable[..., Any]
# What a leader may do to one person: the service, its further arguments
# (from the request), and what it says once done (``name``: the person).
ACTIONS: dict[str, tuple[Do, Callable[[HttpRequest], dict[str, Any]], str]] = {
    "accept": (
        services.do_answer_request,
        lambda r: {"accept": True},
        gettext_noop("%(name)s is a member now."),
    ),
    "decline": (
        services.do_answer_request,
        lambda r: {"accept": False},
        gettext_noop("You declined %(name)s's request."),
    ),
    "cancel": (
        services.do_cancel_invitation,
        lambda r: {},
        gettext_noop("%(name)s's invitation is withdrawn."),
    ),
    "remove": (services.do_remove, lambda r: {}, gettext_noop("%(name)s is no longer a member.")),
    "ban": (services.do_ban, lambda r: {}, gettext_noop("%(name)s is banned from the club.")),
    "unban": (services.do_unban, lambda r: {}, gettext_noop("%(name)s's ban is lifted.")),
    "promote": (
        services.do_set_leader,
        lambda r: {"make_leader": True},
        gettext_noop("%(name)s is a leader now."),
    ),
    "demote": (
        services.do_set_leader,
        lambda r: {"make_leader": False},
        gettext_noop("%(name)s is no longer a leader."),
    ),
    "mute": (
        chat.do_mute_member,
        _minutes,
        gettext_noop("%(name)s's mute in the club's chat is set."),
    ),
}


@login_required
@require_POST
def member_action(request: HttpRequest, slug: str, username: str, action: str) -> HttpResponse:
    """A leader's action on one person: ``ACTIONS``."""
    club = club_or_404(slug)
    if action not in ACTIONS:
        raise Http404(_("No such action."))
    do, arguments, said = ACTIONS[action]
    target = _person(username)
    try:
        if target is None:
            raise ClubError(_("There is no player of that name."))
        do(club=club, leader=request.user, target=target, **arguments(request))
    except ClubError as exc:
        return _refused(request, club, exc)
    return _done(request, club, _(said) % {"name": target.public_name})
