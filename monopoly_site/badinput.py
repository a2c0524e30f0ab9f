"""Control characters are refused at the door, in one place for each way in.

PostgreSQL cannot store NUL at all: psycopg refuses the whole query, so a NUL
in an address (``/games/%00/``), a query parameter or a form field that
reaches a lookup or a save was a 500. The other control characters (C0, DEL,
C1) and lone surrogates have no place in a name, an address or a message
either: nothing a person types contains them. Rather than every view and
service checking every string, each way in refuses them before any view runs:

- HTTP: ``RefuseControlCharactersMiddleware`` answers 400, naming the part
  of the request at fault: the address, a query parameter, a form field
  (its name or its value), a header, or a field of a JSON body (the API's, a push
  subscription's). A JSON body gets the forms' checks and a few of its own,
  whatever its declared content type (django-ninja parses any body): every
  text at most ``MAX_JSON_TEXT`` characters, every number at most
  ``MAX_DIGITS`` digits (Python refuses to convert more than 4,300), and at
  most ``MAX_JSON_DEPTH`` levels of nesting. The API's answer is a problem
  document like its other errors. Form values may hold tabs and line breaks (a
  textarea sends ``\\r\\n``); fields that must be one line say so in their
  own form (``accounts.forms``, ``live.chat.check_body``). htmx requests get
  the message as an error paragraph, which the game page swaps in like its
  other refusals (``templates/games/game.html``'s ``responseHandling``).
- WebSocket: ``RefuseControlCharactersSocket`` refuses the handshake for
  such an address or query string. Frames never reach the database: the
  consumers accept two JSON frames and close on anything else
  (``live.consumers.parse_frame``).
- Cookies: the session key is checked by the session store
  (``accounts.sessions``), the only cookie that reaches a query.

Forms keep Django's own check (every ``forms.CharField`` refuses NUL), which
matters where a form is fed from elsewhere than a request.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.translation import gettext as _

from common.controls import CONTROLS, CONTROLS_BUT_LINES, MAX_JSON_TEXT, SURROGATES
from common.headers import header_problem
from common.numbers import MAX_DIGITS

ANY_CONTROL = re.compile(f"[{CONTROLS}{SURROGATES}]")
CONTROL_BUT_LINES = re.compile(f"[{CONTROLS_BUT_LINES}{SURROGATES}]")

MAX_NAME_SHOWN = 40
# The deepest nesting of any JSON body (an action's trade terms: 3).
MAX_JSON_DEPTH = 8
REMOVE_IT = " Remove it and try again."
FORM_TYPES = {"application/x-www-form-urlencoded", "multipart/form-data"}


def control_character(text: str, *, lines: bool = False) -> str | None:
    """The first control character in ``text`` as ``U+XXXX``, or None.
    ``lines``: tabs and line breaks are allowed."""
    found = (CONTROL_BUT_LINES if lines else ANY_CONTROL).search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def _shown(name: str) -> str:
    """A field's name for a message: it came from the request, so it is
    shortened here and escaped by whoever renders it."""
    return name if len(name) <= MAX_NAME_SHOWN else name[: MAX_NAME_SHOWN - 1] + "…"


def _first_problem(
    where: str, items: Iterable[tuple[str, list[str]]], *, value_lines: bool
) -> str | None:
    for name, values in items:
        found = control_character(name)
        if found is not None:
            return f"The name of a {where} contains a control character ({found})." + REMOVE_IT
        for value in values:
            found = control_character(value, lines=value_lines)
            if found is not None:
                return (
                    f"The {where} “{_shown(name)}” contains a control character ({found})."
                    + REMOVE_IT
                )
    return None


def request_problem(request: HttpRequest) -> str | None:
    """What is wrong with the request's text, or None when nothing is."""
    found = control_character(request.path_info)
    if found is not None:
        return f"The address contains a control character ({found})." + REMOVE_IT
    problem = header_problem(request.headers.items())
    if problem is not None:
        return problem
    problem = _first_problem("query parameter", request.GET.lists(), value_lines=False)
    if problem is None and request.method == "POST":
        problem = _first_problem("form field", request.POST.lists(), value_lines=True)
    if problem is None and request.content_type not in FORM_TYPES:
        problem = json_problem(request.body)
    return problem


class _TooManyDigits(ValueError):
    pass


def _capped_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooManyDigits(text)
    return int(text)


def json_problem(body: bytes) -> str | None:
    """What is wrong with the texts and numbers of a JSON body, or None when
    nothing is (or it is not JSON at all, which its view refuses itself)."""
    if not body.strip():
        return None
    try:
        data = json.loads(body, parse_int=_capped_int)
    except _TooManyDigits:
        return _(
            "A number in the body has more than {digits} digits; no field takes one so long."
        ).format(digits=MAX_DIGITS)
    except RecursionError:
        return _("The body is nested too deeply.")
    except ValueError:
        return None
    # Breadth first and without recursion: the first field at fault is
    # named, and no depth of nesting can exhaust the stack here.
    queue: deque[tuple[Any, str, int]] = deque([(data, "", 0)])
    while queue:
        value, path, depth = queue.popleft()
        if depth > MAX_JSON_DEPTH:
            return _("The body is nested too deeply.")
        if isinstance(value, str):
            found = control_character(value, lines=True)
            if found is not None:
                message = _("The field “{name}” contains a control character ({found}).")
                return message.format(name=_shown(path), found=found) + REMOVE_IT
            if len(value) > MAX_JSON_TEXT:
                message = _("The field “{name}” is too long: at most {most} characters.")
                return message.format(name=_shown(path), most=f"{MAX_JSON_TEXT:,}")
        elif isinstance(value, dict):
            for key, item in value.items():
                found = control_character(key)
                if found is not None:
                    message = _("The name of a field contains a control character ({found}).")
                    return message.format(found=found) + REMOVE_IT
                if len(key) > MAX_JSON_TEXT:
                    return _("The name of a field is too long.")
                queue.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(value, list):
            queue.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
    return None


class RefuseControlCharactersMiddleware:
    """Answer 400 to a request whose address, query or form holds a control
    character, before any view (or lookup) sees it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = request_problem(request)
        if problem is None:
            return self.get_response(request)
        message = problem
        if request.path_info.startswith("/api/"):
            from api.problems import problem as api_problem

            return api_problem(400, message)
        if request.headers.get("HX-Request") != "true":
            return render(request, "400.html", {"message": message}, status=400)
        # htmx (the game page swaps a 400 in): into an error slot (the chat's)
        # the message goes as the form asks; a whole region (a form's
        # ``#actions`` panel, which htmx names in HX-Target) is kept, with
        # the message at its top.
        response = HttpResponse(f'<p class="error" role="alert">{escape(message)}</p>', status=400)
        if request.headers.get("HX-Target"):
            response["HX-Reswap"] = "afterbegin"
        return response


class RefuseControlCharactersSocket:
    """ASGI middleware: refuse a WebSocket handshake whose address or query
    string holds a control character (the routes' parameters reach queries)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and socket_problem(scope) is not None:
            return await refuse_socket(scope, receive, send)
        return await self.inner(scope, receive, send)


async def refuse_socket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Refuse the handshake (403) and end. Not Channels' ``WebsocketDenier``:
    a consumer opens a channel on the channel layer first and, once closed,
    waits for the client's disconnect, all for a socket that never opens."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close"})


def socket_problem(scope: dict[str, Any]) -> str | None:
    path = scope.get("path", "")
    raw_query = bytes(scope.get("query_string", b"")).decode("latin-1")
    query = unquote(raw_query.replace("+", " "), errors="replace")
    for text in (path, query):
        found = control_character(text)
        if found is not None:
            return f"The address contains a control character ({found})." + REMOVE_IT
    return None
