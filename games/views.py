from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html")


def watch(request: HttpRequest) -> HttpResponse:
    return render(request, "games/watch.html")


def leaderboard(request: HttpRequest) -> HttpResponse:
    return render(request, "games/leaderboard.html")
