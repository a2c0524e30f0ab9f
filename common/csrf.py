"""The site's answer to a post that failed the CSRF check.

Most often a page older than its token: open before the person logged in
or out in another tab, or a form pushed over the WebSocket (rendered once
for many viewers, so without a token) sent where static/js/site.js could
not add the page's. Nothing was done, and a reload fixes it, so say so
rather than show Django's page for developers.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

MESSAGE = "This form was sent from a page that is out of date, so nothing was done. Reload the page and try again."


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if request.headers.get("HX-Request") == "true":
        # htmx would swap a page into the form's target: reload instead.
        response = HttpResponse(MESSAGE, status=403, content_type="text/plain; charset=utf-8")
        response["HX-Refresh"] = "true"
        return response
    back = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""  # a forged post's own page is no way back
    return render(request, "403_csrf.html", {"message": MESSAGE, "back": back}, status=403)
