"""The tournament pages: the list, an event's page, the create form, and
joining and withdrawing. Thin: ``tournaments.services`` decides and
writes; a refusal's words (``tournaments.errors``) are shown and nothing
changes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.models import Club, Membership
from common import ratelimit
from tournaments import errors, live, pages
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

LISTED = 30  # events a section of the list shows


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    shown = pages.visible(request.user).select_related("club")
    status = Tournament.Status
    context = {
        "upcoming": list(shown.filter(status=status.REGISTERING).order_by("starts_at")[:LISTED]),
        "running": list(shown.filter(status=status.RUNNING).order_by("-started_at")[:LISTED]),
        "finished": list(
            shown.filter(status__in=[status.FINISHED, status.CANCELLED])
            .select_related("winner")
            .order_by("-finished_at", "-starts_at")[:LISTED]
        ),
        "mine": pages.my_entries(request.user),
    }
    return render(request, "tournaments/list.html", context)


def _find(tournament_id: int, user: Any) -> Tournament:
    try:
        return pages.access_tournament(tournament_id, user)
    except errors.TournamentNotFound as exc:
        raise Http404(str(exc)) from exc


def _entry_context(t: Tournament, user: Any, error: str = "", said: str = "") -> dict[str, Any]:
    return {
        "tournament": t,
        "state": pages.entry_state(t, user),
        "next_game": pages.your_next_game(t, user),
        "entry_error": error,
        "entry_said": said,
    }


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _find(tournament_id, request.user)
    context = {
        **_entry_context(t, request.user),
        **live.regions_context(t),
        "settings_rows": pages.settings_in_words(t),
        "show_seed": t.status == Tournament.Status.FINISHED,
    }
    return render(request, "tournaments/detail.html", context)


def _answer(
    request: HttpRequest, t: Tournament, *, error: str = "", said: str = "", status: int = 200
) -> HttpResponse:
    """A join or withdraw's answer. Without htmx: back to the event's page,
    with the message. With htmx: the entry box (the request's own target),
    then the live regions out of band, framed as a push built on any
    version (static/js/live.js keeps a region the page shows newer)."""
    if not request.htmx:  # type: ignore[attr-defined]
        if error:
            flash.error(request, error)
        elif said:
            flash.success(request, said)
        return redirect("tournament", tournament_id=t.pk)
    t.refresh_from_db()
    box = render_to_string(
        "tournaments/entry.html", _entry_context(t, request.user, error, said), request=request
    )
    html = f"<!--push {t.version} after 0-->" + box + live.regions_html(t, oob=True)
    return HttpResponse(html, status=status)


def _post_entry(request: HttpRequest, tournament_id: int, *, join: bool) -> HttpResponse:
    from tournaments import services

    t = _find(tournament_id, request.user)
    try:
        ratelimit.hit(request, "join")
    except ratelimit.RateLimited as exc:
        if not request.htmx:  # type: ignore[attr-defined]
            return ratelimit.too_many(request, exc, reverse("tournament", args=[t.pk]))
        return _answer(request, t, error=str(exc.message))
    try:
        if join:
            services.join_tournament(tournament_id=t.pk, user=request.user)
        else:
            services.withdraw_from_tournament(tournament_id=t.pk, user=request.user)
    except errors.TournamentNotFound as exc:
        raise Http404(str(exc)) from exc
    except errors.TournamentError as exc:
        return _answer(request, t, error=str(exc))
    said = _("You are in. Good luck!") if join else _("You have withdrawn from this tournament.")
    return _answer(request, t, said=said)


@login_required
@require_POST
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _post_entry(request, tournament_id, join=True)


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _post_entry(request, tournament_id, join=False)


def _led_clubs(user: Any) -> list[tuple[int, str]]:
    led = Membership.objects.filter(
        user=user, status=Membership.Status.MEMBER, role=Membership.Role.LEADER
    ).values("club_id")
    return [(c.pk, c.name) for c in Club.objects.filter(pk__in=led).order_by("name")]


def _refusal(user: Any) -> str:
    """Why this person may not create a public event, or ""."""
    from tournaments import services

    try:
        services.check_may_create(user)
    except errors.TournamentError as exc:
        return str(exc)
    return ""


def _may_recur(user: Any, clubs: list[tuple[int, str]]) -> bool:
    return bool(user.is_staff or clubs)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    from tournaments import services

    user: Any = request.user
    clubs = _led_clubs(user)
    refusal = _refusal(user)
    recurring = _may_recur(user, clubs)
    allowed = not refusal or bool(clubs) or user.is_staff
    form = TournamentForm(
        request.POST if request.method == "POST" else None, clubs=clubs, recurring=recurring
    )
    error = ""
    if request.method == "POST" and allowed and form.is_valid():
        club = Club.objects.filter(pk=form.cleaned_data.get("club")).first()
        every = form.cleaned_data.get("every") or None
        try:
            ratelimit.hit(request, "create")
            t = services.create_tournament(user=user, club=club, every=every, **form.settings())
        except ratelimit.RateLimited as exc:
            error = str(exc.message)
        except errors.TournamentError as exc:
            error = str(exc)
        else:
            flash.success(request, _("Your tournament is open for registration."))
            return redirect("tournament", tournament_id=t.pk)
    context = {
        "form": form,
        "allowed": allowed,
        "refusal": refusal,
        "error": error,
        "clubs": clubs,
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "tournaments/new.html", context, status=status)
