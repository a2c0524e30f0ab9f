"""Web Push: "your move" and reminders on a player's phone with no tab open.

Each device subscribes from the settings page (``static/js/push.js`` and the
service worker ``static/js/sw.js``); what is sent is encrypted for that
device (RFC 8291) and signed with the site's VAPID key (RFC 8292) by
pywebpush. It obeys the quiet rules of email: the callers send it only to a
player who is away from the game.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from notifications import endpoints
from notifications.models import PushSubscription

logger = logging.getLogger(__name__)

TTL = 24 * 3600  # seconds a push service keeps a message for an offline device
GONE = {404, 410}  # the push service says the subscription no longer exists


class PushError(ValueError):
    """A subscription the browser sent that cannot be used; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _key(value: Any, size: int, name: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise PushError(f"The subscription's {name} key is missing.")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise PushError(f"The subscription's {name} key is not base64url.") from None
    if len(raw) != size:
        raise PushError(f"The subscription's {name} key has the wrong length.")
    return value


def subscribe(user: Any, data: Any, device: str = "") -> PushSubscription:
    """Store the subscription a browser's ``PushSubscription.toJSON()`` gave
    (its keys renewed if ``user`` has it already); its endpoint must be one
    the site may push to (``notifications.endpoints``)."""
    if not enabled():
        raise PushError("Push notifications are not set up on this site.")
    if not isinstance(data, dict):
        raise PushError("Send the subscription as a JSON object.")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint.startswith(("https://", "http://")):
        raise PushError("The subscription has no push service address.")
    if len(endpoint) > 1000:
        raise PushError("The push service address is too long.")
    keys = data.get("keys")
    if not isinstance(keys, dict):
        keys = {}
    p256dh = _key(keys.get("p256dh"), 65, "p256dh")
    auth = _key(keys.get("auth"), 16, "auth")
    try:
        endpoints.check(endpoint)
    except endpoints.EndpointRefused as exc:
        raise PushError(exc.message) from None
    fields = {"p256dh": p256dh, "auth": auth, "device": device[:120]}
    with transaction.atomic():
        # A row is its account's: another account posting the same endpoint
        # (which anyone who learnt it could) takes nothing over.
        row, created = PushSubscription.objects.select_for_update().get_or_create(
            endpoint=endpoint, defaults={"user": user, **fields}
        )
        if created:
            return row
        if row.user_id != user.pk:
            raise PushError(
                _(
                    "This device's push address is registered to another account. Turn push "
                    "notifications off there first."
                )
            )
        for name, value in fields.items():
            setattr(row, name, value)
        row.save(update_fields=list(fields))
    return row


def unsubscribe(user: Any, endpoint: str) -> bool:
    return bool(PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0])


def send(user_id: int, title: str, body: str, url: str) -> int:
    """Push to each of the user's devices; returns to how many it was
    accepted. Subscriptions the push service says are gone are dropped."""
    if not enabled():
        return 0
    payload = json.dumps({"title": title, "body": body, "url": url})
    sent = 0
    for sub in PushSubscription.objects.filter(user_id=user_id):
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        try:
            # Again at each send: the name may resolve elsewhere by now. Kept,
            # not deleted: it may resolve to its push service again.
            target = endpoints.check(sub.endpoint)
        except endpoints.EndpointRefused as exc:
            logger.warning("Push to %s not sent: %s", sub.pk, exc.message)
            continue
        try:
            with endpoints.pinned_session(target) as session:
                webpush(
                    info,
                    data=payload,
                    vapid_private_key=settings.VAPID_PRIVATE_KEY,
                    vapid_claims={"sub": settings.VAPID_SUBJECT},
                    ttl=TTL,
                    timeout=10,
                    requests_session=session,
                )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                sub.delete()
            else:
                logger.warning("Push to %s failed: %s", sub.pk, exc)
            continue
        except Exception:
            logger.exception("Push to %s failed", sub.pk)
            continue
        sent += 1
    return sent


def has_devices(user: Any) -> bool:
    return enabled() and PushSubscription.objects.filter(user=user).exists()
